/* How x86_64 learns about the machine at boot: GRUB's multiboot2 data. */
#ifndef ASM_BOOT_H
#define ASM_BOOT_H

#include "boot/x86_64/multiboot2.h"

#define ARCH_NAME "x86_64"

/* kmain's two arguments are the multiboot2 magic and info address. */
static inline int arch_boot_info(uint64_t magic, uint64_t info, struct boot_info *bi)
{
	return multiboot2_parse((uint32_t)magic, info, bi);
}

#endif
