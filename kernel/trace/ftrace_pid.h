/* Which threads the function tracer traces: Linux's set_ftrace_pid and
 * set_ftrace_notrace_pid (the files: kernel/trace/tracefs_pid.c).
 *
 * Each is a list of thread ids, published whole and read with one load,
 * as the sets of sites are (kernel/trace/ftrace.h). A traced call is
 * recorded if its thread is in the first list (or the first is empty)
 * and not in the second. While both are empty a tracer does not ask at
 * all: it calls ftrace_pid_traced only while ftrace_pid_filtering says
 * a list holds an id (trace_functions.c swaps its callback). */
#ifndef KERNEL_TRACE_FTRACE_PID_H
#define KERNEL_TRACE_FTRACE_PID_H

#include "kernel/rcu.h"
#include "lib/types.h"

enum ftrace_pid_list {
	FTRACE_PIDS,		/* set_ftrace_pid: only these */
	FTRACE_NO_PIDS,		/* set_ftrace_notrace_pid: never these */
	FTRACE_PID_LISTS,
};

/* A list: count ids, sorted, each once. Never changed once published. */
struct ftrace_pid_set {
	struct rcu_head rcu;	/* freed after a grace period once replaced */
	size_t count;
	uintptr_t ids[];	/* words, for lib/sorted.h */
};

/* Make set (from kmalloc, which the list now owns; NULL for none) list
 * which, and free the old one once no traced call can still be reading
 * it. The caller serializes the changes (tracefs_pid.c's lock). */
void ftrace_pid_replace(enum ftrace_pid_list which, struct ftrace_pid_set *set);

/* List which as it is now (NULL: empty): read it under rcu_read_lock, or
 * under the lock that serializes the changes. */
const struct ftrace_pid_set *ftrace_pid_get(enum ftrace_pid_list which);

/* Whether either list holds an id. */
bool ftrace_pid_filtering(void);

/* Whether the running thread's calls are traced, by the two lists. From
 * a tracer's callback (preemption off, so the grace period that frees a
 * list waits for it): notrace, never probed. */
bool ftrace_pid_traced(void);

#endif
