/*
 * Kernel stacks with a guard below each one (kernel/mm/stack.c).
 *
 * A stack grows down. Below every kernel stack lies memory that is never
 * mapped - its guard - so the first push past the end of the stack faults
 * at once instead of writing over whatever came next. Thread stacks, the
 * other CPUs' first stacks and aarch64's overflow stacks come from the
 * stack region of the address map (asm/layout.h); the few stacks needed
 * before there are page tables to map them (the boot CPU's, x86_64's
 * double-fault stacks) live in .bss, and their guards are unmapped once
 * the final page tables are in place (stack_guard_static).
 *
 * Each stack of the region is KERNEL_STACK_SIZE bytes and sits in the
 * upper half of a slot twice that size, aligned to it; the lower half is
 * the guard. So bit KERNEL_STACK_SHIFT of an address in the region says
 * which half it is in: aarch64's exception entry tests that one bit of sp
 * to see an overflow coming (arch/aarch64/trap_entry.S). Every stack the
 * kernel runs on keeps that shape, the static ones too.
 *
 * The constants are plain numbers, so that assembly can include this.
 */
#ifndef KERNEL_MM_STACK_H
#define KERNEL_MM_STACK_H

#define KERNEL_STACK_SHIFT 14
#define KERNEL_STACK_SIZE  (1 << KERNEL_STACK_SHIFT)	/* 16 KiB */

#ifndef __ASSEMBLY__

#include "lib/types.h"

struct pt_regs;

/* Map a new KERNEL_STACK_SIZE stack, with its guard below, and return
 * its lowest address; NULL when frames or region slots run out. The
 * contents are undefined. */
void *stack_alloc(void);
/* Unmap a stack from stack_alloc and give its frames back. */
void stack_free(void *stack);
/* The bytes of the stacks stack_alloc handed out and stack_free has not
 * taken back (the few static stacks in .bss are not counted). */
size_t stack_bytes_in_use(void);

/* True if addr lies in the guard of a kernel stack, static or not: a
 * fault there is a stack overflow. */
bool stack_in_guard(uintptr_t addr);

/* Report an overflow: the running thread hit the guard at addr (a fault
 * address or the stack pointer). Called from the architecture's trap
 * code on a stack of its own (the double-fault stack, the overflow
 * stack); the first line says "kernel stack overflow", then come the
 * registers and the backtrace as for any other trap. */
__noreturn void stack_overflow_panic(struct pt_regs *regs, uintptr_t addr);

/* The guards of stacks in .bss: count of them, the first at first,
 * the next stride bytes further on, each size bytes long (page-aligned).
 * STATIC_STACK_GUARDS lists them; the linker gathers the lists (see
 * linker/) and stack_guard_static unmaps them. */
struct static_stack_guards {
	uintptr_t first;
	size_t size;
	size_t stride;
	size_t count;
};

#define STATIC_STACK_GUARDS(name, first_guard, guard_size, guard_stride, guard_count) \
	static const struct static_stack_guards static_stack_guards_##name     \
		__used __section(".stack_guards") __aligned(8) = {              \
		.first = (uintptr_t)(first_guard), .size = (guard_size),        \
		.stride = (guard_stride), .count = (guard_count),               \
	}

/* Unmap every guard STATIC_STACK_GUARDS lists; once, right after
 * paging_init (until then the boot mapping covers them). */
void stack_guard_static(void);

#endif
#endif
