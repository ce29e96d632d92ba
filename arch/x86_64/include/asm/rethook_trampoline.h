/*
 * The return service's trampoline (see kernel/rethook.h), an assembler
 * macro: each user of the service makes its own with
 *
 *	RETHOOK_TRAMPOLINE name, handler
 *
 * in a .S file of its own, so that a return goes straight to that user's
 * C handler, with no call through a pointer. For assembly only.
 *
 * A hooked function's return address was replaced with the address of
 * the trampoline, so its `ret` lands here with %rsp just above the
 * popped slot. We build a struct pt_regs exactly as a trap would (same
 * layout, see asm/ptrace.h), with interrupts off as for every handler,
 * and call handler(regs), which sets regs->rip to the real return
 * address (rethook_return does). iretq then restores the flags, %rsp
 * and jumps there in one instruction.
 *
 * Every trampoline goes in .entry.text.rethook, inside the never-probed
 * entry text, where the service tells its trampolines from other code
 * by their address (rethook_is_trampoline).
 */
#ifndef ASM_RETHOOK_TRAMPOLINE_H
#define ASM_RETHOOK_TRAMPOLINE_H

#include <asm/pt_regs_asm.h>

.macro RETHOOK_TRAMPOLINE name, handler
	.pushsection .entry.text.rethook, "ax"
	.globl \name
	.type \name, @function
\name:
	pushq $0x10		/* ss */
	pushq %rsp		/* rsp: its value before this push, fixed below */
	pushfq			/* rflags: before the add changes them */
	cli
	addq $8, 8(%rsp)	/* rsp plus 8 = as the return left it */
	pushq $0x08		/* cs */
	pushq $0		/* rip: set by the handler */
	pushq $0		/* error code */
	pushq $0		/* vector */
	PUSH_GPRS
	movq %rsp, %rdi
	call \handler
	POP_GPRS
	addq $16, %rsp
	iretq
	.size \name, . - \name
	.popsection
.endm

#endif
