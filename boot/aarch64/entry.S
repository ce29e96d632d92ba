/*
 * First instructions of the kernel on aarch64.
 *
 * QEMU (-kernel with the raw image build/aarch64/probeos.bin) boots us the
 * way it boots Linux: the image is loaded at RAM base + text_offset from
 * the header below (physical 0x40200000), the initrd and the device tree
 * are placed further up in RAM, and _head is entered at EL1 (or at EL2
 * when the machine has virtualization enabled) with the MMU and caches
 * off, interrupts masked and x0 holding the physical address of the
 * device tree blob (DTB). This file does the minimum needed to reach C:
 *
 *   1. if entered at EL2, set EL2 up so that EL1 may run the kernel, and
 *      drop to EL1;
 *   2. build page tables that map physical memory twice: the gigabyte
 *      holding the kernel at its physical address (so the instruction
 *      after turning the MMU on still exists), and the first 2 GiB at
 *      KERNEL_VMA + physical (devices, then RAM), where the kernel is
 *      linked;
 *   3. turn on the MMU and the caches, then jump to the higher half;
 *   4. clear .bss and call kmain(dtb, 0) on the boot stack.
 *
 * paging_init replaces these coarse tables with the W^X ones early in
 * kmain. Everything here runs at its physical address, so it lives in the
 * .boot sections that the linker script places at 0x40200000 with
 * VMA == LMA; it reaches higher-half symbols with "ldr xN, =symbol"
 * (an absolute address from a literal pool), since PC-relative ADRP cannot
 * span the distance.
 *
 * QEMU can also load build/aarch64/probeos.elf directly, but it treats an
 * ELF file as a bare-metal program: it enters _start with x0 = 0, puts
 * the DTB at the start of RAM and ignores -initrd. That boots too (see
 * boot/aarch64/fdt_boot.c), without a root file system.
 */
#include "kernel/mm/stack.h"
#include <asm/layout.h>
#include <asm/sysreg.h>

/* Physical address of a symbol linked in the higher half. */
#define PA(x) ((x) - KERNEL_VMA)

#define GIB (1 << 30)
#define RAM_GIB (KERNEL_LOAD_PHYS & ~(GIB - 1))	/* the gigabyte we run in */
#define L0_INDEX(va) (((va) >> 39) & 511)	/* 512 GiB per entry */
#define L1_INDEX(va) (((va) >> 30) & 511)	/* 1 GiB per entry */
#define TABLE_DESC   (PTE_VALID | PTE_TABLE)
#define BLOCK_NORMAL (PTE_VALID | PTE_ATTR(ATTR_NORMAL) | PTE_SH_INNER | PTE_AF)
#define BLOCK_DEVICE (PTE_VALID | PTE_ATTR(ATTR_DEVICE) | PTE_AF | PTE_PXN | PTE_UXN)

/*
 * The arm64 Linux image header: 64 bytes that make QEMU (and other boot
 * loaders) treat the raw image as a kernel to boot with the Linux boot
 * protocol. The first word is executed: a branch over the header.
 */
	.section .boot.head, "ax"
	.globl _head
_head:
	b	_start			/* code0 */
	.long	0			/* code1 */
	.quad	KERNEL_LOAD_PHYS - RAM_GIB	/* text_offset from a 2 MiB aligned RAM base */
	.quad	__image_size		/* image_size, .bss included (linker script) */
	.quad	0x2			/* flags: little-endian, 4 KiB pages */
	.quad	0, 0, 0			/* reserved */
	.ascii	"ARM\x64"		/* magic */
	.long	0			/* reserved */

	.section .boot.text, "ax"
	.globl _start
_start:
	mov	x19, x0			/* DTB address: kmain's 1st argument */
	msr	daifset, #0xf
	bl	boot_to_el1
	ldr	x1, =SCTLR_EL1_RES1	/* MMU and caches off: a known state */
	msr	sctlr_el1, x1
	isb

	/* Clear the boot page tables (.boot.bss). */
	ldr	x1, =boot_tables
	ldr	x2, =boot_tables_end
