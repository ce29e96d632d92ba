/* Helpers for the operations of generated files that are a buffer of
 * bytes, with Linux's names (its fs/libfs.c has them), for the kernel
 * and for modules (include/linux/fs.h). */
#ifndef KERNEL_FS_LIBFS_H
#define KERNEL_FS_LIBFS_H

#include "lib/types.h"

/* A read of a file whose contents are the available bytes at from:
 * copy what lies at *ppos, up to count bytes, to to, and move *ppos on.
 * Returns the bytes copied, 0 at the end, or -EINVAL for a position
 * below 0. */
ssize_t simple_read_from_buffer(void *to, size_t count, loff_t *ppos, const void *from,
				size_t available);

#endif
