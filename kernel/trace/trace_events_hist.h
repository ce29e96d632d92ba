/* Histogram triggers: "hist:keys=...", written to an event's trigger
 * file (Linux's Documentation/trace/histogram.rst), keeps a table of
 * hits by key, which the event's hist file shows. The trigger file's
 * code (trace_events_trigger.c) keeps the triggers and their filters;
 * this is a hist trigger's own part: its definition (hist_parse.h), its
 * per-CPU table (hist_map.h) and its text. Inside the tracing floor. */
#ifndef KERNEL_TRACE_TRACE_EVENTS_HIST_H
#define KERNEL_TRACE_TRACE_EVENTS_HIST_H

#include "kernel/trace/event_filter.h"
#include "lib/types.h"

struct hist_trigger;
struct seq_file;
struct trace_event_call;

/* Read the len bytes at param (a hist trigger's attributes, after
 * "hist:" in cmd, the text written) for call's fields into a new
 * trigger, with no table yet. 0, -ENOMEM, or -EINVAL with the reason in
 * error_log (at "hist:SYSTEM:EVENT", a caret into cmd). */
int hist_trigger_new(struct trace_event_call *call, const char *cmd, const char *param,
		     size_t len, struct hist_trigger **out);
/* Give a new trigger its empty table: 0 or -ENOMEM. */
int hist_trigger_start(struct hist_trigger *h);
void hist_trigger_free(struct hist_trigger *h);

/* Whether a and b keep the same table (their keys, values and sort). */
bool hist_trigger_same(const struct hist_trigger *a, const struct hist_trigger *b);
/* Whether h was written with pause, cont or clear: a command for a
 * trigger that exists, if there is one. */
bool hist_trigger_is_command(const struct hist_trigger *h);
/* Whether h may start a trigger when none like it exists: not cont or
 * clear, which need one. */
bool hist_trigger_can_start(const struct hist_trigger *h);
/* Log the refusal of cmd on call: the trigger exists already, or (not
 * exists) there is none for cont or clear. */
void hist_trigger_log_err(struct trace_event_call *call, const char *cmd, bool exists);
/* Do what cmd says (pause, cont, clear) to existing: 0 or -ENOMEM.
 * Under the events' mutex. */
int hist_trigger_apply(struct hist_trigger *existing, const struct hist_trigger *cmd);

/* Count a hit that passed the trigger's filter. With interrupts off. */
void hist_trigger_hit(struct hist_trigger *h, const struct filter_hit *hit);

/* h's line in the trigger file: "hist:keys=...:size=2048 [if FILTER]
 * [active]". */
void hist_trigger_show_info(struct seq_file *m, const struct hist_trigger *h, const char *filter);
/* h's table, the n-th of its event's hist file (from 0), with its head
 * and totals. 0 or -ENOMEM. Under the events' mutex. */
int hist_trigger_show_table(struct seq_file *m, const struct hist_trigger *h, const char *filter,
			    unsigned int n);

#endif
