/*
 * Deliberate crashes, asked for on the kernel command line as crash=KIND.
 *
 * They exist so that the boot tests (tests/boot/crash_tests.py) can check
 * what a panic prints - the cause, the registers, a symbolized backtrace -
 * and so that a student can boot one and read a panic at leisure. Each
 * crash happens in a function of its own, two calls below kmain (or, for
 * stack-overflow, in a thread of its own), so the backtrace has something
 * to show. They run once interrupts are set up, as starting a thread
 * needs. Nothing typed at the shell reaches this code.
 *
 *   crash=trap           an undefined instruction (__builtin_trap)
 *   crash=text-write     a store into kernel text, which W^X forbids
 *   crash=stack-overflow a thread that recurses past the end of its
 *                        stack, then yields: the scheduler finds the
 *                        stack's end mark overwritten
 *   crash=lock-recursion a spinlock taken twice on one CPU: the second
 *                        spin_lock finds this CPU is the holder
 *   (each declared with CRASH_KIND, as the layers above declare theirs:
 *   the probes layer's are in kernel/probes/crash_kinds.c; and those
 *   the architecture adds: see arch_crash_test)
 */
#include "kernel/arch.h"
#include "kernel/crash_test.h"
#include "kernel/mm/heap.h"
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

/* One level of a runaway recursion, its frame written in full. It stops
 * at the first frame that lies below the stack's lowest word, so that
 * little of the heap below is damaged before the scheduler looks (the
 * frames above have written over that word on the way down), and gives up
 * the CPU. */
__noinline static void crash_recurse(uintptr_t end)
{
	volatile uint64_t frame[8];

	for (size_t i = 0; i < ARRAY_SIZE(frame); i++)
		frame[i] = i;
	if ((uintptr_t)frame >= end)
		crash_recurse(end);
	else
		thread_yield();
	frame[0]++;	/* the frame stays live across the call: no tail call */
}

static void overflowing_thread(void *arg)
{
	(void)arg;
	crash_recurse((uintptr_t)current_thread()->stack);
}

/* What the overflow and the panic after it write below the stack lands
 * here, not in some other CPU's thread or stack. The heap is first fit,
 * so a block taken just before the stack usually lies just below it; it
 * is never freed (the kernel is about to stop). */
#define CRUMPLE_ZONE 8192

__noinline static void crash_by_stack_overflow(void)
{
	if (!kmalloc(CRUMPLE_ZONE) || thread_create("overflow", overflowing_thread, NULL) < 0)
		panic("crash test: cannot create a thread");
	thread_yield();
}
CRASH_KIND("stack-overflow", crash_by_stack_overflow);

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
