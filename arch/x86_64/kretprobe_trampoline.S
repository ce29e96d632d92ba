/*
 * The kretprobe trampoline (see kernel/probes/kretprobes.c).
 *
 * A probed function's return address was replaced with the address of
 * kretprobe_trampoline, so its `ret` lands here with %rsp just above the
 * popped slot. We build a struct pt_regs exactly as a trap would (same
 * layout, see asm/ptrace.h), with interrupts off as for every handler,
 * and call kretprobe_trampoline_handler(regs), which runs the handler and
 * returns the real return address. iretq then restores the flags, %rsp
 * and jumps there in one instruction.
 */
	.section .entry.text, "ax"
	.globl kretprobe_trampoline
kretprobe_trampoline:
	pushq $0x10		/* ss */
	pushq %rsp		/* rsp: its value before this push... */
	addq $8, (%rsp)		/* ...plus 8 = as the return left it */
	pushfq			/* rflags */
	cli
	pushq $0x08		/* cs */
	pushq $0		/* rip: filled in below */
	pushq $0		/* error code */
	pushq $0		/* vector */
	pushq %rax
	pushq %rbx
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %rbp
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, %rdi
	call kretprobe_trampoline_handler
	movq %rax, 17*8(%rsp)	/* regs->rip */
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rbp
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rbx
	popq %rax
	addq $16, %rsp
	iretq
