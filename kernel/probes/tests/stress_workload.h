/* What the probes stress selftests share: a workload whose results are
 * checked, a before/after snapshot of text, heap and slots
 * (stress_workload.c), and a probe on every instruction of lib/ and the
 * VFS (stress_probes.c). */
#ifndef KERNEL_PROBES_STRESS_WORKLOAD_H
#define KERNEL_PROBES_STRESS_WORKLOAD_H

#include "kernel/mm/heap.h"
#include "lib/types.h"

struct kprobe;

extern char __lib_text_start[], __lib_text_end[], __vfs_text_start[], __vfs_text_end[];

struct stress_snapshot {
	struct heap_stats heap;
	unsigned long slots;	/* instruction slots and detour buffers */
	uint8_t *text;		/* a copy of lib/ and the VFS */
	size_t text_len;
	uint64_t text_sum;	/* of the copy: tells a stray heap write into
				 * it from a change of the text itself */
};

/* Record the state the test must return to (allocates the text copy),
 * and read the workload's reference file while no probe is registered. */
void stress_snapshot_take(struct stress_snapshot *snap);
/* Expect text byte-identical, heap and slots as recorded; free the copy. */
void stress_snapshot_check(struct stress_snapshot *snap);

/* One round of formatting, copying, parsing and a VFS read with known
 * answers (the file as stress_snapshot_take read it, into buf of
 * STRESS_FILE_MAX bytes); returns how many answers were wrong. Any
 * thread may run it, on any CPU, several at once. */
#define STRESS_FILE_MAX 4096
unsigned long stress_workload_round(char *buf);
/* Rounds of it in this thread and in a reader thread that the timer
 * preempts. Failures are reported as selftest expectations; returns the
 * reader's rounds. */
unsigned long stress_run_workload(void);

/* Counting kprobes (probe_test_count_pre) registered by one test. */
struct stress_probes {
	struct kprobe **probes;
	size_t count, capacity;
	unsigned long rejected_boundary, rejected_other;	/* offsets refused */
};

/* A probe at every offset of lib/ and the VFS that takes one: every
 * instruction boundary that may be probed. */
void stress_probe_lib_and_vfs(struct stress_probes *sp);
/* The hits of them all, every CPU's added in. */
unsigned long stress_probes_hits(const struct stress_probes *sp);
/* Unregister and free them all. */
void stress_unprobe(struct stress_probes *sp);

#endif
