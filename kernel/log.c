/*
 * The kernel log's ring (see log.h).
 *
 * Layout. A record is a header (the time, the level and the length of
 * its text) followed by the text, stored from the ring's end onwards
 * with no padding; both may run past the end of the buffer and go on at
 * its start. A position counts bytes since boot and only grows, so a
 * cursor stays meaningful for ever: its record is still kept exactly
 * while its number is not below first.seq. Making room drops the oldest
 * records whole, so a reader never meets half of one.
 *
 * Locking. Each ring has one spinlock, taken with interrupts off, and
 * the only code that runs while it is held is this file's, copying one
 * record. That code is never probed (each function of it is marked
 * NOKPROBE_SYMBOL): a probe there would run its handler, which may
 * print, on a CPU that holds the lock. So no probe handler and no
 * interrupt can ever run on a CPU that holds it: a handler that prints always
 * finds the lock free on its own CPU, or held by another CPU for one
 * copy. The console's lock is different: it is held while vformat,
 * which may be probed, formats the text, so printk must defer what a
 * handler prints there (printk.c). Here the text is formatted before the
 * lock is taken, into the message's own buffer.
 *
 * Why a lock and not a lock-free ring (reserve space, write, then mark
 * the record done): with writers reserving at once, a reader or a writer
 * making room may meet records that are reserved but not yet written,
 * and must wait for them or skip them; every such state needs its own
 * rule. With the lock a record is whole the moment anyone can see it,
 * and the cost is that CPUs printing at once take turns for the length
 * of one copy.
 */
#include "kernel/log.h"
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "lib/errno.h"
#include "lib/format.h"

/* What precedes each record's text in the ring. */
struct log_header {
	uint64_t cycles;	/* arch_cycles() when it was stored */
	uint16_t len;		/* of the text */
	uint8_t level;
};
_Static_assert(sizeof(struct log_header) <= LOG_RING_MIN - LOG_LINE_MAX,
	       "LOG_RING_MIN leaves room for the header");

static char kernel_log_buf[64 * 1024];
struct log_ring kernel_log = LOG_RING_INIT("kernel log", kernel_log_buf);

/* Copy n bytes to the ring at position pos, going on at the buffer's
 * start when they reach its end. A loop, not memcpy: it runs under the
 * lock, where nothing may be probed. */
static void ring_put(struct log_ring *log, uint64_t pos, const void *from, size_t n)
{
	const char *src = from;
	size_t at = pos % log->size;

	for (size_t i = 0; i < n; i++) {
		log->buf[at] = src[i];
		at = at + 1 == log->size ? 0 : at + 1;
	}
}
NOKPROBE_SYMBOL(ring_put);

/* The other way: n bytes at position pos into to. */
static void ring_get(const struct log_ring *log, uint64_t pos, void *to, size_t n)
{
	char *dst = to;
	size_t at = pos % log->size;

	for (size_t i = 0; i < n; i++) {
		dst[i] = log->buf[at];
		at = at + 1 == log->size ? 0 : at + 1;
	}
}
NOKPROBE_SYMBOL(ring_get);

/* Forget the oldest record, with the lock held. */
static void drop_oldest(struct log_ring *log)
{
	struct log_header h;

	ring_get(log, log->first.pos, &h, sizeof(h));
	log->first.pos += sizeof(h) + h.len;
	log->first.seq++;
}
NOKPROBE_SYMBOL(drop_oldest);

void log_store(struct log_ring *log, unsigned int level, const char *text, size_t len)
{
	struct log_header h;
	size_t need;
	unsigned long flags;

	h.len = (uint16_t)MIN(len, LOG_LINE_MAX);
	h.level = (uint8_t)level;
	need = sizeof(h) + h.len;
	flags = spin_lock_irqsave(&log->lock);
	while (log->end.pos + need - log->first.pos > log->size)
		drop_oldest(log);
	/* Read under the lock: record times then grow with their numbers,
	 * since the CPUs share one counter (see ring_buffer_next,
	 * kernel/trace/ring_buffer.c). */
	h.cycles = arch_cycles();
	ring_put(log, log->end.pos, &h, sizeof(h));
	ring_put(log, log->end.pos + sizeof(h), text, h.len);
	log->end.pos += need;
	log->end.seq++;
	spin_unlock_irqrestore(&log->lock, flags);
}
NOKPROBE_SYMBOL(log_store);

void log_bounds(struct log_ring *log, struct log_cursor *first, struct log_cursor *end)
{
	unsigned long flags = spin_lock_irqsave(&log->lock);

	*first = log->cleared;
	*end = log->end;
	spin_unlock_irqrestore(&log->lock, flags);
}
NOKPROBE_SYMBOL(log_bounds);

int log_read(struct log_ring *log, struct log_cursor *c, struct log_record *rec)
{
	struct log_header h;
	unsigned long flags = spin_lock_irqsave(&log->lock);
	bool found;

	if (c->seq < log->first.seq)
		*c = log->first;
	found = c->seq < log->end.seq;
	if (found) {
		ring_get(log, c->pos, &h, sizeof(h));
		ring_get(log, c->pos + sizeof(h), rec->text, h.len);
		rec->seq = c->seq;
		c->seq++;
		c->pos += sizeof(h) + h.len;
	}
	spin_unlock_irqrestore(&log->lock, flags);
	if (!found)
		return -EAGAIN;
	rec->text[h.len] = '\0';
	rec->len = h.len;
	rec->level = h.level;
	rec->time = ktime_from_cycles(h.cycles);
	return 0;
}
NOKPROBE_SYMBOL(log_read);

void log_clear(struct log_ring *log, const struct log_cursor *upto)
{
	unsigned long flags = spin_lock_irqsave(&log->lock);

	if (upto->seq > log->cleared.seq)
		log->cleared = *upto;
	spin_unlock_irqrestore(&log->lock, flags);
}
NOKPROBE_SYMBOL(log_clear);

int log_format(const struct log_record *rec, char *buf, size_t size)
{
	return snprintf(buf, size, "[%5lu.%06lu] %s\n", (unsigned long)(rec->time / NSEC_PER_SEC),
			(unsigned long)(rec->time % NSEC_PER_SEC / NSEC_PER_USEC), rec->text);
}
