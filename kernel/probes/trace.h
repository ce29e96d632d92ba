/* The trace buffer: what the shell's built-in probe actions record.
 *
 * A fixed-size ring: when full, the oldest record is overwritten and the
 * count of lost records goes up, so recording never fails and never
 * allocates (it runs inside probe handlers). */
#ifndef KERNEL_PROBES_TRACE_H
#define KERNEL_PROBES_TRACE_H

#include "kernel/probes/kprobes.h"
#include "lib/types.h"

#define TRACE_RECORDS 256
#define TRACE_VALUES 6

struct trace_record {
	uint64_t ticks;			/* sched_ticks() when recorded */
	unsigned int thread_id;
	char thread[16];
	int probe_id;			/* the shell's probe number */
	enum kprobe_kind kind;
	uintptr_t addr;
	uint64_t values[TRACE_VALUES];	/* k, j: arguments; r: return value, cycles */
};

/* Append a record (values[] as described above), stamped with the time
 * and the current thread. Safe in any context. */
void trace_record(int probe_id, enum kprobe_kind kind, uintptr_t addr,
		  const uint64_t values[TRACE_VALUES]);

#endif
