/* The function profiler (docs/ftrace.md): `echo 1 >
 * function_profile_enabled` counts each traced function's calls and
 * times them, per CPU, and trace_stat/functionN shows CPU N's table,
 * the longest total time first, as Linux's does.
 *
 * It is a user of the function graph service (fgraph.h), as Linux's is:
 * the entry counts a hit and the return adds the call's duration, so
 * the functions it sees are those set_ftrace_filter lets through, and
 * it cannot run while the function_graph tracer does (one user at a
 * time, as on Linux 6.1: -EBUSY). Each CPU counts in a table of its
 * own, with no lock: only that CPU writes it, with interrupts off. */
#ifndef KERNEL_TRACE_FTRACE_PROFILE_H
#define KERNEL_TRACE_FTRACE_PROFILE_H

#include "lib/types.h"

/* Start profiling, every count from zero; or stop (the counts stay to be
 * read). 0, or -EBUSY while another user has the graph service, or
 * -ENOMEM. Starting while started, or stopping while stopped, changes
 * nothing. Thread context; they sleep. */
int ftrace_profile_set_enabled(bool on);
bool ftrace_profile_enabled(void);

/* Linux's graph-time option (the function_graph tracer's, on by
 * default): a call's time includes its callees' while set, and is the
 * function's own time while clear. Takes effect at the next return. */
void ftrace_profile_graph_time_control(bool on);

/* One function's line of a CPU's table. */
struct ftrace_profile_stat {
	uintptr_t func;
	unsigned long hits;
	uint64_t time_ns;		/* the calls' times, summed */
	uint64_t variance_ns2;		/* of each call's time */
};

/* CPU cpu's table now, sorted by time, the longest first: a kmalloc'd
 * array the caller frees, in *stats, and its length; 0 with *stats
 * NULL for a CPU that has counted nothing (or for no memory). */
size_t ftrace_profile_copy(unsigned int cpu, struct ftrace_profile_stat **stats);

#endif
