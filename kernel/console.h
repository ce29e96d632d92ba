/* The console: output goes straight to the UART; input arrives by
 * interrupt into a ring buffer and is taken by the thread reading it,
 * and while the ring is full it waits in the UART (kernel/console.c).
 * A Ctrl-C asks the running command to stop. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include "lib/types.h"

/* Called by the UART's receive interrupt handler: take the bytes the
 * UART holds (arch_console_rx_byte), as many as the input ring has room
 * for; if it fills, turn the receive interrupt off until the reader has
 * made room (flow control: the rest waits in the UART). */
void console_rx_interrupt(void);
/* Block the calling thread until a byte arrives, then return it. A
 * Ctrl-C comes before any byte typed after it. */
int console_getc(void);

/* Ctrl-C (byte 0x03) is no ordinary input, as on a Linux terminal: it
 * drops what was typed before it and not yet read, and is noted as a
 * request to stop. A running command polls the request with
 * console_interrupted() and stops; the shell takes it after the
 * command (console_interrupt_take); with no command running, the line
 * editor reads it from console_getc() as the byte 0x03 (abandon the
 * line). */
bool console_interrupted(void);
/* Clear the request; returns true if there was one. */
bool console_interrupt_take(void);

#endif
