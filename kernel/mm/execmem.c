/*
 * The executable region (see execmem.h): a bitmap of its pages, because
 * pages are freed when the probes using them go away and their addresses
 * are worth reusing.
 */
#include "kernel/mm/execmem.h"
#include "kernel/mm/frame.h"
#include "kernel/mm/paging.h"
#include "kernel/spinlock.h"
#include "kernel/mm/text_patch.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/insn_fill.h>
#include <asm/layout.h>

#define EXEC_PAGES (EXEC_REGION_SIZE / PAGE_SIZE)

static uint64_t page_used[EXEC_PAGES / 64];
static void *page_owner[EXEC_PAGES];	/* see execmem_set_owner */
static struct spinlock execmem_lock = SPINLOCK_INIT("execmem");

/* Reserve a free page index, or -1. */
static long reserve_index(void)
{
	unsigned long flags = spin_lock_irqsave(&execmem_lock);
	long found = -1;

	for (size_t i = 0; i < EXEC_PAGES; i++) {
		if (page_used[i / 64] == ~0ULL) {
			i |= 63;	/* on past this word: its 64 pages are in use */
			continue;
		}
		if (!(page_used[i / 64] & (1ULL << (i % 64)))) {
			page_used[i / 64] |= 1ULL << (i % 64);
			found = (long)i;
			break;
		}
	}
	spin_unlock_irqrestore(&execmem_lock, flags);
	return found;
}

static bool index_used(size_t i)
{
	return page_used[i / 64] & (1ULL << (i % 64));
}

/* Reserve npages free indices in a row (first fit), or return -1. */
static long reserve_run(size_t npages)
{
	unsigned long flags = spin_lock_irqsave(&execmem_lock);
	long found = -1;
	size_t run = 0;

	for (size_t i = 0; i < EXEC_PAGES && found < 0; i++) {
		run = index_used(i) ? 0 : run + 1;
		if (run == npages)
			found = (long)(i + 1 - npages);
	}
	for (size_t i = 0; found >= 0 && i < npages; i++)
		page_used[(found + i) / 64] |= 1ULL << ((found + i) % 64);
	spin_unlock_irqrestore(&execmem_lock, flags);
	return found;
}

static void release_index(size_t i)
{
	unsigned long flags = spin_lock_irqsave(&execmem_lock);

	page_used[i / 64] &= ~(1ULL << (i % 64));
	spin_unlock_irqrestore(&execmem_lock, flags);
}

/* Give a frame back, writable again in the direct map, like any other. */
static void free_frame(uint64_t pa)
{
	set_direct_map_prot(pa, PROT_READ | PROT_WRITE);
	frame_free(pa);
}

static void fill_with_traps(uintptr_t page)
{
	static const uint8_t pattern[] = ARCH_TRAP_FILL;
	uint8_t chunk[256];

	for (size_t i = 0; i < sizeof(chunk); i++)
		chunk[i] = pattern[i % sizeof(pattern)];
	for (size_t off = 0; off < PAGE_SIZE; off += sizeof(chunk))
		text_poke((void *)(page + off), chunk, sizeof(chunk));
}

void *execmem_alloc_page(void)
{
	long i = reserve_index();
	uint64_t pa;
	uintptr_t va;

	if (i < 0)
		return NULL;
	va = EXEC_REGION_BASE + (uintptr_t)i * PAGE_SIZE;
	pa = frame_alloc();
	/* The frame's direct-map alias goes read-only first: code must have
	 * no writable mapping (only text_poke's window, for a moment). */
	if (!pa || set_direct_map_prot(pa, PROT_READ) < 0 ||
	    map_page(va, pa, PROT_READ | PROT_EXEC) < 0) {
		if (pa)
			free_frame(pa);
		release_index(i);
		return NULL;
	}
	fill_with_traps(va);
	return (void *)va;
}

void execmem_free_page(void *page)
{
	uintptr_t va = (uintptr_t)page;
	uint64_t pa;

	if (!execmem_contains(va) || virt_to_phys(va, &pa) < 0)
		return;
	unmap_page(va);
	free_frame(pa);
	release_index((va - EXEC_REGION_BASE) / PAGE_SIZE);
}

void *execmem_alloc_range(size_t npages)
{
	long first = npages ? reserve_run(npages) : -1;
	uintptr_t base;

	if (first < 0)
		return NULL;
	base = EXEC_REGION_BASE + (uintptr_t)first * PAGE_SIZE;
	for (size_t i = 0; i < npages; i++) {
		uintptr_t va = base + i * PAGE_SIZE;
		uint64_t pa = frame_alloc();

		if (!pa || map_page(va, pa, PROT_READ | PROT_WRITE) < 0) {
			if (pa)
				frame_free(pa);
			/* Pages [i, npages) were never mapped: only give back
			 * their indices. */
			execmem_free_range((void *)base, i);
			for (size_t j = i; j < npages; j++)
				release_index((size_t)first + j);
			return NULL;
		}
		memset((void *)va, 0, PAGE_SIZE);
	}
	return (void *)base;
}

int execmem_protect(void *addr, size_t npages, unsigned int prot)
{
	for (size_t i = 0; i < npages; i++) {
		uintptr_t va = (uintptr_t)addr + i * PAGE_SIZE;
		uint64_t pa;
		int err;

		if (!execmem_contains(va) || virt_to_phys(va, &pa) < 0)
			return -EFAULT;
		err = set_direct_map_prot(pa, PROT_READ);
		if (err < 0)
			return err;
		unmap_page(va);
		err = map_page(va, pa, prot);
		if (err < 0)
			return err;
	}
	return 0;
}

void execmem_free_range(void *addr, size_t npages)
{
	for (size_t i = 0; i < npages; i++)
		execmem_free_page((char *)addr + i * PAGE_SIZE);
}

void execmem_set_owner(void *page, void *owner)
{
	page_owner[((uintptr_t)page - EXEC_REGION_BASE) / PAGE_SIZE] = owner;
}

void *execmem_owner(const void *addr)
{
	if (!execmem_contains((uintptr_t)addr))
		return NULL;
	return page_owner[((uintptr_t)addr - EXEC_REGION_BASE) / PAGE_SIZE];
}

bool execmem_contains(uintptr_t addr)
{
	return addr >= EXEC_REGION_BASE && addr < EXEC_REGION_BASE + EXEC_REGION_SIZE;
}
