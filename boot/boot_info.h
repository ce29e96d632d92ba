/* What the boot loader tells the kernel, in a form independent of how it
 * told it (multiboot2 on x86_64, the device tree on aarch64). */
#ifndef BOOT_BOOT_INFO_H
#define BOOT_BOOT_INFO_H

#include "lib/types.h"

#define BOOT_MAX_REGIONS 32

struct mem_region {
	uint64_t base;
	uint64_t size;
};

struct boot_info {
	struct mem_region ram[BOOT_MAX_REGIONS];	/* usable RAM */
	size_t nram;
	char cmdline[256];
	uint64_t initrd_base;	/* physical address of the rootfs archive */
	uint64_t initrd_size;	/* 0 when there is none */
	uint64_t info_base;	/* the boot loader's own data: keep it */
	uint64_t info_size;
	/* Physical address of ACPI's RSDP (x86_64: GRUB's copy of it, inside
	 * the boot information), 0 when the loader gave none. */
	uint64_t acpi_rsdp;
};

#endif
