/* Trap hooks and exception fix-ups (see trap.h). */
#include "kernel/trap.h"
#include "kernel/nokprobe.h"

struct extable_entry {
	uintptr_t insn;
	uintptr_t fixup;
};

extern const struct extable_entry __start_ex_table[], __stop_ex_table[];

trap_hook_fn trap_hooks[TRAP_HOOK_COUNT];

trap_hook_fn trap_set_hook(enum trap_hook_kind kind, trap_hook_fn fn)
{
	return __atomic_exchange_n(&trap_hooks[kind], fn, __ATOMIC_ACQ_REL);
}


/* The table is short (a few entries per nofault routine), so a linear
 * scan is fine and needs no sorting at build time. */
uintptr_t extable_search(uintptr_t insn_addr)
{
	for (const struct extable_entry *e = __start_ex_table; e < __stop_ex_table; e++)
		if (e->insn == insn_addr)
			return e->fixup;
	return 0;
}

bool extable_fixup(struct pt_regs *regs)
{
	uintptr_t fixup = extable_search(instruction_pointer(regs));

	if (!fixup)
		return false;
	instruction_pointer_set(regs, fixup);
	return true;
}
NOKPROBE_SYMBOL(extable_search);
NOKPROBE_SYMBOL(extable_fixup);
