/*
 * /proc/sys/debug/kprobes-optimization: the jump optimizer's switch, the
 * sysctl Linux calls debug.kprobes-optimization. It reads 1 while probes
 * may be optimized (the default) and 0 while they may not. Writing 0
 * takes every jump out, so [OPTIMIZED] leaves the list and no probe is
 * optimized after; writing 1 lets the optimizer put them back
 * (kprobes_set_optimization, the same switch as `probe optimize`).
 *
 * A write is a number, read as Linux's sysctl files read one
 * (parse_setting, lib/string.h): 0 or 1, blanks around it allowed;
 * anything else is -EINVAL and changes nothing.
 */
#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "kernel/probes/kprobes.h"
#include "lib/errno.h"
#include "lib/string.h"

static int optimization_show(struct seq_file *m, void *v)
{
	(void)v;
	seq_printf(m, "%d\n", kprobes_optimization_enabled());
	return 0;
}

static int optimization_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, optimization_show, NULL);
}

static ssize_t optimization_write(struct file *file, const char *buf, size_t count,
				  loff_t *pos)
{
	int64_t on;
	int err = parse_setting(buf, count, 0, 1, &on);

	(void)file;
	(void)pos;
	if (err)
		return err;
	kprobes_set_optimization(on);
	return (ssize_t)count;
}

static const struct proc_ops optimization_ops = {
	.proc_open = optimization_open, .proc_read = seq_read, .proc_write = optimization_write,
	.proc_lseek = seq_lseek, .proc_release = single_release,
};

static int kprobes_optimization_init(void)
{
	/* /proc/sys/debug, unless another subsystem's knob made it first. */
	proc_mkdir("sys/debug", NULL);
	return proc_create("sys/debug/kprobes-optimization", 0644, NULL, &optimization_ops) ?
		0 : -ENOMEM;
}
late_initcall(kprobes_optimization_init);
