/*
 * The tracing files that offer a choice, in Linux's formats:
 *
 *   available_tracers   the tracers, on one line: "nop"
 *   current_tracer      the one tracing now: "nop"; writing a name of
 *                       available_tracers chooses it, any other name is
 *                       -EINVAL, as on Linux
 *   trace_clock         the clocks, the chosen one in brackets:
 *                       "[global]"; writing a listed name chooses it
 *
 * ProbeOS has one of each today. Its time stamps are the cycle counter,
 * one counter for every CPU (QEMU keeps them in step), which is what
 * Linux calls its "global" clock; Linux's default, "local", is a
 * per-CPU clock that this kernel does not need. The function tracer
 * will be the second tracer.
 */
#include "kernel/fs/libfs.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* A file's choices and the one chosen (written under no lock: a choice
 * is one word, and nothing yet acts on a change). */
struct choice {
	const char *file;
	const char *const *names;	/* NULL-terminated */
	bool brackets;			/* list them all, the chosen one in brackets */
	bool list_only;			/* available_tracers: nothing to choose */
	unsigned int chosen;
};

static const char *const tracers[] = { "nop", NULL };
static const char *const clocks[] = { "global", NULL };

static struct choice choices[] = {
	{ .file = "available_tracers", .names = tracers, .list_only = true },
	{ .file = "current_tracer", .names = tracers },
	{ .file = "trace_clock", .names = clocks, .brackets = true },
};

static ssize_t choice_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	const struct choice *c = file->inode->i_private;
	unsigned int chosen = __atomic_load_n(&c->chosen, __ATOMIC_RELAXED);
	char text[128];
	size_t n = 0;

	for (unsigned int i = 0; c->names[i]; i++) {
		bool show_all = c->brackets || c->list_only;

		if (!show_all && i != chosen)
			continue;
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s%s%s", n ? " " : "",
				      c->brackets && i == chosen ? "[" : "", c->names[i],
				      c->brackets && i == chosen ? "]" : "");
	}
	n += (size_t)snprintf(text + n, sizeof(text) - n, "\n");
	return simple_read_from_buffer(buf, count, pos, text, MIN(n, sizeof(text) - 1));
}

static ssize_t choice_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct choice *c = file->inode->i_private;
	size_t len = count;

	(void)pos;
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	for (unsigned int i = 0; c->names[i]; i++) {
		if (strlen(c->names[i]) == len && memcmp(c->names[i], buf, len) == 0) {
			__atomic_store_n(&c->chosen, i, __ATOMIC_RELAXED);
			return (ssize_t)count;
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
		struct choice *c = &choices[i];
		int err = PTR_ERR_OR_ZERO(tracefs_create_file(c->file, 0644, NULL, c,
							       c->list_only ? &list_fops : &choose_fops));

		if (err)
			return err;
	}
	return 0;
}
late_initcall(tracefs_choices_init);
