/* The console: output goes straight to the UART; input arrives by
 * interrupt into a ring buffer and is taken by the thread reading it. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include "lib/types.h"

/* Called by the UART interrupt handler for each received byte. */
void console_input(uint8_t byte);
/* Block the calling thread until a byte arrives, then return it. */
int console_getc(void);

#endif
