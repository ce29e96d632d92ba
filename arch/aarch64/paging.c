/*
 * aarch64 page tables and the kernel's final address space.
 *
 * With 4 KiB pages and 48-bit addresses a walk has four levels of 512
 * entries (called L0-L3 by ARM; numbered 3-0 here, from the top, as in
 * arch/x86_64/paging.c, so the index arithmetic reads the same). An L1 or
 * L2 entry may map a 1 GiB or 2 MiB block directly. The kernel's half of
 * the address space is translated through TTBR1_EL1; arch_paging_init
 * builds new tables and switches to them, so that from then on:
 *   - kernel text is read-only and executable, rodata read-only, data and
 *     bss writable but not executable (PXN): no page is both writable and
 *     executable (W^X). SCTLR_EL1.WXN then makes the rule a property of
 *     the CPU too: a writable page can never be executed at EL1.
 *   - all RAM is mapped at DIRECT_MAP_BASE, writable and not executable,
 *     except the frames of the kernel image, which are read-only there too
 *     so the direct map is no back door around W^X.
 *   - device registers are mapped, page by page, only where a driver
 *     asked (ioremap), as device memory in the MMIO window.
 *   - the lower half (TTBR0, the boot code's identity map) is switched off
 *     (TCR_EL1.EPD0): any address below the kernel's half faults.
 * The only way to change code afterwards is text_poke (kernel/text_patch.c).
 */
#include "boot/boot_info.h"
#include "kernel/arch.h"
#include "kernel/frame.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/io.h>
#include <asm/layout.h>
#include <asm/sysreg.h>

#define HUGE_SIZE (2ULL << 20)	/* an L2 block */
#define MAX_MMIO_RANGES 8

/* Attributes shared by every kernel mapping of RAM: normal cacheable
 * memory, inner shareable, accessed, never executable from EL0. */
#define PTE_KERNEL_RAM (PTE_VALID | PTE_ATTR(ATTR_NORMAL) | PTE_SH_INNER | \
			PTE_AF | PTE_UXN)
#define PTE_KERNEL_DEVICE (PTE_VALID | PTE_PAGE | PTE_ATTR(ATTR_DEVICE) | \
			   PTE_AF | PTE_PXN | PTE_UXN)

static uint64_t *kernel_l0;
/* Until the direct map exists, page tables are reached through the boot
 * mapping of the first 2 GiB of physical memory at KERNEL_VMA. */
static bool direct_map_ready;

/* Device ranges handed out by ioremap, mapped again in the final tables. */
static struct {
	uint64_t pa;
	size_t size;
} mmio_ranges[MAX_MMIO_RANGES];
static size_t nmmio;

extern char __kernel_start[], __text_start[], __text_end[];
extern char __rodata_start[], __rodata_end[], __data_start[], __kernel_end[];

void *phys_to_virt(uint64_t pa)
{
	return (void *)(uintptr_t)(pa + (direct_map_ready ? DIRECT_MAP_BASE : KERNEL_VMA));
}

/* A level-3 (page) descriptor's attributes for prot. */
static uint64_t prot_to_pte(unsigned int prot)
{
	uint64_t pte = PTE_KERNEL_RAM | PTE_PAGE;

	if (!(prot & PROT_WRITE))
		pte |= PTE_RDONLY;
	if (!(prot & PROT_EXEC))
		pte |= PTE_PXN;
	return pte;
}

static unsigned int index_at(uintptr_t va, int level)
{
	return (va >> (12 + 9 * level)) & 511;
}

/* Make a changed entry visible to the table walker and forget any old
 * translation of va: the store must complete (DSB) before the TLB
 * invalidation, which must complete before the next access (DSB, ISB). */
static void sync_pte(uintptr_t va)
{
	uint64_t page = (va >> PAGE_SHIFT) & ((1ULL << 44) - 1);

	__asm__ volatile("dsb ishst\n\t"
			 "tlbi vaae1is, %0\n\t"
			 "dsb ish\n\t"
			 "isb" : : "r"(page) : "memory");
}

