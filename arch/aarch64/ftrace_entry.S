/*
 * aarch64's function-tracer trampolines: what a patched call site calls
 * (arch/aarch64/ftrace.c). The site is `mov x9, x30; bl TRAMPOLINE`,
 * so at entry x30 is the address past the site and x9 the function's
 * own return address.
 *
 * ftrace_caller, for ops that do not read the registers, saves only
 * what a function's first instruction may still need - the argument
 * registers x0-x7, x8 (the address of a result returned in memory) and
 * the frame pointer - calls ftrace_dispatch(ip, parent_ip, NULL)
 * (kernel/trace/ftrace.h), and returns past the site with x30 back as
 * the function had it. The condition flags and the temporaries x10-x17
 * carry nothing into a function (AAPCS64), so they need no saving.
 *
 * ftrace_regs_caller builds the struct pt_regs a BRK at the
 * function's first instruction would (asm/ptrace.h), with x30 the
 * function's return address, sp as the function entered with it and pc
 * where it goes on (past the site), calls ftrace_dispatch(ip,
 * parent_ip, regs) (kernel/trace/ftrace.h), restores the registers and
 * the condition flags from regs, and branches to regs->pc with sp at
 * regs->sp: past the site, or wherever a callback moved them (a kprobe's
 * pre-handler that returns 1; a jprobe's, whose entry function runs on
 * a stack below this frame). x9 and x10 carry the target and the stack
 * pointer: the site's MOV has clobbered x9 already, and neither carries
 * an argument, so a function's first instruction has no use for them
 * (x16 and x17, the veneers' registers, may hold a jprobe's operands).
 * Interrupts stay as the function had them.
 */
#include <asm/pt_regs_asm.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>

#define CLOBBERED_SIZE (12 * 8)	/* x0-x9, x29, x30 */

	.text
	.globl ftrace_caller
	.type ftrace_caller, %function
	.balign 4
ftrace_caller:
	sub	sp, sp, #CLOBBERED_SIZE
	stp	x0, x1, [sp, #16 * 0]
	stp	x2, x3, [sp, #16 * 1]
	stp	x4, x5, [sp, #16 * 2]
	stp	x6, x7, [sp, #16 * 3]
	stp	x8, x9, [sp, #16 * 4]
	stp	x29, x30, [sp, #16 * 5]
	add	x29, sp, #16 * 5	/* a frame record, for backtraces */
	sub	x0, x30, #8		/* ip: the site, the function's address */
	mov	x1, x9			/* parent_ip */
	mov	x2, xzr			/* no regs */
	bl	ftrace_dispatch
	ldp	x0, x1, [sp, #16 * 0]
	ldp	x2, x3, [sp, #16 * 1]
	ldp	x4, x5, [sp, #16 * 2]
	ldp	x6, x7, [sp, #16 * 3]
	ldp	x8, x9, [sp, #16 * 4]
	ldp	x29, x10, [sp, #16 * 5]	/* x10: past the site */
	add	sp, sp, #CLOBBERED_SIZE
	mov	x30, x9			/* the function's return address */
	ret	x10
	.size ftrace_caller, . - ftrace_caller

	.globl ftrace_regs_caller
	.type ftrace_regs_caller, %function
	.balign 4
ftrace_regs_caller:
	SAVE_X0_X29_AND_PSTATE		/* x0: pstate */
	add	x1, sp, #PT_REGS_SIZE	/* sp as the function entered with it */
	stp	x9, x1, [sp, #S_X30]	/* x30: the function's return address */
	stp	x30, x0, [sp, #S_PC]	/* pc past the site, pstate */
	stp	xzr, xzr, [sp, #S_ESR]
	stp	xzr, xzr, [sp, #S_VECTOR]
	stp	x29, x30, [sp, #S_FRAME] /* a frame record, for backtraces */
	add	x29, sp, #S_FRAME
	sub	x0, x30, #8		/* ip: the site, the function's address */
	mov	x1, x9			/* parent_ip */
	mov	x2, sp			/* regs */
	bl	ftrace_dispatch
	.globl ftrace_dispatch_return
ftrace_dispatch_return:
	ldr	x0, [sp, #S_PSTATE]
	and	x0, x0, #0xf0000000	/* N, Z, C, V */
	msr	nzcv, x0
	LOAD_X2_X29
	ldr	x30, [sp, #S_X30]
	ldp	x10, x9, [sp, #S_SP]	/* after x2-x29: x10 = sp, x9 = pc */
	ldp	x0, x1, [sp, #16 * 0]
	mov	sp, x10			/* a move: the flags stay */
	br	x9
	.size ftrace_regs_caller, . - ftrace_regs_caller
