/* Printing. kprintf is the kernel's own print; printk is Linux's, for
 * modules. What they print is either a kernel message or a command's
 * output:
 *
 * - A kernel message goes to the serial console and, line by line, to
 *   the kernel log (kernel/log.h), which `dmesg` shows.
 * - A thread may name an output sink for its kprintf text
 *   (printk_set_sink); the shell sets one while a command runs, since a
 *   command's output is not a kernel message. That text then goes to the
 *   sink only: not to the log, and to the console only if the sink
 *   writes there.
 *
 * kprintf's text goes to the running thread's sink when it has one and
 * the text is that thread's own: not printed from an interrupt handler,
 * from a probe handler (this CPU's handler_context.handler_state is not
 * zero, kernel/cpu.h) or during a panic. Otherwise, and always for
 * printk, it is a kernel message. A thread with no sink (boot code,
 * workers, the shell between commands if it set none) prints kernel
 * messages. */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "lib/types.h"

struct file;

/* Print formatted text (see lib/format.h): to this thread's sink, or as
 * a kernel message (above). Returns the characters formatted, or the
 * first error the sink returned (negative errno; the rest of the text is
 * not sent to it). */
int kprintf(const char *fmt, ...) __printf(1, 2);
int vkprintf(const char *fmt, va_list ap);
/* Write raw bytes to the console: not a kernel message, not logged. */
void console_write(const char *s, size_t len);
/* Write raw bytes (data, not a format: they may hold a NUL or a '%')
 * where this thread's kprintf text goes: its sink, or else the console,
 * unlogged. Returns len, or the sink's negative errno. */
ssize_t kwrite(const char *buf, size_t len);

/* Where a thread's kprintf text goes. write takes len bytes and returns
 * len, or a negative errno if it could not take them all; kprintf then
 * sends nothing more of that call and returns the error. A sink that
 * must report an error later (a file closed after the command) keeps it
 * itself. kprintf calls write only from the thread's own code, never
 * from a handler, with chunks of a message (a short message in one). */
struct out_sink {
	ssize_t (*write)(struct out_sink *sink, const char *buf, size_t len);
	/* The file the text is written into (a shell redirection's), NULL
	 * for the console or a pipe: what a command compares the files it
	 * reads with, as GNU cat refuses to append a file to itself. */
	struct file *file;
};

/* The console, unlogged. kprintf formats for it straight onto the
 * console under the console's lock, as for a kernel message: a message
 * is never split by another CPU's, and what a probe handler prints from
 * inside the formatting comes after it (printk.c). Its write is
 * console_write. */
extern struct out_sink console_sink;

/* Send the calling thread's kprintf text to sink (NULL: kernel messages
 * again). Returns the sink it had, for the caller to put back. Only the
 * thread itself sets its sink. */
struct out_sink *printk_set_sink(struct out_sink *sink);

/* Whether this thread's kprintf text goes to the console (no sink, or
 * console_sink) rather than into a file or a pipe: a command that ends
 * a partial line for the prompt's sake does it only there, so that a
 * file it copies arrives byte for byte. */
bool kprintf_to_console(void);

/* The file this thread's kprintf text goes into (its sink's file), or
 * NULL for the console, a pipe, or none. */
struct file *kprintf_output_file(void);

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

/* Linux's printk, for modules (include/linux/printk.h): always a kernel
 * message, even from a thread with a sink, logged at the format's level
 * (KERN_*; LOG_DEFAULT_LEVEL, kernel/log.h, if it names none). The
 * level prefix is not printed, and every level is printed on the
 * console, KERN_DEBUG included. Returns the characters printed. */
int printk(const char *fmt, ...) __printf(1, 2);

#endif
