/*
 * Hit and miss counts, one copy per CPU.
 *
 * A probe hit on several CPUs at once would make one shared counter's
 * cache line bounce between them on every hit, even with nothing else
 * shared. So a registered probe counts in per-CPU memory
 * (kernel/mm/percpu_alloc.h): each hit adds one to its own CPU's copy,
 * with a plain increment (probe_point.h, kprobe_counts_here), and
 * whoever reads the count adds the copies up. When the probe is
 * unregistered and no hit can run any more, the copies are added into
 * the public nhit and nmissed, as Linux's modules expect to read them
 * after unregister_kprobe, and the memory is given back.
 */
#include "kernel/export.h"
#include "kernel/mm/percpu_alloc.h"
#include "kernel/nokprobe.h"
#include "kernel/probes/kprobes_internal.h"
#include "lib/errno.h"

int __kprobes kprobe_counts_alloc(struct kprobe *p)
{
	struct kprobe_counts *counts = alloc_percpu(struct kprobe_counts);

	if (!counts)
		return -ENOMEM;
	p->counts_offset = (uintptr_t)counts - (uintptr_t)&kprobe_cpu_block;
	p->nhit = 0;
	p->nmissed = 0;
	return 0;
}

void __kprobes kprobe_counts_fold(struct kprobe *p)
{
	p->nhit = kprobe_nhit(p);
	p->nmissed = kprobe_nmissed(p);
	free_percpu(kprobe_counts_of(p));
	p->counts_offset = 0;
}

unsigned long __kprobes kprobe_nhit(const struct kprobe *p)
{
	return p->nhit + (p->counts_offset ? per_cpu_sum(&kprobe_counts_of(p)->nhit) : 0);
}
EXPORT_SYMBOL(kprobe_nhit);

unsigned long __kprobes kprobe_nmissed(const struct kprobe *p)
{
	return p->nmissed + (p->counts_offset ? per_cpu_sum(&kprobe_counts_of(p)->nmissed) : 0);
}
EXPORT_SYMBOL(kprobe_nmissed);
