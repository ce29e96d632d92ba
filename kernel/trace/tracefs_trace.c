/*
 * /sys/kernel/tracing/trace: the records of every CPU, oldest first, in
 * Linux's format: its header (the tracer, the counts, the legend of the
 * flag columns), then a line a record:
 *
 *	            TASK-PID     [CPU] FLAGS  SECONDS.MICROS: WHAT
 *	              sh-1       [000] .....    12.345678: tracing_mark_write: hi
 *
 * WHAT is the record kind's own (TRACE_KIND in trace.h). Reading does
 * not consume: each open reads from the oldest record there is to the
 * newest there was when it opened, and the writers go on meanwhile (a
 * read that probes record in ends all the same). Opening it to write with O_TRUNC (`echo > trace`) clears the
 * buffer, as on Linux; what is written is ignored.
 *
 * per_cpu/cpuN/trace is the same for CPU N's records alone (the counts
 * too); `echo > per_cpu/cpuN/trace` clears that CPU's.
 *
 * The flag columns are Linux's five: 'd' interrupts off, need-resched
 * (never set here: '.'), 'h' in an interrupt handler, the preemption
 * depth (hex, '.' for 0), migrate-disable (never: '.').
 */
#include "kernel/cpu.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/tracefs_per_cpu.h"
#include "kernel/trace/tracer.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"


static const char *const header_legend[] = {
	"#",
	"#                                _-----=> irqs-off/BH-disabled",
	"#                               / _----=> need-resched",
	"#                              | / _---=> hardirq/softirq",
	"#                              || / _--=> preempt-depth",
	"#                              ||| / _-=> migrate-disable",
	"#                              |||| /     delay",
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION",
	"#              | |         |   |||||     |         |",
};

/* An open trace file: where it is in the records, and the line being
 * handed out. */
struct trace_reader {
	struct ring_buffer *rb;		/* the buffer it reads (a resize ends it) */
	int cpu;			/* the one CPU it reads, or -1: every CPU */
	struct ring_buffer_cursor cursor;
	uint64_t in_buffer, written;	/* the header's counts, taken at the open */
	unsigned int header_line;	/* next line of the header to make */
	bool header_done;
	struct trace_iter it;		/* the tracer's view: its lines' state */
	struct trace_line line;
};

/* At the open: the records r will show (a walk of a copy of its cursor)
 * and those written since the last clear, Linux's
 * entries-in-buffer/entries-written. Under trace_lock. */
static void count_records(struct trace_reader *r)
{
	struct ring_buffer_cursor *c = kmalloc(sizeof(*c));
	unsigned int cpu;

	r->in_buffer = r->written = 0;
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (r->cpu < 0 || cpu == (unsigned int)r->cpu)
			r->written += ring_buffer_written(r->rb, cpu);
	if (!c)
		return;
	*c = r->cursor;
	while (ring_buffer_next(r->rb, c, &cpu))
		r->in_buffer++;
	kfree(c);
}

/* The n-th line of the header: "# tracer: NAME", then "#" and the
 * counts and legend, or the tracer's own lines; 0 past the last. */
static size_t header_text(struct trace_reader *r, unsigned int n)
{
	const struct tracer *t = r->it.tracer;
	char *text = r->line.text;
	size_t size = sizeof(r->line.text);

	if (n == 0)
		return (size_t)snprintf(text, size, "# tracer: %s\n", t->name);
	if (n == 1)
		return (size_t)snprintf(text, size, "#\n");
	if (t->print_header)
		return t->print_header(text, size, n - 2);
	if (n == 2)
		return (size_t)snprintf(text, size,
					"# entries-in-buffer/entries-written: %llu/%llu   #P:%u\n",
					(unsigned long long)r->in_buffer,
					(unsigned long long)r->written, cpu_count());
	if (n - 3 < ARRAY_SIZE(header_legend))
		return (size_t)snprintf(text, size, "%s\n", header_legend[n - 3]);
	return 0;
}

/* Make the next line in r->line; false at the end, or once a resize
 * has freed the records r was reading. Under trace_lock. */
static bool next_line(void *arg)
{
	struct trace_reader *r = arg;
	const struct ring_entry *e;
	unsigned int cpu;

	if (!r->header_done) {
		size_t len = header_text(r, r->header_line++);

		if (len) {
			r->line.len = len;
			return true;
		}
		r->header_done = true;
	}
	if (trace_buffer_locked() != r->rb)
		return false;
	/* Each record starts with its entry: a shorter one is skipped. */
	do {
		e = ring_buffer_next(r->rb, &r->cursor, &cpu);
		if (!e)
			return false;
	} while (e->len < sizeof(struct trace_entry));
	r->line.len = trace_iter_format(&r->it, r->line.text, sizeof(r->line.text), e, cpu);
	return true;
}

static ssize_t trace_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct trace_reader *r = file->private_data;
	size_t done;

	trace_lock();
	done = trace_line_copy(&r->line, buf, count, next_line, r);
	trace_unlock();
	*pos += (loff_t)done;
	return (ssize_t)done;
}

static ssize_t trace_write_file(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)pos;
	return (ssize_t)count;	/* the clear was the open's */
}

static int trace_open(struct inode *inode, struct file *file)
{
	int cpu = tracefs_file_cpu(inode);
	struct trace_reader *r;

	trace_lock();
	if (!trace_buffer_locked()) {
		trace_unlock();
		return -ENODEV;
	}
	if ((file->flags & O_ACCMODE) != O_RDONLY && (file->flags & O_TRUNC)) {
		if (cpu < 0)
			trace_clear_locked();
		else
			trace_clear_cpu_locked((unsigned int)cpu);
	}
	if ((file->flags & O_ACCMODE) == O_WRONLY) {	/* nothing to read */
		trace_unlock();
		return 0;
	}
	r = kzalloc(sizeof(*r));
	if (r) {
		r->rb = trace_buffer_locked();
		r->cpu = cpu;
		ring_buffer_cursor_start(r->rb, &r->cursor);
		if (cpu >= 0)
			ring_buffer_cursor_only(&r->cursor, (unsigned int)cpu);
		ring_buffer_cursor_bound(r->rb, &r->cursor);
		count_records(r);
		if (trace_iter_start(&r->it)) {
			kfree(r);
			r = NULL;
		}
		file->private_data = r;
	}
	trace_unlock();
	return r ? 0 : -ENOMEM;
}

static int trace_release(struct inode *inode, struct file *file)
{
	struct trace_reader *r = file->private_data;

	(void)inode;
	if (r)
		trace_iter_end(&r->it);
	kfree(r);
	return 0;
}

static const struct file_operations trace_fops = {
	.open = trace_open, .read = trace_read, .write = trace_write_file,
	.release = trace_release,
};

static int tracefs_trace_init(void)
{
	int err = PTR_ERR_OR_ZERO(tracefs_create_file("trace", 0644, NULL, NULL, &trace_fops));

	return err ? err : tracefs_create_per_cpu_files("trace", 0644, &trace_fops);
}
late_initcall(tracefs_trace_init);
