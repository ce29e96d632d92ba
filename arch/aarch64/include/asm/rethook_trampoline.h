/*
 * The return service's trampoline (see kernel/rethook.h), an assembler
 * macro: each user of the service makes its own with
 *
 *	RETHOOK_TRAMPOLINE name, handler
 *
 * in a .S file of its own, so that a return goes straight to that user's
 * C handler, with no call through a pointer. For assembly only.
 *
 * A hooked function's link register was replaced with the address of
 * the trampoline, so its `ret` lands here, with sp back where it was at
 * the function's entry and the return value in x0. We build a struct
 * pt_regs as the exception entry does (same layout, asm/ptrace.h), with
 * PSTATE's flags and interrupt masks, mask interrupts as for every
 * handler, and call handler(regs), which sets regs->pc to the real
 * return address (rethook_return does). Then every register, the
 * condition flags and the interrupt masks are restored from regs (so a
 * handler may change the return value), and we return to the real
 * address through x30 - which is where an ordinary `ret` leaves x30 too.
 *
 * Every trampoline goes in .entry.text.rethook, inside the never-probed
 * entry text, where the service tells its trampolines from other code
 * by their address (rethook_is_trampoline).
 */
#ifndef ASM_RETHOOK_TRAMPOLINE_H
#define ASM_RETHOOK_TRAMPOLINE_H

#include <asm/pt_regs_asm.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>

.macro RETHOOK_TRAMPOLINE name, handler
	.pushsection .entry.text.rethook, "ax"
	.globl \name
	.type \name, %function
\name:
	sub	sp, sp, #PT_REGS_SIZE
	stp	x0, x1, [sp, #16 * 0]
	SAVE_X2_X29
	add	x1, sp, #PT_REGS_SIZE	/* sp as the return left it */
	stp	x30, x1, [sp, #S_X30]
	/* pstate: the flags (NZCV) and masks (DAIF) now, at EL1 on SP_EL1;
	 * pc: the trampoline until the handler knows the real address. */
	mrs	x2, nzcv
	mrs	x3, daif
	orr	x2, x2, x3
	mov	x3, #PSR_MODE_EL1H
	orr	x2, x2, x3
	stp	x30, x2, [sp, #S_PC]
	stp	xzr, xzr, [sp, #S_ESR]
	stp	xzr, xzr, [sp, #S_VECTOR]
	stp	xzr, xzr, [sp, #S_FRAME]
	msr	daifset, #2		/* mask IRQs */
	mov	x0, sp
	bl	\handler
	ldr	x30, [sp, #S_PC]	/* the real return address */
	ldr	x2, [sp, #S_PSTATE]
	and	x3, x2, #0xf0000000	/* N, Z, C, V */
	msr	nzcv, x3
	and	x3, x2, #0x3c0		/* D, A, I, F */
	msr	daif, x3
	ldp	x0, x1, [sp, #16 * 0]
	LOAD_X2_X29
	add	sp, sp, #PT_REGS_SIZE
	ret
	.size \name, . - \name
	.popsection
.endm

#endif
