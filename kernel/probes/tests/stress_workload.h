/* What the probes stress selftests share: a workload whose results are
 * checked, and a before/after snapshot of text, heap and slots. */
#ifndef KERNEL_PROBES_STRESS_WORKLOAD_H
#define KERNEL_PROBES_STRESS_WORKLOAD_H

#include "kernel/mm/heap.h"
#include "lib/types.h"

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

/* Formatting, copying, parsing and VFS reads with known answers (the
 * file as stress_snapshot_take read it), in this thread and in a reader
 * thread that the timer preempts, for a few rounds.
 * Failures are reported as selftest expectations; returns the reader's
 * rounds. */
unsigned long stress_run_workload(void);

#endif
