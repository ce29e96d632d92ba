/*
 * Reading a trap frame on x86_64: the registers panic prints, the
 * address a trap reports, and how the unwinder crosses the calls of
 * trap_entry.S that pass pt_regs (kernel/arch.h). These sit below the
 * dispatcher (traps.c): panic and the unwinder use them, and they call
 * nothing but the console and the nofault reader.
 */
#include "kernel/arch.h"
#include "kernel/mm/nofault.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include <asm/trapnr.h>

void arch_dump_regs(const struct pt_regs *r)
{
	kprintf("RIP: %016lx  RSP: %016lx  RFLAGS: %08lx\n", r->rip, r->rsp, r->rflags);
	kprintf("RAX: %016lx  RBX: %016lx  RCX: %016lx\n", r->rax, r->rbx, r->rcx);
	kprintf("RDX: %016lx  RSI: %016lx  RDI: %016lx\n", r->rdx, r->rsi, r->rdi);
	kprintf("RBP: %016lx  R8:  %016lx  R9:  %016lx\n", r->rbp, r->r8, r->r9);
	kprintf("R10: %016lx  R11: %016lx  R12: %016lx\n", r->r10, r->r11, r->r12);
	kprintf("R13: %016lx  R14: %016lx  R15: %016lx\n", r->r13, r->r14, r->r15);
	kprintf("CS: %04lx  SS: %04lx  vector %lu  error code 0x%lx\n",
		r->cs, r->ss, r->vector, r->error_code);
}

/* The returns of trap_entry.S's calls that pass pt_regs. */
extern const char trap_dispatch_return[], trap_hook_return[], trap_return[];

bool arch_is_trap_call_return(uintptr_t ret)
{
	return ret == (uintptr_t)trap_dispatch_return || ret == (uintptr_t)trap_hook_return ||
	       ret == (uintptr_t)trap_return;
}
NOKPROBE_SYMBOL(arch_is_trap_call_return);

/* The caller pushed pt_regs and called at once: the callee's frame
 * record { saved %rbp, return address } lies right below it. */
uintptr_t arch_call_regs(uintptr_t frame, uintptr_t caller_frame)
{
	(void)caller_frame;
	return frame + 2 * sizeof(uintptr_t);
}
NOKPROBE_SYMBOL(arch_call_regs);

uintptr_t arch_trap_address(const struct pt_regs *regs)
{
	return regs->vector == VEC_BREAKPOINT ? regs->rip - 1 : regs->rip;
}
NOKPROBE_SYMBOL(arch_trap_address);

/* The call pushed it: it is at %rsp. */
bool arch_entry_return_address(const struct pt_regs *regs, uintptr_t *ret, uintptr_t *slot)
{
	*slot = regs->rsp;
	return copy_from_kernel_nofault(ret, (const void *)regs->rsp, sizeof(*ret)) == 0;
}
NOKPROBE_SYMBOL(arch_entry_return_address);
