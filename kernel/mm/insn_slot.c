/*
 * Instruction slot caches (see insn_slot.h).
 *
 * Every operation costs the same however many pages a cache has:
 * allocating takes the first page of the list of pages with a free slot
 * (full pages are on a list of their own, never looked at), and freeing
 * finds the slot's page through the executable region's per-page owner
 * word (execmem_set_owner), not by searching. A page that becomes empty
 * is kept as the cache's spare rather than unmapped at once, so a probe
 * registered and unregistered over and over does not map and unmap a
 * page each time; a second emptied page is unmapped.
 */
#include "kernel/mm/insn_slot.h"
#include "kernel/mm/execmem.h"
#include "kernel/mm/heap.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include <asm/layout.h>

#define MAX_SLOTS_PER_PAGE (PAGE_SIZE / INSN_SLOT_MIN_SIZE)

struct slot_page {
	struct list_node node;	/* in cache->pages or cache->full_pages */
	const struct insn_slot_cache *cache;	/* whose page it is */
	uint8_t *base;
	size_t used_count;
	uint64_t used[MAX_SLOTS_PER_PAGE / 64];	/* one bit per slot */
};

static size_t slots_per_page(const struct insn_slot_cache *cache)
{
	return PAGE_SIZE / cache->slot_size;
}

/* A page's bitmap, all slots free. The bits past the last slot (when
 * the slots do not fill whole words) are set, so a search for a clear
 * bit never finds a slot that does not exist. */
static void init_bitmap(struct insn_slot_cache *cache, struct slot_page *p)
{
	for (size_t i = slots_per_page(cache); i < MAX_SLOTS_PER_PAGE; i++)
		p->used[i / 64] |= 1ULL << (i % 64);
}

/* Take the first free slot of p, which has one; a page that fills up
 * moves to the full list. Cache lock held. */
static void *take_slot(struct insn_slot_cache *cache, struct slot_page *p)
{
	size_t w = 0, i;

	while (p->used[w] == ~0ULL)
		w++;
	i = w * 64 + (size_t)__builtin_ctzll(~p->used[w]);
	p->used[w] |= 1ULL << (i % 64);
	p->used_count++;
	cache->slots_in_use++;
	if (p->used_count == slots_per_page(cache)) {
		list_del(&p->node);
		list_add(&p->node, &cache->full_pages);
	}
	return p->base + i * cache->slot_size;
}

/* A new page for the cache: the spare if there is one, else a freshly
 * mapped page. Called without the lock (mapping may take a while). */
static struct slot_page *new_page(struct insn_slot_cache *cache)
{
	struct slot_page *page = kzalloc(sizeof(*page));
	unsigned long flags;

	if (!page)
		return NULL;
	flags = spin_lock_irqsave(&cache->lock);
	page->base = cache->spare;
	cache->spare = NULL;
	spin_unlock_irqrestore(&cache->lock, flags);
	if (!page->base)
		page->base = execmem_alloc_page();
	if (!page->base) {
		kfree(page);
		return NULL;
	}
	init_bitmap(cache, page);
	page->cache = cache;
	execmem_set_owner(page->base, page);
	return page;
}

void *insn_slot_alloc(struct insn_slot_cache *cache)
{
	unsigned long flags = spin_lock_irqsave(&cache->lock);
	struct slot_page *page;
	void *slot = NULL;

	if (!list_empty(&cache->pages))
		slot = take_slot(cache, list_first_entry(&cache->pages, struct slot_page, node));
	spin_unlock_irqrestore(&cache->lock, flags);
	if (slot)
		return slot;

	page = new_page(cache);
	if (!page)
		return NULL;
	flags = spin_lock_irqsave(&cache->lock);
	list_add(&page->node, &cache->pages);
	cache->pages_in_use++;
	slot = take_slot(cache, page);
	spin_unlock_irqrestore(&cache->lock, flags);
	return slot;
}

void insn_slot_free(struct insn_slot_cache *cache, void *slot)
{
	unsigned long flags = spin_lock_irqsave(&cache->lock);
	struct slot_page *p = execmem_owner(slot), *empty = NULL;
	size_t i;
	uint8_t *unmap = NULL;

	if (!p || (uint8_t *)slot < p->base || (uint8_t *)slot >= p->base + PAGE_SIZE)
		panic("insn_slot_free: %p is in no page of cache %s", slot, cache->name);
	i = (size_t)((uint8_t *)slot - p->base) / cache->slot_size;
	if (!(p->used[i / 64] & (1ULL << (i % 64))))
		panic("insn_slot_free: slot %p of cache %s is not in use", slot, cache->name);
	if (p->used_count == slots_per_page(cache)) {
		/* Full until now: back among the pages with a free slot. */
		list_del(&p->node);
		list_add(&p->node, &cache->pages);
	}
	p->used[i / 64] &= ~(1ULL << (i % 64));
	p->used_count--;
	cache->slots_in_use--;
	if (p->used_count == 0) {
		list_del(&p->node);
		cache->pages_in_use--;
		execmem_set_owner(p->base, NULL);
		if (!cache->spare)
			cache->spare = p->base;
		else
			unmap = p->base;
		empty = p;
	}
	spin_unlock_irqrestore(&cache->lock, flags);
	if (unmap)
		execmem_free_page(unmap);
	kfree(empty);
}

/* No lock: an address that a backtrace finds on a live stack lies in a
 * slot in use, whose page is neither freed nor given to another cache
 * meanwhile. */
bool insn_slot_cache_holds(const struct insn_slot_cache *cache, uintptr_t addr)
{
	const struct slot_page *p = execmem_owner((const void *)addr);

	return p && p->cache == cache;
}
NOKPROBE_SYMBOL(insn_slot_cache_holds);
