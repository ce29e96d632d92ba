/*
 * Kernel console output: formatted text straight to the UART.
 *
 * A lock keeps the lines of different threads (and interrupt handlers)
 * from interleaving mid-line. panic() must print even if it interrupted
 * someone holding that lock, so it sets console_panicking and the lock is
 * then ignored: garbled output beats no output when the kernel is dying.
 */
#include "kernel/printk.h"
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "kernel/spinlock.h"
#include "lib/format.h"

static struct spinlock console_lock = SPINLOCK_INIT("console");
bool console_panicking;

/* Serial terminals want CR LF; the kernel writes plain \n. */
static void emit_raw(void *ctx, const char *s, size_t len)
{
	(void)ctx;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			arch_console_putc('\r');
		arch_console_putc(s[i]);
	}
}

static unsigned long console_lock_take(void)
{
	return console_panicking ? arch_irq_save() : spin_lock_irqsave(&console_lock);
}

static void console_lock_give(unsigned long flags)
{
	if (console_panicking)
		arch_irq_restore(flags);
	else
		spin_unlock_irqrestore(&console_lock, flags);
}

void console_write(const char *s, size_t len)
{
	unsigned long flags = console_lock_take();

	emit_raw(NULL, s, len);
	console_lock_give(flags);
}

int vkprintf(const char *fmt, va_list ap)
{
	unsigned long flags = console_lock_take();
	int n = vformat(emit_raw, NULL, fmt, ap);

	console_lock_give(flags);
	return n;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vkprintf(fmt, ap);
	va_end(ap);
	return n;
}
NOKPROBE_SYMBOL(emit_raw);
NOKPROBE_SYMBOL(console_write);
NOKPROBE_SYMBOL(vkprintf);
NOKPROBE_SYMBOL(kprintf);
