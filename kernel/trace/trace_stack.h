/* The stack tracer (docs/ftrace.md): Linux's answer to "which call chain
 * uses the most stack?". While it is on (/proc/sys/kernel/
 * stack_tracer_enabled, or `sysctl kernel.stack_tracer_enabled=1`),
 * every call from a call site its filter lets through (tracefs's
 * stack_trace_filter) measures how deep the thread's stack is at the
 * function's entry; the deepest seen is stack_max_size, and the chain of
 * calls that reached it is stack_trace, each frame with the bytes it
 * takes, in Linux's table. A deeper stack whose end mark is gone
 * (thread_stack_end_intact) stops the kernel, naming the thread. */
#ifndef KERNEL_TRACE_TRACE_STACK_H
#define KERNEL_TRACE_TRACE_STACK_H

#include "kernel/trace/ftrace.h"
#include "lib/types.h"

/* The calls' ops: stack_trace_filter is its filter set
 * (kernel/trace/tracefs_filter.c). */
extern struct ftrace_ops stack_trace_ops;

/* Whether the tracer is on, and turn it on or off: 0, or the error of
 * registering its ops. Thread context; sleeps. */
bool stack_tracer_enabled(void);
int stack_tracer_set_enabled(bool on);

/* The deepest stack seen, in bytes, and set it (`echo 0 > stack_max_size`
 * starts over; the chain then shows what the next deeper call reaches). */
size_t stack_tracer_max_size(void);
void stack_tracer_set_max_size(size_t size);

/* One frame of the deepest chain: the return address (the traced
 * function's own entry for the first), how far from the stack's top it
 * lies, and the bytes of stack its function takes. */
struct stack_trace_frame {
	uintptr_t addr;
	size_t depth, size;
};

/* Copy the deepest chain, innermost frame first, into out (room for max
 * frames); the frames copied. Under the tracer's lock: a consistent
 * chain, never one being replaced. */
size_t stack_tracer_copy(struct stack_trace_frame *out, size_t max);

#endif
