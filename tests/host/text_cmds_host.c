/* The text tools on the host: see text_cmds_host.h. Their command
 * functions are static, so their files are included here whole. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/rename.h"
#include "tests/host/text_cmds_host.h"
#include "kernel/command_usage.c"
#include "kernel/shell/grep_cmd.c"
#include "kernel/shell/head_tail_cmd.c"
#include "kernel/shell/seq_cmd.c"
#include "kernel/shell/sort_cmd.c"
#include "kernel/shell/uniq_cmd.c"
#include "kernel/shell/wc_cmd.c"
#include "lib/format.h"

static char output[TEXT_CMDS_OUTPUT_MAX + 1];
static size_t output_len;
static char errors[TEXT_CMDS_OUTPUT_MAX + 1];
static size_t errors_len;

/* Append len bytes to a record of at most TEXT_CMDS_OUTPUT_MAX. */
static ssize_t record(char *to, size_t *to_len, const char *buf, size_t len)
{
	if (len > TEXT_CMDS_OUTPUT_MAX - *to_len)
		return -EFBIG;
	memcpy(to + *to_len, buf, len);
	*to_len += len;
	to[*to_len] = '\0';
	return (ssize_t)len;
}

/* Standard output, as the console shows it, standard error in it where
 * its lines came, and standard error alone. */
static ssize_t host_output(bool error, const char *buf, size_t len)
{
	if (error && record(errors, &errors_len, buf, len) < 0)
		return -EFBIG;
	return record(output, &output_len, buf, len);
}
#include "tests/host/cmd_output_host.c"

const char *text_cmds_errors(void)
{
	return errors;
}

const struct text_cmds_file text_cmds_files[] = {
	{ "/a", "one\ntwo\nthree\n" },
	{ "/b", "x y\n" },
	{ "/nl", "no newline" },
	{ "/seq", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n" },
};
const size_t text_cmds_nfiles = ARRAY_SIZE(text_cmds_files);

static const struct text_cmds_file *find_file(const char *path)
{
	for (size_t i = 0; i < text_cmds_nfiles; i++) {
		if (strcmp(text_cmds_files[i].path, path) == 0)
			return &text_cmds_files[i];
	}
	return NULL;
}

size_t text_cmds_bytes_read;

int vfs_open(const char *path, int flags, struct file **out)
{
	const struct text_cmds_file *f = find_file(path);

	(void)flags;
	if (strcmp(path, "/etc") == 0)
		return -EISDIR;
	if (!f)
		return -ENOENT;
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	(*out)->private_data = (void *)f;
	return 0;
}

ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	const struct text_cmds_file *f = file->private_data;
	size_t len = strlen(f->text), n;

	if ((size_t)*pos >= len)
		return 0;
	n = MIN(MIN(count, len - (size_t)*pos), (size_t)TEXT_CMDS_READ_MAX);
	memcpy(buf, f->text + *pos, n);
	*pos += (loff_t)n;
	text_cmds_bytes_read += n;
	return (ssize_t)n;
}

/* Each open of a table file has an inode of its own: one file is the
 * same file only as itself. */
bool vfs_same_file(const struct inode *a, const struct inode *b)
{
	return a == b;
}

void vfs_close(struct file *file)
{
	free(file);
}

int vfs_stat(const char *path, struct kstat *st)
{
	const struct text_cmds_file *f = find_file(path);

	if (!f)
		return -ENOENT;
	st->type = INODE_FILE;
	st->size = strlen(f->text);
	return 0;
}

void *kmalloc(size_t size)
{
	return malloc(size);
}

void kfree(void *p)
{
	free(p);
}

bool text_cmds_interrupted;

bool cmd_should_stop(void)
{
	return text_cmds_interrupted;
}

/* Standard input: the text text_cmds_run was given, read as a pipe's. */
struct text_source {
	struct cmd_source source;
	const char *text;
	size_t len;
};

static ssize_t text_read(struct cmd_source *s, char *buf, size_t len)
{
	struct text_source *t = container_of(s, struct text_source, source);
	size_t n = MIN(len, t->len);

	memcpy(buf, t->text, n);
	t->text += n;
	t->len -= n;
	return (ssize_t)n;
}

static struct text_source standard_input = { .source = { .read = text_read } };
static bool piped;

struct cmd_source *cmd_input(void)
{
	return piped ? &standard_input.source : NULL;
}

/* The tools' own SHELL_COMMAND() records, which their files define. */
static const struct shell_command *const commands[] = {
	&shell_cmd_cmd_grep, &shell_cmd_cmd_head, &shell_cmd_cmd_tail, &shell_cmd_cmd_wc,
	&shell_cmd_cmd_sort, &shell_cmd_cmd_uniq, &shell_cmd_cmd_seq,
};

/* The kernel's walks the linker's table, which a host program has not. */
const struct shell_command *shell_find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	}
	return NULL;
}

int text_cmds_status;

bool text_cmds_run(const char *input, size_t len, int argc, char **argv,
		   const char **out)
{
	const struct shell_command *cmd = shell_find_command(argv[0]);

	output_len = 0;
	output[0] = '\0';
	errors_len = 0;
	errors[0] = '\0';
	*out = output;
	if (!cmd)
		return false;
	standard_input.text = input;
	standard_input.len = len;
	piped = input != NULL;
	text_cmds_status = cmd->run(argc, argv);
	piped = false;
	return true;
}
