/* printk and the pr_* helpers, as Linux modules use them.
 *
 * printk(KERN_INFO "text\n") prints on the console and keeps the line,
 * with its level, in the kernel log that dmesg shows (kernel/printk.c:
 * every level is printed). pr_info(fmt, ...) is
 * printk(KERN_INFO pr_fmt(fmt), ...): a file that defines pr_fmt before
 * its first #include gets a prefix on every message, e.g.
 *
 *	#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
 *
 * pr_debug prints only in a file compiled with DEBUG defined; otherwise
 * it prints nothing, but its format and arguments are still checked. */
#ifndef _LINUX_PRINTK_H
#define _LINUX_PRINTK_H

#include "kernel/backtrace.h"	/* dump_stack */
#include "kernel/printk.h"	/* printk, KERN_* */
#include "lib/format.h"		/* snprintf, vsnprintf */

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

/* Nothing printed, the format still checked against its arguments. */
#define no_printk(fmt, ...)                                                    \
	({                                                                     \
		if (0)                                                         \
			printk(fmt, ##__VA_ARGS__);                            \
		0;                                                             \
	})

#define pr_emerg(fmt, ...)  printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)  printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)   printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)    printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)   printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warning          pr_warn		/* the older name */
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)   printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
/* Continues the line of an earlier message: no pr_fmt prefix. */
#define pr_cont(fmt, ...)   printk(KERN_CONT fmt, ##__VA_ARGS__)

#ifdef DEBUG
#define pr_debug(fmt, ...)  printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...)  no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#endif

#endif
