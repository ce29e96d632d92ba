/* Redirection: the command's standard output is this stream
 * (kernel/cmd_output.h), which gathers what the command prints and
 * writes it to the file a page at a time, each write ending at a line's
 * end where a line fits: the tracing files run each write line by line
 * (kprobe_events, as Linux's), so `cat defs > kprobe_events` must never
 * hand them a line cut in two. A write the file refuses is kept, and everything after it
 * dropped, so that a refused value changes nothing more and the shell
 * reports one line after the command (`echo: write error: Invalid
 * argument`, as from Linux's echo). */
#include "kernel/shell/redirect.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Hand what is gathered to the file. A file may take part of a write
 * (a short write): the rest is written again until all is taken. */
static void flush(struct redirect *r)
{
	size_t done = 0;

	while (done < r->len && r->err == 0) {
		ssize_t n = vfs_write(r->file, r->buf + done, r->len - done, &r->pos);

		if (n < 0)
			r->err = (int)n;
		else if (n == 0)
			r->err = -EIO;	/* took nothing: it would never end */
		else
			done += (size_t)n;
	}
	r->len = 0;
}

/* buf is full: write it up to its last newline and keep the rest, the
 * start of a line, for the next write. A line longer than buf goes in
 * pieces: there is no other way. */
static void flush_lines(struct redirect *r)
{
	size_t whole = r->len, rest;

	while (whole > 0 && r->buf[whole - 1] != '\n')
		whole--;
	if (whole == 0)
		whole = r->len;
	rest = r->len - whole;
	r->len = whole;
	flush(r);
	memmove(r->buf, r->buf + whole, rest);
	r->len = rest;
}

static ssize_t redirect_write(struct cmd_stream *s, const char *text, size_t len)
{
	struct redirect *r = container_of(s, struct redirect, stream);
	size_t done = 0;

	while (done < len && r->err == 0) {
		size_t n = MIN(len - done, sizeof(r->buf) - r->len);

		memcpy(r->buf + r->len, text + done, n);
		r->len += n;
		done += n;
		if (r->len == sizeof(r->buf))
			flush_lines(r);
	}
	return r->err ? r->err : (ssize_t)len;
}

int redirect_open(struct redirect *r, const char *path, bool append)
{
	int flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC);
	int err;

	r->stream.write = redirect_write;
	r->pos = 0;
	r->err = 0;
	r->len = 0;
	err = vfs_open(path, flags, &r->file);
	if (err < 0)
		return err;
	r->stream.file = r->file;
	return 0;
}

int redirect_close(struct redirect *r)
{
	flush(r);
	vfs_close(r->file);
	return r->err;
}
