/* Assembler macros that save and restore the general registers in the
 * order of struct pt_regs (asm/ptrace.h): rax is pushed first, so it ends
 * up highest, just below the vector field; r15 is pushed last, at the
 * lowest address, where the structure starts. Used by the trap entry and
 * the kretprobe trampoline, which both build a struct pt_regs. */
#ifndef ASM_PT_REGS_ASM_H
#define ASM_PT_REGS_ASM_H

.macro PUSH_GPRS
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
.endm

.macro POP_GPRS
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
.endm

#endif
