/* aarch64's hooks for the return service (documented in kernel/rethook.h):
 * inline, as they run on every hooked call. */
#ifndef ASM_RETHOOK_H
#define ASM_RETHOOK_H

#include "lib/types.h"
#include <asm/ptrace.h>

/* At a function's first instruction the return address is still in the
 * link register: it is replaced there, and the function's prologue then
 * saves the trampoline's address in its frame record, which is what
 * backtraces see. The stack pointer at entry identifies the call. */
static inline uintptr_t arch_rethook_prepare(struct pt_regs *regs, uintptr_t trampoline,
					     uintptr_t *slot)
{
	uintptr_t real = regs->regs[LINK_REGISTER];

	*slot = regs->sp;
	regs->regs[LINK_REGISTER] = trampoline;
	return real;
}

/* A function returns with sp where it was at its entry. */
static inline bool arch_rethook_matches(uintptr_t slot, const struct pt_regs *regs)
{
	return regs->sp == slot;
}

/*
 * slot is the stack pointer at the hooked function's entry. Its prologue
 * saves the (replaced) link register in its frame record, somewhere
 * below that; the frame records of calls it makes lie below its own, and
 * their entry stack pointers too. So, asked newest call first, the first
 * whose entry sp lies above the backtrace's stack_slot is the one.
 */
static inline bool arch_rethook_slot_matches(uintptr_t slot, uintptr_t stack_slot)
{
	return slot > stack_slot;
}

#endif
