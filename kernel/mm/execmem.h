/* Executable memory outside the kernel image, for code the kernel writes
 * at run time: instruction slots and detour buffers of the probes layer.
 *
 * Pages come from the EXEC_REGION of the address map, which lies within
 * +-2 GiB of kernel text (on x86_64; within the reach of a B on aarch64)
 * so a relative jump can go from kernel text to a slot and back. They are
 * mapped read-only + executable: their content is written with text_poke,
 * exactly like kernel text. */
#ifndef KERNEL_EXECMEM_H
#define KERNEL_EXECMEM_H

#include "lib/types.h"

/* Map one new executable page and fill it with the architecture's trap
 * instruction (so a stray jump into unused space traps). Returns its
 * address, or NULL when frames or region space are exhausted. */
void *execmem_alloc_page(void);
/* Unmap a page from execmem_alloc_page and free its frame. */
void execmem_free_page(void *page);
/* Each page of the region carries one pointer for its user (the slot
 * caches keep their page's bookkeeping there, so that freeing a slot
 * finds it without a search). set_owner records it for the page that
 * starts at page; owner returns it for the page holding addr, NULL if
 * none was set or addr is outside the region. The user serializes. */
void execmem_set_owner(void *page, void *owner);
void *execmem_owner(const void *addr);
/* True if addr is inside the executable region. */
bool execmem_contains(uintptr_t addr);

#endif
