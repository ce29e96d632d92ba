/* The trace buffer: what the shell's built-in probe actions record.
 *
 * One fixed-size ring per CPU, written only by that CPU and without a
 * lock: when a ring is full its oldest record is overwritten and counted
 * as lost, so recording never fails, never waits and never allocates (it
 * runs inside probe handlers). The `trace` command reads every CPU's ring
 * without stopping the writers, and prints the records of all of them
 * merged in the order of their time stamps; trace.c explains how. */
#ifndef KERNEL_PROBES_TRACE_H
#define KERNEL_PROBES_TRACE_H

#include "kernel/probes/kprobes.h"
#include "lib/types.h"

#define TRACE_RECORDS 256	/* per CPU */
#define TRACE_VALUES 6

struct trace_record {
	uint64_t cycles;		/* arch_cycles() when recorded */
	unsigned int thread_id;
	char thread[16];
	int probe_id;			/* the shell's probe number */
	enum kprobe_kind kind;
	unsigned int cpu;		/* the CPU that recorded it */
	uintptr_t addr;
	uint64_t values[TRACE_VALUES];	/* k, j: arguments; r: return value, cycles */
};

/* Append a record (values[] as described above) to this CPU's ring,
 * stamped with the cycle counter, the CPU and the current thread. Safe
 * in any context; never waits. */
void trace_record(int probe_id, enum kprobe_kind kind, uintptr_t addr,
		  const uint64_t values[TRACE_VALUES]);

/* Print the record trace_record would append, as a line of `trace`
 * prints it, as a kernel message (for a probe that prints each hit:
 * it runs in no command). Safe in a handler, even
 * one that interrupted the console on this CPU: see kernel/printk.c. */
void trace_print_hit(int probe_id, enum kprobe_kind kind, uintptr_t addr,
		     const uint64_t values[TRACE_VALUES]);

/* Print every CPU's records since the last trace_clear, merged in time
 * order, one line each, then "trace: N records, M lost", to the calling
 * command's standard output (kernel/cmd_output.h). Recording goes
 * on meanwhile. 0, or -ENOMEM (nothing printed) if there is no memory
 * for the copy it prints from. */
int trace_print(void);
/* Make the next trace_print start after every record written so far. */
void trace_clear(void);

#endif
