/*
 * The kernel's page tables and its final address space.
 *
 * Both architectures translate with 4 KiB pages through four levels of
 * 512 entries, numbered here from 3 (the root: x86's PML4, ARM's L0) down
 * to 0 (the last table, whose entries map pages), so the index arithmetic
 * is the same for both. (A level-1 entry could map a 2 MiB page, ARM's
 * block; these tables use none, so that each frame's protection is its
 * own.) What differs is how an entry is encoded (asm/pgtable.h) and how
 * the TLB is flushed and the tables switched (arch/<name>/paging.c).
 *
 * paging_init builds new tables and switches to them, so that from then on:
 *   - kernel text is read-only and executable, rodata read-only, data and
 *     bss writable but not executable: no page is both writable and
 *     executable (W^X).
 *   - all RAM is mapped at DIRECT_MAP_BASE, writable and not executable,
 *     except the frames of the kernel image, which are read-only there too
 *     so the direct map is no back door around W^X (execmem does the same
 *     for its frames with set_direct_map_prot).
 * The only way to change code afterwards is text_poke (kernel/mm/text_patch.c).
 */
#include "kernel/mm/paging.h"
#include "boot/boot_info.h"
#include "kernel/arch.h"
#include "kernel/mm/frame.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/spinlock.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/layout.h>
#include <asm/pgtable.h>

static uint64_t *root;
/* Serializes changes to the tables: two threads mapping pages under one
 * missing table would each install a table of their own, and the second
 * would drop the first's mapping. Lookups need no lock: an entry is one
 * aligned word, and tables are never freed. */
static struct spinlock table_lock = SPINLOCK_INIT("page tables");
/* Until the direct map exists, page tables are reached through the boot
 * code's mapping of low physical memory at KERNEL_VMA. */
static bool direct_map_ready;

extern char __kernel_start[], __text_start[], __text_end[];
extern char __rodata_start[], __data_start[], __kernel_end[];

void *phys_to_virt(uint64_t pa)
{
	return (void *)(uintptr_t)(pa + (direct_map_ready ? DIRECT_MAP_BASE : KERNEL_VMA));
}
NOKPROBE_SYMBOL(phys_to_virt);

bool paging_ready(void)
{
	return direct_map_ready;
}

static unsigned int index_at(uintptr_t va, int level)
{
	return (va >> (12 + 9 * level)) & 511;
}

/* The entry for va at level, creating tables on the way when create is
 * set. NULL if absent or hidden behind a huge page. */
static uint64_t *walk(uintptr_t va, int level, bool create)
{
	uint64_t *table = root;

	for (int l = 3; l > level; l--) {
		uint64_t *e = &table[index_at(va, l)];

		if (!pte_valid(*e)) {
			uint64_t pa;

			if (!create || !(pa = frame_alloc()))
				return NULL;
			memset(phys_to_virt(pa), 0, PAGE_SIZE);
			*e = pte_mk_table(pa);
		} else if (!pte_is_table(*e)) {
			return NULL;
		}
		table = phys_to_virt(pte_addr(*e));
	}
	return &table[index_at(va, level)];
}
NOKPROBE_SYMBOL(walk);

int map_page(uintptr_t va, uint64_t pa, unsigned int prot)
{
	unsigned long flags = spin_lock_irqsave(&table_lock);
	uint64_t *pte = walk(va, 0, true);
	int err = 0;

	if (!pte)
		err = -ENOMEM;
	else if (pte_valid(*pte))
		err = -EEXIST;
	else {
		*pte = pte_mk_page(pa, prot);
		arch_flush_tlb_page(va);
	}
	spin_unlock_irqrestore(&table_lock, flags);
	return err;
}
NOKPROBE_SYMBOL(map_page);

int set_page_entry(uintptr_t va, uint64_t entry)
{
	unsigned long flags = spin_lock_irqsave(&table_lock);
	uint64_t *pte = walk(va, 0, true);

	if (pte) {
		*pte = entry;
		arch_flush_tlb_page_all(va);	/* it may be stricter */
	}
	spin_unlock_irqrestore(&table_lock, flags);
	return pte ? 0 : -ENOMEM;
}

static void unmap(uintptr_t va, void (*flush)(uintptr_t va))
{
	unsigned long flags = spin_lock_irqsave(&table_lock);
	uint64_t *pte = walk(va, 0, false);

	if (pte) {
		*pte = 0;
		flush(va);
	}
	spin_unlock_irqrestore(&table_lock, flags);
}
NOKPROBE_SYMBOL(unmap);

void unmap_page(uintptr_t va)
{
	unmap(va, arch_flush_tlb_page_all);
}
NOKPROBE_SYMBOL(unmap_page);

