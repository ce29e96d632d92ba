/*
 * The return service's trampoline (see kernel/rethook.h).
 *
 * A hooked function's return address was replaced with the address of
 * rethook_trampoline, so its `ret` lands here with %rsp just above the
 * popped slot. We build a struct pt_regs exactly as a trap would (same
 * layout, see asm/ptrace.h), with interrupts off as for every handler,
 * and call rethook_trampoline_handler(regs), which sets regs->rip to the
 * real return address and runs the handlers. iretq then restores the
 * flags, %rsp and jumps there in one instruction.
 */
#include <asm/pt_regs_asm.h>
	.section .entry.text, "ax"
	.globl rethook_trampoline
	.type rethook_trampoline, @function
rethook_trampoline:
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
	call rethook_trampoline_handler
	POP_GPRS
	addq $16, %rsp
	iretq
	.size rethook_trampoline, . - rethook_trampoline
