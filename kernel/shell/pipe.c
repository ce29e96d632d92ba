/* The bounded pipe: see pipe.h. The bytes sit in a ring of PIPE_SIZE;
 * every change a waiter may be waiting for (bytes in, room made, an end
 * closed, a hang-up) wakes the queue while the lock is held, and each
 * wait checks its condition under that lock, so no wake-up is lost
 * between the check and the sleep. */
#include "kernel/shell/pipe.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Copy up to len bytes into the ring's free room; returns how many. */
static size_t ring_put(struct pipe *pipe, const char *text, size_t len)
{
	size_t tail = (pipe->head + pipe->len) % PIPE_SIZE;
	size_t n = MIN(len, PIPE_SIZE - pipe->len);

	n = MIN(n, PIPE_SIZE - tail);	/* up to the ring's end; the rest next time */
	memcpy(pipe->buf + tail, text, n);
	pipe->len += n;
	return n;
}

/* Copy up to len bytes out of the ring; returns how many. */
static size_t ring_get(struct pipe *pipe, char *buf, size_t len)
{
	size_t n = MIN(MIN(len, pipe->len), PIPE_SIZE - pipe->head);

	memcpy(buf, pipe->buf + pipe->head, n);
	pipe->head = (pipe->head + n) % PIPE_SIZE;
	pipe->len -= n;
	return n;
}

/* Why a write cannot go on, or 0. Called with the lock held. */
static int write_error(const struct pipe *pipe)
{
	if (pipe->reader_gone)
		return -EPIPE;
	return cmd_should_stop() ? -EINTR : 0;
}

static ssize_t pipe_write(struct cmd_stream *s, const char *text, size_t len)
{
	struct pipe *pipe = container_of(s, struct pipe, stream);
	unsigned long flags = spin_lock_irqsave(&pipe->lock);
	size_t done = 0;
	int err = 0;

	while (done < len && !(err = write_error(pipe))) {
		size_t n = ring_put(pipe, text + done, len - done);

		done += n;
		if (n)
			wait_queue_wake_all(&pipe->waiters);
		else
			wait_queue_wait(&pipe->waiters, &pipe->lock);
	}
	spin_unlock_irqrestore(&pipe->lock, flags);
	return err ? err : (ssize_t)len;
}

static ssize_t pipe_read(struct cmd_source *s, char *buf, size_t len)
{
	struct pipe *pipe = container_of(s, struct pipe, source);
	unsigned long flags = spin_lock_irqsave(&pipe->lock);
	ssize_t n;

	while (!pipe->len && !pipe->writer_gone && !cmd_should_stop())
		wait_queue_wait(&pipe->waiters, &pipe->lock);
	/* Bytes already there are read even by a reader told to stop: its
	 * loop asks cmd_should_stop itself. With none, a reader told to stop
	 * gets -EINTR even if the writer is gone too: that writer was most
	 * likely stopped as well, and its input cut short is no end of
	 * input (wc would print a count of half the lines). */
	if (pipe->len)
		n = (ssize_t)ring_get(pipe, buf, len);
	else
		n = cmd_should_stop() ? -EINTR : 0;
	if (n > 0)
		wait_queue_wake_all(&pipe->waiters);
	spin_unlock_irqrestore(&pipe->lock, flags);
	return n;
}

void pipe_init(struct pipe *pipe)
{
	pipe->stream = (struct cmd_stream){ .write = pipe_write };
	pipe->source = (struct cmd_source){ .read = pipe_read };
	pipe->lock = (struct spinlock)SPINLOCK_INIT("pipe");
	list_init(&pipe->waiters.waiters);
	pipe->head = 0;
	pipe->len = 0;
	pipe->writer_gone = false;
	pipe->reader_gone = false;
}

/* Set *end under the lock and wake the waiter (an end closing is what
 * it waits for). NULL end: only wake it. */
static void set_and_wake(struct pipe *pipe, bool *end)
{
	unsigned long flags = spin_lock_irqsave(&pipe->lock);

	if (end)
		*end = true;
	wait_queue_wake_all(&pipe->waiters);
	spin_unlock_irqrestore(&pipe->lock, flags);
}

void pipe_close_write(struct pipe *pipe)
{
	set_and_wake(pipe, &pipe->writer_gone);
}

void pipe_close_read(struct pipe *pipe)
{
	set_and_wake(pipe, &pipe->reader_gone);
}

void pipe_wake(struct pipe *pipe)
{
	set_and_wake(pipe, NULL);
}
