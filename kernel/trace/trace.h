/* The tracing instance: Linux's global trace array, the one ring buffer
 * (kernel/trace/ring_buffer.h) that every tracer and event writes to and
 * tracefs's files read (trace, tracing_on, buffer_size_kb, ...).
 *
 * Every record starts with a struct trace_entry, the fields Linux's
 * `trace` shows for any event (the thread, its CPU's state), followed
 * by a body of the kind's own. A kind is declared where its records are
 * made, with TRACE_KIND: its type number and how to print a body, so
 * that the `trace` file names none of them. */
#ifndef KERNEL_TRACE_TRACE_H
#define KERNEL_TRACE_TRACE_H

#include "kernel/trace/ring_buffer.h"
#include "lib/types.h"

/* The record types. Each kind's is here, so that no two collide. */
enum trace_type {
	TRACE_TYPE_PRINT = 1,	/* trace_marker's text (trace_marker.c) */
	TRACE_TYPE_PROBE_HIT,	/* a shell probe's hit (kernel/probes/trace.c) */
	TRACE_TYPE_FUNCTION,	/* a call the function tracer saw (trace_functions.c) */
	TRACE_TYPE_GRAPH_ENTRY,	/* function_graph: a call's entry (trace_graph.c) */
	TRACE_TYPE_GRAPH_RETURN,	/* and its return */
	TRACE_TYPE_STACK,	/* a call stack (trace_stacktrace.c) */
	/* The first of the types given out as the kernel runs, one to
	 * each event defined (trace_kind_add_locked). */
	TRACE_TYPE_DYNAMIC = 32,
};

/* What every record starts with: one word. The thread's name is kept
 * apart, by its id (trace_comm.h). */
struct trace_entry {
	uint32_t pid;			/* the thread's id */
	uint8_t flags;			/* TRACE_FLAG_* */
	uint8_t preempt_count;		/* the thread's, 15 at most */
	uint16_t unused;
};
#define TRACE_FLAG_IRQS_OFF 1	/* interrupts were off */
#define TRACE_FLAG_HARDIRQ 2	/* in an interrupt handler */

/* The most a body may hold. */
#define TRACE_BODY_MAX (RING_DATA_MAX - sizeof(struct trace_entry))

/* Write a record of type with len bytes of body, stamped with the
 * current thread and CPU state, to the instance's buffer. 0; -EAGAIN if
 * tracing is off (tracing_on 0) or paused on this CPU (the record is
 * dropped), -E2BIG if len is over TRACE_BODY_MAX. Safe anywhere: it
 * never sleeps, waits or allocates. */
int trace_write(enum trace_type type, const void *body, size_t len);

/* trace_write in steps, for a writer that stores its body's words in
 * place (ring_put) rather than copying them from elsewhere: the
 * function tracer, whose record is two words. trace_begin turns
 * interrupts off and reserves the record, its common fields filled;
 * false if the record is dropped (as trace_write's -EAGAIN or -E2BIG),
 * interrupts as they were. After a true, store each of the body's
 * ALIGN_UP(len, 8) / 8 words at rec->body, then call trace_end. */
struct trace_record {
	uint64_t *body;
	struct ring_buffer *rb;
	unsigned long irq_flags;
};
bool trace_begin(struct trace_record *rec, enum trace_type type, size_t len);
void trace_end(struct trace_record *rec);

/* Drop (and count) the records this CPU writes, or stop dropping them:
 * for a reader that copies the records on this CPU, with interrupts
 * off, while probes on its own path would write over what it copies
 * (the `trace` command). */
void trace_pause_this_cpu(bool paused);
/* How many records this CPU has written to the buffer since it was made
 * (a count that only grows until a resize): call with interrupts off,
 * as trace_write reads the buffer (`bench`'s function tracer rows). */
uint64_t trace_written_this_cpu(void);
/* Records cpu dropped while paused, since the last clear. */
uint64_t trace_dropped(unsigned int cpu);
/* Clear the buffer (`echo > trace`, `trace clear`) and the counts of
 * what was lost: written, overwritten, dropped; or only cpu's (`echo >
 * per_cpu/cpuN/trace`). Under trace_lock. */
void trace_clear_locked(void);
void trace_clear_cpu_locked(unsigned int cpu);

/* How records of one type print: append the body's text (after the
 * common columns, with no newline) to line, of size bytes; the length
 * written, as snprintf counts it. A kind made at run time is inside its
 * maker's record, which print finds from kind (container_of). */
struct trace_kind {
	enum trace_type type;
	int (*print)(const struct trace_kind *kind, char *line, size_t size, const void *body,
		     size_t len);
};
#define TRACE_KIND(type_, print_)                                               \
	static const struct trace_kind __trace_kind_##print_ __used              \
		__section(".trace_kinds") __aligned(8) = { .type = type_, .print = print_ }

/* The longest line of trace or trace_pipe, its newline and NUL included. */
#define TRACE_LINE_MAX 640

/* Record e, of CPU cpu, as a line of Linux's trace (ending in a newline)
 * in line, of size bytes (at least 64); its length. e must hold at least
 * a struct trace_entry. A kind no code declares prints as "type N". */
size_t trace_format_record(char *line, size_t size, const struct ring_entry *e, unsigned int cpu);

/* A line a read hands out a piece at a time: its text, its length and
 * how much of it is read. */
struct trace_line {
	char text[TRACE_LINE_MAX];
	size_t len, off;
};
/* Copy into buf, count bytes at most, the rest of l, then each line
 * next(arg) makes in l (it returns false when it has none); the bytes
 * copied. */
size_t trace_line_copy(struct trace_line *l, char *buf, size_t count, bool (*next)(void *arg),
		       void *arg);

/* The kind of records of type, or NULL for one no code declares: for a
 * type given out at run time, under trace_lock. */
const struct trace_kind *trace_kind_of(enum trace_type type);

/* Give kind a type of its own, from TRACE_TYPE_DYNAMIC on, and make its
 * records print with it: an event defined as the kernel runs. A type is
 * not given twice between two clears of the buffer, so that a record of
 * a kind removed is never printed by a later one: once every type has
 * been given, the buffer is cleared and the free ones are given again.
 * 0, or -ENOSPC if every type is in use, -ENOMEM. Under trace_lock. */
int trace_kind_add_locked(struct trace_kind *kind);
/* Take kind's type back: its records print as "type N" from now on.
 * Under trace_lock. */
void trace_kind_remove_locked(struct trace_kind *kind);

/* For the files, all under trace_lock (a mutex: they may sleep). The
 * buffer records are read from; valid until trace_lock is dropped. */
struct ring_buffer *trace_buffer_locked(void);
void trace_lock(void);
void trace_unlock(void);
/* The bytes of each CPU's ring, as buffer_size_kb shows them. */
size_t trace_buffer_bytes(void);
/* Replace the buffer with one of bytes per CPU, its records lost (as on
 * Linux). 0, or -ENOMEM with the old buffer kept. Under trace_lock. May
 * sleep (it waits until no write can still be using the old one). */
int trace_resize_locked(size_t bytes);
/* Set tracing_on from anywhere, a hit included (the traceon and
 * traceoff triggers): no lock, as the writers read it. */
void trace_set_on_anywhere(bool on);
/* Whether the buffer takes writes (tracing_on), and set it; under
 * trace_lock, so that a resize keeps the setting. */
bool trace_is_on_locked(void);
void trace_set_on_locked(bool on);

#endif
