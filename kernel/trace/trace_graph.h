/* The function_graph tracer (docs/ftrace.md): `echo function_graph >
 * current_tracer` records each traced call's entry and return through
 * the function graph service (fgraph.h), and `trace` shows them as
 * Linux does, a call tree with each call's duration. */
#ifndef KERNEL_TRACE_TRACE_GRAPH_H
#define KERNEL_TRACE_TRACE_GRAPH_H

#include "kernel/trace/ftrace.h"
#include "lib/types.h"

/* Never registered: it holds two sets for the tracer to ask, filled as
 * the function tracer's are (tracefs_filter.c). Its filter is
 * set_graph_function (NULL: every call is traced, none is a root), its
 * exclude set_graph_notrace. */
extern struct ftrace_ops graph_function_ops;

/* max_graph_depth: the deepest call recorded (1: only the outermost);
 * 0, the default, for no limit. Set takes effect at the next call. */
unsigned int graph_max_depth(void);
void graph_set_max_depth(unsigned int depth);

/* tracing_thresh, in microseconds: while it is above 0 the tracer
 * records only the returns of calls that took at least that long (each
 * shows as "}" with the function's name in a comment), as Linux's does. */
uint64_t tracing_thresh_us(void);
void tracing_set_thresh_us(uint64_t us);

#endif
