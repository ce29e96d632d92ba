/* The console: output goes straight to the UART; input arrives by
 * interrupt into a ring buffer and is taken by the thread reading it,
 * and while the ring is full it waits in the UART (kernel/console.c). */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include "lib/types.h"

/* Called by the UART's receive interrupt handler: take the bytes the
 * UART holds (arch_console_rx_byte), as many as the input ring has room
 * for; if it fills, turn the receive interrupt off until the reader has
 * made room (flow control: the rest waits in the UART). */
void console_rx_interrupt(void);
/* Block the calling thread until a byte arrives, then return it. */
int console_getc(void);

#endif