1:	stp	xzr, xzr, [x1], #16
	cmp	x1, x2
	b.lo	1b

	/* Lower half (TTBR0): the gigabyte of RAM we run in, at its own
	 * address, so the next instruction after the MMU is on exists. */
	ldr	x1, =boot_l0_low
	ldr	x2, =boot_l1_low
	orr	x3, x2, #TABLE_DESC
	str	x3, [x1, #L0_INDEX(RAM_GIB) * 8]
	ldr	x3, =(RAM_GIB | BLOCK_NORMAL)
	str	x3, [x2, #L1_INDEX(RAM_GIB) * 8]

	/* Upper half (TTBR1): physical 0-1 GiB (QEMU virt's devices) as
	 * device memory, and 1-2 GiB (RAM) as normal memory, both at
	 * KERNEL_VMA + physical. Blocks are RWX: W^X comes with the final
	 * tables. */
	ldr	x1, =boot_l0_high
	ldr	x2, =boot_l1_high
	orr	x3, x2, #TABLE_DESC
	str	x3, [x1, #L0_INDEX(KERNEL_VMA) * 8]
	ldr	x3, =BLOCK_DEVICE
	str	x3, [x2, #L1_INDEX(KERNEL_VMA) * 8]
	ldr	x3, =(RAM_GIB | BLOCK_NORMAL)
	str	x3, [x2, #L1_INDEX(KERNEL_VMA + RAM_GIB) * 8]

	/* Memory attributes, translation control (the physical address size
	 * is whatever this CPU supports), the two table bases. */
	ldr	x1, =MAIR_VALUE
	msr	mair_el1, x1
	ldr	x1, =TCR_VALUE
	mrs	x2, id_aa64mmfr0_el1
	and	x2, x2, #7		/* PARange */
	bfi	x1, x2, #TCR_IPS_SHIFT, #3
	msr	tcr_el1, x1
	ldr	x0, =boot_l0_high
	bl	boot_install_tables

	ldr	x1, =(SCTLR_EL1_RES1 | SCTLR_M | SCTLR_C | SCTLR_SA | SCTLR_I)
	msr	sctlr_el1, x1
	isb
	ldr	x1, =higher_half
	br	x1

/*
 * Bring this CPU to EL1, called with BL by the boot CPU (_start) and by
 * the others (secondary_entry, arch/aarch64/smp_entry.S), MMU off. At
 * EL1 it just returns. At EL2 (QEMU with virtualization=on) it makes EL2
 * let the kernel run at EL1: EL1 is AArch64, may use the physical
 * counter and timer, and sees the virtual counter equal to the physical
 * one (so every CPU's counter agrees); then it "returns" to the caller
 * at EL1 with every exception masked. These registers are each CPU's
 * own, so every CPU comes through here. At EL3 (secure=on and no
 * firmware, not supported) it stops. Only x1 is changed.
 */
	.globl boot_to_el1
boot_to_el1:
	mrs	x1, CurrentEL
	lsr	x1, x1, #2
	cmp	x1, #2
	b.eq	from_el2
	cmp	x1, #1
	b.ne	stuck
	ret
from_el2:
	ldr	x1, =HCR_EL2_RW
	msr	hcr_el2, x1
	mrs	x1, cnthctl_el2
	orr	x1, x1, #(CNTHCTL_EL1PCTEN | CNTHCTL_EL1PCEN)
	msr	cnthctl_el2, x1
	msr	cntvoff_el2, xzr
	ldr	x1, =SCTLR_EL1_RES1
	msr	sctlr_el1, x1
	mov	x1, #(PSR_D | PSR_A | PSR_I | PSR_F | PSR_MODE_EL1H)
	msr	spsr_el2, x1
	msr	elr_el2, x30
	eret
stuck:	wfe
	b	stuck

/*
 * Point TTBR0 at the boot identity map (boot_l0_low) and TTBR1 at x0,
 * then drop whatever this CPU's TLB and instruction cache hold from
 * before: called with BL, MMU off, by the boot CPU (_start) and by the
 * others (secondary_entry) just before they turn their MMU on. Only x1
 * is changed.
 */
	.globl boot_install_tables
boot_install_tables:
	ldr	x1, =boot_l0_low
	msr	ttbr0_el1, x1
	msr	ttbr1_el1, x0
	isb
	tlbi	vmalle1
	ic	iallu
	dsb	nsh
	isb
	ret

	.section .boot.bss, "aw", %nobits
	.balign 4096
boot_tables:
	/* Kept after boot: the other CPUs turn their MMU on through it
	 * (arch/aarch64/smp_entry.S). The frames stay reserved, as part
	 * of the kernel image (frame_init). */
	.globl boot_l0_low
boot_l0_low:	.skip 4096
boot_l1_low:	.skip 4096
boot_l0_high:	.skip 4096
boot_l1_high:	.skip 4096
boot_tables_end:

	/* From here on the code runs at its linked, higher-half address. */
	.section .entry.text, "ax"
higher_half:
	adrp	x1, boot_stack_top
	add	x1, x1, :lo12:boot_stack_top
	mov	sp, x1
	/* Clear .bss: the Linux boot protocol leaves that to the kernel. */
	adrp	x1, __bss_start
	add	x1, x1, :lo12:__bss_start
	adrp	x2, __bss_end
	add	x2, x2, :lo12:__bss_end
1:	cmp	x1, x2
	b.hs	2f
	str	xzr, [x1], #8
	b	1b
2:	adrp	x1, boot_dtb_phys
	str	x19, [x1, :lo12:boot_dtb_phys]
	mov	x29, xzr		/* terminates the frame-pointer chain */
	mov	x30, xzr
	mov	x0, x19
	mov	x1, xzr
	bl	kmain
3:	msr	daifset, #0xf
	wfi
	b	3b

	.section .bss
	/* The boot CPU's stack: the upper half of a block twice its size,
	 * aligned to that size, as every kernel stack is laid out; the lower
	 * half is its guard, unmapped once the final page tables are in
	 * place (kernel/mm/stack.h). */
	.balign 2 * KERNEL_STACK_SIZE
boot_stack_guard:
	.skip KERNEL_STACK_SIZE
	.globl boot_stack, boot_stack_top
boot_stack:
	.skip KERNEL_STACK_SIZE
boot_stack_top:

	.section .stack_guards, "a"	/* a struct static_stack_guards */
	.balign 8
	.quad boot_stack_guard, KERNEL_STACK_SIZE, 0, 1
