/* x86_64 page-table entries, for the portable walker (kernel/mm/paging.c).
 *
 * Every level (PML4, PDPT, PD, PT) has entries of the same shape: present,
 * writable, the next table's or the page's address, and NX. A PD entry
 * with the PS bit maps a 2 MiB page instead of pointing to a page table.
 * Writability and the NX bit count at every level, so table entries allow
 * everything and the leaf entry alone decides. */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include "kernel/mm/paging.h"

#define PTE_PRESENT (1ULL << 0)
#define PTE_WRITE   (1ULL << 1)
#define PTE_PWT     (1ULL << 3)	/* write-through */
#define PTE_PCD     (1ULL << 4)	/* cache disabled */
#define PTE_HUGE    (1ULL << 7)	/* PS: a 2 MiB page, in a PD entry */
#define PTE_NX      (1ULL << 63)
#define PTE_ADDR    0x000ffffffffff000ULL

static inline bool pte_valid(uint64_t e)
{
	return e & PTE_PRESENT;
}

/* Whether a valid entry above the leaf level points to a next-level table
 * rather than mapping a huge page. */
static inline bool pte_is_table(uint64_t e)
{
	return !(e & PTE_HUGE);
}

/* The physical address in an entry: a table's, a page's or a huge page's. */
static inline uint64_t pte_addr(uint64_t e)
{
	return e & PTE_ADDR;
}

/* An entry pointing to the next-level table at pa. */
static inline uint64_t pte_mk_table(uint64_t pa)
{
	return pa | PTE_PRESENT | PTE_WRITE;
}

/* A leaf entry mapping the 4 KiB page at pa. */
static inline uint64_t pte_mk_page(uint64_t pa, unsigned int prot)
{
	uint64_t pte = (pa & PTE_ADDR) | PTE_PRESENT;

	if (prot & PROT_WRITE)
		pte |= PTE_WRITE;
	if (!(prot & PROT_EXEC))
		pte |= PTE_NX;
	return pte;
}

/* A leaf entry mapping the 4 KiB of device registers at pa: writable,
 * never executable, and uncached (PCD and PWT select PAT entry 3, which
 * is UC at reset and which the kernel never reprograms), so that each
 * access reaches the device, in order, and none is merged or
 * speculated. */
static inline uint64_t pte_mk_device(uint64_t pa)
{
	return (pa & PTE_ADDR) | PTE_PRESENT | PTE_WRITE | PTE_PCD | PTE_PWT | PTE_NX;
}

/* The PROT_* bits of a leaf entry (page or huge page). */
static inline unsigned int pte_prot(uint64_t e)
{
	unsigned int prot = PROT_READ;

	if (e & PTE_WRITE)
		prot |= PROT_WRITE;
	if (!(e & PTE_NX))
		prot |= PROT_EXEC;
	return prot;
}

#endif
