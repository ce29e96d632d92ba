/*
 * /sys/kernel/tracing/trace_options and options/: the tracers' options,
 * as Linux has them (docs/ftrace.md).
 *
 *   trace_options   reads the current tracer's options, one a line:
 *                   "NAME" when set, "noNAME" when not; a write of
 *                   "NAME" or "noNAME" sets or clears one of them
 *                   (-EINVAL for a name the current tracer lacks)
 *   options/NAME    every tracer's options, current or not: "1" or "0";
 *                   a write as kstrtobool reads it
 *
 * Where ProbeOS differs: Linux's trace_options lists its global options
 * too (print-parent, sym-offset, ...); ProbeOS has none yet, so with
 * the nop tracer the file is empty.
 */
#include "kernel/fs/libfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/trace/tracer.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/string.h"

static bool opt_is_set(const struct tracer *t, const struct tracer_opt *o)
{
	return __atomic_load_n(t->flags, __ATOMIC_RELAXED) & o->bit;
}

static void opt_set(const struct tracer *t, const struct tracer_opt *o, bool on)
{
	if (on)
		__atomic_fetch_or(t->flags, o->bit, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(t->flags, ~o->bit, __ATOMIC_RELAXED);
	if (t->set_flag)
		t->set_flag(o->bit, on);
}

static int trace_options_show(struct seq_file *m, void *v)
{
	const struct tracer *t = tracer_current();

	(void)v;
	for (const struct tracer_opt *o = t->opts; o && o->name; o++)
		seq_printf(m, "%s%s\n", opt_is_set(t, o) ? "" : "no", o->name);
	return 0;
}

static int trace_options_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, trace_options_show, NULL);
}

/* A write's first word, with its trailing newline or spaces cut, in
 * text of size bytes; -EINVAL if it does not fit or is empty. */
static int written_word(const char *buf, size_t count, char *text, size_t size)
{
	size_t n = count;

	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	if (n == 0 || n >= size)
		return -EINVAL;
	memcpy(text, buf, n);
	text[n] = '\0';
	return 0;
}

static ssize_t trace_options_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	const struct tracer *t = tracer_current();
	char text[48];
	const char *name = text;
	bool on = true;

	(void)file;
	(void)pos;
	if (written_word(buf, count, text, sizeof(text)) < 0)
		return -EINVAL;
	if (strncmp(text, "no", 2) == 0) {
		name += 2;
		on = false;
	}
	for (const struct tracer_opt *o = t->opts; o && o->name; o++) {
		if (strcmp(o->name, name) == 0) {
			opt_set(t, o, on);
			return (ssize_t)count;
		}
	}
	return -EINVAL;
}

static const struct file_operations trace_options_fops = {
	.open = trace_options_open, .read = seq_read, .llseek = seq_lseek,
	.release = single_release, .write = trace_options_write,
};

/* An options/NAME file's inode data: which tracer's option it is. */
struct opt_file {
	const struct tracer *tracer;
	const struct tracer_opt *opt;
};

static ssize_t opt_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	const struct opt_file *f = file->inode->i_private;

	return simple_read_from_buffer(buf, count, pos, opt_is_set(f->tracer, f->opt) ? "1\n" : "0\n",
				       2);
}

static ssize_t opt_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	const struct opt_file *f = file->inode->i_private;
	char text[8];
	bool on;

	(void)pos;
	if (written_word(buf, count, text, sizeof(text)) < 0 || kstrtobool(text, &on) < 0)
		return -EINVAL;
	opt_set(f->tracer, f->opt, on);
	return (ssize_t)count;
}

static const struct file_operations opt_fops = { .read = opt_read, .write = opt_write };

/* Room for every tracer's options' files: a few tracers, a few options. */
#define OPT_FILES_MAX 32
static struct opt_file opt_files[OPT_FILES_MAX];

static int tracefs_options_init(void)
{
	struct dentry *dir;
	size_t n = 0;
	int err = PTR_ERR_OR_ZERO(tracefs_create_file("trace_options", 0644, NULL, NULL,
						      &trace_options_fops));

	if (err)
		return err;
	dir = tracefs_create_dir("options", NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	for (unsigned int i = 0; tracer_nth(i); i++) {
		const struct tracer *t = tracer_nth(i);

		for (const struct tracer_opt *o = t->opts; o && o->name; o++) {
			if (n == OPT_FILES_MAX)
				return -ENOSPC;
			opt_files[n] = (struct opt_file){ .tracer = t, .opt = o };
			err = PTR_ERR_OR_ZERO(tracefs_create_file(o->name, 0644, dir, &opt_files[n],
								   &opt_fops));
			if (err)
				return err;
			n++;
		}
	}
	return 0;
}
late_initcall(tracefs_options_init);
