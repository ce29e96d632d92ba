/* How aarch64 learns about the machine at boot: the flattened device tree
 * whose physical address the boot loader (QEMU) passes in x0. */
#ifndef ASM_BOOT_H
#define ASM_BOOT_H

#include "boot/aarch64/fdt_boot.h"

#define ARCH_NAME "aarch64"

/* kmain's arguments are x0 and x1 at entry: the DTB address and 0. */
static inline int arch_boot_info(uint64_t dtb_phys, uint64_t unused, struct boot_info *bi)
{
	(void)unused;
	return fdt_boot_info(dtb_phys, bi);
}

#endif
