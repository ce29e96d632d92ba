/* Events: kinds of record that are turned on and off by name, each with
 * its directory in tracefs, as Linux's events/ has them
 * (Documentation/trace/events.rst):
 *
 *   events/enable                 every event: "1", "0", or "X" if some are on
 *   events/SYSTEM/enable          every event of SYSTEM, the same way
 *   events/SYSTEM/EVENT/enable    "1" while the event records, "0" else
 *   events/SYSTEM/EVENT/format    its record's fields and print format
 *   events/SYSTEM/EVENT/id        the type its records have in the buffer
 *   events/SYSTEM/EVENT/trigger   what a hit does besides its record
 *                                 (event_trigger.h)
 *   events/SYSTEM/EVENT/filter    the expression a record must match to be
 *                                 kept (event_filter.h), "none", or the last
 *                                 refused one with a caret and its reason;
 *                                 "0" removes it
 *
 * An event is made by code that knows how to make its records and
 * print them (kernel/trace/trace_kprobe.c, the kprobe events written to
 * kprobe_events), with trace_event_add; it names no file here, and this
 * file names none of its makers. */
#ifndef KERNEL_TRACE_TRACE_EVENTS_H
#define KERNEL_TRACE_TRACE_EVENTS_H

#include "kernel/fs/dentry.h"
#include "kernel/trace/event_filter.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/trace_probe.h"
#include "lib/list.h"

struct seq_file;
struct trace_event_call;

struct trace_event_ops {
	/* Start recording (on) or stop: 0 or a negative errno. From a
	 * thread, never for two events at once. */
	int (*reg)(struct trace_event_call *call, bool on);
	/* Append the text of a record's body after "EVENT: " to line, of
	 * size bytes, as snprintf does: the body is len bytes. */
	int (*print)(const struct trace_event_call *call, char *line, size_t size,
		     const void *body, size_t len);
	/* The format file's lines after the common fields: the event's
	 * own fields, a blank line, and "print fmt: ...". */
	void (*show_format)(const struct trace_event_call *call, struct seq_file *m);
	/* The field of the record's body called name (len bytes), for a
	 * filter: true with *f filled, false if it has none so called. */
	bool (*field)(const struct trace_event_call *call, const char *name, size_t len,
		      struct filter_field *f);
};

struct event_system;

struct trace_event_call {
	char system[MAX_EVENT_NAME_LEN];
	char name[MAX_EVENT_NAME_LEN];
	const struct trace_event_ops *ops;
	bool enabled;			/* reg said yes */
	bool was_enabled;		/* and once did: it has records */
	/* Its filter, or NULL: read at a hit with interrupts off (an RCU
	 * read-side section); replaced under the events' mutex, the old one
	 * freed a grace period later. */
	struct event_filter *filter;
	/* Its triggers (trace_events_trigger.c), or NULL: read at a hit as
	 * the filter is, replaced whole under the events' mutex. */
	struct event_triggers *triggers;
	/* The enable_event and disable_event triggers that name it: while
	 * there are any it is armed, and records only while soft_disabled
	 * is false (their firing sets and clears it; read at a hit). */
	unsigned int soft_users;
	bool soft_disabled;
	/* Private to trace_events.c. */
	struct trace_kind kind;		/* its records' type, and their printing */
	bool removed;			/* taken off the list; its files going */
	struct event_system *sys;
	char *filter_text;		/* what the filter file shows, or NULL */
	struct dentry *dir;
	struct list_node link;		/* in the list of every event */
};

/* Make call an event, with system, name and ops set: give it a record
 * type and its files (and its system's directory, if it is the first
 * of it). 0, -EEXIST if its system has an event of its name already,
 * -ENOSPC, -ENOMEM. From a thread; the maker keeps two of its adds and
 * removes from running at once. */
int trace_event_add(struct trace_event_call *call);

/* Take call off the events and remove its files: -EBUSY (and nothing
 * done) while it is enabled, or a trigger names it. If it ever was, the buffer is cleared, as
 * Linux clears it: its records would be no kind's. When it returns, no call of call's ops is
 * running or will be. From a thread, as trace_event_add. */
int trace_event_remove(struct trace_event_call *call);
/* The same for the n events of calls, with the waits shared, so that
 * removing many costs about what removing one does: -EBUSY, and none
 * removed, if one is enabled; -ENOMEM. */
int trace_events_remove(struct trace_event_call **calls, size_t n);

/* The type call's records are written with. */
static inline enum trace_type trace_event_type(const struct trace_event_call *call)
{
	return call->kind.type;
}

/* Whether the body of len bytes at body matches filter (the out-of-line
 * half of trace_event_keeps). */
bool trace_event_filter_keeps(const struct event_filter *filter, const void *body, size_t len);

/* Whether a record of call's, made at a hit as the body of len bytes at
 * body, is to be kept: it matches the event's filter, or there is none,
 * and the event is not armed only for its triggers (soft_disabled).
 * With interrupts off, as a hit runs; inline, as most events have no
 * filter. */
static inline bool trace_event_keeps(const struct trace_event_call *call, const void *body,
				     size_t len)
{
	const struct event_filter *f = __atomic_load_n(&call->filter, __ATOMIC_ACQUIRE);

	if (__atomic_load_n(&call->soft_disabled, __ATOMIC_RELAXED))
		return false;
	return !f || trace_event_filter_keeps(f, body, len);
}

/* Run the triggers tr for a hit whose record is the body of len bytes
 * at body (the out-of-line half of trace_event_run_triggers). */
void trace_event_fire_triggers(const struct event_triggers *tr, const void *body, size_t len);

/* Run call's triggers for a hit whose record (kept or not) is the body
 * of len bytes at body. With interrupts off, as a hit runs; inline, as
 * most events have none. */
static inline void trace_event_run_triggers(const struct trace_event_call *call,
					    const void *body, size_t len)
{
	const struct event_triggers *tr = __atomic_load_n(&call->triggers, __ATOMIC_ACQUIRE);

	if (tr)
		trace_event_fire_triggers(tr, body, len);
}

/* Whether any event is enabled (kprobe_events' truncation is refused
 * while one is). */
bool trace_events_any_enabled(void);

#endif
