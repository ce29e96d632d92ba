/*
 * /sys/kernel/debug/kprobes/list: every registered probe, one line
 * each, as Linux's report_probe writes it (probe_line.h):
 *
 *   ffffffff8010a2c0  k  vfs_read+0x0    [DISABLED]
 *   ffffffff8010a2c0  r  vfs_read+0x0    [OPTIMIZED]
 *
 * The probes are read through the core's reports, a batch at a time
 * (kprobes_snapshot), never by walking its list here: a record is a
 * copy the core made under its lock, so a line describes one moment
 * even while probes come and go, and seq_file never tears it. Any number
 * of probes lists whole, BATCH copies held at a time.
 */
#include "kernel/fs/seq_file.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/probes/files/kprobes_dir.h"
#include "kernel/probes/files/probe_line.h"
#include "kernel/probes/probe_report.h"
#include "lib/err.h"
#include "lib/errno.h"

/* Reports fetched per call into the core: each fetch walks the core's
 * list up to its first probe, so a larger batch means fewer walks; one
 * read of cat needs about eight lines. */
#define BATCH 32

/* A reader's copies: the probes at positions first to first + count - 1. */
struct list_batch {
	long first;
	int count;
	struct kprobe_info info[BATCH];
};

/* Copy the probes from position pos on into b; the record at pos, or
 * NULL past the last probe. */
static void *fetch(struct list_batch *b, loff_t pos)
{
	long left = kprobes_snapshot(b->info, (int)pos, BATCH) - (long)pos;

	b->first = (long)pos;
	b->count = left > 0 ? (int)MIN(left, BATCH) : 0;
	return b->count ? &b->info[0] : NULL;
}

/* Each walk starts with a new batch, so every read shows the probes as
 * they are when it begins. */
static void *list_start(struct seq_file *m, loff_t *pos)
{
	return fetch(m->private, *pos);
}

static void *list_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct list_batch *b = m->private;

	(void)v;
	++*pos;
	if (*pos < b->first + b->count)
		return &b->info[*pos - b->first];
	return fetch(b, *pos);
}

static void list_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static int list_show(struct seq_file *m, void *v)
{
	char line[PROBE_LIST_LINE_MAX];

	probe_format_list_line(v, line, sizeof(line));
	seq_puts(m, line);
	return 0;
}

static const struct seq_operations list_sops = {
	.start = list_start, .next = list_next, .stop = list_stop, .show = list_show,
};

static int list_open(struct inode *inode, struct file *file)
{
	struct list_batch *b = kmalloc(sizeof(*b));
	int err;

	(void)inode;
	if (!b)
		return -ENOMEM;
	err = seq_open(file, &list_sops);
	if (err) {
		kfree(b);
		return err;
	}
	((struct seq_file *)file->private_data)->private = b;
	return 0;
}

static int list_release(struct inode *inode, struct file *file)
{
	kfree(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

/* No write: the file is read-only, as Linux's. */
static const struct file_operations list_fops = {
	.open = list_open, .read = seq_read, .llseek = seq_lseek, .release = list_release,
};

static int kprobes_list_init(void)
{
	return PTR_ERR_OR_ZERO(debugfs_create_file("list", 0400, kprobes_debugfs_dir(), NULL,
						   &list_fops));
}
late_initcall(kprobes_list_init);
