/* A command's input, from a pipe or a file: see input.h. */
#include "kernel/shell/input.h"
#include "kernel/console.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "kernel/printk.h"
#include "lib/string.h"

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
	ssize_t err = kwrite(line->text, line->len);

	if (err >= 0)
		err = kwrite("\n", 1);
	return err < 0 ? (int)err : 0;
}
