/* What the events' files share inside the tracing floor: trace_events.c
 * keeps the events and their mutex, trace_events_trigger.c their
 * triggers. Not for the events' makers (trace_events.h is theirs). */
#ifndef KERNEL_TRACE_TRACE_EVENTS_INTERNAL_H
#define KERNEL_TRACE_TRACE_EVENTS_INTERNAL_H

#include "kernel/trace/trace_events.h"

struct seq_file;

/* The mutex around the events, their enabling and their triggers. */
void trace_events_mutex_lock(void);
void trace_events_mutex_unlock(void);

/* The event system/name, or NULL. Under the mutex. */
struct trace_event_call *trace_event_find_locked(const char *system, const char *name);

/* call's field called name (len bytes), for a filter of its records:
 * the hit's own (comm, cpu, common_pid) or the event's. */
bool trace_event_field(void *call, const char *name, size_t len, struct filter_field *f);

/* What a filter of a hit's record reads besides it: the thread and the
 * CPU now (the hit's). With interrupts off, as a hit runs. */
void trace_event_hit_of(struct filter_hit *hit, const void *body, size_t len);

/* The text a write to an event's file holds, trailing newlines and
 * blanks (echo's) cut, as a string to kfree; NULL with no memory. */
char *trace_events_write_text(const char *buf, size_t count);

/* A trigger names call (enable_event, disable_event): arm it in soft
 * mode, recording nothing until the trigger fires, if it is not
 * enabled already; and the trigger goes. Under the mutex. 0 or reg's
 * error. */
int trace_event_soft_get_locked(struct trace_event_call *call);
void trace_event_soft_put_locked(struct trace_event_call *call);

/* The trigger file, and the hist file (the tables of its hist
 * triggers): for trace_events.c. */
extern const struct file_operations trace_event_trigger_fops;
extern const struct file_operations trace_event_hist_fops;

#endif
