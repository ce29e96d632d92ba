/*
 * The template of a detour buffer (see arch/aarch64/optprobe.c).
 *
 * It is never run here: arch_prepare_optprobe copies all of it into a
 * detour buffer, fills in the literals at its start and writes the
 * relocated probed instruction at optprobe_template_insn. The optimized
 * B jumps to optprobe_template_entry, after the literals. The code builds
 * the same struct pt_regs the exception entry would (asm/ptrace.h,
 * arch/aarch64/trap_entry.S), with pc at the probed instruction as after
 * its BRK, disables preemption, calls optprobe_callback(pp, regs),
 * enables preemption and restores every register and the condition
 * flags from regs - all but pc and sp: a handler's change to those is
 * ignored (see optprobe_callback).
 *
 * Interrupts are left as the probed code had them. The callback only
 * needs to stay on this CPU, which the running thread's preemption count
 * ensures (kernel/sched.h); masking them here would mean unmasking them
 * on the way out, and QEMU ends a translation block at every write that
 * may unmask interrupts, which cost over a third of a hit's emulated time
 * (docs/optimizer.md).
 * The count is raised before the call and lowered after it returns, in
 * this code, so that a thread is never preempted while a return address
 * into this buffer is on its stack: a buffer is freed once no preempted
 * thread's pc is inside it (kernel/probes/optimizer.c).
 *
 * The literals are read with `ldr xN, label`, which is pc-relative:
 * copied as one block, each load still finds its literal in the copy.
 *
 * Order matters at the start: nothing may change the flags before they
 * are read, and `sub`, `stp` and `mrs` do not.
 */
#include <asm/pt_regs_asm.h>
#include <asm/brk.h>
#include <asm/optprobe.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>
#include "kernel/sched_asm.h"

/* ESR_EL1 of a BRK #BRK_IMM_KPROBE: its class, IL (a 32-bit instruction)
 * and the immediate. Saved as the breakpoint's exception would save it. */
#define ESR_IL (1 << 25)
#define ESR_KPROBE_BRK ((EC_BRK64 << ESR_EC_SHIFT) | ESR_IL | BRK_IMM_KPROBE)

	.section .rodata, "a"
	.balign 16
	.globl optprobe_template, optprobe_template_insn, optprobe_template_pp
	.globl optprobe_template_pc, optprobe_template_value, optprobe_template_entry
	.globl optprobe_template_end
optprobe_template:
	/* The literals first, where the buffer's alignment keeps them
	 * aligned; the optimized B lands after them. */
optprobe_template_pp:
	.quad	0			/* the struct probe_point */
optprobe_template_pc:
	.quad	0			/* the probed address: regs->pc */
optprobe_template_value:
	.quad	0			/* for the relocated instruction */
optprobe_template_callback:
	.quad	optprobe_callback
optprobe_template_entry:
	SAVE_X0_X29_AND_PSTATE		/* x0: pstate */
	add	x1, sp, #PT_REGS_SIZE	/* sp as it was at the probed address */
	stp	x30, x1, [sp, #S_X30]
	ldr	x2, optprobe_template_pc
	stp	x2, x0, [sp, #S_PC]	/* pc, pstate */
	mov	x3, #(ESR_KPROBE_BRK & 0xffff)
	movk	x3, #(ESR_KPROBE_BRK >> 16), lsl #16
	stp	x3, xzr, [sp, #S_ESR]	/* esr, far */
	mov	x3, #VECTOR_CUR_SPX_SYNC
	stp	x3, xzr, [sp, #S_VECTOR] /* vector, unused */
	/* A frame record { probed x29, probed pc }, as the exception entry
	 * builds: backtraces from a handler continue into the probed code. */
	stp	x29, x2, [sp, #S_FRAME]
	add	x29, sp, #S_FRAME
	/* Preemption off: x19 (saved in regs, kept across the call by the
	 * C convention) holds the running thread (asm/current.h). */
	mrs	x19, tpidr_el0
	ldr	w0, [x19, #THREAD_PREEMPT_COUNT_OFFSET]
	add	w0, w0, #1
	str	w0, [x19, #THREAD_PREEMPT_COUNT_OFFSET]
	ldr	x0, optprobe_template_pp
	mov	x1, sp
	ldr	x2, optprobe_template_callback
	blr	x2			/* optprobe_callback(pp, regs) */
	ldr	w0, [x19, #THREAD_PREEMPT_COUNT_OFFSET]
	sub	w0, w0, #1
	str	w0, [x19, #THREAD_PREEMPT_COUNT_OFFSET]	/* preemption on */
	LOAD_X2_X29
	ldr	x30, [sp, #S_X30]
	ldr	x0, [sp, #S_PSTATE]
	and	x1, x0, #0xf0000000	/* N, Z, C, V */
	msr	nzcv, x1
	ldp	x0, x1, [sp, #16 * 0]
	add	sp, sp, #PT_REGS_SIZE	/* add, not adds: the flags stay */
	/* The relocated probed instruction and the branch back: written by
	 * copy_insn (optprobe.c); BRKs until then. */
optprobe_template_insn:
	.fill	OPT_COPY_WORDS, 4, OPT_FILL_INSN
optprobe_template_end:

	.if optprobe_template_end - optprobe_template > ARCH_DETOUR_SIZE
	.error "the detour template does not fit in ARCH_DETOUR_SIZE"
	.endif
