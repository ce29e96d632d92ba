/*
 * The files that steer the tracing buffer, in /sys/kernel/tracing, as
 * Linux has them:
 *
 *   tracing_on             "1" or "0": whether the buffer takes records;
 *                          a write as kstrtobool reads it (-EINVAL else)
 *   buffer_size_kb         each CPU's ring, in KiB; writing a number
 *                          makes a new buffer of that size, the records
 *                          lost (as on Linux); 0 or garbage is -EINVAL,
 *                          a size the memory cannot hold -ENOMEM with the
 *                          old buffer kept
 *   buffer_total_size_kb   every CPU's together (read only)
 *   tracing_thresh         function_graph records only calls at least
 *                          this long, in microseconds (0: every call)
 *   max_graph_depth        function_graph records calls at most this
 *                          deep (1: the outermost; 0: any depth)
 *
 * The largest size taken is 64 MiB a CPU: a bound on the multiplication,
 * far above what the machine's memory holds for every CPU.
 */
#include "kernel/cpu.h"
#include "kernel/fs/libfs.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/trace_graph.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

#define SIZE_KB_MAX (64 * 1024)

/* A write's first line as a string in text, of size bytes; -EINVAL if
 * it does not fit. */
static int written_line(const char *buf, size_t count, char *text, size_t size)
{
	size_t n = count;

	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	if (n >= size)
		return -EINVAL;
	memcpy(text, buf, n);
	text[n] = '\0';
	return 0;
}

/* Read a number and a newline, as all these files show theirs. */
static ssize_t read_number(char *buf, size_t count, loff_t *pos, uint64_t value)
{
	char text[24];
	int n = snprintf(text, sizeof(text), "%llu\n", (unsigned long long)value);

	return simple_read_from_buffer(buf, count, pos, text, (size_t)n);
}

static ssize_t tracing_on_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	bool on;

	(void)file;
	trace_lock();
	on = trace_buffer_locked() && trace_is_on_locked();
	trace_unlock();
	return read_number(buf, count, pos, on);
}

static ssize_t tracing_on_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	char text[8];
	bool on;

	(void)file;
	(void)pos;
	if (written_line(buf, count, text, sizeof(text)) < 0 || kstrtobool(text, &on) < 0)
		return -EINVAL;
	trace_lock();
	if (trace_buffer_locked())
		trace_set_on_locked(on);
	trace_unlock();
	return (ssize_t)count;
}

static ssize_t buffer_size_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	return read_number(buf, count, pos, trace_buffer_bytes() / 1024);
}

static ssize_t buffer_size_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	char text[24];
	uint64_t kb;
	int err;

	(void)file;
	(void)pos;
	if (written_line(buf, count, text, sizeof(text)) < 0 ||
	    parse_unsigned(text, SIZE_KB_MAX, &kb) < 0 || kb == 0)
		return -EINVAL;
	trace_lock();
	err = trace_resize_locked((size_t)kb * 1024);
	trace_unlock();
	return err < 0 ? err : (ssize_t)count;
}

static ssize_t buffer_total_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	return read_number(buf, count, pos, trace_buffer_bytes() / 1024 * cpu_count());
}

/* A number a tracer reads as it goes (i_private): how to get and set it,
 * and the most it takes. */
struct knob {
	uint64_t (*get)(void);
	void (*set)(uint64_t value);
	uint64_t max;
};

static ssize_t knob_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	const struct knob *k = file->inode->i_private;

	return read_number(buf, count, pos, k->get());
}

static ssize_t knob_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	const struct knob *k = file->inode->i_private;
	char text[24];
	uint64_t value;

	(void)pos;
	if (written_line(buf, count, text, sizeof(text)) < 0 ||
	    parse_unsigned(text, k->max, &value) < 0)
		return -EINVAL;
	k->set(value);
	return (ssize_t)count;
}

static uint64_t max_depth_get(void)
{
	return graph_max_depth();
}

static void max_depth_set(uint64_t depth)
{
	graph_set_max_depth((unsigned int)depth);
}

/* Linux's limits: any depth an unsigned int holds; a threshold whose
 * nanoseconds fit in 64 bits. */
static const struct knob max_graph_depth = { max_depth_get, max_depth_set, 0xffffffffu };
static const struct knob tracing_thresh = { tracing_thresh_us, tracing_set_thresh_us,
					    UINT64_MAX / 1000 };

static const struct file_operations knob_fops = { .read = knob_read, .write = knob_write };

static const struct file_operations tracing_on_fops = {
	.read = tracing_on_read, .write = tracing_on_write,
};
static const struct file_operations buffer_size_fops = {
	.read = buffer_size_read, .write = buffer_size_write,
};
static const struct file_operations buffer_total_fops = {
	.read = buffer_total_read,
};

static int tracefs_control_init(void)
{
	static const struct {
		const char *name;
		const struct file_operations *fops;
		const struct knob *knob;
	} files[] = {
		{ "tracing_on", &tracing_on_fops, NULL },
		{ "buffer_size_kb", &buffer_size_fops, NULL },
		{ "buffer_total_size_kb", &buffer_total_fops, NULL },
		{ "tracing_thresh", &knob_fops, &tracing_thresh },
		{ "max_graph_depth", &knob_fops, &max_graph_depth },
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		int err = PTR_ERR_OR_ZERO(tracefs_create_file(files[i].name, 0644, NULL,
							       (void *)files[i].knob, files[i].fops));

		if (err)
			return err;
	}
	return 0;
}
late_initcall(tracefs_control_init);
