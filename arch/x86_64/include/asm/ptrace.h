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

/* Each register the CPU names with an r (rip, rax...) also has the name
 * Linux's x86 struct pt_regs gives it (ip, ax...), through an anonymous
 * union: kernel code uses the first, and modules written for Linux, such
 * as its kprobe_example.c (regs->ip, regs->flags), the second. The
 * unions change nothing in the layout. */
#define PT_REG2(a, b) union { uint64_t a; uint64_t b; }

struct pt_regs {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	PT_REG2(rbp, bp);
	PT_REG2(rdi, di);
	PT_REG2(rsi, si);
	PT_REG2(rdx, dx);
	PT_REG2(rcx, cx);
	PT_REG2(rbx, bx);
	PT_REG2(rax, ax);
	uint64_t vector;
	uint64_t error_code;
	PT_REG2(rip, ip);
	uint64_t cs;
	PT_REG2(rflags, flags);
	PT_REG2(rsp, sp);
	uint64_t ss;
};

#undef PT_REG2

#define PT_REGS_SIZE (22 * 8)
_Static_assert(sizeof(struct pt_regs) == PT_REGS_SIZE, "pt_regs layout (trap_entry.S)");

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

/* Change the value a function returns (at its return, or with
 * regs_return_from_entry at its entry). */
static inline void regs_set_return_value(struct pt_regs *regs, uint64_t value)
{
	regs->rax = value;
}

/* Argument n (0-5) of a function, in the registers at its entry (the
 * System V calling convention). */
static inline uint64_t regs_get_argument(const struct pt_regs *regs, unsigned int n)
{
	const uint64_t args[6] = { regs->rdi, regs->rsi, regs->rdx,
				   regs->rcx, regs->r8, regs->r9 };

	return n < 6 ? args[n] : 0;
}

/* At a function's entry, argument n of REGS_ARG_REGS and up is on the
 * stack, word n - REGS_ARG_REGS + REGS_STACK_ARG_FIRST from its pointer
 * (above the return address the call pushed). */
#define REGS_ARG_REGS 6
#define REGS_STACK_ARG_FIRST 1

/* At a function's first instruction: make the function return value at
 * once, without running (what a fault-injecting pre-handler does). */
static inline void regs_return_from_entry(struct pt_regs *regs, uint64_t value)
{
	regs->rax = value;
	regs->rip = *(uint64_t *)regs->rsp;
	regs->rsp += 8;
}

#endif
