/* Instruction slots: small fixed-size pieces of executable memory where
 * the probes layer places a copy of a probed instruction (and, for the
 * optimizer, whole detour buffers). A cache hands out slots of one size,
 * carving them from pages of kernel/mm/execmem.c; of the pages that become
 * empty, one is kept for the next allocation and the others are given
 * back. Allocating and freeing take the same time however many pages a
 * cache has. Write into a slot only with text_poke. */
#ifndef KERNEL_INSN_SLOT_H
#define KERNEL_INSN_SLOT_H

#include "kernel/spinlock.h"
#include "lib/list.h"
#include "lib/types.h"

#define INSN_SLOT_MIN_SIZE 16

struct insn_slot_cache {
	const char *name;
	size_t slot_size;		/* multiple of INSN_SLOT_MIN_SIZE */
	struct list_node pages;		/* pages with a free slot (private) */
	struct list_node full_pages;	/* pages without one (private) */
	uint8_t *spare;			/* an emptied page kept mapped, or NULL */
	struct spinlock lock;
	size_t slots_in_use;
	size_t pages_in_use;		/* pages holding slots (not the spare) */
};

#define INSN_SLOT_CACHE_INIT(var, cache_name, size)                            \
	{ .name = cache_name, .slot_size = size,                               \
	  .pages = LIST_HEAD_INIT((var).pages),                                \
	  .full_pages = LIST_HEAD_INIT((var).full_pages),                      \
	  .lock = SPINLOCK_INIT(cache_name) }

/* A free slot of cache->slot_size bytes (filled with trap instructions
 * on a new page), or NULL when executable memory is exhausted. */
void *insn_slot_alloc(struct insn_slot_cache *cache);
/* Give a slot back. A page it empties becomes the cache's spare, or is
 * unmapped if the cache has one already. */
void insn_slot_free(struct insn_slot_cache *cache, void *slot);
/* True if addr lies in a page of cache's. Takes no lock, for stack
 * unwinders (see kernel/code_range.h): only meaningful for an address
 * in a slot that is in use, such as one found on a stack. */
bool insn_slot_cache_holds(const struct insn_slot_cache *cache, uintptr_t addr);

#endif
