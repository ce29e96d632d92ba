/*
 * The kernel heap: first fit over one growing region of virtual memory.
 *
 * The heap occupies [HEAP_BASE, heap_end); when no free block is large
 * enough, fresh frames are mapped at heap_end. Every block starts with a
 * 16-byte header (so payloads stay 16-byte aligned) holding its total size
 * and either a magic number (allocated) or the next free block (free).
 * Free blocks are kept in one list sorted by address, so that kfree can
 * merge a block with the free neighbours on either side and the heap does
 * not crumble into unusable fragments. Whole free pages at the end are
 * unmapped and their frames given back (heap_trim), so that memory used
 * for a while, by a module loaded and removed say, returns to the system.
 */
#include "kernel/mm/heap.h"
#include "lib/export.h"
#include "kernel/mm/frame.h"
#include "kernel/mm/paging.h"
#include "kernel/panic.h"
#include "kernel/spinlock.h"
#include "lib/string.h"
#include <asm/layout.h>

#define HEADER_SIZE 16
#define ALLOC_MAGIC 0xa110ca7edb10c000ULL

struct block {
	size_t size;		/* whole block, header included */
	union {
		uint64_t magic;		/* allocated: ALLOC_MAGIC */
		struct block *next;	/* free: next free block by address */
	};
};

static struct spinlock heap_lock = SPINLOCK_INIT("heap");
static struct block *free_list;
static uintptr_t heap_end = HEAP_BASE;
static struct heap_stats stats;

/* Insert b into the address-ordered free list, merging with neighbours. */
static void free_insert(struct block *b)
{
	struct block **link = &free_list;
	struct block *prev = NULL;

	while (*link && *link < b) {
		prev = *link;
		link = &(*link)->next;
	}
	b->next = *link;
	*link = b;
	if (b->next && (char *)b + b->size == (char *)b->next) {
		b->size += b->next->size;
		b->next = b->next->next;
	}
	if (prev && (char *)prev + prev->size == (char *)b) {
		prev->size += b->size;
		prev->next = b->next;
	}
}

/* Map enough new pages at the end of the heap for a block of size bytes. */
static bool heap_grow(size_t size)
{
	size_t bytes = ALIGN_UP(size, PAGE_SIZE);
	uintptr_t start = heap_end;

	if (heap_end + bytes > HEAP_BASE + HEAP_MAX_SIZE)
		return false;
	for (size_t off = 0; off < bytes; off += PAGE_SIZE) {
		uint64_t pa = frame_alloc();

		if (!pa || map_page(start + off, pa, PROT_READ | PROT_WRITE) < 0) {
			if (pa)
				frame_free(pa);
			bytes = off;	/* keep what was mapped */
			break;
		}
	}
	if (!bytes)
		return false;
	heap_end += bytes;
	stats.pages += bytes / PAGE_SIZE;
	struct block *b = (struct block *)start;

	b->size = bytes;
	free_insert(b);
	return bytes >= size;
}

static void *alloc_locked(size_t need)
{
	for (struct block **link = &free_list; *link; link = &(*link)->next) {
		struct block *b = *link;

		if (b->size < need)
			continue;
		/* Split off any tail, even a header alone (every size is a
		 * multiple of HEADER_SIZE): a block is then exactly what was
		 * asked for, so the heap's counts do not depend on where an
		 * allocation lands, and a tail too small to use merges with its
		 * neighbour when that is freed. */
		if (b->size > need) {
			struct block *rest = (struct block *)((char *)b + need);

			rest->size = b->size - need;
			rest->next = b->next;
			*link = rest;
			b->size = need;
		} else {
			*link = b->next;
		}
		b->magic = ALLOC_MAGIC;
		return (char *)b + HEADER_SIZE;
	}
	return NULL;
}

void *kmalloc(size_t size)
{
	size_t need = ALIGN_UP(size + HEADER_SIZE, HEADER_SIZE);
	unsigned long flags;
	void *p;

	if (size == 0 || size > HEAP_MAX_SIZE)
		return NULL;
	flags = spin_lock_irqsave(&heap_lock);
	p = alloc_locked(need);
	if (!p && heap_grow(need))
		p = alloc_locked(need);
	if (p) {
		stats.bytes_in_use += ((struct block *)((char *)p - HEADER_SIZE))->size - HEADER_SIZE;
		stats.allocations++;
	}
	spin_unlock_irqrestore(&heap_lock, flags);
	return p;
}
EXPORT_SYMBOL(kmalloc);

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}
EXPORT_SYMBOL(kzalloc);

/* The free block that ends at heap_end, or NULL; *link is what points
 * to it. */
static struct block *free_tail(struct block ***link)
{
	for (*link = &free_list; **link; *link = &(**link)->next)
		if ((uintptr_t)**link + (**link)->size == heap_end)
			return **link;
	return NULL;
}

/* Unmap the whole pages of a free block at the end of the heap. What is
 * left of the block, if anything, stays free (at least a header's worth,
 * or nothing). */
static void heap_trim(void)
{
	struct block **link;
	struct block *tail = free_tail(&link);
	uintptr_t new_end;

	if (!tail)
		return;
	new_end = ALIGN_UP((uintptr_t)tail, PAGE_SIZE);
	if (new_end != (uintptr_t)tail && new_end - (uintptr_t)tail < HEADER_SIZE * 2)
		new_end += PAGE_SIZE;
	if (new_end >= heap_end)
		return;
	if (new_end == (uintptr_t)tail)
		*link = tail->next;
	else
		tail->size = new_end - (uintptr_t)tail;
	for (uintptr_t va = new_end; va < heap_end; va += PAGE_SIZE) {
		uint64_t pa;

		if (virt_to_phys(va, &pa) == 0) {
			unmap_page(va);
			frame_free(pa);
		}
		stats.pages--;
	}
	heap_end = new_end;
}

void kfree(void *ptr)
{
	struct block *b;
	unsigned long flags;

	if (!ptr)
		return;
	b = (struct block *)((char *)ptr - HEADER_SIZE);
	flags = spin_lock_irqsave(&heap_lock);
	if ((uintptr_t)b < HEAP_BASE || (uintptr_t)ptr >= heap_end || b->magic != ALLOC_MAGIC)
		panic("kfree: %p was not allocated by kmalloc (double free or corruption)", ptr);
	stats.bytes_in_use -= b->size - HEADER_SIZE;
	stats.allocations--;
	free_insert(b);
	heap_trim();
	spin_unlock_irqrestore(&heap_lock, flags);
}
EXPORT_SYMBOL(kfree);

void heap_get_stats(struct heap_stats *st)
{
	unsigned long flags = spin_lock_irqsave(&heap_lock);

	*st = stats;
	st->free_blocks = st->free_bytes = 0;
	for (struct block *b = free_list; b; b = b->next) {
		st->free_blocks++;
		st->free_bytes += b->size;
	}
	spin_unlock_irqrestore(&heap_lock, flags);
}
