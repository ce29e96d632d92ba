/* A pipe between two commands of a pipeline: a standard output
 * (kernel/cmd_output.h) that keeps what the first command prints, in a
 * buffer that grows, for the next command to read once the first has
 * returned (pipeline.c). */
#ifndef KERNEL_SHELL_PIPE_H
#define KERNEL_SHELL_PIPE_H

#include "kernel/cmd_output.h"
#include "lib/types.h"

/* The most a pipe holds. A Linux pipe streams, so it never fills; this
 * one keeps a command's whole output in memory, and the bound keeps a
 * runaway command (seq 1 100000000) from taking all of it. */
#define PIPE_MAX ((size_t)8 << 20)

struct pipe {
	struct cmd_stream stream;
	char *buf;		/* kmalloc'd; NULL while empty */
	size_t len, size;	/* bytes kept, and the buffer's size */
	int err;		/* the first write refused, or 0 */
};

/* An empty pipe, ready to be a command's standard output (&pipe->stream). */
void pipe_init(struct pipe *pipe);

/* Free the pipe's buffer; it is empty again. */
void pipe_free(struct pipe *pipe);

#endif
