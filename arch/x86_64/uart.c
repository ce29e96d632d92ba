/*
 * The 16550 UART on COM1: the console.
 *
 * Output is polled (wait until the transmit register is empty, write the
 * byte): simple, and it works in a panic with interrupts off. Input is by
 * interrupt: the UART raises IRQ 4 when bytes arrive and the handler
 * calls the console layer (kernel/console.c), which takes them with
 * arch_console_rx_byte, buffers them and wakes the reading thread.
 *
 * When the console's buffer is full it turns the receive interrupt off
 * (arch_console_rx_irq) and leaves the bytes in the UART. Its 16-byte
 * FIFO fills, and QEMU reads no more of its end of the serial line
 * while the FIFO is full: input waits instead of being lost. With the
 * interrupt off the UART's line to the PIC is low, so turning it back
 * on with bytes waiting makes the edge the PIC needs, and the console
 * takes them at once anyway.
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
#define IER_RX 0x01	/* interrupt on received data */

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
	outb(COM1 + REG_IER, IER_RX);
}

void arch_console_putc(char c)
{
	while (!(inb(COM1 + REG_LSR) & LSR_THR_EMPTY))
		;
	outb(COM1 + REG_DATA, (uint8_t)c);
}
NOKPROBE_SYMBOL(arch_console_putc);

int arch_console_rx_byte(void)
{
	if (!(inb(COM1 + REG_LSR) & LSR_DATA_READY))
		return -1;
	return inb(COM1 + REG_DATA);
}

void arch_console_rx_irq(bool on)
{
	outb(COM1 + REG_IER, on ? IER_RX : 0);
}

void uart_handle_irq(void)
{
	console_rx_interrupt();
}
