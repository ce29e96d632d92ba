/* The kernel heap: variable-sized allocations from frames of the frame
 * allocator, mapped one after another at HEAP_BASE. */
#ifndef KERNEL_HEAP_H
#define KERNEL_HEAP_H

#include "lib/types.h"

/* Allocate size bytes, 16-byte aligned; NULL when memory is exhausted. */
void *kmalloc(size_t size);
/* Like kmalloc, but the memory is zeroed. */
void *kzalloc(size_t size);
/* Free memory from kmalloc/kzalloc; kfree(NULL) does nothing. */
void kfree(void *ptr);

struct heap_stats {
	size_t bytes_in_use;	/* bytes of live allocations (rounded up to 16) */
	size_t allocations;	/* live allocations */
	size_t pages;		/* pages the heap holds */
	size_t free_blocks;	/* blocks on the free list: merging keeps it low */
	size_t free_bytes;	/* in them, headers included: what kmalloc can
				 * still hand out without taking a frame */
};
/* The heap's counts, read together under its lock. */
void heap_get_stats(struct heap_stats *st);

#endif
