/* Kernel messages. kprintf is the kernel's own print; printk is Linux's,
 * for modules. Either prints a kernel message: on the serial console
 * and, line by line, in the kernel log (kernel/log.h), which `dmesg`
 * shows. A command's output is not a kernel message: commands print
 * with cmd_printf and cmd_eprintf (kernel/cmd_output.h), to their
 * standard output and error. */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "lib/types.h"

/* Print a kernel message, formatted (see lib/format.h), at the default
 * level (LOG_DEFAULT_LEVEL). Returns the characters formatted. */
int kprintf(const char *fmt, ...) __printf(1, 2);
int vkprintf(const char *fmt, va_list ap);

/* Write raw bytes to the console: not a kernel message, not logged. */
void console_write(const char *s, size_t len);

/* Format text onto the console, not logged: for what is shown on the
 * console but is no kernel message (a command's output, cmd_output.h).
 * It is formatted under the console's lock, as a message is: another
 * CPU's text never splits it, and what a probe handler prints from
 * inside the formatting comes after it. Returns the characters
 * formatted. */
int console_vprintf(const char *fmt, va_list ap);

/* Log levels, as Linux writes them: the start-of-header byte and a digit
 * at the start of a format, e.g. printk(KERN_ERR "x failed\n"). */
#define KERN_SOH	"\001"
#define KERN_SOH_ASCII	'\001'
#define KERN_EMERG	KERN_SOH "0"	/* the system is unusable */
#define KERN_ALERT	KERN_SOH "1"	/* act at once */
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"	/* normal but worth noticing */
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_DEFAULT	KERN_SOH "d"	/* the default level */
#define KERN_CONT	KERN_SOH "c"	/* continues the previous line */

/* Linux's printk, for modules (include/linux/printk.h): a kernel
 * message, as kprintf's, logged at the format's level
 * (KERN_*; LOG_DEFAULT_LEVEL, kernel/log.h, if it names none). The
 * level prefix is not printed, and every level is printed on the
 * console, KERN_DEBUG included. Returns the characters printed. */
int printk(const char *fmt, ...) __printf(1, 2);

#endif
