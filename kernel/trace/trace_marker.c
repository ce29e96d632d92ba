/*
 * /sys/kernel/tracing/trace_marker: a line written here becomes a
 * record of its own, which `trace` shows as Linux does:
 *
 *	              sh-1       [000] .....    12.345678: tracing_mark_write: hi
 *
 * One write is one record; a trailing newline is not kept, and a write
 * longer than a record holds is cut to fit (Linux cuts at its own
 * bound too). The file is write-only, as on Linux; a write while
 * tracing is off is taken and dropped, as Linux drops it.
 */
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "kernel/trace/trace.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"

static ssize_t marker_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	size_t len = MIN(count, (size_t)TRACE_BODY_MAX);

	(void)file;
	(void)pos;
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	trace_write(TRACE_TYPE_PRINT, buf, len);
	return (ssize_t)count;
}

static int marker_print(const struct trace_kind *kind, char *line, size_t size, const void *body,
			size_t len)
{
	(void)kind;
	return snprintf(line, size, "tracing_mark_write: %.*s", (int)len, (const char *)body);
}
TRACE_KIND(TRACE_TYPE_PRINT, marker_print);

static const struct file_operations marker_fops = {
	.write = marker_write,
};

static int trace_marker_init(void)
{
	return PTR_ERR_OR_ZERO(tracefs_create_file("trace_marker", 0220, NULL, NULL, &marker_fops));
}
late_initcall(trace_marker_init);
