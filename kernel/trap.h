/* The portable side of traps: hooks through which other subsystems (the
 * probes layer) claim breakpoint, single-step and fault exceptions before
 * the default handling (fix-up or panic) runs. */
#ifndef KERNEL_TRAP_H
#define KERNEL_TRAP_H

#include "lib/types.h"
#include <asm/ptrace.h>

enum trap_hook_kind {
	TRAP_HOOK_BREAKPOINT,	/* int3 / BRK */
	TRAP_HOOK_SINGLESTEP,	/* trap flag / software step */
	TRAP_HOOK_FAULT,	/* any other exception, before fix-up/panic */
	TRAP_HOOK_COUNT
};

/* A hook returns true when it handled the trap; the interrupted code then
 * resumes with *regs (which the hook may have changed). */
typedef bool (*trap_hook_fn)(struct pt_regs *regs);

/* Install fn as the hook of a kind and return the previous one (so a
 * test can put it back). NULL removes the hook. */
trap_hook_fn trap_set_hook(enum trap_hook_kind kind, trap_hook_fn fn);

/* Written once at start-up or by tests; read on every trap. */
extern trap_hook_fn trap_hooks[TRAP_HOOK_COUNT];

/* Run the hook of a kind; false when there is none or it declined.
 * Inline: it is on the path of every probe hit. */
static inline bool trap_call_hook(enum trap_hook_kind kind, struct pt_regs *regs)
{
	trap_hook_fn fn = __atomic_load_n(&trap_hooks[kind], __ATOMIC_ACQUIRE);

	return fn && fn(regs);
}

/* Exception fix-ups: an instruction allowed to fault (see
 * copy_from_kernel_nofault) has an entry mapping it to the address where
 * execution continues instead. Returns true if regs->ip was redirected. */
bool extable_fixup(struct pt_regs *regs);
/* In inline assembly: an exception-table entry saying that a fault at
 * label insn continues at label fixup. */
#define EXTABLE_ENTRY(insn, fixup)                                             \
	".pushsection .ex_table, \"a\"\n\t"                                    \
	".balign 8\n\t"                                                        \
	".quad " #insn ", " #fixup "\n\t"                                      \
	".popsection\n\t"

/* The fix-up address for a faulting instruction address, or 0. */
uintptr_t extable_search(uintptr_t insn_addr);

/* Explain a fault at addr that W^X caused, for the panic message: a
 * write to the kernel's text or read-only data, or (nx_fetch) an
 * instruction fetch from a mapped page that may not run. NULL when it is
 * none of these, and the architecture explains the fault itself. */
const char *trap_wx_fault_reason(uintptr_t addr, bool write, bool nx_fetch);

/* Panic on an unhandled trap: name it, dump registers and a backtrace. */
__noreturn void trap_panic(const char *what, struct pt_regs *regs);

#endif
