/*
 * Trap entry and exit, and the thread context switch, for x86_64.
 *
 * Every vector the kernel handles has a small stub that makes the stack
 * look the same whether or not the CPU pushed an error code, pushes the
 * vector number and joins trap_common. trap_common saves the general
 * registers, so that the stack holds a complete struct pt_regs
 * (asm/ptrace.h), and calls trap_dispatch(regs). On return it restores
 * the registers from that same structure - so a handler that edits
 * regs->rip or regs->rflags redirects the interrupted code - and iretq's.
 *
 * All of this is in .entry.text, which the probes layer refuses to probe:
 * a breakpoint here would trap while saving the state of a trap.
 */
#include <asm/irq_vectors.h>
#include <asm/pt_regs_asm.h>

	.section .entry.text, "ax"

/* The CPU pushes an error code itself only for vectors 8, 10-14, 17, 21,
 * 29 and 30; for the others the stub pushes a 0 in its place. */
.macro trap_stub vector
	.balign 16
trap_stub_\vector:
	.if \vector == 3
	/* Breakpoint: copy the CPU's five-word frame 40 bytes further down.
	 * Each push reads the word 32 bytes above the new top, which is the
	 * next word of the original frame. The probes layer may then emulate
	 * a push or a call on the interrupted stack (just below its %rsp)
	 * without overwriting the frame iretq will use. */
	.rept 5
	pushq 32(%rsp)
	.endr
	.endif
	.if !((\vector == 8) || (\vector >= 10 && \vector <= 14) || (\vector == 17) || (\vector == 21) || (\vector == 29) || (\vector == 30))
	pushq $0
	.endif
	pushq $\vector
	.if \vector == 3
	jmp breakpoint_common
	.else
	jmp trap_common
	.endif
.endm

/* Complete the struct pt_regs and call trap_dispatch(regs). No
 * realignment: the kernel is built for an 8-byte aligned stack (the
 * Makefile's -mpreferred-stack-boundary=3). */
	.globl trap_common, trap_dispatch_return, trap_hook_return
	.type trap_common, @function
trap_common:
	PUSH_GPRS
	cld
	movq %rsp, %rdi
	call trap_dispatch
trap_dispatch_return:			/* backtraces know these returns (traps.c) */
	jmp trap_return
	.size trap_common, . - trap_common

/* Probe hits are by far the most frequent exception: #BP calls the
 * breakpoint hook (trap_hooks[TRAP_HOOK_BREAKPOINT], the table's first
 * entry, kernel/trap.h) from here, and only a breakpoint the hook does
 * not claim goes on to trap_dispatch. */
	.type breakpoint_common, @function
breakpoint_common:
	PUSH_GPRS
	cld
	movq %rsp, %rdi
	movq trap_hooks(%rip), %rax
	testq %rax, %rax
	jz 1f
	call *%rax
trap_hook_return:
	testb %al, %al
	jnz trap_return
1:	movq %rsp, %rdi
	call trap_dispatch
	.size breakpoint_common, . - breakpoint_common
	.globl trap_return
	.type trap_return, @function
trap_return:
	POP_GPRS
	addq $16, %rsp		/* vector and error code */
	iretq
	.size trap_return, . - trap_return

/* The stubs, and a table of their addresses for arch/x86_64/cpu.c. */
.altmacro
.macro stub_range from, to
	trap_stub \from
	.if \to-\from
	stub_range %(\from+1), \to
	.endif
.endm
	stub_range 0, %(IDT_VECTORS-1)

.macro stub_addr n
	.quad trap_stub_\n
.endm
	.section .rodata
	.balign 8
	.globl trap_stub_table
trap_stub_table:
	.set i, 0
	.rept IDT_VECTORS
	stub_addr %i
	.set i, i+1
	.endr

/*
 * void arch_context_switch(struct arch_context *from, struct arch_context *to)
 *
 * Saves the callee-saved registers on the current stack, stores the stack
 * pointer in *from, loads the one in *to and pops that thread's registers.
 * The "return" then lands wherever the other thread called this from (or,
 * for a new thread, in context_first_entry, see arch/x86_64/thread.c).
 */
	.section .entry.text, "ax"
	.globl arch_context_switch
arch_context_switch:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, (%rdi)
	movq (%rsi), %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret

	/* A new thread's first switch returns here: the frame pointer is 0 so
	 * backtraces stop, and the stack is aligned as after a call. */
	.globl context_first_entry
context_first_entry:
	xorl %ebp, %ebp
	call thread_start
	ud2
