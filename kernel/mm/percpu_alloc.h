/* Per-CPU memory allocated at run time, in the spirit of Linux's
 * alloc_percpu: one allocation gives every CPU a zeroed copy of its own,
 * each reached from the same pointer as a per-CPU variable's are
 * (this_cpu_ptr, per_cpu_ptr in kernel/percpu.h). The pointer itself is
 * no CPU's copy: never dereference it directly. */
#ifndef KERNEL_MM_PERCPU_ALLOC_H
#define KERNEL_MM_PERCPU_ALLOC_H

#include "lib/types.h"

/* size bytes (16-byte aligned, at most PERCPU_UNIT_SIZE) on every CPU,
 * zeroed; NULL when memory is exhausted. May sleep: call from a thread. */
void *alloc_percpu_bytes(size_t size);
#define alloc_percpu(type) ((type *)alloc_percpu_bytes(sizeof(type)))
/* Give back what alloc_percpu returned (NULL does nothing). May sleep.
 * No CPU may be using any copy any more. */
void free_percpu(void *ptr);
/* Give back the empty chunk kept spare for the next allocation, if one
 * is: for a test that compares the heap before and after some work, so
 * that the spare its work left (or found) is not counted. May sleep. */
void percpu_release_spare(void);

#endif
