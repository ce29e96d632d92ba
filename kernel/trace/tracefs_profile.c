/*
 * The function profiler's files (kernel/trace/ftrace_profile.h), as
 * Linux has them:
 *
 *   function_profile_enabled   "1" while it counts, "0" (the default)
 *       while not; a write of a number turns it on (not 0) or off (0),
 *       every count starting from zero when it turns on; -EBUSY while
 *       the function_graph tracer is current, as on Linux 6.1
 *   trace_stat/functionN       CPU N's functions, the longest total
 *       time first:
 *
 *   Function                               Hit    Time            Avg             s^2
 *   --------                               ---    ----            ---             ---
 *   vfs_read                               300    2361.406 us     7.871 us        0.604 us
 *
 * With tracing_thresh set, a function whose average is shorter is left
 * out, as Linux leaves it.
 */
#include "kernel/cpu.h"
#include "kernel/fs/libfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/symtab.h"
#include "kernel/trace/ftrace_profile.h"
#include "kernel/trace/graph_format.h"
#include "kernel/trace/trace_graph.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

static ssize_t enabled_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	return simple_read_from_buffer(buf, count, pos, ftrace_profile_enabled() ? "1\n" : "0\n",
				       2);
}

static ssize_t enabled_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	int64_t value;
	int err = parse_setting(buf, count, 0, INT64_MAX, &value);

	(void)file;
	(void)pos;
	if (!err)
		err = ftrace_profile_set_enabled(value != 0);
	return err ? err : (ssize_t)count;
}

static const struct file_operations enabled_fops = {
	.read = enabled_read, .write = enabled_write,
};

/* A trace_stat/functionN file's inode data is N itself. */
static int function_stat_show(struct seq_file *m, void *v)
{
	unsigned int cpu = (unsigned int)(uintptr_t)m->private;
	uint64_t thresh_ns = tracing_thresh_us() * 1000;
	struct ftrace_profile_stat *stats;
	size_t n = ftrace_profile_copy(cpu, &stats);
	char line[256], name[64];

	(void)v;
	graph_format_profile_header(line, sizeof(line));
	seq_puts(m, line);
	for (size_t i = 0; i < n; i++) {
		uint64_t avg = stats[i].time_ns / stats[i].hits;

		if (avg < thresh_ns)
			continue;
		sym_format_name(stats[i].func, name, sizeof(name));
		graph_format_profile_line(line, sizeof(line), name, stats[i].hits, stats[i].time_ns,
					  avg, stats[i].variance_ns2);
		seq_puts(m, line);
	}
	kfree(stats);
	return 0;
}

static int function_stat_open(struct inode *inode, struct file *file)
{
	return single_open(file, function_stat_show, inode->i_private);
}

static const struct file_operations function_stat_fops = {
	.open = function_stat_open, .read = seq_read, .llseek = seq_lseek,
	.release = single_release,
};

static int tracefs_profile_init(void)
{
	struct dentry *dir;
	int err = PTR_ERR_OR_ZERO(tracefs_create_file("function_profile_enabled", 0644, NULL,
						      NULL, &enabled_fops));

	if (err)
		return err;
	dir = tracefs_create_dir("trace_stat", NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	for (unsigned int cpu = 0; cpu < cpu_count() && !err; cpu++) {
		char name[16];

		snprintf(name, sizeof(name), "function%u", cpu);
		err = PTR_ERR_OR_ZERO(tracefs_create_file(name, 0444, dir, (void *)(uintptr_t)cpu,
							   &function_stat_fops));
	}
	return err;
}
late_initcall(tracefs_profile_init);
