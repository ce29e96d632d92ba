/*
 * Where the other CPUs start (docs/smp.md, "Bringing up the other CPUs
 * on x86_64").
 *
 * A STARTUP IPI starts a CPU in 16-bit real mode at CS:IP = 0x0800:0000,
 * physical SMP_TRAMPOLINE_PHYS, with paging off, interrupts off and the
 * caches possibly disabled. This code, copied to that page by
 * arch/x86_64/smp.c, takes it the same way boot/x86_64/entry.S took the
 * boot CPU, but from one mode further down:
 *
 *   1. real mode: load a GDT of its own and enter 32-bit protected mode;
 *   2. turn on PAE, load the trampoline's page tables (they map this page
 *      at its physical address and the kernel's half as the kernel's own
 *      tables do), turn on long mode, NX and write protection, then paging;
 *   3. in 64-bit mode, still in this page, read the rest of the mailbox
 *      and jump to smp_ap_entry64 in the kernel's text;
 *   4. there, switch to the kernel's own page tables and call
 *      smp_secondary_entry(id) on the stack the boot CPU gave.
 *
 * The copy runs at another address than the one it was linked at, so
 * every address in it is written as SMP_TRAMPOLINE_PHYS plus an offset
 * from smp_trampoline_start; only the jump to the kernel (step 3) uses a
 * linked address. The image's own copy lies in rodata and never runs.
 */
#include <asm/layout.h>
#include <asm/long_mode.h>
#include "arch/x86_64/smp_trampoline.h"

#define CR0_PE   (1 << 0)
#define CR0_NW   (1 << 29)
#define CR0_CD   (1 << 30)

/* The trampoline's GDT: 64-bit code and data where the kernel's GDT
 * (arch/x86_64/cpu.c) has them, then 32-bit code for step 1. */
#define SEL_CODE64 0x08
#define SEL_DATA   0x10
#define SEL_CODE32 0x18

/* An address in the trampoline: as an offset in its page (real mode,
 * with DS = CS = the page), and as a physical address (once the GDT's
 * flat segments are in use). */
#define OFF(x)  ((x) - smp_trampoline_start)
#define PHYS(x) (SMP_TRAMPOLINE_PHYS + OFF(x))

	.section .rodata.smp_trampoline, "a"
	.globl smp_trampoline_start, smp_trampoline_end, smp_trampoline_mailbox

	.code16
smp_trampoline_start:
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	lgdtl tramp_gdt_ptr - smp_trampoline_start	/* DS:offset */
	/* INIT may leave the caches disabled (CD, NW): enable them, as
	 * the firmware did on the boot CPU. */
	movl %cr0, %eax
	andl $~(CR0_CD | CR0_NW), %eax
	orl $CR0_PE, %eax
	movl %eax, %cr0
	ljmpl $SEL_CODE32, $PHYS(start32)

	.code32
start32:
	movw $SEL_DATA, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	/* The same CR4, EFER and CR0 bits as the boot CPU's (entry.S):
	 * without NXE, the NX bit in the kernel's entries would make
	 * them reserved-bit faults; without WP, read-only kernel pages
	 * would be writable from this CPU. */
	ENTER_LONG_MODE PHYS(smp_trampoline_mailbox) + MB_TRAMPOLINE_CR3
	ljmpl $SEL_CODE64, $PHYS(start64)

	.code64
start64:
	/* Absolute 32-bit addresses: the page is identity-mapped. */
	movq PHYS(smp_trampoline_mailbox) + MB_KERNEL_CR3, %rbx
	movq PHYS(smp_trampoline_mailbox) + MB_STACK_TOP, %rsp
	movq PHYS(smp_trampoline_mailbox) + MB_CPU_ID, %rdi
	movabsq $smp_ap_entry64, %rax
	jmp *%rax

	.balign 8
tramp_gdt:
	.quad 0
	.quad 0x00209a0000000000	/* SEL_CODE64: 64-bit code, ring 0 */
	.quad 0x00cf92000000ffff	/* SEL_DATA: data, flat 4 GiB */
	.quad 0x00cf9a000000ffff	/* SEL_CODE32: 32-bit code, flat 4 GiB */
tramp_gdt_end:
tramp_gdt_ptr:
	.word tramp_gdt_end - tramp_gdt - 1
	.long PHYS(tramp_gdt)

	/* Written by the boot CPU before each start (smp_trampoline.h). */
	.balign 8
smp_trampoline_mailbox:
	.skip MB_SIZE
smp_trampoline_end:

	/* In the kernel's text, at its linked address, reached from
	 * start64 with %rbx = the kernel's page tables, %rsp = the stack
	 * and %rdi = the CPU's id. Never probed (.entry.text): it runs
	 * before the CPU has its own per-CPU data and trap vectors. */
	.section .entry.text, "ax"
	.code64
	.globl smp_ap_entry64
	.type smp_ap_entry64, @function
smp_ap_entry64:
	/* The trampoline's tables map the kernel's half through the same
	 * tables as the kernel's root, so this code stays mapped across
	 * the switch; the trampoline page does not, and is not needed. */
	movq %rbx, %cr3
	xorl %ebp, %ebp			/* terminates the frame-pointer chain */
	call smp_secondary_entry	/* does not return */
1:	cli
	hlt
	jmp 1b
	.size smp_ap_entry64, . - smp_ap_entry64
