/*
 * aarch64's part of the kernel page tables, which kernel/mm/paging.c builds
 * (the descriptor encoding is in asm/pgtable.h). The kernel's half of the
 * address space is translated through TTBR1_EL1. Once the final tables
 * are in place:
 *   - SCTLR_EL1.WXN makes W^X a property of the CPU too: a writable page
 *     can never be executed at EL1.
 *   - device registers are mapped, page by page, only where a driver
 *     asked (ioremap), as device memory in the MMIO window.
 *   - the lower half (TTBR0, the boot code's identity map) is switched off
 *     (TCR_EL1.EPD0): any address below the kernel's half faults.
 */
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "kernel/mm/paging.h"
#include "kernel/panic.h"
#include <asm/io.h>
#include <asm/layout.h>
#include <asm/pgtable.h>
#include <asm/sysreg.h>

/* The UART, the GIC's two parts, and QEMU virt's 32 virtio-mmio slots,
 * each probed (arch/aarch64/virtio_mmio.c). */
#define MAX_MMIO_RANGES 40

/* Device ranges handed out by ioremap, mapped again in the final tables. */
static struct {
	uint64_t pa;
	size_t size;
} mmio_ranges[MAX_MMIO_RANGES];
static size_t nmmio;

/* Make a changed entry visible to the table walker and forget any old
 * translation of va: the store must complete (DSB) before the TLB
 * invalidation, which must complete before the next access (DSB, ISB).
 * The "is" (inner shareable) TLB operation reaches every CPU, so this is
 * already SMP-safe. */
void arch_flush_tlb_page(uintptr_t va)
{
	uint64_t page = (va >> PAGE_SHIFT) & ((1ULL << 44) - 1);

	__asm__ volatile("dsb ishst\n\t"
			 "tlbi vaae1is, %0\n\t"
			 "dsb ish\n\t"
			 "isb" : : "r"(page) : "memory");
}
NOKPROBE_SYMBOL(arch_flush_tlb_page);

/* tlbi ...is already reaches every CPU. */
void arch_flush_tlb_page_all(uintptr_t va)
{
	arch_flush_tlb_page(va);
}
NOKPROBE_SYMBOL(arch_flush_tlb_page_all);

static void flush_tlb_all(void)
{
	__asm__ volatile("dsb ishst\n\t"
			 "tlbi vmalle1is\n\t"
			 "dsb ish\n\t"
			 "isb" : : : "memory");
}

static void map_mmio(uint64_t pa, size_t size)
{
	for (uint64_t p = ALIGN_DOWN(pa, PAGE_SIZE); p < pa + size; p += PAGE_SIZE)
		if (set_page_entry(MMIO_BASE + p, pte_mk_device(p)) < 0)
			panic("paging: out of memory mapping device registers");
}

/* Device registers sit at MMIO_BASE + physical address. Before the final
 * tables exist, the boot code's device block already covers the window;
 * the range is remembered so arch_paging_switch maps it again. */
void *ioremap(uint64_t pa, size_t size)
{
	if (pa >= MMIO_SIZE || size > MMIO_SIZE - pa)
		panic("ioremap: 0x%lx is outside the MMIO window", (unsigned long)pa);
	if (nmmio == MAX_MMIO_RANGES)
		panic("ioremap: too many device ranges");
	mmio_ranges[nmmio].pa = pa;
	mmio_ranges[nmmio].size = size;
	nmmio++;
	if (paging_ready())
		map_mmio(pa, size);
	return (void *)(uintptr_t)(MMIO_BASE + pa);
}

/*
 * Map the device ranges drivers asked for so far into the new tables.
 * Then switch TTBR1 to them, turn off the lower half and turn on WXN,
 * each followed by a full TLB flush. The old and new tables map the code
 * and stack in use here identically, so it does not matter which one a
 * given access uses in between. (Strictly, ARM wants no two TLB entries
 * of different sizes for one address at once; Linux avoids that by
 * switching from the identity map. QEMU does not care.)
 */
void arch_paging_switch(uint64_t root_pa)
{
	for (size_t i = 0; i < nmmio; i++)
		map_mmio(mmio_ranges[i].pa, mmio_ranges[i].size);

	write_sysreg(root_pa, ttbr1_el1);
	isb();
	flush_tlb_all();
	write_sysreg(read_sysreg(tcr_el1) | TCR_EPD0, tcr_el1);
	isb();
	flush_tlb_all();
	write_sysreg(read_sysreg(sctlr_el1) | SCTLR_WXN, sctlr_el1);
	isb();
	flush_tlb_all();
}
