/* A command's two streams (kernel/cmd_output.h) on the host, for the
 * host programs that run command code: cmd_vprintf (under the kernel's
 * own cmd_printf and cmd_eprintf, kernel/cmd_printf.c) and cmd_write,
 * each handing its bytes to host_output, which the program
 * that includes this file defines before it (with error true for
 * standard error). host_output returns len, or a negative errno that
 * the call returns, as a full pipe's write is refused. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static ssize_t host_output(bool error, const char *buf, size_t len);

/* Formatted into a buffer as big as a tool's output may be: a file's
 * name in a message may be as long as a line. */
int cmd_vprintf(bool error, const char *fmt, va_list ap)
{
	static char text[1 << 18];
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	ssize_t err;

	if (n >= (int)sizeof(text))
		return -EFBIG;
	err = host_output(error, text, (size_t)n);
	return err < 0 ? (int)err : n;
}

#include "kernel/cmd_printf.c"

/* The tools' output is no file here. */
struct file *cmd_output_file(void)
{
	return NULL;
}

ssize_t cmd_write(const void *buf, size_t len)
{
	return host_output(false, buf, len);
}
