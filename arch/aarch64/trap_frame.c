/*
 * Reading a trap frame on aarch64: the registers panic prints, the
 * address a trap reports, and how the unwinder crosses the calls of
 * trap_entry.S that pass pt_regs (kernel/arch.h). These sit below the
 * dispatcher (traps.c): panic and the unwinder use them, and they call
 * nothing but the console.
 */
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"

void arch_dump_regs(const struct pt_regs *r)
{
	kprintf("pc : %016lx  sp : %016lx  pstate: %08lx\n", r->pc, r->sp, r->pstate);
	kprintf("esr: %016lx  far: %016lx  vector %lu\n", r->esr, r->far, r->vector);
	for (int i = 0; i < 30; i += 3)
		kprintf("x%-2d: %016lx  x%-2d: %016lx  x%-2d: %016lx\n",
			i, r->regs[i], i + 1, r->regs[i + 1], i + 2, r->regs[i + 2]);
	kprintf("x30: %016lx\n", r->regs[30]);
}

/* The returns of trap_entry.S's calls that pass pt_regs. */
extern const char trap_hook_return[], trap_return[];

bool arch_is_trap_call_return(uintptr_t ret)
{
	return ret == (uintptr_t)trap_hook_return || ret == (uintptr_t)trap_return;
}
NOKPROBE_SYMBOL(arch_is_trap_call_return);

/* The caller built a frame record inside pt_regs (regs->frame) and
 * pointed x29 at it before the call, so the callee's record points there. */
uintptr_t arch_call_regs(uintptr_t frame, uintptr_t caller_frame)
{
	(void)frame;
	return caller_frame - S_FRAME;
}
NOKPROBE_SYMBOL(arch_call_regs);

uintptr_t arch_trap_address(const struct pt_regs *regs)
{
	return regs->pc;
}
NOKPROBE_SYMBOL(arch_trap_address);

/* The call left it in x30. The prologue will store it at sp - 8, in the
 * upper half of the frame record it pushes. */
bool arch_entry_return_address(const struct pt_regs *regs, uintptr_t *ret, uintptr_t *slot)
{
	*ret = regs->regs[LINK_REGISTER];
	*slot = regs->sp - sizeof(uintptr_t);
	return true;
}
NOKPROBE_SYMBOL(arch_entry_return_address);
