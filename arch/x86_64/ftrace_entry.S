/*
 * x86_64's function-tracer trampolines: what a patched call site calls
 * (arch/x86_64/ftrace.c). At entry, 0(%rsp) is the return address past
 * the site and 8(%rsp) the function's own return address, into its
 * caller.
 *
 * ftrace_caller, for ops that do not read the registers, saves only
 * what a C call may clobber - the argument registers, rax, r10 and r11
 * - calls ftrace_dispatch(ip, parent_ip, NULL) (kernel/trace/ftrace.h)
 * and returns past the site. The flags need no saving: no function
 * expects them kept across the call that entered it, and the direction
 * flag is clear there, as the ABI says it is at every call.
 *
 * ftrace_regs_caller builds the struct pt_regs a breakpoint at
 * the function's first byte would (asm/ptrace.h), with rip where the
 * function goes on (past the site) and rsp as the function entered
 * with it, calls ftrace_dispatch(ip, parent_ip, regs)
 * (kernel/trace/ftrace.h), restores every register from regs, and
 * returns to regs->rip: past the site, or wherever a callback moved it
 * (a kprobe's pre-handler that changes the instruction pointer and
 * returns 1, or regs_return_from_entry, which pops the return address
 * too). The way back is the trap's own, iretq, which loads rip,
 * rflags and rsp at once: a callback may move rsp anywhere, down too (a
 * jprobe's entry function runs below this frame). A ret from a word
 * written just below regs->rsp was tried first; with rsp moved below
 * the frame, that word lay below the stack pointer between popfq and
 * the ret, where an NMI (a TLB shootdown's, which interrupts with
 * interrupts off) pushed its frame over it.
 *
 * Order matters: nothing may change the flags before pushfq has saved
 * them. Interrupts stay as the function had them, in both.
 */
#include <asm/pt_regs_asm.h>

#define REGS_SIZE (22 * 8)
#define CLOBBERED_SIZE (10 * 8)	/* nine registers and a word for alignment */

	.text
	.globl ftrace_caller
	.type ftrace_caller, @function
ftrace_caller:
	pushq %rax
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	subq $8, %rsp			/* rsp a multiple of 16 at the call */
	movq CLOBBERED_SIZE(%rsp), %rdi
	subq $5, %rdi			/* ip: the site, the function's address */
	movq CLOBBERED_SIZE + 8(%rsp), %rsi	/* parent_ip */
	xorl %edx, %edx			/* no regs */
	call ftrace_dispatch
	addq $8, %rsp
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rax
	ret
	.size ftrace_caller, . - ftrace_caller

	.globl ftrace_regs_caller
	.type ftrace_regs_caller, @function
ftrace_regs_caller:
	pushq $0x10			/* ss */
	pushq %rsp			/* rsp, 16 too low: fixed below */
	pushfq				/* rflags, untouched so far */
	addq $16, 8(%rsp)		/* rsp as the function entered with it */
	pushq $0x08			/* cs */
	pushq 32(%rsp)			/* rip: past the site */
	pushq $0			/* error code */
	pushq $3			/* vector: as for the breakpoint */
	PUSH_GPRS
	cld
	movq REGS_SIZE(%rsp), %rdi
	subq $5, %rdi			/* ip: the site, the function's address */
	movq REGS_SIZE + 8(%rsp), %rsi	/* parent_ip */
	movq %rsp, %rdx			/* regs */
	call ftrace_dispatch
	.globl ftrace_dispatch_return
ftrace_dispatch_return:
	POP_GPRS
	addq $16, %rsp			/* vector and error code */
	iretq
	.size ftrace_regs_caller, . - ftrace_regs_caller
