/*
 * Entry points and the exception vectors of the reproducer. QEMU virt
 * starts CPU 0 at _start in EL1 with the MMU off; the others stay off
 * until CPU 0 asks PSCI to start them at secondary_start, with their
 * number in x0 (PSCI's context id).
 */
	.section .text.start, "ax"
	.global _start
_start:
	mov	x0, #0
	/* fall through */
	.global secondary_start
secondary_start:
	/* Stacks are STACK_SIZE bytes, one per CPU, going down from the top. */
	adr	x1, stacks
	add	x2, x0, #1
	lsl	x2, x2, #12		/* STACK_SIZE: 4 KiB */
	add	sp, x1, x2
	adr	x1, vectors
	msr	vbar_el1, x1
	isb
	b	cpu_main		/* cpu_main(cpu number), never returns */

/* IRQ from EL1 on SP_ELx: save what C may clobber, call irq_handler. */
	.macro	save_and_call fn
	sub	sp, sp, #176
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x30, [sp, #144]
	mrs	x0, elr_el1
	mrs	x1, spsr_el1
	stp	x0, x1, [sp, #160]
	bl	\fn
	ldp	x0, x1, [sp, #160]
	msr	elr_el1, x0
	msr	spsr_el1, x1
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x30, [sp, #144]
	add	sp, sp, #176
	eret
	.endm

	.macro	entry fn
	.balign	0x80
	save_and_call \fn
	.endm

	.balign	0x800
vectors:
	entry	unexpected_exception	/* current EL, SP_EL0 */
	entry	unexpected_exception
	entry	unexpected_exception
	entry	unexpected_exception
	entry	unexpected_exception	/* current EL, SP_ELx: sync */
	entry	irq_handler		/* IRQ */
	entry	unexpected_exception	/* FIQ */
	entry	unexpected_exception	/* SError */
	.rept	8			/* lower ELs: never used */
	entry	unexpected_exception
	.endr

	.bss
	.balign	16
stacks:
	.skip	4 * 4096
