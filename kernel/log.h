/* The kernel log: the kernel's messages, kept line by line, each with
 * the time it was stored and its level, in a ring of fixed size whose
 * oldest records make room for new ones (kernel/log.c). printk.c stores
 * every kernel message's lines in kernel_log; `dmesg` reads them back.
 *
 * A reader holds a cursor: a record's number and where it starts. The
 * numbers count records since boot and never repeat, so a reader whose
 * next record was overwritten learns how many it missed from the
 * number of the record it gets instead. */
#ifndef KERNEL_LOG_H
#define KERNEL_LOG_H

#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "lib/types.h"

/* The longest line a record keeps: the rest of a longer line is cut. */
#define LOG_LINE_MAX 256
/* A ring's buffer holds at least the longest record: LOG_LINE_MAX
 * characters after a header of 16 bytes. */
#define LOG_RING_MIN (16 + LOG_LINE_MAX)
/* The level of a message that names none (KERN_WARNING), as in Linux. */
#define LOG_DEFAULT_LEVEL 4
/* A buffer of this size holds any line log_format makes. */
#define LOG_FORMAT_MAX (LOG_LINE_MAX + 32)

/* A place in a ring: one record, or the place the next one will take. */
struct log_cursor {
	uint64_t seq;	/* the record's number; the first since boot is 0 */
	uint64_t pos;	/* its first byte: how many bytes were stored before it */
};

/* Bytes are numbered from 0 at boot and never reused: byte pos lies at
 * buf[pos % size], and the ring keeps the records between first and
 * end, at most size bytes. */
struct log_ring {
	char *buf;
	size_t size;			/* at least LOG_RING_MIN */
	struct spinlock lock;		/* guards the cursors and buf */
	struct log_cursor first;	/* the oldest record kept */
	struct log_cursor end;		/* where the next record goes */
	struct log_cursor cleared;	/* the first record not cleared */
};

/* A ring over buffer (an array, not a pointer: its size is the ring's). */
#define LOG_RING_INIT(name, buffer) \
	{ .buf = (buffer), .size = sizeof(buffer), .lock = SPINLOCK_INIT(name) }

/* The kernel's messages (64 KiB). */
extern struct log_ring kernel_log;

/* One record, as log_read copies it out. */
struct log_record {
	uint64_t seq;
	ktime_t time;			/* when it was stored, since boot */
	unsigned int level;		/* 0 (KERN_EMERG) to 7 (KERN_DEBUG) */
	size_t len;			/* of text */
	char text[LOG_LINE_MAX + 1];	/* the line without its newline, NUL-terminated */
};

/* Add a record of the line text (len characters, no newline; cut at
 * LOG_LINE_MAX) at level, dropping the oldest records whole to make
 * room. Safe anywhere, probe handlers and interrupts included: it holds
 * the ring's lock only in code that is never probed, with interrupts
 * off. Not during a panic: a stopped CPU may hold the lock. */
void log_store(struct log_ring *log, unsigned int level, const char *text, size_t len);

/* Where a reader starts and where the records are now: first is the
 * oldest record not cleared (it may have been overwritten since: see
 * log_read), end the place of the next record to come. */
void log_bounds(struct log_ring *log, struct log_cursor *first, struct log_cursor *end);

/* Copy the record at *c into rec and move *c to the next. If that record
 * was overwritten, the oldest one kept is copied instead: rec->seq minus
 * the number *c had is how many were lost. Returns 0, or -EAGAIN if *c
 * is at the end (no record yet). The lock is held only for the copy. */
int log_read(struct log_ring *log, struct log_cursor *c, struct log_record *rec);

/* Forget the records before upto (a cursor from log_bounds or
 * log_read): log_bounds starts after them from now on. A cursor older
 * than the last clear changes nothing. */
void log_clear(struct log_ring *log, const struct log_cursor *upto);

/* Write rec as one line, "[seconds.micros] text\n" with the seconds
 * right-aligned in five columns, into buf (size bytes, NUL-terminated);
 * returns the line's length, as snprintf does. */
int log_format(const struct log_record *rec, char *buf, size_t size);

#endif
