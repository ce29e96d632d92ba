/* Instruction slot caches (see insn_slot.h). */
#include "kernel/insn_slot.h"
#include "kernel/execmem.h"
#include "kernel/heap.h"
#include "kernel/printk.h"
#include <asm/layout.h>

#define MAX_SLOTS_PER_PAGE (PAGE_SIZE / INSN_SLOT_MIN_SIZE)

struct slot_page {
	struct list_node node;
	uint8_t *base;
	size_t used_count;
	uint64_t used[MAX_SLOTS_PER_PAGE / 64];
};

static size_t slots_per_page(const struct insn_slot_cache *cache)
{
	return PAGE_SIZE / cache->slot_size;
}

/* Take a free slot from a page that has one; NULL if none has. */
static void *take_free_slot(struct insn_slot_cache *cache)
{
	struct slot_page *p;

	list_for_each_entry(p, &cache->pages, node) {
		if (p->used_count == slots_per_page(cache))
			continue;
		for (size_t i = 0; i < slots_per_page(cache); i++) {
			if (p->used[i / 64] & (1ULL << (i % 64)))
				continue;
			p->used[i / 64] |= 1ULL << (i % 64);
			p->used_count++;
			cache->slots_in_use++;
			return p->base + i * cache->slot_size;
		}
	}
	return NULL;
}

void *insn_slot_alloc(struct insn_slot_cache *cache)
{
	unsigned long flags = spin_lock_irqsave(&cache->lock);
	void *slot = take_free_slot(cache);
	struct slot_page *page;

	spin_unlock_irqrestore(&cache->lock, flags);
	if (slot)
		return slot;

	/* Allocate outside the lock: mapping a page may take a while. */
	page = kzalloc(sizeof(*page));
	if (!page)
		return NULL;
	page->base = execmem_alloc_page();
	if (!page->base) {
		kfree(page);
		return NULL;
	}
	flags = spin_lock_irqsave(&cache->lock);
	list_add(&page->node, &cache->pages);
	cache->pages_in_use++;
	slot = take_free_slot(cache);
	spin_unlock_irqrestore(&cache->lock, flags);
	return slot;
}

void insn_slot_free(struct insn_slot_cache *cache, void *slot)
{
	unsigned long flags = spin_lock_irqsave(&cache->lock);
	struct slot_page *p, *empty = NULL;

	list_for_each_entry(p, &cache->pages, node) {
		size_t i = ((uint8_t *)slot - p->base) / cache->slot_size;

		if ((uint8_t *)slot < p->base || (uint8_t *)slot >= p->base + PAGE_SIZE)
			continue;
		if (!(p->used[i / 64] & (1ULL << (i % 64))))
			panic("insn_slot_free: slot %p of cache %s is not in use", slot, cache->name);
		p->used[i / 64] &= ~(1ULL << (i % 64));
		p->used_count--;
		cache->slots_in_use--;
		if (p->used_count == 0) {
			list_del(&p->node);
			cache->pages_in_use--;
			empty = p;
		}
		break;
	}
	spin_unlock_irqrestore(&cache->lock, flags);
	if (empty) {
		execmem_free_page(empty->base);
		kfree(empty);
	}
}
