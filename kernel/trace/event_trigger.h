/* Event triggers: what a hit of an event does besides its record, as
 * Linux's events/GROUP/EVENT/trigger file sets it (Documentation/trace/
 * events.rst, "Event triggers"):
 *
 *   traceon[:N] [if FILTER]        turn tracing_on on
 *   traceoff[:N] [if FILTER]       turn it off
 *   stacktrace[:N] [if FILTER]     record the hit's call stack
 *   enable_event:GROUP:EVENT[:N] [if FILTER]    start another event's records
 *   disable_event:GROUP:EVENT[:N] [if FILTER]   stop them
 *   hist:ATTRIBUTES [if FILTER]    count hits in a table (hist_parse.h)
 *
 * N is how many times it fires (unlimited when none is given); FILTER
 * is a filter of the event's fields (event_filter.h), which the hit must
 * match. A trigger is added by writing it, removed by writing it with a
 * '!' in front. The event another's enable_event names is armed from
 * then on but records nothing until the trigger fires ("soft" mode,
 * its enable file shows "0*"). */
#ifndef KERNEL_TRACE_EVENT_TRIGGER_H
#define KERNEL_TRACE_EVENT_TRIGGER_H

#include "kernel/trace/event_filter.h"
#include "lib/types.h"

struct trace_event_call;

enum trigger_cmd {
	TRIGGER_TRACEON,
	TRIGGER_TRACEOFF,
	TRIGGER_STACKTRACE,
	TRIGGER_ENABLE_EVENT,
	TRIGGER_DISABLE_EVENT,
	TRIGGER_HIST,
};

/* A trigger as its text says it, before the target event and the
 * filter are looked up. */
struct trigger_spec {
	enum trigger_cmd cmd;
	bool remove;			/* written with a '!' */
	long count;			/* -1: unlimited */
	char system[64], event[64];	/* enable_event's and disable_event's */
	const char *param;		/* hist's: the attributes after "hist:" */
	size_t param_len;
	const char *filter;		/* the text after "if ", or NULL */
};

/* Read the text of one trigger (a C string, which filter points into)
 * into *spec. 0, or -EINVAL for one Linux refuses too: an unknown
 * command, a bad count, an enable_event without GROUP:EVENT, a hist
 * with no attributes, "if" with no filter after it. A hist's
 * attributes are read later, for the event's fields. */
int trigger_parse(const char *text, struct trigger_spec *spec);

/* The command's name, as the trigger file shows it. */
const char *trigger_cmd_name(enum trigger_cmd cmd);

#endif
