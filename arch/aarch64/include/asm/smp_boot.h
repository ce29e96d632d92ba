/* What the boot CPU leaves for another CPU it starts (arch/aarch64/smp.c
 * writes it, arch/aarch64/smp_entry.S reads it). The new CPU reads the
 * record with its MMU off, at the record's physical address, which PSCI
 * CPU_ON hands it in x0 (the "context id"). Offsets are constants here so
 * that the assembly can use them; smp.c checks them against the struct. */
#ifndef ASM_SMP_BOOT_H
#define ASM_SMP_BOOT_H

#define SB_STACK_TOP 0		/* the top of its stack (a kernel address) */
#define SB_ID        8		/* its CPU number, for smp_secondary_entry */
#define SB_MAIR      16		/* the boot CPU's MAIR_EL1, TCR_EL1, */
#define SB_TCR       24
#define SB_TTBR1     32		/* TTBR1_EL1 (the kernel's final tables) */
#define SB_SCTLR     40		/* and SCTLR_EL1, as they are now */
#define SB_SIZE      48
/* A record per CPU, aligned so that one record never straddles more
 * cache lines than it needs (smp.c cleans its lines to memory). */
#define SB_ALIGN     64

#ifndef __ASSEMBLY__
#include <stdint.h>

struct secondary_boot {
	uint64_t stack_top;
	uint64_t id;
	uint64_t mair;
	uint64_t tcr;
	uint64_t ttbr1;
	uint64_t sctlr;
};

/* Where PSCI starts a CPU: secondary_entry's physical address, which is
 * also its link address (it is in .boot.text). Kept as data because
 * kernel code cannot reach such a low address PC-relative. */
extern const uint64_t secondary_entry_phys;
#endif

#endif
