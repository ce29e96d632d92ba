/* The function graph service (docs/ftrace.md): a callback when a traced
 * function is entered and another when it returns, with how long the
 * call took. The function_graph tracer and the function profiler
 * (ftrace_profile.h) are its users, one at a time.
 *
 * The entry comes from the compiler's call sites (kernel/trace/ftrace.h,
 * through fgraph_ops, whose filter set_ftrace_filter keeps); the return
 * from the return service (kernel/rethook.h), which kretprobes share: a
 * function with both on it runs both. Each thread keeps its hooked
 * calls in a stack of FGRAPH_DEPTH frames of its own (Linux's
 * ret_stack), made for every thread the first time the service is used
 * and for each new thread after, and freed when the thread ends. A call
 * with no frame left is not hooked and is counted as missed: it can
 * never corrupt a return. One user at a time, as on Linux 6.1. */
#ifndef KERNEL_TRACE_FGRAPH_H
#define KERNEL_TRACE_FGRAPH_H

#include "kernel/rethook.h"
#include "kernel/trace/ftrace.h"
#include "lib/types.h"

/* Linux's FTRACE_RETFUNC_DEPTH: the hooked calls a thread can have. */
#define FGRAPH_DEPTH 50

/* A frame's marks, which the user's entry chooses. The service counts
 * the first two (fgraph_ent's roots and quiet), so the user can ask
 * whether the call is inside a marked one without walking the stack;
 * the others are the user's own, which it may also change in the
 * frames below a call it enters. */
#define FGRAPH_ROOT 1	/* set_graph_function's: the calls under it are traced */
#define FGRAPH_QUIET 2	/* set_graph_notrace's: the calls under it are not */
#define FGRAPH_USER 4	/* the first of the user's own */

/* One hooked call on its thread's stack. */
struct fgraph_frame {
	struct rethook_node node;	/* the return service's */
	uintptr_t func;
	uint64_t calltime;		/* arch_cycles() at the entry */
	uint64_t off_cpu;		/* its thread's off_cpu at the entry (sched.h) */
	uint64_t user;			/* the user's own word, 0 at the entry */
	unsigned int marks;
};

/* A call being entered: its function and the cycle counter now, its
 * depth (the thread's hooked calls it is inside: frames[0..depth), the
 * oldest first) and how many of those are marked. */
struct fgraph_ent {
	uintptr_t func;
	uint64_t calltime;
	unsigned int depth;
	unsigned int roots, quiet;
	struct fgraph_frame *frames;
};

/* A hooked call returning: as entered, its marks, and the cycle counter
 * (arch_cycles) at its entry and return; without sleep-time
 * (fgraph_sleep_time_control), calltime is later by the time the
 * thread spent switched out meanwhile. frames are its thread's, as at
 * its entry: [0..depth) the calls it is inside, [depth] its own (until
 * retfunc returns). */
struct fgraph_ret {
	uintptr_t func;
	unsigned int depth;
	unsigned int marks;
	uint64_t calltime, rettime;
	struct fgraph_frame *frames;
};

/* The user. Both callbacks run with interrupts off and must be notrace
 * and reach only notrace code. */
struct fgraph_ops {
	/* Whether to hook the call's return: a negative value not to, or
	 * the frame's marks (FGRAPH_*, 0 for none). */
	int (*entryfunc)(const struct fgraph_ent *ent);
	void (*retfunc)(const struct fgraph_ret *ret);
};

/* The call sites' ops the service registers: set_ftrace_filter and
 * set_ftrace_notrace set its filter and exclude sets as they set the
 * function tracer's (kernel/trace/tracefs_filter.c). */
extern struct ftrace_ops fgraph_ops;

/* Start calling gops at every traced call's entry and at the return of
 * each it hooks; or stop (when it returns, no callback of gops runs;
 * the calls still hooked return as they would have, unrecorded). 0,
 * -EBUSY while another user is registered, -ENOMEM, or
 * register_ftrace_function's error. Thread context; they sleep. */
int register_ftrace_graph(struct fgraph_ops *gops);
void unregister_ftrace_graph(struct fgraph_ops *gops);

/* Linux's sleep-time option (the function_graph tracer's, on by
 * default): whether a call's duration counts the time its thread spent
 * asleep or waiting for a CPU inside it. Takes effect at the next
 * return. */
void fgraph_sleep_time_control(bool on);

/* Calls not hooked since boot because their thread had no frame left
 * (or no stack), summed over the CPUs. */
uint64_t fgraph_missed(void);

/* For stack unwinders and tests: the current thread's hooked calls now. */
unsigned int fgraph_depth(void);

#endif
