/* Kernel console output. Everything goes to the serial console. */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "lib/types.h"

/* Print formatted text (see lib/format.h) on the console. */
int kprintf(const char *fmt, ...) __printf(1, 2);
int vkprintf(const char *fmt, va_list ap);
/* Write raw bytes to the console. */
void console_write(const char *s, size_t len);

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

/* Linux's printk, for modules (include/linux/printk.h): kprintf after
 * the format's level prefix (KERN_*), if it has one, is removed. Every
 * level is printed, KERN_DEBUG included. Returns the characters printed. */
int printk(const char *fmt, ...) __printf(1, 2);

#endif
