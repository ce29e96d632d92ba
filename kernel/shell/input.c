/* A command's input, from a pipe or a file: see input.h. */
#include "kernel/shell/input.h"
#include "kernel/console.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

/* The most of a line output_line writes at once. */
#define OUTPUT_PIECE 4096

static struct {
	const char *text;	/* NULL: no pipe */
	size_t len;
} piped;

void input_set_pipe(const char *text, size_t len)
{
	piped.text = text;
	piped.len = len;
}

bool input_piped(void)
{
	return piped.text != NULL;
}

int input_open(struct input *in, const char *path)
{
	*in = (struct input){ .text = piped.text, .len = piped.len };
	if (path) {
		int err = vfs_read_all(path, &in->file_text, &in->len);

		if (err < 0)
			return err;
		in->text = in->file_text;
	}
	return 0;
}

bool input_line(struct input *in, struct line *line)
{
	const char *start, *end;

	if (in->pos >= in->len || console_interrupted())
		return false;
	start = in->text + in->pos;
	end = memchr(start, '\n', in->len - in->pos);
	line->text = start;
	line->len = end ? (size_t)(end - start) : in->len - in->pos;
	in->pos += line->len + (end != NULL);
	return true;
}

void input_close(struct input *in)
{
	kfree(in->file_text);
	in->file_text = NULL;
}

int output_line(const struct line *line)
{
	ssize_t err = 0;

	/* A long line goes out a piece at a time: writing megabytes to the
	 * console takes seconds, and a Ctrl-C is looked for between. */
	for (size_t done = 0; done < line->len && err >= 0; done += OUTPUT_PIECE) {
		if (console_interrupted())
			return -EINTR;
		err = kwrite(line->text + done, MIN(line->len - done, OUTPUT_PIECE));
	}
	if (err >= 0)
		err = kwrite("\n", 1);
	return err < 0 ? (int)err : 0;
}
