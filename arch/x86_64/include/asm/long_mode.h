/* Entering long mode, for the two places that do it from 32-bit
 * protected mode: the boot CPU's entry (boot/x86_64/entry.S) and the
 * other CPUs' trampoline (arch/x86_64/smp_trampoline.S). Assembly only. */
#ifndef ASM_LONG_MODE_H
#define ASM_LONG_MODE_H

#define CR4_PAE   (1 << 5)
#define EFER_MSR  0xc0000080
#define EFER_LME  (1 << 8)
#define EFER_NXE  (1 << 11)
#define CR0_WP    (1 << 16)
#define CR0_PG    (1 << 31)

#ifdef __ASSEMBLY__
/* PAE on, CR3 = pml4 (an operand: $symbol or a memory word), long mode
 * and no-execute on in EFER, then paging and write protection on in
 * CR0: the CPU is in long mode's compatibility mode until a far jump to
 * 64-bit code. Without NXE the NX bit of the kernel's entries would be
 * a reserved-bit fault; WP makes read-only pages read-only for the
 * kernel too, which is what turns a stray write to text into a fault.
 * Changes %eax, %ecx and %edx. */
.macro ENTER_LONG_MODE pml4
	movl	%cr4, %eax
	orl	$CR4_PAE, %eax
	movl	%eax, %cr4
	movl	\pml4, %eax
	movl	%eax, %cr3
	movl	$EFER_MSR, %ecx
	rdmsr
	orl	$(EFER_LME | EFER_NXE), %eax
	wrmsr
	movl	%cr0, %eax
	orl	$(CR0_PG | CR0_WP), %eax
	movl	%eax, %cr0
.endm
#endif

#endif
