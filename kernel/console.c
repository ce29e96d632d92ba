/*
 * Console input: the UART interrupt handler calls console_rx_interrupt,
 * which moves the bytes the UART received into a ring buffer and wakes
 * whoever waits in console_getc.
 *
 * Nothing is ever dropped, however fast input comes (a program pasting
 * a page of commands into the serial line): when the ring is full, the
 * console stops taking bytes from the UART and turns its receive
 * interrupt off (flow control). The bytes then wait in the UART, whose
 * receiver fills up, and a full receiver makes the other end wait (QEMU
 * stops reading its end of the serial line, so the writing program
 * blocks). Once console_getc has taken half of the ring, it turns the
 * interrupt back on and empties the UART itself: a byte that came in
 * while the interrupt was off raised no interrupt, and would otherwise
 * wait until another one did. (Resuming at half, not at the first free
 * byte, switches the interrupt once per half ring, not once per byte.)
 *
 * Every read of the UART's receiver happens here, under input_lock: the
 * interrupt may be taken on one CPU while the shell reads on another,
 * and two CPUs emptying the UART at once could store its bytes out of
 * order.
 *
 * Ctrl-C. A running command does not read the console: a Ctrl-C left in
 * the ring would wait there until the command ended, too late to stop
 * it. So the receiving code takes it out of the byte stream, as Linux's
 * terminal turns it into SIGINT: it sets interrupt_requested, which the
 * command's loops poll, and drops the bytes typed before it that nobody
 * has read (Linux's terminal flushes them too). It is seen as soon as
 * it leaves the UART, which is at once unless more than a ring of input
 * was typed ahead (flow control, above).
 */
#include "kernel/arch.h"
#include "kernel/console.h"
#include "kernel/nokprobe.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"

#define INPUT_BUF_SIZE 1024
#define RESUME_AT (INPUT_BUF_SIZE / 2)	/* bytes left when receiving resumes */

static struct {
	uint8_t buf[INPUT_BUF_SIZE];
	size_t head;	/* next byte to read */
	size_t count;
	bool stopped;	/* the ring filled: the receive interrupt is off */
} input;
static struct spinlock input_lock = SPINLOCK_INIT("console input");

#define CTRL_C 0x03

/* A Ctrl-C came and was not taken yet. Set under input_lock; read
 * without it by the polling commands. */
static bool interrupt_requested;
static struct wait_queue input_waiters = WAIT_QUEUE_INIT(input_waiters);

/* A Ctrl-C arrived: note it, and drop the unread input before it. If
 * the ring had filled, receiving was stopped; now it is empty, so start
 * again (console_getc would wait for ever on an empty ring). Called with
 * input_lock held. */
static void interrupt(void)
{
	__atomic_store_n(&interrupt_requested, true, __ATOMIC_RELAXED);
	input.count = 0;
	if (input.stopped) {
		input.stopped = false;
		arch_console_rx_irq(true);
	}
}
NOKPROBE_SYMBOL(interrupt);

/* Move bytes from the UART into the ring until the UART is empty or the
 * ring full; in the second case stop receiving. Called with input_lock
 * held. */
static void take_from_uart(void)
{
	int c;

	while (input.count < INPUT_BUF_SIZE) {
		c = arch_console_rx_byte();
		if (c < 0)
			return;
		if (c == CTRL_C) {
			interrupt();
			continue;
		}
		input.buf[(input.head + input.count) % INPUT_BUF_SIZE] = (uint8_t)c;
		input.count++;
	}
	if (!input.stopped) {
		input.stopped = true;
		arch_console_rx_irq(false);
	}
}
NOKPROBE_SYMBOL(take_from_uart);

void console_rx_interrupt(void)
{
	unsigned long flags = spin_lock_irqsave(&input_lock);

	take_from_uart();
	spin_unlock_irqrestore(&input_lock, flags);
	wait_queue_wake_all(&input_waiters);
}
NOKPROBE_SYMBOL(console_rx_interrupt);

int console_getc(void)
{
	unsigned long flags = spin_lock_irqsave(&input_lock);
	int c;

	while (input.count == 0 && !interrupt_requested)
		wait_queue_wait(&input_waiters, &input_lock);
	if (interrupt_requested) {
		__atomic_store_n(&interrupt_requested, false, __ATOMIC_RELAXED);
		spin_unlock_irqrestore(&input_lock, flags);
		return CTRL_C;
	}
	c = input.buf[input.head];
	input.head = (input.head + 1) % INPUT_BUF_SIZE;
	input.count--;
	/* Interrupt on first, then empty the UART: a byte that arrives
	 * after the last read raises the interrupt. Nobody else waits for
	 * these bytes: a reader sleeps only while the ring is empty. */
	if (input.stopped && input.count <= RESUME_AT) {
		input.stopped = false;
		arch_console_rx_irq(true);
		take_from_uart();
	}
	spin_unlock_irqrestore(&input_lock, flags);
	return c;
}

bool console_interrupted(void)
{
	return __atomic_load_n(&interrupt_requested, __ATOMIC_RELAXED);
}

bool console_interrupt_take(void)
{
	unsigned long flags = spin_lock_irqsave(&input_lock);
	bool requested = interrupt_requested;

	__atomic_store_n(&interrupt_requested, false, __ATOMIC_RELAXED);
	spin_unlock_irqrestore(&input_lock, flags);
	return requested;
}
