/*
 * The first instructions of a CPU that PSCI CPU_ON started
 * (arch/aarch64/smp.c; docs/smp.md).
 *
 * PSCI starts the CPU at secondary_entry's physical address, at the
 * level the boot CPU was entered at (EL1, or EL2 when QEMU emulates
 * virtualization), with the MMU and caches off, interrupts masked and x0
 * holding the context id the boot CPU passed: the physical address of
 * this CPU's struct secondary_boot (asm/smp_boot.h). Then, much as the
 * boot CPU did in boot/aarch64/entry.S:
 *
 *   1. get to EL1 (boot_to_el1, shared with the boot CPU);
 *   2. load the boot CPU's MAIR, TCR and TTBR1 from the record: the
 *      kernel's final tables, no copy of them; as TTBR0, the boot code's
 *      identity map of the gigabyte of RAM the kernel is in (boot_l0_low,
 *      still there), so that the instruction after turning the MMU on
 *      exists;
 *   3. turn the MMU and caches on, without WXN for now: the identity map
 *      is one writable block, which WXN would make non-executable;
 *   4. jump to the higher half, switch the lower half off again and turn
 *      WXN on, exactly as the boot CPU's SCTLR and TCR have them;
 *   5. take the stack the boot CPU allocated and call
 *      smp_secondary_entry(id), which never returns.
 *
 * Steps 1-3 run at the physical address, in .boot.text next to the boot
 * CPU's entry, and use "ldr xN, =symbol" for the same reason entry.S
 * does. The record is read before the MMU is on, so straight from
 * memory: smp.c cleaned it there from its cache.
 */
#include <asm/smp_boot.h>
#include <asm/sysreg.h>

	.section .boot.text, "ax"
	.balign 4			/* instructions, wherever the linker puts it */
	.globl secondary_entry
secondary_entry:
	msr	daifset, #0xf
	mov	x19, x0			/* the record, at its physical address */
	bl	boot_to_el1
	ldr	x1, =SCTLR_EL1_RES1	/* MMU and caches off: a known state */
	msr	sctlr_el1, x1
	isb

	ldp	x20, x21, [x19, #SB_STACK_TOP]	/* stack top and CPU number */
	ldr	x22, [x19, #SB_TCR]
	ldr	x23, [x19, #SB_SCTLR]
	ldr	x1, [x19, #SB_MAIR]
	msr	mair_el1, x1
	bic	x1, x22, #TCR_EPD0	/* walks through TTBR0, for a moment */
	msr	tcr_el1, x1
	ldr	x0, [x19, #SB_TTBR1]
	bl	boot_install_tables

	bic	x1, x23, #SCTLR_WXN
	msr	sctlr_el1, x1
	isb
	ldr	x1, =secondary_higher_half
	br	x1

	/* The physical address above, for smp.c. */
	.section .rodata
	.balign 8
	.globl secondary_entry_phys
secondary_entry_phys:
	.quad	secondary_entry

	/* From here on the code runs at its linked, higher-half address. */
	.section .entry.text, "ax"
secondary_higher_half:
	/* The boot CPU's TCR has the lower half off (EPD0) and its SCTLR
	 * has WXN on (arch_paging_switch): the same here. Only this CPU's
	 * TLB can hold identity-map entries, so the flush is local. */
	msr	tcr_el1, x22
	isb
	msr	sctlr_el1, x23
	isb
	tlbi	vmalle1
	dsb	nsh
	isb

	mov	sp, x20
	mov	x29, xzr		/* terminates the frame-pointer chain */
	mov	x30, xzr
	mov	w0, w21
	bl	smp_secondary_entry
1:	msr	daifset, #0xf		/* it does not return; if it did, stop */
	wfi
	b	1b