static void flush_tlb_all(void)
{
	__asm__ volatile("dsb ishst\n\t"
			 "tlbi vmalle1is\n\t"
			 "dsb ish\n\t"
			 "isb" : : : "memory");
}

/* The entry for va at level (0 = L3 ... 3 = L0), creating tables on the
 * way when create is set. NULL if absent or hidden behind a block. */
static uint64_t *walk(uintptr_t va, int level, bool create)
{
	uint64_t *table = kernel_l0;

	for (int l = 3; l > level; l--) {
		uint64_t *e = &table[index_at(va, l)];

		if (!(*e & PTE_VALID)) {
			uint64_t pa;

			if (!create || !(pa = frame_alloc()))
				return NULL;
			memset(phys_to_virt(pa), 0, PAGE_SIZE);
			*e = pa | PTE_VALID | PTE_TABLE;
		} else if (!(*e & PTE_TABLE)) {
			return NULL;	/* a block */
		}
		table = phys_to_virt(*e & PTE_ADDR_MASK);
	}
	return &table[index_at(va, level)];
}

int arch_map_page(uintptr_t va, uint64_t pa, unsigned int prot)
{
	uint64_t *pte = walk(va, 0, true);

	if (!pte)
		return -ENOMEM;
	if (*pte & PTE_VALID)
		return -EEXIST;
	*pte = (pa & PTE_ADDR_MASK) | prot_to_pte(prot);
	sync_pte(va);
	return 0;
}

void arch_unmap_page(uintptr_t va)
{
	uint64_t *pte = walk(va, 0, false);

	if (pte) {
		*pte = 0;
		/* The "is" (inner shareable) TLB operation reaches every CPU,
		 * so this is already SMP-safe. */
		sync_pte(va);
	}
}

/* The leaf entry mapping va (page or block), with its size; NULL if va is
 * not mapped. */
static uint64_t *leaf(uintptr_t va, uint64_t *size)
{
	uint64_t *table = kernel_l0;

	for (int l = 3;; l--) {
		uint64_t *e = &table[index_at(va, l)];

		if (!(*e & PTE_VALID))
			return NULL;
		if (l == 0 || !(*e & PTE_TABLE)) {
			*size = 1ULL << (12 + 9 * l);
			return e;
		}
		table = phys_to_virt(*e & PTE_ADDR_MASK);
	}
}

int arch_virt_to_phys(uintptr_t va, uint64_t *pa)
{
	uint64_t size;
	uint64_t *e = leaf(va, &size);

	if (!e)
		return -EFAULT;
	*pa = (*e & PTE_ADDR_MASK & ~(size - 1)) + (va & (size - 1));
	return 0;
}

unsigned int arch_page_prot(uintptr_t va)
{
	uint64_t size;
	uint64_t *e = leaf(va, &size);
	unsigned int prot = PROT_READ;

	if (!e)
		return 0;
	if (!(*e & PTE_RDONLY))
		prot |= PROT_WRITE;
	if (!(*e & PTE_PXN))
		prot |= PROT_EXEC;
	return prot;
}

static void map_range(uintptr_t start, uintptr_t end, unsigned int prot)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE)
		if (arch_map_page(va, va - KERNEL_VMA, prot) < 0)
			panic("paging: cannot map kernel page %lx", va);
}

/* Map the RAM frames of [base, end) at DIRECT_MAP_BASE: 2 MiB blocks where
 * a whole aligned block is RAM and holds no kernel frame, else 4 KiB. */
static void map_direct(uint64_t base, uint64_t end, uint64_t kstart, uint64_t kend)
{
	uint64_t pa = ALIGN_UP(base, PAGE_SIZE);

	while (pa < ALIGN_DOWN(end, PAGE_SIZE)) {
		bool huge_ok = !(pa & (HUGE_SIZE - 1)) && pa + HUGE_SIZE <= end &&
			       (pa + HUGE_SIZE <= kstart || pa >= kend);
		int err;

		if (huge_ok) {
			uint64_t *l2 = walk(DIRECT_MAP_BASE + pa, 1, true);

			if (!l2)
				panic("paging: out of memory for the direct map");
			/* A block descriptor: the page attributes without the
			 * page/table bit. */
			*l2 = pa | (prot_to_pte(PROT_READ | PROT_WRITE) & ~PTE_PAGE);
			pa += HUGE_SIZE;
			continue;
		}
		bool image = pa >= kstart && pa < kend;

		err = arch_map_page(DIRECT_MAP_BASE + pa, pa,
				    image ? PROT_READ : PROT_READ | PROT_WRITE);
		if (err < 0)
			panic("paging: cannot map frame %lx (%d)", pa, err);
		pa += PAGE_SIZE;
	}
}

