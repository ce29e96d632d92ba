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

/* Make the calling thread's text_pokes, until text_poke_batch_end, sync
 * the other CPUs once at the end instead of each time, and queue its
 * text_poke_stoppeds to write many in one stop_machine (text_patch.c
 * says when that is enough). Holds the patching lock meanwhile: take it
 * after any lock a text_poke caller holds (kprobe_mutex), never before. */
void text_poke_batch_begin(void);
void text_poke_batch_end(void);
/* Inside a batch: write the queued stopped pokes, and sync the other
 * CPUs now if a text_poke has not yet, for a change made in steps that
 * each must be seen before the next (x86_64's jump over several
 * instructions, a disarm before its point is unpublished). Outside one:
 * nothing to do, as each text_poke has synced. */
void text_poke_sync(void);

/* How many ranges text_poke has written a second time, after the sync
 * that followed them (text_patch.c, "Emulators"): for the selftest. */
unsigned long text_poke_refreshed(void);

/* Copy len bytes of code to dst without calling anything probe-able (for
 * the probes layer, which must not hit a probe while holding its lock). */
void text_read(void *dst, const void *src, size_t len);

#endif
