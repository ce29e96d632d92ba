/*
 * x86_64's part of the kernel page tables, which kernel/mm/paging.c builds
 * (the entry encoding is in asm/pgtable.h). W^X holds for the kernel
 * itself because entry.S sets CR0.WP, which makes read-only binding in
 * ring 0, and EFER.NXE, which enables the no-execute bit. (The other
 * CPUs set both in their trampoline, arch/x86_64/smp_trampoline.S, before
 * they use these tables.)
 *
 * What is not RAM, device registers and firmware tables, is mapped on
 * demand where the direct map would put it (asm/io.h).
 */
#include "kernel/arch.h"
#include "kernel/mm/paging.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "lib/errno.h"
#include <asm/io.h>
#include <asm/layout.h>
#include <asm/pgtable.h>

/* The direct map's share of the address space, up to the heap. */
#define DIRECT_MAP_SIZE (HEAP_BASE - DIRECT_MAP_BASE)

void arch_flush_tlb_page(uintptr_t va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}
NOKPROBE_SYMBOL(arch_flush_tlb_page);

/* Writing CR3 also empties the TLB (no mapping is global: CR4.PGE is
 * off), so nothing of the boot tables stays in use. */
void arch_paging_switch(uint64_t root_pa)
{
	__asm__ volatile("movq %0, %%cr3" : : "r"(root_pa) : "memory");
}

/* Device registers are mapped where the direct map would put them, were
 * they RAM; set_page_entry replaces what is there, so mapping a range
 * twice is harmless. */
void *ioremap(uint64_t pa, size_t size)
{
	for (uint64_t p = ALIGN_DOWN(pa, PAGE_SIZE); p < pa + size; p += PAGE_SIZE) {
		if (set_page_entry(DIRECT_MAP_BASE + p, pte_mk_device(p)) < 0)
			panic("ioremap: out of memory mapping device registers");
	}
	return (void *)(uintptr_t)(DIRECT_MAP_BASE + pa);
}

/* RAM is in the direct map already (map_page says -EEXIST, and its
 * entry, read-only or not, stays); firmware memory is added read-only. */
const void *memremap_ro(uint64_t pa, size_t size)
{
	if (pa + size < pa || pa + size > DIRECT_MAP_SIZE)	/* a broken table's address */
		return NULL;
	for (uint64_t p = ALIGN_DOWN(pa, PAGE_SIZE); p < pa + size; p += PAGE_SIZE) {
		int err = map_page(DIRECT_MAP_BASE + p, p, PROT_READ);

		if (err < 0 && err != -EEXIST)
			return NULL;
	}
	return (const void *)(uintptr_t)(DIRECT_MAP_BASE + pa);
}
