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
/* Map npages contiguous new pages, zeroed, writable and not executable:
 * room for a loadable module, which the loader fills and relocates and
 * then protects part by part with execmem_protect. Module code and data
 * both live here, within reach of the kernel's text and of each other
 * (a heap address would be too far for their relative references).
 * Returns the first page, or NULL. */
void *execmem_alloc_range(size_t npages);
/* Give npages pages of a range the protection prot: PROT_READ |
 * PROT_EXEC for code, PROT_READ for read-only data. Their direct-map
 * aliases become read-only too, so that no writable alias of either
 * remains. Returns 0 or a negative errno. */
int execmem_protect(void *addr, size_t npages, unsigned int prot);
/* Unmap npages pages from execmem_alloc_range and free their frames. */
void execmem_free_range(void *addr, size_t npages);
/* True if addr is inside the executable region. */
bool execmem_contains(uintptr_t addr);

#endif