void unmap_private_page(uintptr_t va)
{
	unmap(va, arch_flush_tlb_page);
}
NOKPROBE_SYMBOL(unmap_private_page);

/* The leaf entry mapping va (a page or a huge page), with its size; NULL
 * if va is not mapped. */
static uint64_t *leaf(uintptr_t va, uint64_t *size)
{
	uint64_t *table = root;

	for (int l = 3;; l--) {
		uint64_t *e = &table[index_at(va, l)];

		if (!pte_valid(*e))
			return NULL;
		if (l == 0 || !pte_is_table(*e)) {
			*size = 1ULL << (12 + 9 * l);
			return e;
		}
		table = phys_to_virt(pte_addr(*e));
	}
}
NOKPROBE_SYMBOL(leaf);

int virt_to_phys(uintptr_t va, uint64_t *pa)
{
	uint64_t size;
	uint64_t *e = leaf(va, &size);

	if (!e)
		return -EFAULT;
	*pa = (pte_addr(*e) & ~(size - 1)) + (va & (size - 1));
	return 0;
}
NOKPROBE_SYMBOL(virt_to_phys);

unsigned int page_prot(uintptr_t va)
{
	uint64_t size;
	uint64_t *e = leaf(va, &size);

	return e ? pte_prot(*e) : 0;
}

static void map_range(uintptr_t start, uintptr_t end, unsigned int prot)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE)
		if (map_page(va, va - KERNEL_VMA, prot) < 0)
			panic("paging: cannot map kernel page %lx", va);
}

/* Map the RAM frames of [base, end) at DIRECT_MAP_BASE, 4 KiB each, so
 * that any one frame's alias can be made read-only on its own (the kernel
 * image's now, execmem's later: set_direct_map_prot). */
static void map_direct(uint64_t base, uint64_t end, uint64_t kstart, uint64_t kend)
{
	for (uint64_t pa = ALIGN_UP(base, PAGE_SIZE); pa < ALIGN_DOWN(end, PAGE_SIZE);
	     pa += PAGE_SIZE) {
		bool image = pa >= kstart && pa < kend;
		int err = map_page(DIRECT_MAP_BASE + pa, pa,
				   image ? PROT_READ : PROT_READ | PROT_WRITE);

		if (err < 0)
			panic("paging: cannot map frame %lx (%d)", pa, err);
	}
}

int set_direct_map_prot(uint64_t pa, unsigned int prot)
{
	uint64_t frame = ALIGN_DOWN(pa, PAGE_SIZE);
	uintptr_t va = DIRECT_MAP_BASE + frame;

	/* Only RAM is in the direct map, and its entries are never removed,
	 * so the check cannot go stale before the entry is replaced. */
	if (!page_prot(va))
		return -EFAULT;
	return set_page_entry(va, pte_mk_page(frame, prot));
}

/* Create the last-level tables for [start, end) now, empty. Pages of the
 * executable and stack regions come and go (probe slots, modules, thread
 * stacks); with their tables made once, mapping there never allocates
 * and unmapping leaves nothing behind, so loading and removing a module,
 * or starting and ending a thread, returns every frame. */
static void prepare_tables(uintptr_t start, uintptr_t end)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE * 512)
		if (!walk(va, 0, true))
			panic("paging: no frame for the page tables");
}

void paging_init(const struct boot_info *bi)
{
	uint64_t root_pa = frame_alloc();
	uint64_t kstart = (uintptr_t)__kernel_start - KERNEL_VMA;
	uint64_t kend = (uintptr_t)__kernel_end - KERNEL_VMA;

	if (!root_pa)
		panic("paging: no frame for the page tables");
	root = phys_to_virt(root_pa);
	memset(root, 0, PAGE_SIZE);

	map_range((uintptr_t)__text_start, (uintptr_t)__text_end, PROT_READ | PROT_EXEC);
	map_range((uintptr_t)__rodata_start, (uintptr_t)__data_start, PROT_READ);
	map_range((uintptr_t)__data_start, (uintptr_t)__kernel_end, PROT_READ | PROT_WRITE);
	for (size_t i = 0; i < bi->nram; i++)
		map_direct(bi->ram[i].base, bi->ram[i].base + bi->ram[i].size, kstart, kend);
	prepare_tables(EXEC_REGION_BASE, EXEC_REGION_BASE + EXEC_REGION_SIZE);
	prepare_tables(STACK_REGION_BASE, STACK_REGION_BASE + STACK_REGION_SIZE);

	/* Switch: from here the tables are reached through the direct map. */
	arch_paging_switch(root_pa);
	direct_map_ready = true;
	root = phys_to_virt(root_pa);
}
