/* struct pt_regs: the registers of an interrupted context, as the trap
 * entry (arch/x86_64/trap_entry.S) saves them on the stack.
 *
 * Layout, from the lowest address (where the entry code leaves %rsp and
 * passes it to C) upwards:
 *   r15 ... rax   general registers, pushed by the entry stub
 *   vector        the exception or interrupt number, pushed by the stub
 *   error_code    pushed by the CPU for some exceptions, else 0 by the stub
 *   rip cs rflags rsp ss   pushed by the CPU on every trap in 64-bit mode
 * Changing a field changes the register the interrupted code resumes
 * with: the probes layer relies on that. */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include <stdint.h>

struct pt_regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector;
	uint64_t error_code;
	uint64_t rip, cs, rflags, rsp, ss;
};

#define PT_REGS_SIZE (22 * 8)

static inline uintptr_t instruction_pointer(const struct pt_regs *regs)
{
	return regs->rip;
}

static inline void instruction_pointer_set(struct pt_regs *regs, uintptr_t ip)
{
	regs->rip = ip;
}

static inline uintptr_t frame_pointer(const struct pt_regs *regs)
{
	return regs->rbp;
}

static inline uintptr_t stack_pointer(const struct pt_regs *regs)
{
	return regs->rsp;
}

/* The value a function returns, in the registers at its return. */
static inline uint64_t regs_return_value(const struct pt_regs *regs)
{
	return regs->rax;
}

/* Argument n (0-5) of a function, in the registers at its entry (the
 * System V calling convention). */
static inline uint64_t regs_get_argument(const struct pt_regs *regs, unsigned int n)
{
	const uint64_t args[6] = { regs->rdi, regs->rsi, regs->rdx,
				   regs->rcx, regs->r8, regs->r9 };

	return n < 6 ? args[n] : 0;
}

/* At a function's first instruction: make the function return value at
 * once, without running (what a fault-injecting pre-handler does). */
static inline void regs_return_from_entry(struct pt_regs *regs, uint64_t value)
{
	regs->rax = value;
	regs->rip = *(uint64_t *)regs->rsp;
	regs->rsp += 8;
}

#endif
