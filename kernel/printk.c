/*
 * Kernel console output: formatted text straight to the UART.
 *
 * A lock keeps the lines of different threads (and interrupt handlers)
 * from interleaving mid-line. panic() must print even if it interrupted
 * someone holding that lock, so it sets console_panicking and the lock is
 * then ignored: garbled output beats no output when the kernel is dying.
 *
 * Printing from a probe handler. A handler runs wherever its probe fired,
 * which may be inside the console code, on a CPU that holds console_lock
 * with interrupts off. Taking the lock again would wait for ever. So a
 * message printed while this CPU holds the lock is formatted into this
 * CPU's deferred buffer instead, and printed when the CPU gives the lock
 * back, after the text it was in the middle of: in order. While it prints
 * them, probe hits on this CPU are missed (nokprobe_begin), so that a
 * printing probe on the console's own path cannot feed itself for ever. A
 * message that does not fit is dropped whole and counted, and the count
 * is printed with the next flush.
 */
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "lib/export.h"
#include "kernel/nokprobe.h"
#include "kernel/spinlock.h"
#include "lib/format.h"

#define DEFERRED_SIZE 4096

static struct spinlock console_lock = SPINLOCK_INIT("console");
bool console_panicking;

/* Each CPU's messages from handlers that interrupted its console output;
 * only that CPU touches its own, with interrupts off. */
static struct deferred {
	char buf[DEFERRED_SIZE];
	size_t len;
	unsigned long dropped;	/* messages that did not fit */
} deferred[MAX_CPUS];

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

/* Where one message is being appended to a deferred buffer. */
struct deferral {
	struct deferred *d;
	size_t start;		/* the buffer's length before this message */
	bool full;
};

static void emit_deferred(void *ctx, const char *s, size_t len)
{
	struct deferral *c = ctx;

	if (c->full || len > DEFERRED_SIZE - c->d->len) {
		c->full = true;
		return;
	}
	/* A loop, not memcpy: this must not call probe-able code. */
	for (size_t i = 0; i < len; i++)
		c->d->buf[c->d->len + i] = s[i];
	c->d->len += len;
}

/* True if this CPU is in the middle of console output: a probe handler
 * interrupted it, and must not take the lock again. */
static bool console_busy_here(void)
{
	return !console_panicking && spin_is_held_here(&console_lock);
}

static int defer_vformat(const char *fmt, va_list ap)
{
	struct deferral c = { &deferred[this_cpu()->id], 0, false };
	int n;

	c.start = c.d->len;
	n = vformat(emit_deferred, &c, fmt, ap);
	if (c.full) {
		c.d->len = c.start;	/* no half messages */
		c.d->dropped++;
	}
	return n;
}

/* Print this CPU's deferred messages, with the lock held. Appends while
 * it prints (a kretprobe's return handler is not a missed hit) are
 * printed too, before the buffer is emptied. */
static void flush_deferred(void)
{
	struct deferred *d = &deferred[this_cpu()->id];
	size_t done = 0;

	if (!d->len && !d->dropped)
		return;
	nokprobe_begin();
	while (done < d->len) {
		size_t end = d->len;

		emit_raw(NULL, d->buf + done, end - done);
		done = end;
	}
	d->len = 0;
	if (d->dropped) {
		char line[80];
		int n = snprintf(line, sizeof(line),
				 "printk: %lu messages from probe handlers dropped\n", d->dropped);

		emit_raw(NULL, line, (size_t)n);
		d->dropped = 0;
	}
	nokprobe_end();
}

static unsigned long console_lock_take(void)
{
	return console_panicking ? arch_irq_save() : spin_lock_irqsave(&console_lock);
}

static void console_lock_give(unsigned long flags)
{
	if (console_panicking) {
		arch_irq_restore(flags);
		return;
	}
	flush_deferred();
	spin_unlock_irqrestore(&console_lock, flags);
}

void console_write(const char *s, size_t len)
{
	unsigned long flags;
	struct deferral c = { &deferred[this_cpu()->id], 0, false };

	if (unlikely(console_busy_here())) {
		c.start = c.d->len;
		emit_deferred(&c, s, len);
		c.d->dropped += c.full;
		return;
	}
	flags = console_lock_take();
	emit_raw(NULL, s, len);
	console_lock_give(flags);
}

int vkprintf(const char *fmt, va_list ap)
{
	unsigned long flags;
	int n;

	if (unlikely(console_busy_here()))
		return defer_vformat(fmt, ap);
	flags = console_lock_take();
	n = vformat(emit_raw, NULL, fmt, ap);
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
/* The level prefixes at the start of fmt: KERN_SOH and one level
 * character each (Linux allows KERN_CONT together with a level). */
static const char *skip_levels(const char *fmt)
{
	while (fmt[0] == KERN_SOH_ASCII &&
	       ((fmt[1] >= '0' && fmt[1] <= '7') || fmt[1] == 'c' || fmt[1] == 'd'))
		fmt += 2;
	return fmt;
}

/*
 * Linux sends a message to the console when its level is more urgent
 * than the console log level, which by default lets through everything
 * but KERN_DEBUG. There is no log buffer here to read later with dmesg,
 * so a message not printed would be lost: every level is printed,
 * KERN_DEBUG too (pr_debug prints only where DEBUG is defined, so that is
 * already a choice of the module's). KERN_CONT needs nothing either:
 * messages are printed as they come, and none gets a newline it did not
 * ask for.
 */
/*
 * Linux prints a bare %p as hex digits with no 0x (hashed, unless booted
 * with no_hash_pointers), so modules write "0x%p"; the kernel's own %p
 * (lib/format.c) adds the 0x. For modules, printk turns each bare %p
 * into %016lx: the address unhashed, as in a teaching kernel it should
 * be, and read as Linux would print it. A format longer than the buffer
 * is printed as it is.
 */
static const char *linux_pointers(const char *fmt, char *buf, size_t size)
{
	size_t n = 0;

	for (const char *f = fmt; *f; f++) {
		bool bare_p = f[0] == '%' && f[1] == 'p' &&
			      !((f[2] >= 'a' && f[2] <= 'z') || (f[2] >= 'A' && f[2] <= 'Z'));
		const char *put = bare_p ? "%016lx" : f[0] == '%' && f[1] == '%' ? "%%" : NULL;
		size_t len = put ? strlen(put) : 1;

		if (n + len >= size)
			return fmt;
		memcpy(buf + n, put ? put : f, len);
		n += len;
		f += put ? 1 : 0;
	}
	buf[n] = '\0';
	return buf;
}

int printk(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vkprintf(linux_pointers(skip_levels(fmt), buf, sizeof(buf)), ap);
	va_end(ap);
	return n;
}
EXPORT_SYMBOL(printk);

NOKPROBE_SYMBOL(emit_raw);
NOKPROBE_SYMBOL(emit_deferred);
NOKPROBE_SYMBOL(console_busy_here);
NOKPROBE_SYMBOL(defer_vformat);
NOKPROBE_SYMBOL(flush_deferred);
/* Between taking the lock's flag and recording this CPU as its holder, a
 * handler's print would not know it must defer. */
NOKPROBE_SYMBOL(console_lock_take);
NOKPROBE_SYMBOL(console_lock_give);
NOKPROBE_SYMBOL(console_write);
NOKPROBE_SYMBOL(vkprintf);
NOKPROBE_SYMBOL(kprintf);
/* Like kprintf: probe handlers print with it. */
NOKPROBE_SYMBOL(skip_levels);
NOKPROBE_SYMBOL(linux_pointers);
NOKPROBE_SYMBOL(printk);
