/* Multiboot2 (GRUB) boot information, x86_64 only. */
#ifndef BOOT_X86_64_MULTIBOOT2_H
#define BOOT_X86_64_MULTIBOOT2_H

#include "boot/boot_info.h"

/* Fill *bi from the information GRUB passed. Returns 0, or -EINVAL if
 * magic shows the kernel was not started by a multiboot2 loader or the
 * information is malformed. */
int multiboot2_parse(uint32_t magic, uint64_t info_phys, struct boot_info *bi);

/* The reader behind multiboot2_parse, on a block already mapped at info
 * (info_phys is recorded in *bi so the block's memory is kept). Returns
 * 0, or -EINVAL if a size is inconsistent or the end tag is missing. */
int multiboot2_read(const void *info, uint64_t info_phys, struct boot_info *bi);

#endif
