/* Code that runs once at boot, declared where it is written.
 *
 * late_initcall(fn), Linux's name, puts fn into the linker's table
 * .initcalls (see linker/); do_initcalls() runs every entry, in link
 * order, from the thread that then becomes the shell (kernel/main.c),
 * once the scheduler, RCU and every CPU are up: fn may sleep, allocate
 * and take mutexes. A subsystem declares its files in /proc, /sys and
 * debugfs this way, next to the code that makes them, with no central
 * list naming them. The pseudo filesystems are mounted after the
 * initcalls have run; their files can be made before. */
#ifndef KERNEL_INITCALL_H
#define KERNEL_INITCALL_H

#include "lib/types.h"

/* Returns 0, or a negative errno, which is printed; boot goes on. */
typedef int (*initcall_t)(void);

#define late_initcall(fn)                                                      \
	static const initcall_t initcall_##fn                                  \
		__used __section(".initcalls") __aligned(8) = fn

/* Bounds of the table, set by the linker script. */
extern const initcall_t __start_initcalls[], __stop_initcalls[];

/* Run every initcall once, in a thread, and print those that fail. */
void do_initcalls(void);

#endif
