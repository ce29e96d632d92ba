/* A command's input: what the command before it in a pipeline printed,
 * or a file named on its command line, read line by line. The tools
 * that filter text (grep, head, tail, wc, sort, uniq) read through it:
 *
 *	struct input in;
 *	struct line line;
 *
 *	if (input_open(&in, path) < 0)		path NULL: the pipe
 *		...say why, in the tool's words...
 *	while (input_line(&in, &line))
 *		...line.text, line.len...
 *	input_close(&in);
 *
 * Only the shell's thread runs commands, one at a time, so the pipe's
 * text is the shell's, set by the pipeline runner (pipeline.c) around
 * each command. A command with no pipe before it reads nothing from
 * it: ProbeOS gives commands no terminal input. */
#ifndef KERNEL_SHELL_INPUT_H
#define KERNEL_SHELL_INPUT_H

#include "lib/types.h"

/* One line of text: not NUL-terminated, without its newline. */
struct line {
	const char *text;
	size_t len;
};

struct input {
	const char *text;	/* all of it */
	size_t len;
	size_t pos;		/* where the next line starts */
	void *file_text;	/* a file's copy, freed by input_close; or NULL */
};

/* Set the text piped into the next command (NULL: it has no pipe before
 * it). The text must stay until the command returns. */
void input_set_pipe(const char *text, size_t len);

/* True if a pipe feeds the running command. */
bool input_piped(void);

/* Open the command's input: the pipe's text for path NULL (none if no
 * pipe), else the file at path, read whole. Returns 0, or a negative
 * errno for the command to report in its own words. */
int input_open(struct input *in, const char *path);

/* The next line; false when the text is used up, or after a Ctrl-C
 * (console_interrupted), so that a tool's loop over its input stops at
 * once. A last line without a newline is a line. */
bool input_line(struct input *in, struct line *line);

/* Free what input_open took. */
void input_close(struct input *in);

/* Write line and a newline to the command's output (kwrite: a line is
 * data, and may hold a '%' or a NUL). Returns 0, or the output's
 * negative errno: a full pipe, a file that refused a write; or -EINTR
 * after a Ctrl-C, looked for every few KiB of a long line. */
int output_line(const struct line *line);

#endif
