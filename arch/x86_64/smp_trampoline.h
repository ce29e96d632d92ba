/* The other CPUs' first code (smp_trampoline.S), as arch/x86_64/smp.c
 * sees it. The code is linked into the kernel image as data, between
 * smp_trampoline_start and smp_trampoline_end, and copied to the page at
 * SMP_TRAMPOLINE_PHYS (asm/layout.h) before the first CPU is started.
 * Its last part, the mailbox, is what the boot CPU writes before each
 * start: which page tables to load and where to go. */
#ifndef ARCH_X86_64_SMP_TRAMPOLINE_H
#define ARCH_X86_64_SMP_TRAMPOLINE_H

/* Offsets in the mailbox, for the assembly; struct smp_mailbox below
 * must agree (smp.c checks). */
#define MB_TRAMPOLINE_CR3	0	/* tables mapping the trampoline too */
#define MB_KERNEL_CR3		8	/* the kernel's own tables */
#define MB_STACK_TOP		16	/* the new CPU's stack */
#define MB_CPU_ID		24	/* smp_secondary_entry's argument */
#define MB_SIZE			32

#ifndef __ASSEMBLY__
#include "lib/types.h"

struct smp_mailbox {
	uint64_t trampoline_cr3;	/* below 4 GiB: loaded in 32-bit mode */
	uint64_t kernel_cr3;
	uint64_t stack_top;
	uint64_t cpu_id;
};

extern const char smp_trampoline_start[], smp_trampoline_end[];
extern const char smp_trampoline_mailbox[];
#endif

#endif
