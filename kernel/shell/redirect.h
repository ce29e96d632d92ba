/* A command's output sent to a file: `CMD > FILE` and `CMD >> FILE`. */
#ifndef KERNEL_SHELL_REDIRECT_H
#define KERNEL_SHELL_REDIRECT_H

#include "kernel/cmd_output.h"
#include "lib/types.h"

/* Bytes gathered before one write to the file: what a command prints in
 * one go (echo's line, one page of cat) reaches the file as one write,
 * as through a Linux pipe, so that a generated file's write handler sees
 * a whole value. */
#define REDIRECT_BUF_SIZE 4096

struct redirect {
	struct cmd_stream stream;
	struct file *file;
	loff_t pos;
	int err;		/* the first write the file refused, or 0 */
	size_t len;		/* bytes waiting in buf */
	char buf[REDIRECT_BUF_SIZE];
};

/* Open path for a command's output: made if missing, and emptied
 * (append false) or written at its end (append true). Returns 0 with
 * r->stream ready to be the command's standard output, or a negative
 * errno. */
int redirect_open(struct redirect *r, const char *path, bool append);

/* Write what is still gathered and close the file. Returns 0, or the
 * error of the first write the file refused: from then on the command's
 * output was dropped. */
int redirect_close(struct redirect *r);

#endif
