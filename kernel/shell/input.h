/* A command's input: what the command before it in a pipeline printed
 * (its standard input), or the files named on its command line, read as
 * a stream. The tools that read text (cat, grep, head, tail, wc, sort,
 * uniq) share one loop over their inputs, as toybox's do: no FILE means
 * standard input, else each FILE in turn.
 *
 *	static int count(struct input *in, const char *path, void *arg)
 *	{
 *		struct line line;
 *
 *		while (input_line(in, &line))
 *			...line.text, line.len...
 *		return 0;		an error (-EPIPE...): stop the loop
 *	}
 *	...
 *	input_each("wc", operands, paths, false, NULL, count, &totals);
 *
 * A file is read a piece at a time, as it is used: `head -n 1` of a big
 * file reads its first piece only. The pieces start small and grow
 * while the file fills them, so that a short read stays short and a
 * long one takes few calls.
 *
 * Standard input is the calling thread's (cmd_input,
 * kernel/cmd_output.h): the read end of the pipe before the command's
 * stage, which the pipeline runner (pipeline.c) connects on the stage's
 * own thread, so that two stages reading at once each read their own.
 * A command with no pipe before it has an empty standard input: ProbeOS
 * gives commands no terminal input. */
#ifndef KERNEL_SHELL_INPUT_H
#define KERNEL_SHELL_INPUT_H

#include "lib/types.h"

struct cmd_source;
struct file;

/* One line of text: not NUL-terminated, without its newline. */
struct line {
	const char *text;
	size_t len;
};

struct input {
	struct file *file;	/* NULL: standard input, source */
	struct cmd_source *source;	/* standard input's pipe; NULL: none */
	const char *text;	/* the bytes in hand: buf's */
	char *buf;		/* a file's bytes read so far, kmalloc'd */
	size_t size;		/* buf's size */
	size_t start, end;	/* the bytes not yet used: text[start..end) */
	size_t piece;		/* how much the next read asks for */
	bool at_end;		/* nothing more to read */
	int err;		/* the read that failed, or 0 */
};

/* True if a pipe feeds the running command. */
bool input_piped(void);

/* Open an input: standard input for path NULL, else the file at path.
 * Returns 0, or a negative errno for the command to report. */
int input_open(struct input *in, const char *path);

/* Open an input and read it whole, for a tool that needs every line at
 * once (sort) or twice (tail): its lines then stay valid until
 * input_close, and input_rewind starts it again. Returns 0, or a
 * negative errno. */
int input_open_whole(struct input *in, const char *path);

/* Back to the first line of an input opened whole. */
void input_rewind(struct input *in);

/* The next line, valid until the next call (or, opened whole, until
 * input_close); false when the input is used up, when a read failed
 * (in->err), or once the command should stop (cmd_should_stop: a
 * Ctrl-C, a hang-up), so that a tool's
 * loop over its input stops at once. A last line without a newline is a
 * line. */
bool input_line(struct input *in, struct line *line);

/* The next bytes as they come, newlines and all, valid until the next
 * call: for a tool that copies its input (cat). Returns how many, 0 at
 * the end, or a negative errno (-EINTR once the command should stop). */
ssize_t input_bytes(struct input *in, const char **bytes);

/* GNU cat's and grep's rule: whether in is the regular file standard
 * output writes into, with bytes left to read. A tool that writes as it
 * reads would read back what it wrote (`cat F >> F` would grow F until
 * the disk is full), so it refuses such an input. `cat F > F` empties F
 * first: nothing is left to read, and it passes, as in GNU's. */
bool input_is_output(const struct input *in);

/* Close an input. Returns the error of the read that failed, or 0. */
int input_close(struct input *in);

/* Run fn on each input of the tool cmd in turn: standard input when
 * count is 0, else paths[0 .. count-1]. One that cannot be opened, or
 * that fails while it is read, is said on standard error with say, or
 * as "CMD: PATH: error" if say is NULL, and the loop goes on (a read
 * that a Ctrl-C or a hang-up ended is not said: the shell says ^C). It
 * stops where fn returns a negative errno: its output was refused, or
 * -EINTR. whole opens each input whole (input_open_whole). Returns 0,
 * or the tool's status: the error that stopped the loop, else that of
 * the last input that could not be read. */
int input_each(const char *cmd, int count, char **paths, bool whole,
	       void (*say)(const char *cmd, const char *path, int err),
	       int (*fn)(struct input *in, const char *path, void *arg), void *arg);

/* Write line and a newline to the command's standard output (cmd_write:
 * a line is data, and may hold a '%' or a NUL). Returns 0, or the
 * output's negative errno: a full pipe, a file that refused a write; or
 * -EINTR once the command should stop, looked for every few KiB of
 * a long line. */
int output_line(const struct line *line);

#endif
