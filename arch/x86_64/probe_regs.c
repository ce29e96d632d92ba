/* x86_64's registers as probe events name them (kernel/trace/probe_regs.h):
 * Linux's x86_64 list. %orig_ax is the word Linux keeps the error code
 * (or a system call's number) in, which ProbeOS calls error_code. Linux's
 * 32-bit x86 also names %ds, %es, %fs and %gs; its x86_64 does not save
 * them in pt_regs, and nor does ProbeOS. */
#include "kernel/trace/probe_regs.h"
#include <asm/ptrace.h>

#define REG(name, field) { name, offsetof(struct pt_regs, field) }

const struct probe_reg arch_probe_regs[] = {
	REG("r15", r15), REG("r14", r14), REG("r13", r13), REG("r12", r12),
	REG("r11", r11), REG("r10", r10), REG("r9", r9), REG("r8", r8),
	REG("bx", rbx), REG("cx", rcx), REG("dx", rdx), REG("si", rsi),
	REG("di", rdi), REG("bp", rbp), REG("ax", rax), REG("orig_ax", error_code),
	REG("ip", rip), REG("cs", cs), REG("flags", rflags), REG("sp", rsp),
	REG("ss", ss),
	{ NULL, 0 },
};

/* The System V calling convention's. */
const char *const arch_probe_arg_regs[] = { "di", "si", "dx", "cx", "r8", "r9", NULL };
