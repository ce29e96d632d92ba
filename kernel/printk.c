/*
 * Kernel messages: printed on the console and written into the kernel
 * log (printk.h).
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
 * is printed with the next flush. A kernel message's own path (kprintf,
 * printk and what they call, down to the console and the log) is marked
 * NOKPROBE_SYMBOL, function by function: probe handlers print with it.
 *
 * The log. A kernel message is also cut into lines as it is formatted,
 * each gathered in a buffer of the message's own, on its stack, and
 * stored in kernel_log once its newline comes (a last line without one
 * at the end of the message). The log's lock is held only by code that
 * is never probed (log.c), so a handler stores its lines at once, even
 * when its console text is deferred: the log has them whole, in the
 * order they were made, and also the messages the deferred buffer had
 * no room for.
 */
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "lib/export.h"
#include "kernel/log.h"
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
NOKPROBE_SYMBOL(emit_raw);

/* Where one message is being appended to a deferred buffer. */
struct deferral {
	struct deferred *d;
	size_t start;		/* the buffer's length before this message */
	bool full;
};

static void defer_begin(struct deferral *c)
{
	c->d = &deferred[this_cpu()->id];
	c->start = c->d->len;
	c->full = false;
}
NOKPROBE_SYMBOL(defer_begin);

static void emit_deferred(struct deferral *c, const char *s, size_t len)
{
	if (c->full || len > DEFERRED_SIZE - c->d->len) {
		c->full = true;
		return;
	}
	/* A loop, not memcpy: this must not call probe-able code. */
	for (size_t i = 0; i < len; i++)
		c->d->buf[c->d->len + i] = s[i];
	c->d->len += len;
}
NOKPROBE_SYMBOL(emit_deferred);

/* No half messages: one that did not fit is taken out and counted. */
static void defer_end(struct deferral *c)
{
	if (c->full) {
		c->d->len = c->start;
		c->d->dropped++;
	}
}
NOKPROBE_SYMBOL(defer_end);

/* True if this CPU is in the middle of console output: a probe handler
 * interrupted it, and must not take the lock again. */
static bool console_busy_here(void)
{
	return !console_panicking && spin_is_held_here(&console_lock);
}
NOKPROBE_SYMBOL(console_busy_here);

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
NOKPROBE_SYMBOL(flush_deferred);

/* Never probed: between taking the lock's flag and recording this CPU as
 * its holder, a handler's print would not know it must defer. */
static unsigned long console_lock_take(void)
{
	return console_panicking ? arch_irq_save() : spin_lock_irqsave(&console_lock);
}
NOKPROBE_SYMBOL(console_lock_take);

static void console_lock_give(unsigned long flags)
{
	if (console_panicking) {
		arch_irq_restore(flags);
		return;
	}
	flush_deferred();
	spin_unlock_irqrestore(&console_lock, flags);
}
NOKPROBE_SYMBOL(console_lock_give);

void console_write(const char *s, size_t len)
{
	unsigned long flags;
	struct deferral c;

	if (unlikely(console_busy_here())) {
		defer_begin(&c);
		emit_deferred(&c, s, len);
		defer_end(&c);
		return;
	}
	flags = console_lock_take();
	emit_raw(NULL, s, len);
	console_lock_give(flags);
}
NOKPROBE_SYMBOL(console_write);

/* The line of a kernel message being gathered for the log. */
struct log_line {
	unsigned int level;
	size_t len;			/* characters kept; the rest of a long line is cut */
	char text[LOG_LINE_MAX];
};

/* Store the line gathered so far, if any: a blank line is no message. */
static void log_line_end(struct log_line *line)
{
	if (line->len)
		log_store(&kernel_log, line->level, line->text, line->len);
	line->len = 0;
}
NOKPROBE_SYMBOL(log_line_end);

static void log_line_add(struct log_line *line, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			log_line_end(line);
		else if (line->len < LOG_LINE_MAX)
			line->text[line->len++] = s[i];
	}
}
NOKPROBE_SYMBOL(log_line_add);

