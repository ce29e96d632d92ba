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
#include <asm/pt_regs_asm.h>
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
 * void jprobe_return(void), at the end of a jprobe's entry function (see
 * kernel/probes/jprobes.c). jprobe_return_regs() puts the trap frame back
 * as the breakpoint left it, starts the probed instruction on it as for
 * any kprobe hit, and returns it.
 *
 * Then, usually, the frame is resumed with loads and a branch: no
 * exception return, which on QEMU takes its global lock and on hardware
 * drains the pipeline. Every register comes from the frame except x16
 * and x17, which carry the pc and PSTATE to the end. That is safe at a
 * function's entry - the only place a jprobe sits - because AAPCS64 lets
 * a linker veneer clobber x16 and x17 (IP0, IP1) on the way to any
 * function, so no function reads them before writing them: a boosted copy
 * of the first instruction has not run yet, and an emulated branch or
 * store writes neither. Of PSTATE, only NZCV and DAIF can differ from
 * what runs here (the same EL, on SP_EL1), and msr sets those two.
 * Interrupts stay masked (the entry function runs with them masked)
 * until the msr daif, so the frame, below the new sp by then, is intact
 * when its last words are read.
 *
 * The back end sets regs->need_eret where that would be wrong: the
 * instruction is stepped (the step is set up for the exception return),
 * or was emulated and wrote x16 or x17. Then sp moves onto the frame
 * and trap_return's eret resumes it, as every exception does.
 */
	.globl jprobe_return
	.type jprobe_return, %function
jprobe_return:
	bl	jprobe_return_regs
	ldr	x1, [x0, #S_NEED_ERET]
	cbnz	x1, 1f
	mov	x30, x0				/* the frame; x30 is loaded last */
	ldp	x0, x1, [x30, #S_X0]
	LOAD_X2_X29 x30
	ldr	x16, [x30, #S_SP]
	mov	sp, x16
	ldp	x16, x17, [x30, #S_PC]		/* pc, pstate */
	ldr	x30, [x30, #S_X30]
	msr	nzcv, x17
	msr	daif, x17
	br	x16
1:	mov	sp, x0
	b	trap_return
	.size jprobe_return, . - jprobe_return
