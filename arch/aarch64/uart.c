/*
 * The PL011 UART of QEMU virt: the console.
 *
 * Output is polled (wait while the transmitter is full, write the byte):
 * simple, and it works in a panic with interrupts off. Input is by
 * interrupt: the UART raises its interrupt when a byte arrives (RXIM),
 * and the handler calls the console layer (kernel/console.c), which
 * takes the bytes with arch_console_rx_byte, buffers them and wakes the
 * reading thread.
 *
 * The FIFOs stay off, so the receiver holds one byte. QEMU keeps the
 * rest of the input back until that byte is read, so nothing typed is
 * ever dropped - not even keys typed during boot, which switching the
 * FIFOs on would throw away (QEMU's PL011 empties its receiver then).
 * One interrupt per key is nothing for a console. The console's flow
 * control relies on the same: while its buffer is full it leaves the
 * byte in the receiver, and QEMU holds back the rest. It masks the
 * receive interrupt meanwhile (arch_console_rx_irq): the interrupt is
 * level-triggered, and an unread byte would raise it again and again.
 *
 * The baud rate is left as the firmware (here: QEMU, which ignores it)
 * set it; real hardware would need the UART clock from the device tree.
 */
#include "boot/aarch64/fdt_boot.h"
#include "kernel/arch.h"
#include "kernel/console.h"
#include "kernel/nokprobe.h"
#include <asm/gic.h>
#include <asm/io.h>

#define UART_DR   0x000	/* data */
#define UART_FR   0x018	/* flags */
#define UART_LCRH 0x02c	/* line control */
#define UART_CR   0x030	/* control */
#define UART_IMSC 0x038	/* interrupt mask: 1 = enabled */
#define UART_ICR  0x044	/* interrupt clear */

#define FR_BUSY  (1 << 3)
#define FR_RXFE  (1 << 4)	/* receive FIFO empty */
#define FR_TXFF  (1 << 5)	/* transmit FIFO full */
#define LCRH_WLEN_8 (3 << 5)
#define CR_UARTEN (1 << 0)
#define CR_TXE   (1 << 8)
#define CR_RXE   (1 << 9)
#define INT_RX   (1 << 4)
#define INT_ALL  0x7ff

static uint8_t *uart;

void arch_console_init(void)
{
	uart = ioremap(fdt_devices()->uart_base, 0x1000);
	/* Disable, let the last byte go, then configure and enable. */
	writel(0, uart + UART_CR);
	while (readl(uart + UART_FR) & FR_BUSY)
		;
	writel(LCRH_WLEN_8, uart + UART_LCRH);	/* 8N1, FIFOs off (above) */
	writel(INT_ALL, uart + UART_ICR);
	writel(INT_RX, uart + UART_IMSC);
	writel(CR_UARTEN | CR_TXE | CR_RXE, uart + UART_CR);
	/* A key typed during boot may be waiting, its interrupt just
	 * cleared: take it now. The next one raises the interrupt. */
	uart_handle_irq();
}

void arch_console_putc(char c)
{
	while (readl(uart + UART_FR) & FR_TXFF)
		;
	writel((uint8_t)c, uart + UART_DR);
}
NOKPROBE_SYMBOL(arch_console_putc);

int arch_console_rx_byte(void)
{
	if (readl(uart + UART_FR) & FR_RXFE)
		return -1;
	return (uint8_t)readl(uart + UART_DR);
}

void arch_console_rx_irq(bool on)
{
	writel(on ? INT_RX : 0, uart + UART_IMSC);
}

/* Clear the interrupt first, then let the console empty the receiver: a
 * byte that arrives after the last read raises the interrupt again.
 * (Clearing last could clear the interrupt of a byte that came in
 * meanwhile and leave it waiting, and QEMU holding back everything after
 * it.) */
void uart_handle_irq(void)
{
	writel(INT_RX, uart + UART_ICR);
	console_rx_interrupt();
}
