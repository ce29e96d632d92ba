/* /proc/mounts: one line per mount, oldest first, as Linux's:
 *
 *	none /proc proc rw 0 0
 *
 * read from the mount table (kernel/fs/mount.c) through its reader's
 * calls. The table is locked from a walk's start to its stop, so only
 * one walk is in the table at a time and one row will do for them all. */
#include "kernel/fs/mount.h"
#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "lib/errno.h"

static struct mount_info row;	/* the walk's mount; the table lock guards it */

static void *mounts_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	mount_table_lock();
	return mount_table_at((size_t)*pos, &row) ? &row : NULL;
}

static void *mounts_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m, (void)v;
	++*pos;
	return mount_table_at((size_t)*pos, &row) ? &row : NULL;
}

static void mounts_stop(struct seq_file *m, void *v)
{
	(void)m, (void)v;
	mount_table_unlock();
}

/* A word of the table, with what would split it into two (a space, a
 * tab, a newline) and the backslash written as Linux writes them: a
 * backslash and three octal digits. */
static void show_word(struct seq_file *m, const char *word)
{
	for (; *word; word++) {
		if (*word == ' ' || *word == '\t' || *word == '\n' || *word == '\\')
			seq_printf(m, "\\%03o", (unsigned char)*word);
		else
			seq_putc(m, *word);
	}
}

/* "SOURCE DIR TYPE rw 0 0": every mount can be written, and the last
 * two fields are fstab's dump and pass numbers, 0 in Linux's too. */
static int mounts_show(struct seq_file *m, void *v)
{
	const struct mount_info *info = v;

	show_word(m, info->source);
	seq_putc(m, ' ');
	show_word(m, info->dir);
	seq_printf(m, " %s rw 0 0\n", info->type);
	return 0;
}

static const struct seq_operations mounts_ops = {
	.start = mounts_start, .next = mounts_next, .stop = mounts_stop,
	.show = mounts_show,
};

static int proc_mounts_init(void)
{
	return proc_create_seq("mounts", 0444, NULL, &mounts_ops) ? 0 : -ENOMEM;
}
late_initcall(proc_mounts_init);
