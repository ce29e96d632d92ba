/* Multiboot2 (GRUB) boot information, x86_64 only. */
#ifndef BOOT_X86_64_MULTIBOOT2_H
#define BOOT_X86_64_MULTIBOOT2_H

#include "boot/boot_info.h"

/* Fill *bi from the information GRUB passed. Returns 0, or -1 if magic
 * shows the kernel was not started by a multiboot2 loader. */
int multiboot2_parse(uint32_t magic, uint64_t info_phys, struct boot_info *bi);

#endif
