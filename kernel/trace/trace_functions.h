/* The function tracer (docs/ftrace.md): `echo function > current_tracer`
 * records every call from a call site that its filter lets through, as
 * a line "func <-parent" of `trace`. */
#ifndef KERNEL_TRACE_TRACE_FUNCTIONS_H
#define KERNEL_TRACE_TRACE_FUNCTIONS_H

#include "kernel/trace/ftrace.h"

/* Its calls' ops: set_ftrace_filter and set_ftrace_notrace are its
 * filter and exclude sets (kernel/trace/tracefs_filter.c), kept while
 * another tracer is current. */
extern struct ftrace_ops function_trace_ops;

/* Called after set_ftrace_pid or set_ftrace_notrace_pid changed
 * (kernel/trace/ftrace_pid.h): the tracer asks the lists on each call
 * while one holds an id, and costs nothing more while neither does. */
void function_trace_pids_changed(void);

#endif
