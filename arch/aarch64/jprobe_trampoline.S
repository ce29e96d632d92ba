/*
 * Where a jprobe's entry function is entered (see kernel/probes/jprobes.c
 * and arch_jprobe_enter in arch/aarch64/kprobes.c), and how the probed
 * function is resumed after it without an exception return.
 *
 * The breakpoint's exception returns here with sp where the entry
 * function's stack starts (below the exception's frame, which must
 * outlive it), x16 at the probed function's stack and x17 at the entry
 * function. The 64 bytes at the probed sp - its stack arguments - are
 * copied to sp through x9 and x10, temporaries that carry no argument,
 * so the entry function finds them at its own sp. The copy is made here,
 * not in the breakpoint handler, because until the exception returned
 * that memory held the handler's own frames.
 *
 * In .entry.text, which is never probed.
 */
#include <asm/ptrace.h>

	.section .entry.text, "ax"
	.globl jprobe_trampoline
	.type jprobe_trampoline, %function
jprobe_trampoline:
	.set offset, 0
	.rept 4
	ldp	x9, x10, [x16, #offset]
	stp	x9, x10, [sp, #offset]
	.set offset, offset + 16
	.endr
	br	x17
	.size jprobe_trampoline, . - jprobe_trampoline

/*
 * void jprobe_branch_back(struct pt_regs *regs), from jprobe_return
 * (arch/aarch64/kprobes.c): resume regs - the probed function at its
 * entry, its first instruction emulated or about to run as a boosted
 * copy - as an eret would, but with loads and a branch. Every register
 * comes from regs except x16 and x17, which carry the pc and the PSTATE
 * to the end: at a function's entry AAPCS64 lets a veneer clobber them
 * (IP0, IP1), so the function holds nothing there (jprobe_return checks
 * that the probed instruction did not write them). Of PSTATE, only NZCV
 * and DAIF can differ from what runs here (the same EL, on SP_EL1), and
 * msr sets those two. Interrupts are masked until the msr daif, so the
 * frame, below the new sp by then, is still intact when it is read.
 */
	.globl jprobe_branch_back
	.type jprobe_branch_back, %function
jprobe_branch_back:
	mov	x16, x0
	ldp	x0, x1, [x16, #S_X0]
	ldp	x2, x3, [x16, #S_X0 + 16 * 1]
	ldp	x4, x5, [x16, #S_X0 + 16 * 2]
	ldp	x6, x7, [x16, #S_X0 + 16 * 3]
	ldp	x8, x9, [x16, #S_X0 + 16 * 4]
	ldp	x10, x11, [x16, #S_X0 + 16 * 5]
	ldp	x12, x13, [x16, #S_X0 + 16 * 6]
	ldp	x14, x15, [x16, #S_X0 + 16 * 7]
	ldp	x18, x19, [x16, #S_X0 + 16 * 9]
	ldp	x20, x21, [x16, #S_X0 + 16 * 10]
	ldp	x22, x23, [x16, #S_X0 + 16 * 11]
	ldp	x24, x25, [x16, #S_X0 + 16 * 12]
	ldp	x26, x27, [x16, #S_X0 + 16 * 13]
	ldp	x28, x29, [x16, #S_X0 + 16 * 14]
	ldr	x30, [x16, #S_X30]
	ldr	x17, [x16, #S_SP]
	mov	sp, x17
	ldp	x16, x17, [x16, #S_PC]		/* pc, pstate */
	msr	nzcv, x17
	msr	daif, x17
	br	x16
	.size jprobe_branch_back, . - jprobe_branch_back
