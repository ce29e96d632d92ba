/* A command's input, from a pipe or a file, read as a stream: see
 * input.h.
 *
 * A file's bytes are read into a buffer, piece by piece, as the lines
 * are asked for. The first read asks for FIRST_PIECE bytes, and while
 * reads come back full each next one asks for twice as many, up to
 * LAST_PIECE: `head -n 1` of a megabyte file costs one small read, and
 * `wc -c` of it few large ones (over 9P each read is a round trip to
 * the host). A short file is two reads of FIRST_PIECE, its bytes and
 * the 0 that ends it, as Unix cat reads: a file's size cannot say where
 * it ends (a generated file's is 0), so the reading goes on until a
 * read returns 0. So a probe on vfs_read is hit twice by `cat
 * /etc/motd`, each time with a count of FIRST_PIECE. Bytes already used
 * are dropped from the buffer's front before it is filled again, so it
 * holds one piece and the line being cut; it grows only for a line
 * longer than that, and then to twice its size at least, so that an
 * 8 MB line costs a few copies of itself, not one per piece. */
#include "kernel/shell/input.h"
#include "kernel/cmd_output.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "lib/errno.h"
#include "lib/string.h"

#define FIRST_PIECE 512
#define LAST_PIECE (64 * 1024)
/* The most of a line output_line writes at once. */
#define OUTPUT_PIECE 4096

bool input_piped(void)
{
	return cmd_input() != NULL;
}

/* Standard input is read in pieces as a file is; with no pipe before
 * the command it is empty, at its end from the start. */
int input_open(struct input *in, const char *path)
{
	*in = (struct input){ .piece = FIRST_PIECE };
	if (path)
		return vfs_open(path, O_RDONLY, &in->file);
	in->source = cmd_input();
	in->at_end = !in->source;
	return 0;
}

/* Read up to count bytes of the input into buf: from the file, or from
 * standard input. */
static ssize_t read_piece(struct input *in, char *buf, size_t count)
{
	if (in->file)
		return vfs_read(in->file, buf, count, &in->file->pos);
	return in->source->read(in->source, buf, count);
}

/* Make room in the buffer for the next piece after the unused bytes:
 * the used ones are dropped from its front, and it grows if the unused
 * ones and a piece do not fit. */
static int make_room(struct input *in)
{
	size_t unused = in->end - in->start;
	size_t need = unused + in->piece;
	char *bigger;
	size_t size;

	if (in->start && in->buf) {
		memmove(in->buf, in->buf + in->start, unused);
		in->start = 0;
		in->end = unused;
	}
	if (need <= in->size)
		return 0;
	size = MAX(need, 2 * in->size);
	bigger = kmalloc(size);
	if (!bigger)
		return -ENOMEM;
	if (unused)
		memcpy(bigger, in->buf, unused);
	kfree(in->buf);
	in->buf = bigger;
	in->text = bigger;
	in->size = size;
	return 0;
}

/* Read the file's next piece after the unused bytes. Returns false at
 * its end or on an error (in->err). */
static bool fill(struct input *in)
{
	ssize_t n;
	int err;

	if (in->at_end)
		return false;
	err = make_room(in);
	n = err ? err : read_piece(in, in->buf + in->end, in->piece);
	if (n <= 0) {
		in->at_end = true;
		in->err = (int)n;
		return false;
	}
	in->end += (size_t)n;
	if ((size_t)n == in->piece)
		in->piece = MIN(in->piece * 2, (size_t)LAST_PIECE);
	return true;
}

int input_open_whole(struct input *in, const char *path)
{
	int err = input_open(in, path);

	if (err)
		return err;
	while (fill(in))
		;
	if (in->err) {
		err = in->err;
		input_close(in);
	}
	return err;
}

void input_rewind(struct input *in)
{
	in->start = 0;
}

/* A line longer than the pieces read so far takes a fill per piece:
 * only the new piece is searched for its end (searched counts the bytes
 * after in->start already looked at, which a fill's move keeps), and
 * each asks whether to stop, so that a Ctrl-C comes through while an
 * 8 MB line is still being read. */
bool input_line(struct input *in, struct line *line)
{
	const char *nl;
	size_t searched = 0;

	for (;;) {
		if (cmd_should_stop())
			return false;
		nl = in->end - in->start > searched
			     ? memchr(in->text + in->start + searched, '\n', in->end - in->start - searched)
			     : NULL;
		searched = in->end - in->start;
		if (nl || !fill(in))
			break;
	}
	if (in->start >= in->end || in->err)
		return false;
	line->text = in->text + in->start;
	line->len = nl ? (size_t)(nl - line->text) : in->end - in->start;
	in->start += line->len + (nl != NULL);
	return true;
}

ssize_t input_bytes(struct input *in, const char **bytes)
{
	size_t n;

	if (cmd_should_stop())
		return -EINTR;
	if (in->start == in->end && !fill(in))
		return in->err;
	n = in->end - in->start;
	*bytes = in->text + in->start;
	in->start = in->end;
	return (ssize_t)n;
}

int input_close(struct input *in)
{
	int err = in->err;

	if (in->file)
		vfs_close(in->file);
	kfree(in->buf);
	*in = (struct input){ 0 };
	return err;
}

bool input_is_output(const struct input *in)
{
	const struct file *out = cmd_output_file();

	return in->file && out && out->inode->type == INODE_FILE &&
	       vfs_same_file(in->file->inode, out->inode) &&
	       in->file->pos < (loff_t)__atomic_load_n(&in->file->inode->size, __ATOMIC_RELAXED);
}

static void say_error(const char *cmd, const char *path, int err)
{
	cmd_eprintf("%s: %s: %s\n", cmd, path, strerror(err));
}

int input_each(const char *cmd, int count, char **paths, bool whole,
	       void (*say)(const char *cmd, const char *path, int err),
	       int (*fn)(struct input *in, const char *path, void *arg), void *arg)
{
	struct input in;
	int status = 0;

	if (!say)
		say = say_error;
	for (int i = 0; i < MAX(count, 1); i++) {
		const char *path = count ? paths[i] : NULL;
		const char *name = path ? path : "-";	/* as GNU's tools say it */
		int err = whole ? input_open_whole(&in, path) : input_open(&in, path);
		int stop;

		if (err) {
			say(cmd, name, err);
			status = err;
			continue;
		}
		stop = fn(&in, path, arg);
		err = input_close(&in);
		/* A read that a Ctrl-C or a hang-up ended (a pipe, trace_pipe)
		 * is no error to say: the shell says ^C. */
		if (err && err != -EINTR)
			say(cmd, name, err);
		if (err)
			status = err;
		if (stop)
			return stop;
	}
	return status;
}

int output_line(const struct line *line)
{
	ssize_t err = 0;

	/* A long line goes out a piece at a time: writing megabytes to the
	 * console takes seconds, and a Ctrl-C is looked for between. */
	for (size_t done = 0; done < line->len && err >= 0; done += OUTPUT_PIECE) {
		if (cmd_should_stop())
			return -EINTR;
		err = cmd_write(line->text + done, MIN(line->len - done, OUTPUT_PIECE));
	}
	if (err >= 0)
		err = cmd_write("\n", 1);
	return err < 0 ? (int)err : 0;
}
