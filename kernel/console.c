/*
 * Console input: the UART interrupt handler puts bytes into a ring buffer
 * and wakes whoever waits in console_getc. If the buffer is full the byte
 * is dropped (a person cannot type faster than the shell reads, and a
 * program pasting into the serial line gets what fits).
 */
#include "kernel/console.h"
#include "kernel/nokprobe.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"

#define INPUT_BUF_SIZE 1024

static struct {
	uint8_t buf[INPUT_BUF_SIZE];
	size_t head;	/* next byte to read */
	size_t count;
} input;
static struct spinlock input_lock = SPINLOCK_INIT("console input");
static struct wait_queue input_waiters = WAIT_QUEUE_INIT(input_waiters);

void console_input(uint8_t byte)
{
	unsigned long flags = spin_lock_irqsave(&input_lock);

	if (input.count < INPUT_BUF_SIZE) {
		input.buf[(input.head + input.count) % INPUT_BUF_SIZE] = byte;
		input.count++;
	}
	spin_unlock_irqrestore(&input_lock, flags);
	wait_queue_wake_all(&input_waiters);
}

int console_getc(void)
{
	unsigned long flags = spin_lock_irqsave(&input_lock);
	int c;

	while (input.count == 0)
		wait_queue_wait(&input_waiters, &input_lock);
	c = input.buf[input.head];
	input.head = (input.head + 1) % INPUT_BUF_SIZE;
	input.count--;
	spin_unlock_irqrestore(&input_lock, flags);
	return c;
}
NOKPROBE_SYMBOL(console_input);
