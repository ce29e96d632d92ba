/* cmd_printf and cmd_eprintf (kernel/cmd_output.h): the variadic faces of
 * cmd_vprintf, in a file of their own so that the host programs, which
 * make their own cmd_vprintf, share them (tests/host/cmd_output_host.c
 * includes this file). */
#include "kernel/cmd_output.h"

int cmd_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = cmd_vprintf(false, fmt, ap);
	va_end(ap);
	return n;
}

int cmd_eprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = cmd_vprintf(true, fmt, ap);
	va_end(ap);
	return n;
}
