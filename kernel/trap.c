/* Trap hooks, exception fix-ups and the words for W^X faults (see trap.h). */
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
NOKPROBE_SYMBOL(extable_search);

bool extable_fixup(struct pt_regs *regs)
{
	uintptr_t fixup = extable_search(instruction_pointer(regs));

	if (!fixup)
		return false;
	instruction_pointer_set(regs, fixup);
	return true;
}
NOKPROBE_SYMBOL(extable_fixup);

extern const char __text_start[], __text_end[], __rodata_start[], __rodata_end[];

static bool in_section(uintptr_t addr, const char *start, const char *end)
{
	return addr >= (uintptr_t)start && addr < (uintptr_t)end;
}

/* Written once for both architectures: the students who meet these
 * faults are the ones who poke at text directly instead of through
 * text_poke(), and the sentence should tell them so. */
const char *trap_wx_fault_reason(uintptr_t addr, bool write, bool nx_fetch)
{
	if (write && in_section(addr, __text_start, __text_end))
		return "write to read-only kernel text (W^X): code may only be changed through text_poke()";
	if (write && in_section(addr, __rodata_start, __rodata_end))
		return "write to read-only kernel data";
	if (nx_fetch)
		return "execution of a no-execute page (W^X)";
	return NULL;
}
