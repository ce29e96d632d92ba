/* The lines of Linux's function_graph tracer, as its `trace` file shows
 * them (Linux 6.1, kernel/trace/trace_functions_graph.c):
 *
 *  0)               |  vfs_read() {
 *  0)   0.541 us    |    ramfs_read();
 *  0) + 12.310 us   |  }
 *
 * Only the text: which line a record makes (an entry followed by its own
 * return is one leaf line, say), the depth and the per-CPU state that
 * decides it are the caller's. Kept free of the kernel, so that the
 * host's tests run it (tests/host/test_graph_format.c). */
#ifndef KERNEL_TRACE_GRAPH_FORMAT_H
#define KERNEL_TRACE_GRAPH_FORMAT_H

#include "lib/types.h"

/* The options that change how lines look: Linux's trace_options names. */
#define GRAPH_OPT_PROC      1   /* funcgraph-proc: the TASK/PID column */
#define GRAPH_OPT_ABSTIME   2   /* funcgraph-abstime: the TIME column */
#define GRAPH_OPT_TAIL      4   /* funcgraph-tail: the function's name after each } */
#define GRAPH_OPT_OVERHEAD  8   /* funcgraph-overhead: the + ! # * @ $ marks */
#define GRAPH_OPT_CPU      16   /* funcgraph-cpu: the CPU column */
#define GRAPH_OPT_DURATION 32   /* funcgraph-duration: the DURATION column */
/* Linux's defaults: cpu, overhead, duration on; proc, abstime, tail off. */
#define GRAPH_OPT_DEFAULT (GRAPH_OPT_CPU | GRAPH_OPT_OVERHEAD | GRAPH_OPT_DURATION)

enum graph_line_kind {
	GRAPH_LINE_ENTRY,	/* "func() {": a call whose return comes later */
	GRAPH_LINE_LEAF,	/* "func();" with its duration: entry and return in one line */
	GRAPH_LINE_RETURN,	/* "}" with the duration; then the name, in a C comment,
				 * with tail or named */
	GRAPH_LINE_IRQ_ENTRY,	/* "==========>": an interrupt handler was entered */
	GRAPH_LINE_IRQ_EXIT,	/* "<==========": and returned */
	GRAPH_LINE_COMMENT,	/* another record shown in the graph: its text in a C comment */
};

struct graph_line {
	enum graph_line_kind kind;
	unsigned int cpu;
	/* ENTRY, LEAF, RETURN: the call's nesting, two spaces a level.
	 * COMMENT: Linux's depth for the CPU, which is the last entry's
	 * own depth after "func() {" and one less than the last leaf's or
	 * return's; the comment goes one level deeper than that, or at the
	 * left edge when it is 0 (Linux's rule; its -1, after a leaf or a
	 * return at depth 0, is 0 here: both print at the edge). Not used
	 * by the IRQ lines, which Linux never indents. */
	unsigned int depth;
	const char *func;		/* ENTRY, LEAF; RETURN when tail or named */
	bool named;			/* RETURN: print the name even without tail (its entry was not seen) */
	uint64_t duration_ns;		/* LEAF, RETURN */
	uint64_t time_ns;		/* the record's time stamp (abstime) */
	const char *comm;		/* the thread (proc); NULL prints as "<...>" */
	unsigned int pid;
	const char *comment;		/* COMMENT: the text, one ending newline dropped */
};

/* Line l, ending in a newline, into buf of size bytes (always terminated
 * if size > 0). Returns the bytes put in buf, the NUL not counted: the
 * line's length, or size - 1 if it was cut short. */
size_t graph_format_line(char *buf, size_t size, const struct graph_line *l, unsigned int opts);

/* The banner Linux prints when the thread a CPU records changes: a line
 * of dashes, " 0)      sh-1      =>     cat-5     " (each thread as in
 * the TASK/PID column), the dashes again and a blank line, into buf as
 * graph_format_line does; its length. Linux prints it the same under
 * every option (the CPU even without funcgraph-cpu): opts is there for
 * callers that pass it on. */
size_t graph_format_switch(char *buf, size_t size, unsigned int cpu, const char *prev_comm,
			   unsigned int prev_pid, const char *next_comm, unsigned int next_pid,
			   unsigned int opts);

/* Line n (from 0) of the trace file's column header under opts, ending
 * in a newline, into buf as graph_format_line does; 0, and buf empty,
 * past the last line. The "# tracer: function_graph" line and the "#"
 * after it are the caller's. */
size_t graph_format_header(char *buf, size_t size, unsigned int n, unsigned int opts);

/* The mark Linux puts before a duration of ns nanoseconds under
 * funcgraph-overhead: '$' over 1 s, '@' over 100 ms, '*' over 10 ms,
 * '#' over 1 ms, '!' over 100 us, '+' over 10 us (each strictly over),
 * ' ' for the rest. */
char graph_duration_mark(uint64_t ns);

/* The function profiler's table (trace_stat/functionN, Linux's
 * function_stat_show), whose times the graph's duration printer makes:
 * its two header lines, and one function's line, with its hits, its
 * total and average time and the variance of its times (in ns², shown
 * in µs² as Linux shows it), each into buf as graph_format_line does. */
size_t graph_format_profile_header(char *buf, size_t size);
size_t graph_format_profile_line(char *buf, size_t size, const char *func, unsigned long hits,
				 uint64_t time_ns, uint64_t avg_ns, uint64_t variance_ns2);

/* The sample variance of n values whose sum is sum and whose squares
 * sum to sum_sq: (sum_sq - sum^2 / n) / (n - 1), 0 for fewer than two
 * values. Worked without overflow where Linux's n * sum_sq would
 * overflow; a product past 2^64 (a sum_sq the caller saturated, say)
 * gives UINT64_MAX. */
uint64_t graph_profile_variance(uint64_t n, uint64_t sum, uint64_t sum_sq);

#endif
