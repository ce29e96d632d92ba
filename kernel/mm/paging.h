/* The kernel's page tables (kernel/mm/paging.c). The tables are built and
 * walked by portable code; each architecture says how an entry is encoded
 * (asm/pgtable.h), flushes the TLB and switches tables (kernel/arch.h). */
#ifndef KERNEL_PAGING_H
#define KERNEL_PAGING_H

#include "lib/types.h"

struct boot_info;

#define PROT_READ  0x1
#define PROT_WRITE 0x2
#define PROT_EXEC  0x4

/* Build the final kernel page tables (W^X, direct map) and switch to them. */
void paging_init(const struct boot_info *bi);
/* True once paging_init has switched to the final tables. */
bool paging_ready(void);
/* Kernel address for a physical one, through the direct map (through the
 * boot mapping at KERNEL_VMA until paging_init has switched). */
void *phys_to_virt(uint64_t pa);

/* Map one 4 KiB page; intermediate tables come from the frame allocator.
 * Returns 0, -EEXIST if va is mapped, or -ENOMEM. */
int map_page(uintptr_t va, uint64_t pa, unsigned int prot);
/* Map one 4 KiB page with a leaf entry the caller built with
 * asm/pgtable.h, for what PROT_* cannot say (aarch64's device memory).
 * Replaces any old entry, flushing it from every CPU's TLB. Returns 0
 * or -ENOMEM. */
int set_page_entry(uintptr_t va, uint64_t entry);
/* Remove the mapping of one page and flush it from every CPU's TLB. */
void unmap_page(uintptr_t va);
/* Remove the mapping of va, forgetting it on this CPU only: for an
 * address no other CPU ever reaches through, mapped, used and unmapped
 * on one CPU, the thread kept there (text_poke's window, which whoever
 * maps it next flushes first, in map_page). */
void unmap_private_page(uintptr_t va);
/* Translate a mapped kernel address. Returns 0 or -EFAULT. */
int virt_to_phys(uintptr_t va, uint64_t *pa);
/* The PROT_* bits of a mapped page, or 0 if it is not mapped. */
unsigned int page_prot(uintptr_t va);
/* Give the direct-map alias of the RAM frame at pa the protection prot.
 * Code outside the kernel image (execmem) makes its frames read-only
 * there, so that no writable alias of code exists. Returns 0 or -EFAULT. */
int set_direct_map_prot(uint64_t pa, unsigned int prot);

#endif
