/* The files of kprobe events in /sys/kernel/tracing, as Linux has them
 * (Documentation/trace/kprobetrace.rst):
 *
 *   kprobe_events   a line written defines an event or removes one
 *                   ("-:[GROUP/]EVENT"); >> appends, > first removes
 *                   every event (-EBUSY, and none removed, while one is
 *                   enabled); read: every definition, in Linux's
 *                   normalized form
 *   dynamic_events  the same lines: Linux's file for every kind of
 *                   dynamic event, of which ProbeOS has the kprobes
 *   kprobe_profile  each event's hits and missed hits
 *
 * A write may hold several lines; they run in turn, and the first one
 * refused ends the write with its error (error_log says why). */
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/trace/trace_kprobe.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/string.h"

static void *events_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	trace_kprobe_lock();
	return trace_kprobe_at((long)*pos);
}

static void *events_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	++*pos;
	return trace_kprobe_next(v);
}

static void events_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	trace_kprobe_unlock();
}

static int definition_show(struct seq_file *m, void *v)
{
	static char line[4200];	/* under trace_kprobe_lock, which the walk holds */
	const struct trace_kprobe *tk = v;

	kprobe_event_show(&tk->def, line, sizeof(line));
	seq_printf(m, "%s\n", line);
	return 0;
}

/* Linux's columns: the event's name, its hits, its misses. */
static int profile_show(struct seq_file *m, void *v)
{
	const struct trace_kprobe *tk = v;

	seq_printf(m, "  %-44s %15lu %15lu\n", tk->call.name, trace_kprobe_nhit(tk),
		   trace_kprobe_nmissed(tk));
	return 0;
}

static const struct seq_operations definitions_sops = {
	.start = events_start, .next = events_next, .stop = events_stop, .show = definition_show,
};
static const struct seq_operations profile_sops = {
	.start = events_start, .next = events_next, .stop = events_stop, .show = profile_show,
};

/* Opened to write with O_TRUNC (the shell's >): every event removed. */
static int kprobe_events_open(struct inode *inode, struct file *file)
{
	(void)inode;
	if ((file->flags & O_ACCMODE) != O_RDONLY)
		return file->flags & O_TRUNC ? trace_kprobe_remove_all() : 0;
	return seq_open(file, &definitions_sops);
}

/* Each line of the write, in turn. */
static ssize_t kprobe_events_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	size_t done = 0;

	(void)file;
	(void)pos;
	while (done < count) {
		const char *start = buf + done;
		const char *nl = memchr(start, '\n', count - done);
		size_t len = nl ? (size_t)(nl - start) : count - done;
		int err = trace_kprobe_command(start, len);

		if (err)
			return err;
		done += len + (nl ? 1 : 0);
	}
	return (ssize_t)count;
}

static const struct file_operations kprobe_events_fops = {
	.open = kprobe_events_open, .read = seq_read_if_reader, .write = kprobe_events_write,
	.llseek = seq_lseek_if_reader, .release = seq_release_if_reader,
};

static int kprobe_profile_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return seq_open(file, &profile_sops);
}

static const struct file_operations kprobe_profile_fops = {
	.open = kprobe_profile_open, .read = seq_read, .llseek = seq_lseek, .release = seq_release,
};

static int trace_kprobe_files_init(void)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} files[] = {
		{ "kprobe_events", 0644, &kprobe_events_fops },
		{ "dynamic_events", 0644, &kprobe_events_fops },
		{ "kprobe_profile", 0444, &kprobe_profile_fops },
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		int err = PTR_ERR_OR_ZERO(tracefs_create_file(files[i].name, files[i].mode, NULL,
							       NULL, files[i].fops));

		if (err)
			return err;
	}
	return 0;
}
late_initcall(trace_kprobe_files_init);
