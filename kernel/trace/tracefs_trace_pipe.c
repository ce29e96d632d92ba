/*
 * /sys/kernel/tracing/trace_pipe: the records as trace shows them (with
 * no header), consumed as they are read, as Linux's trace_pipe does:
 * what one read returns, neither trace nor a later read shows again.
 *
 * A read with nothing to return waits for a record, a tick at a time
 * (the writers run in probe handlers and take no lock, so they cannot
 * wake a reader: a reader looks again instead). It returns -EINTR once
 * the reading command should stop (cmd_should_stop: a Ctrl-C, or its
 * pipeline stage hung up, kernel/cmd_output.h), and returns 0, the end
 * of the file, once tracing is off
 * (tracing_on 0) and this file has returned something, as on Linux, so
 * that `cat trace_pipe` ends then. One reader at a time: a second open
 * is -EBUSY, as Linux 6.1 answers. per_cpu/cpuN/trace_pipe is the same
 * for CPU N's records; it and the top-level file, which reads every
 * CPU's, exclude each other.
 */
#include "kernel/cmd_output.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/sched.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/tracefs_per_cpu.h"
#include "kernel/trace/tracer.h"
#include "lib/err.h"
#include "lib/errno.h"

struct pipe_reader {
	struct ring_buffer *rb;		/* the buffer its cursor is in */
	int cpu;			/* the one CPU it reads, or -1: every CPU */
	struct ring_buffer_cursor cursor;
	struct trace_iter it;		/* the tracer's view: its lines' state */
	struct trace_line line;
	bool returned;			/* something was read from this open */
};

/* The CPUs whose records a reader has open, a bit each (under
 * trace_lock). */
static unsigned long busy;

/* The CPUs a reader of cpu (-1: every CPU) reads. */
static unsigned long cpus_of(int cpu)
{
	return cpu < 0 ? ~0ul : 1ul << cpu;
}

/* Start r's cursor in rb, at the oldest record of what it reads. */
static void start_cursor(struct pipe_reader *r, struct ring_buffer *rb)
{
	r->rb = rb;
	ring_buffer_cursor_start(rb, &r->cursor);
	if (r->cpu >= 0)
		ring_buffer_cursor_only(&r->cursor, (unsigned int)r->cpu);
}

/* The next record's line into r->line, consumed; false if there is
 * none now. Under trace_lock. */
static bool next_record(void *arg)
{
	struct pipe_reader *r = arg;
	struct ring_buffer *rb = trace_buffer_locked();
	const struct ring_entry *e;
	unsigned int cpu;

	if (r->rb != rb)	/* resized: the old records are gone */
		start_cursor(r, rb);
	if (r->it.tracer != tracer_current() && trace_iter_start(&r->it))
		return false;
	do {
		e = ring_buffer_next(rb, &r->cursor, &cpu);
		if (!e)
			return false;
	} while (e->len < sizeof(struct trace_entry));
	ring_buffer_consume(rb, &r->cursor, cpu);
	r->line.len = trace_iter_format(&r->it, r->line.text, sizeof(r->line.text), e, cpu);
	return true;
}

static ssize_t pipe_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct pipe_reader *r = file->private_data;

	for (;;) {
		size_t done;
		bool ended;

		trace_lock();
		done = trace_line_copy(&r->line, buf, count, next_record, r);
		ended = !trace_is_on_locked() && r->returned;
		trace_unlock();
		if (done > 0) {
			r->returned = true;
			*pos += (loff_t)done;
			return (ssize_t)done;
		}
		if (ended)
			return 0;
		if (cmd_should_stop())
			return -EINTR;
		thread_sleep(1);
	}
}

static int pipe_open(struct inode *inode, struct file *file)
{
	struct pipe_reader *r = kzalloc(sizeof(*r));
	int err = 0;

	if (!r)
		return -ENOMEM;
	r->cpu = tracefs_file_cpu(inode);
	trace_lock();
	if (!trace_buffer_locked())
		err = -ENODEV;
	else if (busy & cpus_of(r->cpu))
		err = -EBUSY;
	else
		busy |= cpus_of(r->cpu);
	trace_unlock();
	if (err) {
		kfree(r);
		return err;
	}
	file->private_data = r;
	return 0;
}

static int pipe_release(struct inode *inode, struct file *file)
{
	struct pipe_reader *r = file->private_data;

	(void)inode;
	trace_lock();
	busy &= ~cpus_of(r->cpu);
	trace_iter_end(&r->it);
	trace_unlock();
	kfree(file->private_data);
	return 0;
}

static const struct file_operations trace_pipe_fops = {
	.open = pipe_open, .read = pipe_read, .release = pipe_release,
};

static int tracefs_trace_pipe_init(void)
{
	int err = PTR_ERR_OR_ZERO(tracefs_create_file("trace_pipe", 0444, NULL, NULL,
						      &trace_pipe_fops));

	return err ? err : tracefs_create_per_cpu_files("trace_pipe", 0444, &trace_pipe_fops);
}
late_initcall(tracefs_trace_pipe_init);
