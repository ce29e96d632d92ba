/* Selftests of x86_64 trap handling: the breakpoint and single-step hooks
 * the probes layer builds on. (Exception fix-ups are tested with the
 * nofault copies in kernel/mm/mm_selftest.c.) */
#include "kernel/selftest.h"
#include "kernel/trap.h"
#include "lib/errno.h"
#include <asm/layout.h>

#define X86_RFLAGS_TF (1UL << 8)

static volatile int hook_calls;
static volatile uint64_t hook_rip;

static bool count_breakpoint(struct pt_regs *regs)
{
	hook_calls++;
	hook_rip = regs->rip;
	return true;
}

static void breakpoint_reaches_hook(void)
{
	trap_hook_fn old = trap_set_hook(TRAP_HOOK_BREAKPOINT, count_breakpoint);
	uintptr_t after;

	hook_calls = 0;
	/* int3 traps with RIP already past it: the hook sees label 1. */
	__asm__ volatile("int3\n1:\n\tleaq 1b(%%rip), %0" : "=r"(after));
	trap_set_hook(TRAP_HOOK_BREAKPOINT, old);
	EXPECT_EQ(hook_calls, 1);
	EXPECT_EQ(hook_rip, after);
}

static volatile int step_calls;

/* The first #DB after setting TF: clear TF so execution goes on. */
static bool stop_stepping(struct pt_regs *regs)
{
	step_calls++;
	regs->rflags &= ~X86_RFLAGS_TF;
	return true;
}

static void single_step_reaches_hook(void)
{
	trap_hook_fn old = trap_set_hook(TRAP_HOOK_SINGLESTEP, stop_stepping);

	step_calls = 0;
	/* popf sets TF; the CPU traps after the instruction following it. */
	__asm__ volatile("pushfq\n\t"
			 "orq %0, (%%rsp)\n\t"
			 "popfq\n\t"
			 "nop" : : "i"(X86_RFLAGS_TF) : "memory", "cc");
	trap_set_hook(TRAP_HOOK_SINGLESTEP, old);
	EXPECT_EQ(step_calls, 1);
}

static const struct selftest_case trap_cases[] = {
	SELFTEST_CASE(breakpoint_reaches_hook),
	SELFTEST_CASE(single_step_reaches_hook),
};
SELFTEST_SUITE("traps", trap_cases);
