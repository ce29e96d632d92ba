/* Selftests of aarch64 trap handling: the breakpoint and single-step
 * hooks the probes layer builds on. (Exception fix-ups are tested with the
 * nofault copies in kernel/mm/mm_selftest.c.) */
#include "kernel/selftest.h"
#include "kernel/trap.h"
#include "lib/errno.h"
#include <asm/irq.h>
#include <asm/sysreg.h>

#define AARCH64_INSN_SIZE 4

static volatile int hook_calls;
static volatile uint64_t hook_pc;

/* ELR points at the BRK itself; step over it. */
static bool count_breakpoint(struct pt_regs *regs)
{
	hook_calls++;
	hook_pc = regs->pc;
	regs->pc += AARCH64_INSN_SIZE;
	return true;
}

static void breakpoint_reaches_hook(void)
{
	trap_hook_fn old = trap_set_hook(TRAP_HOOK_BREAKPOINT, count_breakpoint);
	uintptr_t at;

	hook_calls = 0;
	__asm__ volatile("adr %0, 1f\n1:\tbrk #0x4" : "=r"(at) : : "memory");
	trap_set_hook(TRAP_HOOK_BREAKPOINT, old);
	EXPECT_EQ(hook_calls, 1);
	EXPECT_EQ(hook_pc, at);
}

static volatile int step_calls;
static volatile uint64_t step_pc, saved_debug_mask;

/* The BRK before the stepped instruction: step over the BRK, and arm
 * software step for the next instruction: MDSCR_EL1.SS, and SPSR.SS so
 * that exactly one instruction runs after the return. Debug exceptions
 * must be unmasked (SPSR.D clear) for the step exception to be taken. */
static bool start_stepping(struct pt_regs *regs)
{
	regs->pc += AARCH64_INSN_SIZE;
	saved_debug_mask = regs->pstate & PSR_D;
	regs->pstate = (regs->pstate & ~PSR_D) | PSR_SS;
	write_sysreg(read_sysreg(mdscr_el1) | MDSCR_SS, mdscr_el1);
	isb();
	return true;
}

/* The step exception after one instruction: stop stepping. */
static bool stop_stepping(struct pt_regs *regs)
{
	step_calls++;
	step_pc = regs->pc;
	write_sysreg(read_sysreg(mdscr_el1) & ~MDSCR_SS, mdscr_el1);
	isb();
	regs->pstate = (regs->pstate & ~PSR_SS) | saved_debug_mask;
	return true;
}

static void single_step_reaches_hook(void)
{
	trap_hook_fn old_bp = trap_set_hook(TRAP_HOOK_BREAKPOINT, start_stepping);
	trap_hook_fn old_ss = trap_set_hook(TRAP_HOOK_SINGLESTEP, stop_stepping);
	/* An interrupt between the steps would be taken with the step still
	 * armed; keep them out. */
	unsigned long flags = arch_irq_save();
	uintptr_t after;

	step_calls = 0;
	__asm__ volatile("brk #0x4\n\t"
			 "nop\n"
			 "1:\tadr %0, 1b" : "=r"(after) : : "memory");
	arch_irq_restore(flags);
	trap_set_hook(TRAP_HOOK_SINGLESTEP, old_ss);
	trap_set_hook(TRAP_HOOK_BREAKPOINT, old_bp);
	EXPECT_EQ(step_calls, 1);
	/* The step exception comes after the nop, before the adr. */
	EXPECT_EQ(step_pc, after);
}

static const struct selftest_case trap_cases[] = {
	SELFTEST_CASE(breakpoint_reaches_hook),
	SELFTEST_CASE(single_step_reaches_hook),
};
SELFTEST_SUITE("traps", trap_cases);
