/* Assembler macros that store and load x2-x29 at their places in the
 * struct pt_regs that sp points to (asm/ptrace.h): pairs at 16 * n.
 * LOAD_X2_X29 takes another base register if asked (jprobe_return, where
 * the frame is not at sp); the base must not be one of x2-x29. The
 * exception entry, the kretprobe trampoline and the optimizer's detour
 * buffer all build that structure; x0, x1 and x30 are saved by each in
 * its own way, because each needs scratch registers at a different
 * moment. */
#ifndef ASM_PT_REGS_ASM_H
#define ASM_PT_REGS_ASM_H

#include <asm/ptrace.h>
#include <asm/sysreg.h>

.macro SAVE_X2_X29
	stp	x2, x3, [sp, #16 * 1]
	stp	x4, x5, [sp, #16 * 2]
	stp	x6, x7, [sp, #16 * 3]
	stp	x8, x9, [sp, #16 * 4]
	stp	x10, x11, [sp, #16 * 5]
	stp	x12, x13, [sp, #16 * 6]
	stp	x14, x15, [sp, #16 * 7]
	stp	x16, x17, [sp, #16 * 8]
	stp	x18, x19, [sp, #16 * 9]
	stp	x20, x21, [sp, #16 * 10]
	stp	x22, x23, [sp, #16 * 11]
	stp	x24, x25, [sp, #16 * 12]
	stp	x26, x27, [sp, #16 * 13]
	stp	x28, x29, [sp, #16 * 14]
.endm

.macro LOAD_X2_X29 base=sp
	ldp	x2, x3, [\base, #16 * 1]
	ldp	x4, x5, [\base, #16 * 2]
	ldp	x6, x7, [\base, #16 * 3]
	ldp	x8, x9, [\base, #16 * 4]
	ldp	x10, x11, [\base, #16 * 5]
	ldp	x12, x13, [\base, #16 * 6]
	ldp	x14, x15, [\base, #16 * 7]
	ldp	x16, x17, [\base, #16 * 8]
	ldp	x18, x19, [\base, #16 * 9]
	ldp	x20, x21, [\base, #16 * 10]
	ldp	x22, x23, [\base, #16 * 11]
	ldp	x24, x25, [\base, #16 * 12]
	ldp	x26, x27, [\base, #16 * 13]
	ldp	x28, x29, [\base, #16 * 14]
.endm

/* For code a branch enters rather than an exception (the optimizer's
 * detour buffer, the function tracer's trampoline): make room for a
 * struct pt_regs below sp, save x0-x29 in it, and leave in x0 the pstate
 * SPSR_EL1 would hold (the condition flags and interrupt masks, at EL1).
 * Nothing before it may change the flags. */
.macro SAVE_X0_X29_AND_PSTATE
	sub	sp, sp, #PT_REGS_SIZE
	stp	x0, x1, [sp, #16 * 0]
	mrs	x0, nzcv
	mrs	x1, daif
	orr	x0, x0, x1
	add	x0, x0, #PSR_MODE_EL1H
	SAVE_X2_X29
.endm

#endif
