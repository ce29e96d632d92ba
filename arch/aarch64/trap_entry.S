/*
 * Exception entry and exit, and the thread context switch, for aarch64.
 *
 * VBAR_EL1 points at exception_vectors: 16 entries of 128 bytes, one per
 * (where from, what kind) pair (see VECTOR_* in asm/sysreg.h). The kernel
 * runs at EL1 on SP_EL1, so only "current EL with SP_ELx" synchronous
 * exceptions and IRQs are expected; the others end in a panic, but they
 * are saved the same way so that the panic can show the registers.
 *
 * Every entry makes room for a struct pt_regs (asm/ptrace.h) on the
 * current stack - the synchronous one SYNC_STACK_GAP bytes lower, see
 * asm/ptrace.h - saves x0 and x1, puts its own number in x0 and joins
 * exception_common (or sync_common, for the kernel's own synchronous
 * exceptions), which saves everything else, builds a frame record and
 * calls trap_dispatch(regs) - sync_common first offers a BRK to its trap
 * hook. On return the registers, ELR_EL1 and SPSR_EL1 are reloaded from
 * that same structure - so a handler that edits regs->pc or regs->pstate
 * redirects the interrupted code - and ERET resumes it.
 *
 * All of this is in .entry.text, which the probes layer refuses to probe:
 * a breakpoint here would trap while saving the state of a trap.
 */
#include "kernel/mm/stack.h"
#include <asm/brk.h>
#include <asm/pt_regs_asm.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>

	.section .entry.text, "ax"

