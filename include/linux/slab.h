/* kmalloc, kzalloc and kfree with Linux's signatures.
 *
 * Linux's allocators take GFP flags that say whether they may sleep. The
 * kernel heap here (kernel/mm/heap.h) never sleeps and works with
 * interrupts off, so every flag means the same and is ignored. (A probe
 * handler must still not allocate if its probe is inside the heap: the
 * heap's lock is held there.) The
 * macros have the functions' own names, which a function-like macro does
 * not expand again: kmalloc(n, GFP_KERNEL) becomes a call of the
 * kernel's kmalloc(n). */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H

#include "kernel/mm/heap.h"

typedef unsigned int gfp_t;

#define GFP_KERNEL	((gfp_t)0)
#define GFP_ATOMIC	((gfp_t)0)
#define GFP_NOWAIT	((gfp_t)0)

#define kmalloc(size, flags) ((void)(gfp_t)(flags), kmalloc(size))
#define kzalloc(size, flags) ((void)(gfp_t)(flags), kzalloc(size))

#endif
