/*
 * Where a jprobe's entry function is entered (see kernel/probes/jprobes.c
 * and arch_jprobe_enter in arch/x86_64/kprobes.c).
 *
 * The breakpoint's trap returns here with %rsp 64 bytes above where the
 * entry function's stack starts (below the trap frame, which must outlive
 * it), %r10 at the probed function's stack and %r11 at the entry
 * function. The 64 bytes at the probed %rsp - its return address and
 * stack arguments - are copied by pushing them, top word first, so the
 * entry function finds them at its own %rsp. The copy is made here, not
 * in the breakpoint handler, because until the trap returned that memory
 * held the handler's own frames.
 *
 * In .entry.text, which is never probed.
 */
	.section .entry.text, "ax"
	.globl jprobe_trampoline
	.type jprobe_trampoline, @function
jprobe_trampoline:
	.set offset, 56
	.rept 8
	pushq offset(%r10)
	.set offset, offset - 8
	.endr
	jmp *%r11
	.size jprobe_trampoline, . - jprobe_trampoline