/* Where the text of one message goes, as vformat hands it over. */
struct message {
	struct deferral *defer;	/* NULL: the console, whose lock this CPU holds */
	struct log_line *line;	/* NULL: not logged */
};

static void emit_message(void *ctx, const char *s, size_t len)
{
	struct message *m = ctx;

	if (m->defer)
		emit_deferred(m->defer, s, len);
	else
		emit_raw(NULL, s, len);
	if (m->line)
		log_line_add(m->line, s, len);
}
NOKPROBE_SYMBOL(emit_message);

/* Format a message onto the console (or, while this CPU is in the middle
 * of console output, into its deferred buffer) and, unless line is NULL,
 * into the log. */
static int message_vprintf(struct log_line *line, const char *fmt, va_list ap)
{
	struct message m = { NULL, line };
	struct deferral c;
	unsigned long flags;
	int n;

	if (unlikely(console_busy_here())) {
		defer_begin(&c);
		m.defer = &c;
		n = vformat(emit_message, &m, fmt, ap);
		defer_end(&c);
	} else {
		flags = console_lock_take();
		n = vformat(emit_message, &m, fmt, ap);
		console_lock_give(flags);
	}
	if (line)
		log_line_end(line);
	return n;
}
NOKPROBE_SYMBOL(message_vprintf);

/* A kernel message at level. During a panic it is not logged: a CPU the
 * panic stopped may hold the log's lock, and nobody reads the log after. */
static int kernel_vprintf(unsigned int level, const char *fmt, va_list ap)
{
	struct log_line line;

	/* Fields set one by one: an initializer would clear the whole text,
	 * perhaps with a call to memset, which may be probed. */
	line.level = level;
	line.len = 0;
	return message_vprintf(console_panicking ? NULL : &line, fmt, ap);
}
NOKPROBE_SYMBOL(kernel_vprintf);

int console_vprintf(const char *fmt, va_list ap)
{
	return message_vprintf(NULL, fmt, ap);
}

int vkprintf(const char *fmt, va_list ap)
{
	return kernel_vprintf(LOG_DEFAULT_LEVEL, fmt, ap);
}
NOKPROBE_SYMBOL(vkprintf);

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vkprintf(fmt, ap);
	va_end(ap);
	return n;
}
NOKPROBE_SYMBOL(kprintf);

/* The level prefixes at the start of fmt: KERN_SOH and one level
 * character each (Linux allows KERN_CONT together with a level). Returns
 * the text after them and sets *level to the last level named, or to
 * LOG_DEFAULT_LEVEL. */
static const char *skip_levels(const char *fmt, unsigned int *level)
{
	*level = LOG_DEFAULT_LEVEL;
	while (fmt[0] == KERN_SOH_ASCII &&
	       ((fmt[1] >= '0' && fmt[1] <= '7') || fmt[1] == 'c' || fmt[1] == 'd')) {
		if (fmt[1] >= '0' && fmt[1] <= '7')
			*level = (unsigned int)(fmt[1] - '0');
		fmt += 2;
	}
	return fmt;
}
NOKPROBE_SYMBOL(skip_levels);

/*
 * Linux sends a message to the console when its level is more urgent
 * than the console log level, which by default lets through everything
 * but KERN_DEBUG, and keeps every message in its log for dmesg. Here
 * every level is printed, KERN_DEBUG too, as it was before there was a
 * log (pr_debug prints only where DEBUG is defined, so that is already a
 * choice of the module's); the log keeps the level. KERN_CONT needs
 * nothing on the console: messages are printed as they come, and none
 * gets a newline it did not ask for. In the log, a continued line is a
 * record of its own: each message's lines are gathered apart.
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
NOKPROBE_SYMBOL(linux_pointers);

int printk(const char *fmt, ...)
{
	char buf[256];
	unsigned int level;
	const char *text = skip_levels(fmt, &level);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kernel_vprintf(level, linux_pointers(text, buf, sizeof(buf)), ap);
	va_end(ap);
	return n;
}
NOKPROBE_SYMBOL(printk);
EXPORT_SYMBOL(printk);
