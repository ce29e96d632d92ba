/*
 * The tracing files that offer a choice, in Linux's formats:
 *
 *   available_tracers   the tracers, on one line: "function nop"
 *   current_tracer      the one tracing now: "nop" at boot; writing a
 *                       name of available_tracers chooses it (tracer.h),
 *                       any other name is -EINVAL, as on Linux
 *   trace_clock         the clocks, the chosen one in brackets:
 *                       "[global]"; writing a listed name chooses it
 *
 * ProbeOS has one clock. Its time stamps are the cycle counter, one
 * counter for every CPU (QEMU keeps them in step), which is what Linux
 * calls its "global" clock; Linux's default, "local", is a per-CPU
 * clock that this kernel does not need.
 */
#include "kernel/fs/libfs.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/trace/tracer.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* A file's choices, by number: the name of each (NULL past the last),
 * which one is chosen, and the choosing (NULL: a list to read only). */
struct choice {
	const char *file;
	const char *(*name)(unsigned int i);
	unsigned int (*chosen)(void);
	int (*choose)(unsigned int i);
	bool brackets;			/* list them all, the chosen one in brackets */
};

static const char *tracer_name(unsigned int i)
{
	const struct tracer *t = tracer_nth(i);

	return t ? t->name : NULL;
}

static unsigned int tracer_chosen(void)
{
	unsigned int i = 0;

	while (tracer_nth(i) && tracer_nth(i) != tracer_current())
		i++;
	return i;
}

static int tracer_choose_nth(unsigned int i)
{
	return tracer_choose(tracer_nth(i));
}

static const char *clock_name(unsigned int i)
{
	return i == 0 ? "global" : NULL;
}

static unsigned int clock_chosen(void)
{
	return 0;
}

static int clock_choose(unsigned int i)
{
	(void)i;
	return 0;
}

static const struct choice choices[] = {
	{ .file = "available_tracers", .name = tracer_name, .chosen = tracer_chosen },
	{ .file = "current_tracer", .name = tracer_name, .chosen = tracer_chosen,
	  .choose = tracer_choose_nth },
	{ .file = "trace_clock", .name = clock_name, .chosen = clock_chosen,
	  .choose = clock_choose, .brackets = true },
};

static ssize_t choice_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	const struct choice *c = file->inode->i_private;
	unsigned int chosen = c->chosen();
	bool show_all = c->brackets || !c->choose;
	char text[256];
	size_t n = 0;
	const char *name;

	for (unsigned int i = 0; (name = c->name(i)); i++) {
		bool mark = c->brackets && i == chosen;

		if (!show_all && i != chosen)
			continue;
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s%s%s", n ? " " : "",
				      mark ? "[" : "", name, mark ? "]" : "");
		n = MIN(n, sizeof(text) - 1);
	}
	n += (size_t)snprintf(text + n, sizeof(text) - n, "\n");
	return simple_read_from_buffer(buf, count, pos, text, MIN(n, sizeof(text) - 1));
}

/* A name and any spaces or newline after it, as echo writes it. */
static ssize_t choice_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	const struct choice *c = file->inode->i_private;
	size_t len = count;
	const char *name;
	int err;

	(void)pos;
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	for (unsigned int i = 0; (name = c->name(i)); i++) {
		if (strlen(name) == len && memcmp(name, buf, len) == 0) {
			err = c->choose(i);
			return err ? err : (ssize_t)count;
		}
	}
	return -EINVAL;
}

static const struct file_operations choose_fops = {
	.read = choice_read, .write = choice_write,
};
static const struct file_operations list_fops = {
	.read = choice_read,
};

static int tracefs_choices_init(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(choices); i++) {
		const struct choice *c = &choices[i];
		int err = PTR_ERR_OR_ZERO(tracefs_create_file(c->file, c->choose ? 0644 : 0444,
							       NULL, (void *)c,
							       c->choose ? &choose_fops : &list_fops));

		if (err)
			return err;
	}
	return 0;
}
late_initcall(tracefs_choices_init);