.macro vector_entry n, common=exception_common, gap=0
	.balign 128
	sub	sp, sp, #(PT_REGS_SIZE + \gap)
	stp	x0, x1, [sp, #S_X0]
	mov	x0, #\n
	b	\common
.endm

/*
 * The same for the kernel's own exceptions, on SP_EL1, but first a look
 * at where the frame is about to go: every kernel stack is the upper half
 * of a block twice its size (kernel/mm/stack.h), so bit KERNEL_STACK_SHIFT
 * of an address in a stack is set and clear in the guard below it. With
 * it clear, the frame cannot be stored - that is a stack overflow - and
 * the entry moves to this CPU's overflow stack, whose top TPIDRRO_EL0
 * holds (arch/aarch64/cpu.c), and joins overflow_common.
 *
 * Testing sp needs a general register, and all of them belong to the
 * interrupted code: SP_EL0 (unused by the kernel, see trap_return) keeps
 * x0 meanwhile. Moving to the other stack needs a second one: sp and x0
 * trade values by three additions instead, x0 ending with the old sp.
 */
.macro vector_entry_checked n, common=exception_common, gap=0
	.balign 128
	sub	sp, sp, #(PT_REGS_SIZE + \gap)
	msr	sp_el0, x0
	mov	x0, sp
	tbz	x0, #KERNEL_STACK_SHIFT, 1f
	mrs	x0, sp_el0
	stp	x0, x1, [sp, #S_X0]
	mov	x0, #\n
	b	\common
1:	mrs	x0, tpidrro_el0
	sub	x0, x0, #PT_REGS_SIZE
	add	sp, sp, x0		/* sp = old + new */
	sub	x0, sp, x0		/* x0 = old */
	sub	sp, sp, x0		/* sp = new */
	str	x1, [sp, #S_X0 + 8]
	add	x1, x0, #(PT_REGS_SIZE + \gap)	/* sp as it was before the exception */
	mov	x0, #\n
	b	overflow_common
.endm

	.balign 2048
	.globl exception_vectors
	.type exception_vectors, %function
exception_vectors:
	vector_entry 0		/* current EL, SP_EL0: synchronous */
	vector_entry 1		/*   IRQ */
	vector_entry 2		/*   FIQ */
	vector_entry 3		/*   SError */
	/* current EL, SP_ELx: synchronous. The gap below the interrupted
	 * sp is where a probe's emulated store through sp lands
	 * (SYNC_STACK_GAP, asm/ptrace.h). */
	vector_entry_checked 4, sync_common, SYNC_STACK_GAP
	vector_entry_checked 5		/*   IRQ */
	vector_entry_checked 6		/*   FIQ */
	vector_entry_checked 7		/*   SError */
	vector_entry 8		/* lower EL, AArch64: synchronous */
	vector_entry 9		/*   IRQ */
	vector_entry 10		/*   FIQ */
	vector_entry 11		/*   SError */
	vector_entry 12		/* lower EL, AArch32: synchronous */
	vector_entry 13		/*   IRQ */
	vector_entry 14		/*   FIQ */
	vector_entry 15		/*   SError */
	.size exception_vectors, . - exception_vectors

/* Save the rest of the struct pt_regs: the entry stored x0 and x1 and
 * left its own number in x0; gap is the entry's. Leaves ESR_EL1 in x4. */
.macro save_exception_frame gap=0
	SAVE_X2_X29
	add	x1, sp, #(PT_REGS_SIZE + \gap)	/* sp as it was before the exception */
	save_frame_from_x30
.endm

/* The part of save_exception_frame from x30 on, with the vector number
 * in x0 and the interrupted sp in x1. */
.macro save_frame_from_x30
	stp	x30, x1, [sp, #S_X30]
	mrs	x2, elr_el1
	mrs	x3, spsr_el1
	stp	x2, x3, [sp, #S_PC]
	mrs	x4, esr_el1
	mrs	x5, far_el1
	stp	x4, x5, [sp, #S_ESR]
	stp	x0, xzr, [sp, #S_VECTOR]	/* vector, need_eret */
	/* Frame record { interrupted x29, interrupted pc }: backtraces from
	 * the handler continue into the code that was interrupted. */
	stp	x29, x2, [sp, #S_FRAME]
	add	x29, sp, #S_FRAME
.endm

/*
 * The kernel's own synchronous exceptions, where probe hits arrive - by
 * far the most frequent exceptions. A BRK goes straight to its hook
 * (kernel/trap.h): the breakpoint hook, or for the BRK that ends a
 * probe's out-of-line step the single-step hook (traps.c pins the two
 * indices). Only a BRK no hook claims, and every other exception, goes
 * on to trap_dispatch.
 */
	.type sync_common, %function
sync_common:
	save_exception_frame SYNC_STACK_GAP
	ubfx	x5, x4, #ESR_EC_SHIFT, #6	/* the exception class */
	cmp	x5, #EC_BRK64
	b.ne	.Ldispatch
	and	x5, x4, #0xffff			/* the BRK's immediate */
	cmp	x5, #BRK_IMM_KPROBE_STEP
	cset	x5, eq				/* 0: breakpoint, 1: step */
	ldr	x6, =trap_hooks
	ldr	x6, [x6, x5, lsl #3]
	cbz	x6, .Ldispatch
	mov	x0, sp
	blr	x6
	.globl trap_hook_return
trap_hook_return:			/* backtraces know this return (traps.c) */
	tst	w0, #0xff			/* bool: true if handled */
	b.ne	trap_return
	b	.Ldispatch
	.ltorg
	.size sync_common, . - sync_common

/*
 * An exception whose frame would have landed in a stack's guard, now on
 * the overflow stack (vector_entry_checked): x0 holds the vector number,
 * x1 the interrupted sp, SP_EL0 the interrupted x0; x1's own value is
 * saved already. Reports the overflow and never returns.
 */
	.type overflow_common, %function
overflow_common:
	SAVE_X2_X29
	mrs	x2, sp_el0
	str	x2, [sp, #S_X0]
	save_frame_from_x30
	mov	x0, sp
	bl	trap_stack_overflow
	.size overflow_common, . - overflow_common

	.type exception_common, %function
exception_common:
	save_exception_frame
.Ldispatch:
	mov	x0, sp
	bl	trap_dispatch
	.size exception_common, . - exception_common

	.globl trap_return
	.type trap_return, %function
trap_return:
	ldp	x2, x3, [sp, #S_PC]
	msr	elr_el1, x2
	msr	spsr_el1, x3
	LOAD_X2_X29
	ldr	x30, [sp, #S_X30]
	/* sp comes from regs->sp too, so a handler may move it. Switching sp
	 * needs a scratch register, and every general register is taken:
	 * SP_EL0, unused while the kernel runs on SP_EL1, holds x0 across
	 * the switch. */
	ldr	x0, [sp, #S_X0]
	msr	sp_el0, x0
	ldr	x0, [sp, #S_SP]
	ldr	x1, [sp, #S_X0 + 8]
	mov	sp, x0
	mrs	x0, sp_el0
	eret
	.size trap_return, . - trap_return

/*
 * void arch_context_switch(struct arch_context *from, struct arch_context *to)
 *
 * Saves the callee-saved registers x19-x29, the return address x30 and
 * the exception masks (DAIF) on the current stack, stores the stack
 * pointer in *from, loads the one in *to and restores that thread's
 * registers. The "return" then lands wherever the other thread called
 * this from (or, for a new thread, in context_first_entry, see
 * arch/aarch64/thread.c).
 *
 * Why DAIF: a switch made on the way out of an interrupt runs with every
 * exception masked, as the CPU left it on entry. Only the I bit is
 * restored by the scheduler (arch_irq_restore, thread_start); without
 * this, the D (debug) and A (SError) masks of the interrupt would leak
 * into the thread switched to.
 */
	.globl arch_context_switch
	.type arch_context_switch, %function
arch_context_switch:
	sub	sp, sp, #112
	stp	x19, x20, [sp, #16 * 0]
	stp	x21, x22, [sp, #16 * 1]
	stp	x23, x24, [sp, #16 * 2]
	stp	x25, x26, [sp, #16 * 3]
	stp	x27, x28, [sp, #16 * 4]
	stp	x29, x30, [sp, #16 * 5]
	mrs	x9, daif
	str	x9, [sp, #16 * 6]
	mov	x9, sp
	str	x9, [x0]
	ldr	x9, [x1]
	mov	sp, x9
	ldp	x19, x20, [sp, #16 * 0]
	ldp	x21, x22, [sp, #16 * 1]
	ldp	x23, x24, [sp, #16 * 2]
	ldp	x25, x26, [sp, #16 * 3]
	ldp	x27, x28, [sp, #16 * 4]
	ldp	x29, x30, [sp, #16 * 5]
	ldr	x9, [sp, #16 * 6]
	msr	daif, x9
	add	sp, sp, #112
	ret
	.size arch_context_switch, . - arch_context_switch

	/* A new thread's first switch returns here, with x29 = 0 so that
	 * backtraces stop. */
	.globl context_first_entry
	.type context_first_entry, %function
context_first_entry:
	mov	x29, xzr
	bl	thread_start
	brk	#0x3e8			/* thread_start never returns */
	.size context_first_entry, . - context_first_entry
