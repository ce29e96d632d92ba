/* Stopping the machine when the kernel cannot go on (kernel/panic.c). */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include "lib/types.h"

/* Stop the machine after printing a message, the registers of the
 * current trap (if any) and a backtrace. */
__noreturn void panic(const char *fmt, ...) __printf(1, 2);

#endif
