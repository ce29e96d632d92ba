/* The shell's probe records: what the built-in probe actions record, in
 * the one tracing buffer (kernel/trace/trace.h), beside every other
 * record there.
 *
 * A hit is one record, written by the CPU that took it, with interrupts
 * off and no lock: recording never fails for want of room (the oldest
 * records are overwritten, and counted as lost), never waits and never
 * allocates (it runs inside probe handlers). The `trace` command prints
 * the probe records of every CPU, merged in the order of their time
 * stamps, without stopping the writers; /sys/kernel/tracing/trace shows
 * them too, a line each, among the other records. trace.c explains how. */
#ifndef KERNEL_PROBES_TRACE_H
#define KERNEL_PROBES_TRACE_H

#include "kernel/probes/kprobes.h"
#include "lib/types.h"

#define TRACE_VALUES 6

/* Append a hit's record (values: k, j the arguments; r the return value
 * and the cycles since the entry), stamped with the time, the CPU and
 * the current thread. Safe in any context; never waits. A hit made while
 * tracing is off (tracing_on 0) is not recorded. */
void trace_record(int probe_id, enum kprobe_kind kind, uintptr_t addr,
		  const uint64_t values[TRACE_VALUES]);

/* Print the record trace_record would append, as a line of `trace`
 * prints it, as a kernel message (for a probe that prints each hit:
 * it runs in no command). Safe in a handler, even
 * one that interrupted the console on this CPU: see kernel/printk.c. */
void trace_print_hit(int probe_id, enum kprobe_kind kind, uintptr_t addr,
		     const uint64_t values[TRACE_VALUES]);

/* Print every probe record since the last clear, merged in time order,
 * one line each, then "trace: N records, M lost" (M: the records of any
 * kind lost since the clear, overwritten or dropped), to the calling
 * command's standard output (kernel/cmd_output.h). Recording goes on
 * meanwhile. 0, or -ENOMEM (nothing printed) if there is no memory for
 * the copy it prints from. May sleep. */
int trace_print(void);
/* Clear the tracing buffer, every record in it (as `echo > trace`). */
void trace_clear(void);

#endif
