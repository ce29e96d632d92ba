/*
 * x86_64's part of the kernel page tables, which kernel/mm/paging.c builds
 * (the entry encoding is in asm/pgtable.h). W^X holds for the kernel
 * itself because entry.S sets CR0.WP, which makes read-only binding in
 * ring 0, and EFER.NXE, which enables the no-execute bit.
 */
#include "kernel/arch.h"
#include "kernel/nokprobe.h"

void arch_flush_tlb_page(uintptr_t va)
{
	/* One CPU for now; with SMP this becomes a TLB shootdown. */
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

/* Writing CR3 also empties the TLB (no mapping is global: CR4.PGE is
 * off), so nothing of the boot tables stays in use. */
void arch_paging_switch(uint64_t root_pa)
{
	__asm__ volatile("movq %0, %%cr3" : : "r"(root_pa) : "memory");
}
NOKPROBE_SYMBOL(arch_flush_tlb_page);
