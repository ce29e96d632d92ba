/*
 * The probes stress selftest: a kprobe on every instruction of every
 * probe-able function of lib/ and the VFS at once, while workloads whose
 * results are checked run in this thread and in a reader thread that the
 * timer preempts. Afterwards every probe is removed, and the text must be
 * byte-identical to before, and the heap and instruction slots back where
 * they started.
 *
 * Probes are registered at every offset of every function: the core
 * refuses those that are not instruction boundaries (-EILSEQ) and those
 * that cannot be probed (-EINVAL), which also tests the refusals.
 */
#include "kernel/mm/heap.h"
#include "kernel/printk.h"
#include "kernel/probes/kprobes.h"
#include "kernel/probes/probe_point.h"
#include "kernel/probes/tests/stress_workload.h"
#include "kernel/shell/selftest.h"
#include "lib/errno.h"
#include "lib/string.h"

#define BATCH 64


struct stress {
	struct kprobe **probes;
	size_t count, capacity;
	unsigned long rejected_boundary, rejected_other;
};

static int stress_count_hit(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	return 0;	/* the core counts nhit */
}

static bool grow(struct stress *st)
{
	size_t cap = st->capacity ? st->capacity * 2 : 1024;
	struct kprobe **bigger = kmalloc(cap * sizeof(*bigger));

	if (!bigger)
		return false;
	if (st->probes)
		memcpy(bigger, st->probes, st->count * sizeof(*bigger));
	kfree(st->probes);
	st->probes = bigger;
	st->capacity = cap;
	return true;
}

/* Register a batch with register_kprobes; if one offset is refused, the
 * batch is rolled back, so fall back to one at a time to keep the rest. */
static void register_batch(struct stress *st, struct kprobe **batch, size_t n)
{
	if (register_kprobes(batch, (int)n) == 0) {
		for (size_t i = 0; i < n; i++)
			st->probes[st->count++] = batch[i];
		return;
	}
	for (size_t i = 0; i < n; i++) {
		int err;

		err = register_kprobe(batch[i]);
		if (err == 0) {
			st->probes[st->count++] = batch[i];
			continue;
		}
		if (err == -EILSEQ)
			st->rejected_boundary++;
		else
			st->rejected_other++;
		kfree(batch[i]);
	}
}

/* Probe every offset of [start, end), function by function. */
static void probe_range(struct stress *st, uintptr_t start, uintptr_t end)
{
	struct kprobe *batch[BATCH];
	size_t n = 0;

	for (uintptr_t a = start; a < end; a++) {
		struct kprobe *kp;

		if (st->count + n + 1 >= st->capacity && !grow(st))
			break;
		kp = kzalloc(sizeof(*kp));
		if (!kp)
			break;
		kp->addr = (uint8_t *)a;
		kp->pre_handler = stress_count_hit;
		batch[n++] = kp;
		if (n == BATCH) {
			register_batch(st, batch, n);
			n = 0;
		}
	}
	register_batch(st, batch, n);
}

static void probe_everything_in_lib_and_vfs(void)
{
	struct stress st = { 0 };
	struct stress_snapshot snap;
	unsigned long hits = 0, rounds;

	stress_snapshot_take(&snap);
	probe_range(&st, (uintptr_t)__lib_text_start, (uintptr_t)__lib_text_end);
	probe_range(&st, (uintptr_t)__vfs_text_start, (uintptr_t)__vfs_text_end);
	EXPECT(st.count > 500);
	EXPECT(st.rejected_boundary > st.count);	/* most bytes are mid-instruction */

	rounds = stress_run_workload();

	for (size_t i = 0; i < st.count; i++)
		hits += kprobe_nhit(st.probes[i]);
	EXPECT(hits > 1000);
	kprintf("    # %zu probes; offsets refused: %lu inside an instruction, %lu other;"
		" %lu hits; reader rounds %lu\n", st.count, st.rejected_boundary,
		st.rejected_other, hits, rounds);
	for (size_t i = 0; i < st.count; i += BATCH)
		unregister_kprobes(st.probes + i, (int)MIN((size_t)BATCH, st.count - i));
	for (size_t i = 0; i < st.count; i++)
		kfree(st.probes[i]);
	kfree(st.probes);
	stress_snapshot_check(&snap);
}

static const struct selftest_case stress_cases[] = {
	SELFTEST_CASE(probe_everything_in_lib_and_vfs),
};
SELFTEST_SUITE("kprobes-stress", stress_cases);
