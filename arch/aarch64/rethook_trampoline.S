/*
 * The return service's trampoline (see kernel/rethook.h).
 *
 * A hooked function's link register was replaced with the address of
 * rethook_trampoline, so its `ret` lands here, with sp back where it was
 * at the function's entry and the return value in x0. We build a struct
 * pt_regs as the exception entry does (same layout, asm/ptrace.h), with
 * PSTATE's flags and interrupt masks, mask interrupts as for every
 * handler, and call rethook_trampoline_handler(regs), which sets regs->pc
 * to the real return address and runs the handlers. Then every register, the
 * condition flags and the interrupt masks are restored from regs (so a
 * handler may change the return value), and we return to the real
 * address through x30 - which is where an ordinary `ret` leaves x30 too.
 *
 * In .entry.text, which is never probed.
 */
#include <asm/pt_regs_asm.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>

	.section .entry.text, "ax"
	.globl rethook_trampoline
	.type rethook_trampoline, %function
rethook_trampoline:
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
	bl	rethook_trampoline_handler
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
	.size rethook_trampoline, . - rethook_trampoline
