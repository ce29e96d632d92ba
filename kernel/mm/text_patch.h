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

/* Replace len bytes of code at addr with the bytes at src, and return
 * once every CPU will fetch the new bytes. Returns 0, or -EFAULT if addr
 * is not mapped. Serialized by a sleeping lock: thread context only. For
 * code no other CPU may be running, or a change the architecture lets
 * CPUs run through (text_patch.c). */
int text_poke(void *addr, const void *src, size_t len);
/* The same, with every other CPU held at a known point, interrupts off,
 * while the bytes change (stop_machine, kernel/smp_call.h): for changes
 * of code other CPUs may be running that the architecture does not let
 * them run through. */
int text_poke_stopped(void *addr, const void *src, size_t len);

/* Copy len bytes of code to dst without calling anything probe-able (for
 * the probes layer, which must not hit a probe while holding its lock). */
void text_read(void *dst, const void *src, size_t len);

#endif
