/*
 * /sys/kernel/tracing/set_ftrace_pid and set_ftrace_notrace_pid: which
 * threads the function tracer traces, by their ids (ps's TID column), in
 * Linux's way (docs/ftrace.md).
 *
 * A write holds ids parted by spaces or newlines, each in decimal or in
 * hex after 0x; a word that is no id fails the write with -EINVAL, as on
 * Linux. Opening with O_TRUNC (the shell's ">") starts from an empty
 * list, ">>" from the list there is; `echo > set_ftrace_pid` empties it.
 * Reading lists the ids, one a line, or "no pid" for an empty list.
 *
 * Where ProbeOS differs from Linux: the new list takes effect when the
 * file is closed (as set_ftrace_filter's set does here), where Linux
 * takes each write's at once; an id need not be a thread's now, as on
 * Linux, but a thread a listed one makes is not listed with it (Linux's
 * function-fork option, which ProbeOS does not have).
 */
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/fs/vfs.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/trace/ftrace_pid.h"
#include "kernel/trace/pid_list.h"
#include "kernel/trace/trace_functions.h"
#include "kernel/trace/tracefs_words.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Each file and its list; its inode data is its entry here. */
struct pid_file {
	const char *name;
	enum ftrace_pid_list which;
};

static struct pid_file files[] = {
	{ .name = "set_ftrace_pid", .which = FTRACE_PIDS },
	{ .name = "set_ftrace_notrace_pid", .which = FTRACE_NO_PIDS },
};

/* Held by every change of a list and by a read. */
static struct mutex pid_mutex = MUTEX_INIT(pid_mutex, "ftrace pids");

/* An open file being written: the list it will leave. */
struct edit {
	enum ftrace_pid_list which;
	struct sorted_set list;
	struct tracefs_words words;	/* its error: nothing is set at close */
};

static int pid_show(struct seq_file *m, void *v)
{
	const struct pid_file *f = m->private;
	const struct ftrace_pid_set *set;

	(void)v;
	mutex_lock(&pid_mutex);
	set = ftrace_pid_get(f->which);
	if (!set)
		seq_puts(m, "no pid\n");
	for (size_t i = 0; set && i < set->count; i++)
		seq_printf(m, "%lu\n", (unsigned long)set->ids[i]);
	mutex_unlock(&pid_mutex);
	return 0;
}

static int add_word(void *arg, const char *word, size_t len)
{
	return pid_list_add_word(&((struct edit *)arg)->list, word, len);
}

/* Start from the list there is. Under pid_mutex. */
static int copy_list(struct edit *e)
{
	const struct ftrace_pid_set *set = ftrace_pid_get(e->which);

	for (size_t i = 0; set && i < set->count; i++) {
		int err = sorted_set_add(&e->list, set->ids[i]);

		if (err)
			return err;
	}
	return 0;
}

/* Make the edited list the file's (NULL if empty); if the memory cannot
 * hold it, the old one stays. Under pid_mutex. */
static void commit(const struct edit *e)
{
	struct ftrace_pid_set *set = NULL;

	if (e->list.count) {
		set = kmalloc(sizeof(*set) + e->list.count * sizeof(set->ids[0]));
		if (!set)
			return;
		set->count = e->list.count;
		memcpy(set->ids, e->list.v, e->list.count * sizeof(set->ids[0]));
	}
	ftrace_pid_replace(e->which, set);
	function_trace_pids_changed();
}

static void free_edit(struct edit *e)
{
	kfree(e->list.v);
	kfree(e);
}

static int pid_open(struct inode *inode, struct file *file)
{
	const struct pid_file *f = inode->i_private;
	struct edit *e;
	int err = 0;

	if ((file->flags & O_ACCMODE) == O_RDONLY)
		return single_open(file, pid_show, inode->i_private);
	e = kzalloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->which = f->which;
	if (!(file->flags & O_TRUNC)) {
		mutex_lock(&pid_mutex);
		err = copy_list(e);
		mutex_unlock(&pid_mutex);
	}
	if (err) {
		free_edit(e);
		return err;
	}
	file->private_data = e;
	return 0;
}

static ssize_t pid_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct edit *e = file->private_data;

	(void)pos;
	return tracefs_words_write(&e->words, buf, count, add_word, e);
}

/* The last word is taken now; an error at close has no one to reach,
 * and only keeps the list as it was. */
static int pid_release(struct inode *inode, struct file *file)
{
	struct edit *e = file->private_data;

	if ((file->flags & O_ACCMODE) == O_RDONLY)
		return single_release(inode, file);
	if (!tracefs_words_end(&e->words, add_word, e)) {
		mutex_lock(&pid_mutex);
		commit(e);
		mutex_unlock(&pid_mutex);
	}
	free_edit(e);
	return 0;
}

static const struct file_operations pid_fops = {
	.open = pid_open, .read = seq_read_if_reader, .write = pid_write,
	.llseek = seq_lseek_if_reader, .release = pid_release,
};

static int tracefs_pid_init(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		int err = PTR_ERR_OR_ZERO(tracefs_create_file(files[i].name, 0644, NULL,
							       &files[i], &pid_fops));

		if (err)
			return err;
	}
	return 0;
}
late_initcall(tracefs_pid_init);
