/* Tracers: what `current_tracer` chooses (docs/ftrace.md).
 *
 * A tracer is a way of filling the ring buffer on its own, without a
 * probe or an event asking: "function" records every call from the
 * call sites its filter lets through, "nop" records nothing (the
 * buffer still takes the probes' records and trace_marker's). One
 * tracer is current at a time. Each is declared where it is written,
 * with DEFINE_TRACER, and the linker gathers them; nothing here knows
 * them by name. */
#ifndef KERNEL_TRACE_TRACER_H
#define KERNEL_TRACE_TRACER_H

#include "kernel/trace/ring.h"
#include "lib/types.h"

struct trace_iter;

/* One of a tracer's options (trace_options, options/NAME): its name and
 * its bit in the tracer's flags. */
struct tracer_opt {
	const char *name;
	unsigned int bit;
};

struct tracer {
	const char *name;
	/* Start recording: 0 or a negative errno (the tracer is then not
	 * current). NULL: nothing to start. Thread context. */
	int (*start)(void);
	/* Stop; when it returns, no record of the tracer is still being
	 * made. NULL: nothing to stop. Thread context. */
	void (*stop)(void);
	/* The tracer's own output (function_graph's), NULL for the
	 * default. print_header makes the n-th line of trace's header
	 * after "# tracer: NAME" and "#", with its newline, and returns
	 * its length, 0 past the last. print_line makes the line of record
	 * e, of cpu, as trace and trace_pipe show it (any kind of record,
	 * with its newline: several lines, if it must). */
	size_t (*print_header)(char *line, size_t size, unsigned int n);
	size_t (*print_line)(struct trace_iter *it, char *line, size_t size,
			     const struct ring_entry *e, unsigned int cpu);
	size_t iter_size;	/* the state print_line keeps per reader (it->data) */
	/* Its options, ended by a NULL name (NULL: none), and the word of
	 * their bits, which the tracer reads as it goes (one atomic word:
	 * a change takes effect at once, current or not). */
	const struct tracer_opt *opts;
	unsigned int *flags;
	/* Called after option bit was set or cleared (on), for options
	 * that other code must be told of; NULL: none. Thread context. */
	void (*set_flag)(unsigned int bit, bool on);
};

/* A reader of trace or trace_pipe, as a tracer's print_line sees it:
 * the state the tracer keeps for it (the lines before shape the next
 * one). Under trace_lock. */
struct trace_iter {
	const struct tracer *tracer;	/* whose lines it shows */
	void *data;			/* tracer->iter_size bytes, zeroed at its start */
};

/* Make it show the current tracer's lines from now on, with its state
 * zeroed: at a reader's open, and when it finds another tracer current
 * (tracer_current() != it->tracer). 0 or -ENOMEM. */
int trace_iter_start(struct trace_iter *it);
/* Free what trace_iter_start made. */
void trace_iter_end(struct trace_iter *it);

/* Record e, of cpu, as it->tracer shows it (trace_format_record for most
 * tracers): its lines into line; their length. */
size_t trace_iter_format(struct trace_iter *it, char *line, size_t size,
			 const struct ring_entry *e, unsigned int cpu);


#define DEFINE_TRACER(var)                                                     \
	static const struct tracer var __used __section(".tracers") __aligned(8)

/* The i-th tracer in the order available_tracers lists them, or NULL
 * past the last. */
const struct tracer *tracer_nth(unsigned int i);

/* The current tracer ("nop" until another is chosen). */
const struct tracer *tracer_current(void);

/* Make t current: stop the current one, clear the buffer (as Linux does
 * when a tracer starts) and start t. Choosing the current one again
 * changes nothing. 0, or start's error with "nop" current. Sleeps. */
int tracer_choose(const struct tracer *t);

#endif
