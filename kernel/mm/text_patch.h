/* Changing kernel code at run time.
 *
 * Kernel text and the executable memory of kernel/mm/execmem.c are mapped
 * read-only (W^X), so code cannot be changed by an ordinary store. text_poke
 * is the single routine that does it: it maps each affected page a second
 * time, writable, at a private window address, copies the new bytes
 * through that alias, removes it, and makes the change visible to
 * instruction fetch. */
#ifndef KERNEL_TEXT_PATCH_H
#define KERNEL_TEXT_PATCH_H

#include "lib/types.h"

/* Replace len bytes of code at addr with the bytes at src. Returns 0, or
 * -EFAULT if addr is not mapped. Serialized by a lock, so concurrent
 * patches (later, from several CPUs) do not share the window. */
int text_poke(void *addr, const void *src, size_t len);

/* Copy len bytes of code to dst without calling anything probe-able (for
 * the probes layer, which must not hit a probe while holding its lock). */
void text_read(void *dst, const void *src, size_t len);

#endif
