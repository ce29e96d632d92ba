/* Memory access that survives a fault.
 *
 * Reading through a pointer that might be bad (a frame pointer of a broken
 * stack, an address typed at the shell) or writing where a write might be
 * refused (a W^X test) would normally panic. These copies run through
 * instructions listed in the exception fix-up table (kernel/trap.h): a
 * fault there resumes after the copy, which then returns -EFAULT. */
#ifndef KERNEL_NOFAULT_H
#define KERNEL_NOFAULT_H

#include "lib/types.h"

/* Copy n bytes; 0 on success, -EFAULT if any access faulted. */
int copy_from_kernel_nofault(void *dst, const void *src, size_t n);
int copy_to_kernel_nofault(void *dst, const void *src, size_t n);
/* Read the 8 bytes at src in one access: 0, or -EFAULT with *out 0. */
int load_u64_nofault(uint64_t *out, const void *src);
/* Copy the string at src, its NUL included, into dst, of size bytes
 * (at least 1): one cut short ends in a NUL at dst[size - 1]. The bytes
 * stored, the NUL included, or -EFAULT if a read faulted. */
long strncpy_from_kernel_nofault(char *dst, const void *src, size_t size);

#endif
