/*
 * The optimizer stress selftest: a probe at the entry of every function of
 * lib/ and the VFS at once, every one the checks allow optimized, while
 * checked workloads run here and in a preempted reader thread; then all
 * removed, and the text, heap and slots must be as before.
 */
#include "kernel/heap.h"
#include "kernel/printk.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/stress_workload.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/symtab.h"

#define MAX_ENTRIES 512
#define SETTLE_TICKS 1000

static int count_hit(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	return 0;
}

/* Probe the entry of every function in [start, end); returns how many. */
static size_t probe_entries(struct kprobe **kps, size_t n, size_t max, uintptr_t start, uintptr_t end)
{
	const struct symtab *t = &kernel_symtab;

	for (size_t i = 0; i < t->count && n < max; i++) {
		const struct symtab_entry *e = &t->entries[i];
		struct kprobe *kp;

		if (e->type != SYM_TEXT || !e->size || e->addr < start || e->addr >= end)
			continue;
		kp = kzalloc(sizeof(*kp));
		if (!kp)
			break;
		kp->addr = (uint8_t *)(uintptr_t)e->addr;
		kp->pre_handler = count_hit;
		if (register_kprobe(kp) == 0)
			kps[n++] = kp;
		else
			kfree(kp);
	}
	return n;
}

/* No point left queued or waiting for its patch. */
static bool settled(struct kprobe **kps, size_t n)
{
	unsigned long flags = spin_lock_irqsave(&kprobe_lock);
	bool done = true;

	for (size_t i = 0; i < n; i++) {
		enum opt_state st = kps[i]->point->opt_state;

		done &= st != OPT_QUEUED && st != OPT_READY;
	}
	spin_unlock_irqrestore(&kprobe_lock, flags);
	return done;
}

static void optimize_everything_in_lib_and_vfs(void)
{
	static struct kprobe *kps[MAX_ENTRIES];
	struct stress_snapshot snap;
	unsigned long through_jumps = 0, rounds;
	size_t n = 0, optimized = 0;
	uint64_t end;

	stress_snapshot_take(&snap);
	n = probe_entries(kps, n, MAX_ENTRIES, (uintptr_t)__lib_text_start, (uintptr_t)__lib_text_end);
	n = probe_entries(kps, n, MAX_ENTRIES, (uintptr_t)__vfs_text_start, (uintptr_t)__vfs_text_end);
	EXPECT(n > 50);
	end = sched_ticks() + SETTLE_TICKS;
	while (!settled(kps, n) && sched_ticks() < end)
		thread_sleep(2);
	EXPECT(settled(kps, n));
	for (size_t i = 0; i < n; i++)
		optimized += (kps[i]->flags & KPROBE_FLAG_OPTIMIZED) != 0;
	EXPECT(optimized > 20);

	rounds = stress_run_workload();

	for (size_t i = 0; i < n; i++)
		through_jumps += kps[i]->point->opt_hits;
	EXPECT(through_jumps > 100);
	kprintf("    # %zu probes, %zu optimized; %lu hits through jumps; reader rounds %lu\n",
		n, optimized, through_jumps, rounds);
	unregister_kprobes(kps, (int)n);
	for (size_t i = 0; i < n; i++)
		kfree(kps[i]);
	stress_snapshot_check(&snap);
}

static const struct selftest_case optimizer_stress_cases[] = {
	SELFTEST_CASE(optimize_everything_in_lib_and_vfs),
};
SELFTEST_SUITE("optprobes-stress", optimizer_stress_cases);
