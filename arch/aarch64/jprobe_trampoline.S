/*
 * Where a jprobe's entry function is entered (see kernel/probes/jprobes.c
 * and arch_jprobe_enter in arch/aarch64/kprobes.c).
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
