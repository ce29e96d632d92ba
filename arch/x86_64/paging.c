/*
 * x86_64 page tables and the kernel's final address space.
 *
 * Four levels (PML4, PDPT, PD, PT) of 512 entries; a PD entry may map a
 * 2 MiB page directly. arch_paging_init builds new tables and switches to
 * them, so that from then on:
 *   - kernel text is read-only and executable, rodata read-only, data and
 *     bss writable but not executable: no page is both writable and
 *     executable (W^X). CR0.WP, set at boot, makes read-only binding for
 *     the kernel itself, and EFER.NXE enables the no-execute bit.
 *   - all RAM is mapped at DIRECT_MAP_BASE, writable and not executable,
 *     except the frames of the kernel image, which are read-only there too
 *     so the direct map is no back door around W^X.
 * The only way to change code afterwards is text_poke (kernel/text_patch.c).
 */
#include "boot/boot_info.h"
#include "kernel/arch.h"
#include "kernel/frame.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/layout.h>

#define PTE_PRESENT (1ULL << 0)
#define PTE_WRITE   (1ULL << 1)
#define PTE_HUGE    (1ULL << 7)
#define PTE_NX      (1ULL << 63)
#define PTE_ADDR    0x000ffffffffff000ULL
#define HUGE_SIZE   (2ULL << 20)

static uint64_t *kernel_pml4;
/* Until the direct map exists, page tables are reached through the boot
 * mapping of the first 1 GiB at KERNEL_VMA. */
static bool direct_map_ready;

extern char __kernel_start[], __text_start[], __text_end[];
extern char __rodata_start[], __rodata_end[], __data_start[], __kernel_end[];

void *phys_to_virt(uint64_t pa)
{
	return (void *)(uintptr_t)(pa + (direct_map_ready ? DIRECT_MAP_BASE : KERNEL_VMA));
}

static uint64_t prot_to_pte(unsigned int prot)
{
	uint64_t pte = PTE_PRESENT;

	if (prot & PROT_WRITE)
		pte |= PTE_WRITE;
	if (!(prot & PROT_EXEC))
		pte |= PTE_NX;
	return pte;
}

static unsigned int index_at(uintptr_t va, int level)
{
	return (va >> (12 + 9 * level)) & 511;
}

/* The entry for va at level (0 = PT ... 3 = PML4), creating tables on the
 * way when create is set. NULL if absent or hidden behind a huge page. */
static uint64_t *walk(uintptr_t va, int level, bool create)
{
	uint64_t *table = kernel_pml4;

	for (int l = 3; l > level; l--) {
		uint64_t *e = &table[index_at(va, l)];

		if (!(*e & PTE_PRESENT)) {
			uint64_t pa;

			if (!create || !(pa = frame_alloc()))
				return NULL;
			memset(phys_to_virt(pa), 0, PAGE_SIZE);
			*e = pa | PTE_PRESENT | PTE_WRITE;
		} else if (*e & PTE_HUGE) {
			return NULL;
		}
		table = phys_to_virt(*e & PTE_ADDR);
	}
	return &table[index_at(va, level)];
}

static void invlpg(uintptr_t va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

int arch_map_page(uintptr_t va, uint64_t pa, unsigned int prot)
{
	uint64_t *pte = walk(va, 0, true);

	if (!pte)
		return -ENOMEM;
	if (*pte & PTE_PRESENT)
		return -EEXIST;
	*pte = (pa & PTE_ADDR) | prot_to_pte(prot);
	invlpg(va);
	return 0;
}

void arch_unmap_page(uintptr_t va)
{
	uint64_t *pte = walk(va, 0, false);

	if (pte) {
		*pte = 0;
		/* One CPU for now; with SMP this becomes a TLB shootdown. */
		invlpg(va);
	}
}

/* The leaf entry mapping va (4 KiB or 2 MiB), with its page size. */
static uint64_t *leaf(uintptr_t va, uint64_t *page_size)
{
	uint64_t *pde = walk(va, 1, false);

	if (pde && (*pde & PTE_PRESENT) && (*pde & PTE_HUGE)) {
		*page_size = HUGE_SIZE;
		return pde;
	}
	*page_size = PAGE_SIZE;
	return walk(va, 0, false);
}

int arch_virt_to_phys(uintptr_t va, uint64_t *pa)
{
	uint64_t size;
	uint64_t *e = leaf(va, &size);

	if (!e || !(*e & PTE_PRESENT))
		return -EFAULT;
	*pa = (*e & PTE_ADDR & ~(size - 1)) + (va & (size - 1));
	return 0;
}

unsigned int arch_page_prot(uintptr_t va)
{
	uint64_t size;
	uint64_t *e = leaf(va, &size);
	unsigned int prot = PROT_READ;

	if (!e || !(*e & PTE_PRESENT))
		return 0;
	if (*e & PTE_WRITE)
		prot |= PROT_WRITE;
	if (!(*e & PTE_NX))
		prot |= PROT_EXEC;
	return prot;
}

static void map_range(uintptr_t start, uintptr_t end, unsigned int prot)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE)
		if (arch_map_page(va, va - KERNEL_VMA, prot) < 0)
			panic("paging: cannot map kernel page %lx", va);
}

/* Map the RAM frames of [base, end) at DIRECT_MAP_BASE: 2 MiB pages where
 * a whole aligned block is RAM and holds no kernel frame, else 4 KiB. */
static void map_direct(uint64_t base, uint64_t end, uint64_t kstart, uint64_t kend)
{
	uint64_t pa = ALIGN_UP(base, PAGE_SIZE);

	while (pa < ALIGN_DOWN(end, PAGE_SIZE)) {
		bool huge_ok = !(pa & (HUGE_SIZE - 1)) && pa + HUGE_SIZE <= end &&
			       (pa + HUGE_SIZE <= kstart || pa >= kend);
		int err;

		if (huge_ok) {
			uint64_t *pde = walk(DIRECT_MAP_BASE + pa, 1, true);

			if (!pde)
				panic("paging: out of memory for the direct map");
			*pde = pa | prot_to_pte(PROT_READ | PROT_WRITE) | PTE_HUGE;
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

void arch_paging_init(const struct boot_info *bi)
{
	uint64_t pml4_pa = frame_alloc();
	uint64_t kstart = (uintptr_t)__kernel_start - KERNEL_VMA;
	uint64_t kend = (uintptr_t)__kernel_end - KERNEL_VMA;

	if (!pml4_pa)
		panic("paging: no frame for the page tables");
	kernel_pml4 = phys_to_virt(pml4_pa);
	memset(kernel_pml4, 0, PAGE_SIZE);

	map_range((uintptr_t)__text_start, (uintptr_t)__text_end, PROT_READ | PROT_EXEC);
	map_range((uintptr_t)__rodata_start, (uintptr_t)__data_start, PROT_READ);
	map_range((uintptr_t)__data_start, (uintptr_t)__kernel_end, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < bi->nram; i++)
		map_direct(bi->ram[i].base, bi->ram[i].base + bi->ram[i].size, kstart, kend);

	/* Switch: from here the tables are reached through the direct map. */
	__asm__ volatile("movq %0, %%cr3" : : "r"(pml4_pa) : "memory");
	direct_map_ready = true;
	kernel_pml4 = phys_to_virt(pml4_pa);
}
NOKPROBE_SYMBOL(walk);
NOKPROBE_SYMBOL(arch_map_page);
NOKPROBE_SYMBOL(arch_unmap_page);
NOKPROBE_SYMBOL(arch_virt_to_phys);
NOKPROBE_SYMBOL(invlpg);
