/* Kernel console output. Everything goes to the serial console. */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "lib/types.h"

/* Print formatted text (see lib/format.h) on the console. */
int kprintf(const char *fmt, ...) __printf(1, 2);
int vkprintf(const char *fmt, va_list ap);
/* Write raw bytes to the console. */
void console_write(const char *s, size_t len);

#endif
