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

#include "lib/types.h"

struct tracer {
	const char *name;
	/* Start recording: 0 or a negative errno (the tracer is then not
	 * current). NULL: nothing to start. Thread context. */
	int (*start)(void);
	/* Stop; when it returns, no record of the tracer is still being
	 * made. NULL: nothing to stop. Thread context. */
	void (*stop)(void);
};

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
