/*
 * Deliberate crashes, asked for on the kernel command line as crash=KIND.
 *
 * They exist so that the boot tests (tests/boot/crash_tests.py) can check
 * what a panic prints - the cause, the registers, a symbolized backtrace -
 * and so that a student can boot one and read a panic at leisure. Each
 * crash happens in a function of its own, two calls below kmain (or, for
 * the stack kinds, in a thread of its own), so the backtrace has something
 * to show. They run once interrupts are set up, as starting a thread
 * needs. Nothing typed at the shell reaches this code.
 *
 *   crash=trap           an undefined instruction (__builtin_trap)
 *   crash=text-write     a store into kernel text, which W^X forbids
 *   crash=stack-overflow a thread that recurses without end: its push
 *                        past the end of its stack hits the guard page
 *                        below (kernel/mm/stack.h)
 *   crash=stack-end-mark a thread that writes over its stack's lowest
 *                        word, as a stray pointer would, and yields: the
 *                        scheduler finds the end mark gone
 *   crash=lock-recursion a spinlock taken twice on one CPU: the second
 *                        spin_lock finds this CPU is the holder
 *   (each declared with CRASH_KIND, as the layers above declare theirs:
 *   the probes layer's are in kernel/probes/crash_kinds.c; and those
 *   the architecture adds: see arch_crash_test)
 */
#include "kernel/arch.h"
#include "kernel/crash_test.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "lib/string.h"

__noinline static void crash_by_trap(void)
{
	__builtin_trap();
}

__noinline static void crash_by_text_write(void)
{
	/* volatile: the compiler must really emit the store. */
	*(volatile uint8_t *)crash_by_trap = 0;
}
CRASH_KIND("trap", crash_by_trap);
CRASH_KIND("text-write", crash_by_text_write);

/* One level of a runaway recursion, its frame written in full. The test
 * of a volatile word the compiler cannot see is always true keeps it
 * from calling the recursion endless (and warning), and the work after
 * the call keeps the call from becoming a jump: every level is a frame
 * more on the stack, until a push lands in the guard page. */
__noinline static void crash_recurse(void)
{
	volatile uint64_t frame[8];

	for (size_t i = 0; i < ARRAY_SIZE(frame); i++)
		frame[i] = i;
	if (frame[0] == 0)
		crash_recurse();
	frame[0]++;
}

static void overflowing_thread(void *arg)
{
	(void)arg;
	crash_recurse();
}

/* Write over the stack's end mark and leave sp where it is. */
static void end_mark_thread(void *arg)
{
	(void)arg;
	*(volatile uint64_t *)current_thread()->stack = 0;
	thread_yield();
}

/* Run fn in a thread of its own, named name, and let it run. */
static void crash_in_thread(const char *name, void (*fn)(void *))
{
	if (thread_create(name, fn, NULL) < 0)
		panic("crash test: cannot create a thread");
	thread_yield();
}

__noinline static void crash_by_stack_overflow(void)
{
	crash_in_thread("overflow", overflowing_thread);
}
CRASH_KIND("stack-overflow", crash_by_stack_overflow);

__noinline static void crash_by_stack_end_mark(void)
{
	crash_in_thread("stack-end", end_mark_thread);
}
CRASH_KIND("stack-end-mark", crash_by_stack_end_mark);

__noinline static void crash_by_lock_recursion(void)
{
	static struct spinlock lock = SPINLOCK_INIT("crash test");

	spin_lock_irqsave(&lock);
	spin_lock(&lock);	/* never returns: this CPU holds it already */
}
CRASH_KIND("lock-recursion", crash_by_lock_recursion);

/* The value of crash= in the command line, in buf; false if absent. */
static bool crash_kind(const char *cmdline, char *buf, size_t size)
{
	for (const char *p = cmdline; p && *p; p = strchr(p, ' ')) {
		size_t len = 0;

		while (*p == ' ')
			p++;
		if (strncmp(p, "crash=", 6) != 0)
			continue;
		p += 6;
		while (p[len] && p[len] != ' ')
			len++;
		if (len >= size)
			return false;
		memcpy(buf, p, len);
		buf[len] = '\0';
		return true;
	}
	return false;
}

extern const struct crash_kind __start_crash_kinds[], __stop_crash_kinds[];

/* The kind of that name, this file's or a layer's above: crash as it
 * says; false if there is none. */
static bool crash_by_kind(const char *kind)
{
	for (const struct crash_kind *k = __start_crash_kinds; k < __stop_crash_kinds; k++) {
		if (strcmp(kind, k->name) == 0) {
			k->crash();
			return true;
		}
	}
	return false;
}

void crash_test_from_cmdline(const char *cmdline)
{
	char kind[32];

	if (!crash_kind(cmdline, kind, sizeof(kind)))
		return;
	kprintf("crash test: %s\n", kind);
	if (!crash_by_kind(kind) && !arch_crash_test(kind))
		kprintf("crash test: unknown kind '%s', booting normally\n", kind);
}
