/*
 * The 16550 UART on COM1: the console.
 *
 * Output is polled (wait until the transmit register is empty, write the
 * byte): simple, and it works in a panic with interrupts off. Input is by
 * interrupt: the UART raises IRQ 4 when a byte arrives and the handler
 * hands every waiting byte to the console layer (kernel/console.c), which
 * buffers it and wakes the reading thread.
 */
#include "kernel/arch.h"
#include "kernel/console.h"
#include "kernel/nokprobe.h"
#include <asm/io.h>

#define COM1 0x3f8
#define REG_DATA 0
#define REG_IER  1	/* interrupt enable */
#define REG_FCR  2	/* FIFO control */
#define REG_LCR  3	/* line control */
#define REG_MCR  4	/* modem control */
#define REG_LSR  5	/* line status */
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY  0x20

void arch_console_init(void)
{
	outb(COM1 + REG_IER, 0x00);
	outb(COM1 + REG_LCR, 0x80);	/* divisor latch on */
	outb(COM1 + REG_DATA, 1);	/* 115200 baud */
	outb(COM1 + REG_IER, 0);
	outb(COM1 + REG_LCR, 0x03);	/* 8 bits, no parity, 1 stop */
	outb(COM1 + REG_FCR, 0xc7);	/* FIFOs on and cleared */
	/* DTR, RTS, and OUT2, which gates the UART's line to the PIC. */
	outb(COM1 + REG_MCR, 0x0b);
	outb(COM1 + REG_IER, 0x01);	/* interrupt on received data */
}

void arch_console_putc(char c)
{
	while (!(inb(COM1 + REG_LSR) & LSR_THR_EMPTY))
		;
	outb(COM1 + REG_DATA, (uint8_t)c);
}

void uart_handle_irq(void)
{
	while (inb(COM1 + REG_LSR) & LSR_DATA_READY)
		console_input(inb(COM1 + REG_DATA));
}
NOKPROBE_SYMBOL(arch_console_putc);
