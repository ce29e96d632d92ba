/*
 * The probes of the stress selftests (see stress_workload.h): a counting
 * kprobe at every offset of lib/ and the VFS.
 *
 * Probes are registered at every offset of every function: the core
 * refuses those that are not instruction boundaries (-EILSEQ) and those
 * that cannot be probed (-EINVAL), which also tests the refusals.
 */
#include "kernel/mm/heap.h"
#include "kernel/probes/kprobes.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/probes/tests/stress_workload.h"
#include "lib/errno.h"
#include "lib/string.h"

#define BATCH 64

static bool grow(struct stress_probes *sp)
{
	size_t cap = sp->capacity ? sp->capacity * 2 : 1024;
	struct kprobe **bigger = kmalloc(cap * sizeof(*bigger));

	if (!bigger)
		return false;
	if (sp->probes)
		memcpy(bigger, sp->probes, sp->count * sizeof(*bigger));
	kfree(sp->probes);
	sp->probes = bigger;
	sp->capacity = cap;
	return true;
}

/* Register a batch with register_kprobes; if one offset is refused, the
 * batch is rolled back, so fall back to one at a time to keep the rest. */
static void register_batch(struct stress_probes *sp, struct kprobe **batch, size_t n)
{
	if (register_kprobes(batch, (int)n) == 0) {
		for (size_t i = 0; i < n; i++)
			sp->probes[sp->count++] = batch[i];
		return;
	}
	for (size_t i = 0; i < n; i++) {
		int err;

		err = register_kprobe(batch[i]);
		if (err == 0) {
			sp->probes[sp->count++] = batch[i];
			continue;
		}
		if (err == -EILSEQ)
			sp->rejected_boundary++;
		else
			sp->rejected_other++;
		kfree(batch[i]);
	}
}

/* Probe every offset of [start, end), function by function. */
static void probe_range(struct stress_probes *sp, uintptr_t start, uintptr_t end)
{
	struct kprobe *batch[BATCH];
	size_t n = 0;

	for (uintptr_t a = start; a < end; a++) {
		struct kprobe *kp;

		if (sp->count + n + 1 >= sp->capacity && !grow(sp))
			break;
		kp = kzalloc(sizeof(*kp));
		if (!kp)
			break;
		kp->addr = (uint8_t *)a;
		kp->pre_handler = probe_test_count_pre;
		batch[n++] = kp;
		if (n == BATCH) {
			register_batch(sp, batch, n);
			n = 0;
		}
	}
	register_batch(sp, batch, n);
}

void stress_probe_lib_and_vfs(struct stress_probes *sp)
{
	*sp = (struct stress_probes){ 0 };
	probe_range(sp, (uintptr_t)__lib_text_start, (uintptr_t)__lib_text_end);
	probe_range(sp, (uintptr_t)__vfs_text_start, (uintptr_t)__vfs_text_end);
}

unsigned long stress_probes_hits(const struct stress_probes *sp)
{
	unsigned long hits = 0;

	for (size_t i = 0; i < sp->count; i++)
		hits += kprobe_nhit(sp->probes[i]);
	return hits;
}

void stress_unprobe(struct stress_probes *sp)
{
	for (size_t i = 0; i < sp->count; i += BATCH)
		unregister_kprobes(sp->probes + i, (int)MIN((size_t)BATCH, sp->count - i));
	for (size_t i = 0; i < sp->count; i++)
		kfree(sp->probes[i]);
	kfree(sp->probes);
	*sp = (struct stress_probes){ 0 };
}
