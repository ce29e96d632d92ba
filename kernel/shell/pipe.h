/* A pipe between two stages of a pipeline, each on its own thread
 * (pipeline.c): what the writer prints (its standard output,
 * kernel/cmd_output.h) goes into a fixed buffer, and the reader takes it
 * out as its standard input, while both run.
 *
 * It behaves as a Linux pipe: a reader waits until there are bytes, or
 * until the writer is gone (then it reads 0, the end of its input); a
 * writer waits until there is room; a write after the reader is gone is
 * refused with -EPIPE, and the writer's command stops there. Either
 * wait also ends, with -EINTR, when the waiting thread should stop
 * (cmd_should_stop): after a Ctrl-C, or when the shell hung its stage
 * up and woke the pipe (pipe_wake). */
#ifndef KERNEL_SHELL_PIPE_H
#define KERNEL_SHELL_PIPE_H

#include "kernel/cmd_output.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "lib/types.h"

/* What a pipe holds. One page: a writer runs at most this far ahead of
 * its reader, so `seq 1 100000000 | head -n 1` does a page of useless
 * work, not megabytes, and a long pipeline costs a page per pipe. It is
 * also room enough for the largest piece a command writes at once
 * (output_line's), so that a reader is woken for a full page, not for
 * every few bytes. */
#define PIPE_SIZE 4096

struct pipe {
	struct cmd_stream stream;	/* the write end */
	struct cmd_source source;	/* the read end */
	struct spinlock lock;		/* guards all below */
	/* The reader waiting for bytes and the writer waiting for room:
	 * one queue, as only one of them waits at a time. */
	struct wait_queue waiters;
	size_t head, len;		/* the bytes held: from buf[head], len of them */
	bool writer_gone, reader_gone;
	char buf[PIPE_SIZE];		/* a ring */
};

/* An empty pipe with both ends open. */
void pipe_init(struct pipe *pipe);

/* The writer is done: the reader reads what is left, then 0. */
void pipe_close_write(struct pipe *pipe);

/* The reader is done: the writer's next write fails with -EPIPE. */
void pipe_close_read(struct pipe *pipe);

/* Wake whoever waits on the pipe, so that it asks cmd_should_stop again:
 * the shell's call after it hung a stage up. */
void pipe_wake(struct pipe *pipe);

#endif
