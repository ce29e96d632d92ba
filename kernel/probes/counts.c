/*
 * Hit and miss counts, one copy per CPU: a probe's, and a point's counts
 * of how its hits ran.
 *
 * A probe hit on several CPUs at once would make one shared counter's
 * cache line bounce between them on every hit, even with nothing else
 * shared. So a registered probe counts in per-CPU memory
 * (kernel/mm/percpu_alloc.h): each hit adds one to its own CPU's copy,
 * with a plain increment (probe_point.h, count_here), and
 * whoever reads the count adds the copies up. When the probe is
 * unregistered and no hit can run any more, the copies are added into
 * the public nhit and nmissed, as Linux's modules expect to read them
 * after unregister_kprobe, and the memory is given back.
 */
#include "lib/export.h"
#include "kernel/mm/percpu_alloc.h"
#include "kernel/nokprobe.h"
#include "kernel/probes/kprobes_internal.h"
#include "lib/errno.h"

/* Where alloc_percpu's memory lies from kprobe_cpu_block (see
 * percpu_counts_at): what a probe or a point keeps of it. */
static uintptr_t __kprobes offset_from_block(const void *percpu)
{
	return (uintptr_t)percpu - (uintptr_t)&kprobe_cpu_block;
}

int __kprobes kprobe_counts_alloc(struct kprobe *p)
{
	struct kprobe_counts *counts = alloc_percpu(struct kprobe_counts);

	if (!counts)
		return -ENOMEM;
	p->counts_offset = offset_from_block(counts);
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

/* A point's counts are made with the point and go with it. */
int __kprobes point_counts_alloc(struct probe_point *pp)
{
	struct point_counts *counts = alloc_percpu(struct point_counts);

	if (!counts)
		return -ENOMEM;
	pp->counts_offset = offset_from_block(counts);
	return 0;
}

void __kprobes point_counts_free(struct probe_point *pp)
{
	if (pp->counts_offset)
		free_percpu(percpu_counts_at(pp->counts_offset));
	pp->counts_offset = 0;
}

static struct point_counts __kprobes *point_counts_of(const struct probe_point *pp)
{
	return percpu_counts_at(pp->counts_offset);
}

unsigned long __kprobes point_exec_count(const struct probe_point *pp, enum probe_exec how)
{
	return pp->counts_offset ? per_cpu_sum(&point_counts_of(pp)->exec[how]) : 0;
}

unsigned long __kprobes point_opt_hits(const struct probe_point *pp)
{
	return pp->counts_offset ? per_cpu_sum(&point_counts_of(pp)->opt_hits) : 0;
}
