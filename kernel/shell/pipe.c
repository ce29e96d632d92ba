/* The pipe's stream: see pipe.h. The buffer doubles when full, from a
 * page up to PIPE_MAX, so that a command's output of n bytes is copied
 * O(n) times in all. A write past PIPE_MAX, or one that finds no memory,
 * is refused (-EFBIG, -ENOMEM), as is every write after a Ctrl-C
 * (-EINTR): cmd_printf then returns the error, and a command that checks
 * it stops printing. The error is kept for the pipeline runner, which
 * stops the pipeline there. */
#include "kernel/shell/pipe.h"
#include "kernel/console.h"
#include "kernel/mm/heap.h"
#include "lib/errno.h"
#include "lib/string.h"

#define PIPE_FIRST_SIZE 4096

/* Make room for need bytes in all. */
static int pipe_grow(struct pipe *pipe, size_t need)
{
	size_t size = pipe->size ? pipe->size : PIPE_FIRST_SIZE;
	char *bigger;

	if (need > PIPE_MAX)
		return -EFBIG;
	while (size < need)
		size *= 2;
	bigger = kmalloc(MIN(size, PIPE_MAX));
	if (!bigger)
		return -ENOMEM;
	if (pipe->len)
		memcpy(bigger, pipe->buf, pipe->len);
	kfree(pipe->buf);
	pipe->buf = bigger;
	pipe->size = MIN(size, PIPE_MAX);
	return 0;
}

static ssize_t pipe_write(struct cmd_stream *s, const char *text, size_t len)
{
	struct pipe *pipe = container_of(s, struct pipe, stream);

	if (!pipe->err && console_interrupted())
		pipe->err = -EINTR;
	if (!pipe->err && pipe->len + len > pipe->size)
		pipe->err = pipe_grow(pipe, pipe->len + len);
	if (pipe->err)
		return pipe->err;
	memcpy(pipe->buf + pipe->len, text, len);
	pipe->len += len;
	return (ssize_t)len;
}

void pipe_init(struct pipe *pipe)
{
	*pipe = (struct pipe){ .stream = { .write = pipe_write } };
}

void pipe_free(struct pipe *pipe)
{
	kfree(pipe->buf);
	pipe_init(pipe);
}
