/* A command's standard output and error: see cmd_output.h.
 *
 * Text on its way to a stream is gathered into chunks, so that a stream
 * is called once per chunk, not for every piece the formatter hands
 * over; the console is the exception, formatted onto directly under
 * its lock (console_vprintf). */
#include "kernel/cmd_output.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "lib/format.h"
#include <asm/irq.h>

/* A stream is handed its text in chunks of this size. */
#define STREAM_CHUNK 256

static ssize_t console_stream_write(struct cmd_stream *s, const char *buf, size_t len)
{
	(void)s;
	console_write(buf, len);
	return (ssize_t)len;
}

struct cmd_stream console_stream = { .write = console_stream_write };

/* Put s in *place, returning what was there. */
static struct cmd_stream *swap_stream(struct cmd_stream **place, struct cmd_stream *s)
{
	struct cmd_stream *old = *place;

	*place = s;
	return old;
}

struct cmd_stream *cmd_output_set(struct cmd_stream *s)
{
	return swap_stream(&current_thread()->streams.out, s);
}

struct cmd_stream *cmd_error_set(struct cmd_stream *s)
{
	return swap_stream(&current_thread()->streams.err, s);
}

struct cmd_source *cmd_input_set(struct cmd_source *s)
{
	struct cmd_source **place = &current_thread()->streams.in;
	struct cmd_source *old = *place;

	*place = s;
	return old;
}

struct cmd_source *cmd_input(void)
{
	return current_thread()->streams.in;
}

void cmd_hangup_set(const bool *flag)
{
	current_thread()->streams.hung_up = flag;
}

/* The flag is another thread's to set (the shell's), hence the atomic
 * load: it is read in loops that must see the change. */
bool cmd_should_stop(void)
{
	const bool *hung_up = current_thread()->streams.hung_up;

	return console_interrupted() || (hung_up && __atomic_load_n(hung_up, __ATOMIC_ACQUIRE));
}

/* The calling thread's stream (err: standard error), or NULL when what
 * is printed is not the thread's own: from an interrupt or a probe
 * handler (this CPU's handler_state is set, kernel/cpu.h), whose text is
 * a kernel message. Read with interrupts off, so that the thread cannot
 * move to another CPU between reading the CPU's state and its own. */
static struct cmd_stream *own_stream(bool err)
{
	struct cmd_stream *s = NULL;
	unsigned long flags = arch_irq_save();
	struct thread *t = current_thread();

	if (!this_cpu()->irq_depth && !this_cpu()->handler_context.handler_state) {
		s = err ? t->streams.err : t->streams.out;
		if (!s)
			s = &console_stream;
	}
	arch_irq_restore(flags);
	return s;
}

/* Text on its way to a stream, gathered into a chunk. */
struct chunk {
	struct cmd_stream *stream;
	ssize_t err;		/* the stream's first error: nothing is sent after it */
	size_t len;
	char buf[STREAM_CHUNK];
};

static void chunk_flush(struct chunk *c)
{
	ssize_t n;

	if (c->len && !c->err) {
		n = c->stream->write(c->stream, c->buf, c->len);
		if (n < 0)
			c->err = n;
	}
	c->len = 0;
}

static void emit_chunk(void *ctx, const char *s, size_t len)
{
	struct chunk *c = ctx;

	for (size_t i = 0; i < len; i++) {
		if (c->len == sizeof(c->buf))
			chunk_flush(c);
		c->buf[c->len++] = s[i];
	}
}

int cmd_vprintf(bool err, const char *fmt, va_list ap)
{
	struct cmd_stream *s = own_stream(err);
	struct chunk c;
	int n;

	if (!s)
		return vkprintf(fmt, ap);
	if (s == &console_stream)
		return console_vprintf(fmt, ap);
	c.stream = s;
	c.err = 0;
	c.len = 0;
	n = vformat(emit_chunk, &c, fmt, ap);
	chunk_flush(&c);
	return c.err ? (int)c.err : n;
}

ssize_t cmd_write(const void *buf, size_t len)
{
	struct cmd_stream *s = own_stream(false);

	if (!s) {
		console_write(buf, len);
		return (ssize_t)len;
	}
	return s->write(s, buf, len);
}

bool cmd_output_is_console(void)
{
	return own_stream(false) == &console_stream;
}

struct file *cmd_output_file(void)
{
	struct cmd_stream *s = own_stream(false);

	return s ? s->file : NULL;
}
