/* The text tools on the host: see text_cmds_host.h. Their command
 * functions are static, so their files are included here whole. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/rename.h"
#include "tests/host/text_cmds_host.h"
#include "kernel/shell/grep_cmd.c"
#include "kernel/shell/head_tail_cmd.c"
#include "kernel/shell/seq_cmd.c"
#include "kernel/shell/sort_cmd.c"
#include "kernel/shell/uniq_cmd.c"
#include "kernel/shell/wc_cmd.c"
#include "lib/format.h"

static char output[TEXT_CMDS_OUTPUT_MAX + 1];
static size_t output_len;

ssize_t kwrite(const char *buf, size_t len)
{
	if (len > TEXT_CMDS_OUTPUT_MAX - output_len)
		return -EFBIG;
	memcpy(output + output_len, buf, len);
	output_len += len;
	output[output_len] = '\0';
	return (ssize_t)len;
}

/* Formatted into a buffer as big as the output: a file's name in a
 * message may be as long as a line. */
int kprintf(const char *fmt, ...)
{
	static char text[TEXT_CMDS_OUTPUT_MAX + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(text))
		return -EFBIG;
	return kwrite(text, (size_t)n) < 0 ? -EFBIG : n;
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

int vfs_read_all(const char *path, void **buf, size_t *size)
{
	const struct text_cmds_file *f = find_file(path);

	if (strcmp(path, "/etc") == 0)
		return -EISDIR;
	if (!f)
		return -ENOENT;
	*size = strlen(f->text);
	*buf = malloc(*size + 1);
	if (!*buf)
		return -ENOMEM;
	memcpy(*buf, f->text, *size);
	return 0;
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

bool console_interrupted(void)
{
	return text_cmds_interrupted;
}

static const struct {
	const char *name;
	void (*run)(int argc, char **argv);
} commands[] = {
	{ "grep", cmd_grep }, { "head", cmd_head }, { "tail", cmd_tail }, { "wc", cmd_wc },
	{ "sort", cmd_sort }, { "uniq", cmd_uniq }, { "seq", cmd_seq },
};

bool text_cmds_run(const char *input, size_t len, int argc, char **argv,
		   const char **out)
{
	output_len = 0;
	output[0] = '\0';
	*out = output;
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(commands[i].name, argv[0]) == 0) {
			input_set_pipe(input, len);
			commands[i].run(argc, argv);
			input_set_pipe(NULL, 0);
			return true;
		}
	}
	return false;
}