static void map_mmio(uint64_t pa, size_t size)
{
	for (uint64_t p = ALIGN_DOWN(pa, PAGE_SIZE); p < pa + size; p += PAGE_SIZE) {
		uint64_t *pte = walk(MMIO_BASE + p, 0, true);

		if (!pte)
			panic("paging: out of memory mapping device registers");
		*pte = p | PTE_KERNEL_DEVICE;
		sync_pte(MMIO_BASE + p);
	}
}

/* Device registers sit at MMIO_BASE + physical address. Before the final
 * tables exist, the boot code's device block already covers the window;
 * the range is remembered so arch_paging_init maps it again. */
void *ioremap(uint64_t pa, size_t size)
{
	if (pa >= MMIO_SIZE || size > MMIO_SIZE - pa)
		panic("ioremap: 0x%lx is outside the MMIO window", (unsigned long)pa);
	if (nmmio == MAX_MMIO_RANGES)
		panic("ioremap: too many device ranges");
	mmio_ranges[nmmio].pa = pa;
	mmio_ranges[nmmio].size = size;
	nmmio++;
	if (direct_map_ready)
		map_mmio(pa, size);
	return (void *)(uintptr_t)(MMIO_BASE + pa);
}

/*
 * Switch TTBR1 to the new tables, then turn off the lower half and turn
 * on WXN, each followed by a full TLB flush. The old and new tables map
 * the code and stack in use here identically, so it does not matter which
 * one a given access uses in between. (Strictly, ARM wants no two TLB
 * entries of different sizes for one address at once; Linux avoids that
 * by switching from the identity map. QEMU does not care.)
 */
static void switch_tables(uint64_t l0_pa)
{
	write_sysreg(l0_pa, ttbr1_el1);
	isb();
	flush_tlb_all();
	write_sysreg(read_sysreg(tcr_el1) | TCR_EPD0, tcr_el1);
	isb();
	flush_tlb_all();
	write_sysreg(read_sysreg(sctlr_el1) | SCTLR_WXN, sctlr_el1);
	isb();
	flush_tlb_all();
}

void arch_paging_init(const struct boot_info *bi)
{
	uint64_t l0_pa = frame_alloc();
	uint64_t kstart = (uintptr_t)__kernel_start - KERNEL_VMA;
	uint64_t kend = (uintptr_t)__kernel_end - KERNEL_VMA;

	if (!l0_pa)
		panic("paging: no frame for the page tables");
	kernel_l0 = phys_to_virt(l0_pa);
	memset(kernel_l0, 0, PAGE_SIZE);

	map_range((uintptr_t)__text_start, (uintptr_t)__text_end, PROT_READ | PROT_EXEC);
	map_range((uintptr_t)__rodata_start, (uintptr_t)__data_start, PROT_READ);
	map_range((uintptr_t)__data_start, (uintptr_t)__kernel_end, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < bi->nram; i++)
		map_direct(bi->ram[i].base, bi->ram[i].base + bi->ram[i].size, kstart, kend);
	for (size_t i = 0; i < nmmio; i++)
		map_mmio(mmio_ranges[i].pa, mmio_ranges[i].size);

	/* Switch: from here the tables are reached through the direct map. */
	switch_tables(l0_pa);
	direct_map_ready = true;
	kernel_l0 = phys_to_virt(l0_pa);
}
NOKPROBE_SYMBOL(walk);
NOKPROBE_SYMBOL(arch_map_page);
NOKPROBE_SYMBOL(arch_unmap_page);
NOKPROBE_SYMBOL(arch_virt_to_phys);
NOKPROBE_SYMBOL(sync_pte);
