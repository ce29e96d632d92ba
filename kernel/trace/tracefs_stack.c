/*
 * The stack tracer's files (kernel/trace/trace_stack.h), as Linux has
 * them:
 *
 *   /proc/sys/kernel/stack_tracer_enabled   1 while it measures, 0 (the
 *       default) while not; a write of 0 or 1 (parse_setting: blanks
 *       around it allowed), anything else -EINVAL
 *   /sys/kernel/tracing/stack_max_size      the deepest stack seen, in
 *       bytes; a number written replaces it (echo 0 starts over)
 *   /sys/kernel/tracing/stack_trace         the chain that reached it:
 *
 *           Depth    Size   Location    (3 entries)
 *           -----    ----   --------
 *     0)      432      16   ramfs_read+0x5/0x70
 *     1)      416     112   vfs_read+0x5c/0xb0
 *     2)      304     304   cat_main+0x88/0x110
 *
 *   /sys/kernel/tracing/stack_trace_filter  the functions measured, in
 *       set_ftrace_filter's words (kernel/trace/tracefs_filter.c)
 *
 * Each Location is a return address as Linux's %pS prints it: the
 * first, just past the traced function's call site, the others each in
 * the caller that called the frame above.
 */
#include "kernel/fs/libfs.h"
#include "kernel/fs/procfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/symtab.h"
#include "kernel/trace/trace_stack.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

#define FRAMES_SHOWN 64

static int stack_trace_show(struct seq_file *m, void *v)
{
	struct stack_trace_frame *f = kmalloc(FRAMES_SHOWN * sizeof(*f));
	char where[128];
	size_t n;

	(void)v;
	if (!f)
		return -ENOMEM;
	n = stack_tracer_copy(f, FRAMES_SHOWN);
	seq_printf(m, "        Depth    Size   Location    (%zu entries)\n"
		      "        -----    ----   --------\n", n);
	for (size_t i = 0; i < n; i++) {
		sym_format(f[i].addr, where, sizeof(where));
		seq_printf(m, "%3zu) %8zu   %5zu   %s\n", i, f[i].depth, f[i].size, where);
	}
	kfree(f);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stack_trace);

static ssize_t max_size_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	char text[24];
	int n = snprintf(text, sizeof(text), "%zu\n", stack_tracer_max_size());

	(void)file;
	return simple_read_from_buffer(buf, count, pos, text, (size_t)n);
}

static ssize_t max_size_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	int64_t size;
	int err = parse_setting(buf, count, 0, INT64_MAX, &size);

	(void)file;
	(void)pos;
	if (err)
		return err;
	stack_tracer_set_max_size((size_t)size);
	return (ssize_t)count;
}

static const struct file_operations max_size_fops = {
	.read = max_size_read, .write = max_size_write,
};

static int enabled_show(struct seq_file *m, void *v)
{
	(void)v;
	seq_printf(m, "%d\n", stack_tracer_enabled());
	return 0;
}

static int enabled_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, enabled_show, NULL);
}

static ssize_t enabled_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	int64_t on;
	int err = parse_setting(buf, count, 0, 1, &on);

	(void)file;
	(void)pos;
	if (!err)
		err = stack_tracer_set_enabled(on);
	return err ? err : (ssize_t)count;
}

static const struct proc_ops enabled_ops = {
	.proc_open = enabled_open, .proc_read = seq_read, .proc_write = enabled_write,
	.proc_lseek = seq_lseek, .proc_release = single_release,
};

static int tracefs_stack_init(void)
{
	int err = PTR_ERR_OR_ZERO(tracefs_create_file("stack_trace", 0444, NULL, NULL,
						   &stack_trace_fops));

	if (!err)
		err = PTR_ERR_OR_ZERO(tracefs_create_file("stack_max_size", 0644, NULL, NULL,
							   &max_size_fops));
	if (err)
		return err;
	/* /proc/sys/kernel, unless another subsystem's setting made it first. */
	proc_mkdir("sys/kernel", NULL);
	return proc_create("sys/kernel/stack_tracer_enabled", 0644, NULL, &enabled_ops) ?
		0 : -ENOMEM;
}
late_initcall(tracefs_stack_init);
