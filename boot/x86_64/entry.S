/*
 * First instructions of the kernel on x86_64.
 *
 * GRUB loads the image (following the multiboot2 header below) and jumps
 * to _start in 32-bit protected mode with paging off, EAX holding the
 * multiboot2 magic and EBX the physical address of the boot information.
 * This file does the minimum needed to reach C in 64-bit mode:
 *
 *   1. build page tables that map the first 1 GiB twice: at its physical
 *      address (so the next instruction after enabling paging still
 *      exists) and at KERNEL_VMA (where the kernel is linked);
 *   2. turn on PAE, long mode and no-execute support, then paging;
 *   3. far-jump into a 64-bit code segment, then jump to the higher half;
 *   4. call kmain(magic, info) on the boot stack.
 *
 * kernel/mm replaces these coarse tables with the W^X ones early in kmain.
 * Everything here runs at its physical address, so it lives in the .boot
 * sections that the linker script places at 1 MiB with VMA == LMA.
 */
#include "kernel/mm/stack.h"
#include <asm/layout.h>
#include <asm/long_mode.h>

#define MB2_MAGIC     0xe85250d6
#define MB2_ARCH_I386 0
#define PTE_P   (1 << 0)
#define PTE_W   (1 << 1)
#define PTE_PS  (1 << 7)

/* Physical address of a symbol linked in the higher half. */
#define PA(x) ((x) - KERNEL_VMA)

	.section .multiboot2, "a"
	.balign 8
mb2_header:
	.long MB2_MAGIC
	.long MB2_ARCH_I386
	.long mb2_header_end - mb2_header
	.long -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	/* Entry address tag: where GRUB jumps, stated explicitly rather
	 * than left to the ELF header, since the image mixes a low (boot)
	 * and a higher-half (kernel) part. */
	.balign 8
	.word 3, 0
	.long 12
	.long _start
	/* End tag. */
	.balign 8
	.word 0, 0
	.long 8
mb2_header_end:

	.section .boot.text, "ax"
	.code32
	.globl _start
_start:
	cli
	movl $boot_stack32_top, %esp
	movl %eax, %edi			/* multiboot2 magic: kmain's 1st argument */
	movl %ebx, %esi			/* info address: kmain's 2nd argument */

	/* PML4[0] and PML4[511] -> one PDPT; PDPT[0] and PDPT[510] -> one
	 * page directory of 512 2-MiB pages = the first 1 GiB. */
	movl $boot_pdpt, %eax
	orl $(PTE_P | PTE_W), %eax
	movl %eax, boot_pml4
	movl %eax, boot_pml4 + 511 * 8
	movl $boot_pd, %eax
	orl $(PTE_P | PTE_W), %eax
	movl %eax, boot_pdpt
	movl %eax, boot_pdpt + 510 * 8
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $21, %eax
	orl $(PTE_P | PTE_W | PTE_PS), %eax
	movl %eax, boot_pd(, %ecx, 8)
	incl %ecx
	cmpl $512, %ecx
	jne 1b

	ENTER_LONG_MODE $boot_pml4

	lgdt boot_gdt_ptr
	ljmp $0x08, $long_mode_low

	.code64
long_mode_low:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	movabsq $higher_half, %rax
	jmp *%rax

	.section .boot.data, "a"
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00209a0000000000	/* 0x08: 64-bit code, ring 0 */
	.quad 0x0000920000000000	/* 0x10: data, ring 0 */
boot_gdt_end:
boot_gdt_ptr:
	.word boot_gdt_end - boot_gdt - 1
	.long boot_gdt

	.section .boot.bss, "aw", @nobits
	.balign 4096
boot_pml4:	.skip 4096
boot_pdpt:	.skip 4096
boot_pd:	.skip 4096
	.skip 1024
boot_stack32_top:

	/* From here on the code runs at its linked, higher-half address. */
	.section .entry.text, "ax"
	.code64
	.type higher_half, @function
higher_half:
	/* EDI and ESI were written in 32-bit mode; the upper halves of the
	 * registers are undefined after the switch, so clear them. */
	movl %edi, %edi
	movl %esi, %esi
	movabsq $boot_stack_top, %rsp
	xorl %ebp, %ebp			/* terminates the frame-pointer chain */
	call kmain
1:	cli
	hlt
	jmp 1b
	.size higher_half, . - higher_half

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
