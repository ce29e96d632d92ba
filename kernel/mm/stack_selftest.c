/* Selftests of kernel stacks: each one has its guard below it, unmapped,
 * and a stack given back returns its frames. */
#include "kernel/mm/frame.h"
#include "kernel/mm/nofault.h"
#include "kernel/mm/stack.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/layout.h>

extern char boot_stack[];
extern const struct static_stack_guards __start_stack_guards[], __stop_stack_guards[];

/* True if the word at addr can be read. */
static bool readable(uintptr_t addr)
{
	uint64_t word;

	return copy_from_kernel_nofault(&word, (const void *)addr, sizeof(word)) == 0;
}

/* The stack from its lowest word up is there; the page below is not. */
static void expect_guarded(uintptr_t stack)
{
	EXPECT(readable(stack));
	EXPECT(!readable(stack - sizeof(uint64_t)));
	EXPECT(!readable(stack - PAGE_SIZE));
	EXPECT(stack_in_guard(stack - 1));
	EXPECT(!stack_in_guard(stack));
}

static void running_thread_stack_is_guarded(void)
{
	const struct thread *t = current_thread();
	uintptr_t here = (uintptr_t)&t;

	EXPECT(t->stack != NULL);
	EXPECT(here >= (uintptr_t)t->stack && here < (uintptr_t)t->stack + t->stack_size);
	expect_guarded((uintptr_t)t->stack);
}

static void boot_stack_is_guarded(void)
{
	expect_guarded((uintptr_t)boot_stack);
}

/* The static stacks' guards (the boot stack's, x86_64's double-fault
 * stacks', aarch64's overflow stacks'): none of their pages is mapped. */
static void static_guards_are_unmapped(void)
{
	size_t guards = 0;

	for (const struct static_stack_guards *g = __start_stack_guards; g < __stop_stack_guards; g++) {
		for (size_t i = 0; i < g->count; i++) {
			uintptr_t guard = g->first + i * g->stride;

			for (size_t off = 0; off < g->size; off += PAGE_SIZE)
				EXPECT(!readable(guard + off));
			EXPECT(readable(guard + g->size));	/* the stack above */
			guards++;
		}
	}
	EXPECT(guards > 1);
}

static void alloc_and_free_return_frames(void)
{
	struct frame_stats before, during, after;
	uint8_t *stack;

	frame_get_stats(&before);
	stack = stack_alloc();
	frame_get_stats(&during);
	EXPECT(stack != NULL);
	if (!stack)
		return;
	EXPECT_EQ((uintptr_t)stack % KERNEL_STACK_SIZE, 0);
	EXPECT_EQ(during.used, before.used + KERNEL_STACK_SIZE / PAGE_SIZE);
	memset(stack, 0x5a, KERNEL_STACK_SIZE);	/* all of it is writable */
	EXPECT_EQ(stack[KERNEL_STACK_SIZE - 1], 0x5a);
	expect_guarded((uintptr_t)stack);
	stack_free(stack);
	frame_get_stats(&after);
	EXPECT_EQ(after.used, before.used);
	EXPECT(!readable((uintptr_t)stack));
}

static const struct selftest_case stack_cases[] = {
	SELFTEST_CASE(running_thread_stack_is_guarded),
	SELFTEST_CASE(boot_stack_is_guarded),
	SELFTEST_CASE(static_guards_are_unmapped),
	SELFTEST_CASE(alloc_and_free_return_frames),
};
SELFTEST_SUITE("stacks", stack_cases);
