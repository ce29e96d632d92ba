/* aarch64 translation table descriptors (4 KiB granule), for the portable
 * walker (kernel/mm/paging.c). The bits themselves are in asm/sysreg.h,
 * which the boot code uses too.
 *
 * ARM calls the levels L0 (the root) to L3; kernel/mm/paging.c numbers them
 * 3 to 0. Above L3, bit 1 tells a table descriptor from a block, which
 * maps 1 GiB (L1) or 2 MiB (L2) directly; at L3 the same bit must be set
 * for a page descriptor. Table descriptors carry no restrictions, so the
 * leaf descriptor alone decides what an access may do. */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include "kernel/mm/paging.h"
#include <asm/sysreg.h>

/* Attributes shared by every kernel mapping of RAM: normal cacheable
 * memory, inner shareable, accessed, never executable from EL0. */
#define PTE_KERNEL_RAM (PTE_VALID | PTE_ATTR(ATTR_NORMAL) | PTE_SH_INNER | \
			PTE_AF | PTE_UXN)
#define PTE_KERNEL_DEVICE (PTE_VALID | PTE_PAGE | PTE_ATTR(ATTR_DEVICE) | \
			   PTE_AF | PTE_PXN | PTE_UXN)

static inline bool pte_valid(uint64_t e)
{
	return e & PTE_VALID;
}

/* Whether a valid descriptor above L3 points to a next-level table rather
 * than being a block. */
static inline bool pte_is_table(uint64_t e)
{
	return e & PTE_TABLE;
}

/* The output address of a descriptor: a table's, a page's or a block's. */
static inline uint64_t pte_addr(uint64_t e)
{
	return e & PTE_ADDR_MASK;
}

/* A table descriptor pointing to the next-level table at pa. */
static inline uint64_t pte_mk_table(uint64_t pa)
{
	return pa | PTE_VALID | PTE_TABLE;
}

/* A page descriptor mapping the 4 KiB of RAM at pa. */
static inline uint64_t pte_mk_page(uint64_t pa, unsigned int prot)
{
	uint64_t pte = (pa & PTE_ADDR_MASK) | PTE_KERNEL_RAM | PTE_PAGE;

	if (!(prot & PROT_WRITE))
		pte |= PTE_RDONLY;
	if (!(prot & PROT_EXEC))
		pte |= PTE_PXN;
	return pte;
}

/* A page descriptor mapping the 4 KiB of device registers at pa. */
static inline uint64_t pte_mk_device(uint64_t pa)
{
	return pa | PTE_KERNEL_DEVICE;
}

/* The PROT_* bits of a page or block descriptor. */
static inline unsigned int pte_prot(uint64_t e)
{
	unsigned int prot = PROT_READ;

	if (!(e & PTE_RDONLY))
		prot |= PROT_WRITE;
	if (!(e & PTE_PXN))
		prot |= PROT_EXEC;
	return prot;
}

#endif
