/*
 * The template of a detour buffer (see arch/x86_64/optprobe.c).
 *
 * It is never run here: arch_prepare_optprobe copies these bytes into a
 * detour buffer, fills in the three operands marked below, and appends
 * the copied instructions of the region and a jump back. The code builds
 * the same struct pt_regs a trap would (asm/ptrace.h), so handlers cannot
 * tell an optimized hit from a breakpoint, calls optprobe_callback(pp,
 * regs) with interrupts off, and restores everything but %rip and %rsp
 * (a handler's changes to those are ignored, see optprobe_callback).
 *
 * Order matters at the start: nothing may change the flags before pushfq
 * has saved them, so only pushes come first.
 */
#include <asm/pt_regs_asm.h>

	.section .rodata, "a"
	.globl optprobe_template, optprobe_template_rip, optprobe_template_pp
	.globl optprobe_template_callback, optprobe_template_end
optprobe_template:
	pushq $0x10			/* ss */
	pushq %rsp			/* rsp, 8 too low: fixed below */
	pushfq				/* rflags, untouched so far */
	cli
	addq $8, 8(%rsp)		/* rsp as it was at the probed address */
	pushq $0x08			/* cs */
optprobe_template_rip:
	pushq $0x7fffffff		/* rip: the probed address + 1, as after int3 */
	pushq $0			/* error code */
	pushq $3			/* vector: as for the breakpoint */
	PUSH_GPRS
	movq %rsp, %rsi			/* regs: the second argument */
optprobe_template_pp:
	movabsq $0x7fffffffffffffff, %rdi	/* pp: the first */
optprobe_template_callback:
	call optprobe_callback		/* rel32: re-aimed from the buffer */
	POP_GPRS
	leaq 32(%rsp), %rsp		/* vector, error code, rip, cs */
	popfq
	leaq 16(%rsp), %rsp		/* rsp, ss: back to the probed %rsp */
optprobe_template_end:
