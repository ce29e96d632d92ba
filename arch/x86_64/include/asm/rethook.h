/* x86_64's hooks for the return service (documented in kernel/rethook.h):
 * inline, as they run on every hooked call. */
#ifndef ASM_RETHOOK_H
#define ASM_RETHOOK_H

#include "lib/types.h"
#include <asm/ptrace.h>

/* At a function's first instruction the return address is on top of the
 * stack: that slot identifies the call. */
static inline uintptr_t arch_rethook_prepare(struct pt_regs *regs, uintptr_t trampoline,
					     uintptr_t *slot)
{
	uint64_t *ret = (uint64_t *)regs->rsp;
	uintptr_t real = *ret;

	*slot = (uintptr_t)ret;
	*ret = trampoline;
	return real;
}

/* The return popped the slot: %rsp is just above it. */
static inline bool arch_rethook_matches(uintptr_t slot, const struct pt_regs *regs)
{
	return regs->rsp == slot + 8;
}

/* A backtrace reads the return address where the call pushed it. */
static inline bool arch_rethook_slot_matches(uintptr_t slot, uintptr_t stack_slot)
{
	return slot == stack_slot;
}

#endif
