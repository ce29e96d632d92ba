/* The physical frame allocator: one bit per 4 KiB frame of RAM. */
#ifndef KERNEL_FRAME_H
#define KERNEL_FRAME_H

#include "lib/types.h"

struct boot_info;

/* Mark the usable RAM of the memory map free, except the kernel image,
 * the boot information, the rootfs archive and the first 1 MiB. */
void frame_init(const struct boot_info *bi, uint64_t kernel_phys_start,
		uint64_t kernel_phys_end);
/* Allocate one frame; returns its physical address, or 0 if none is left
 * (frame 0 is never handed out). The frame's contents are undefined. */
uint64_t frame_alloc(void);
void frame_free(uint64_t pa);

struct frame_stats {
	size_t total;	/* usable frames */
	size_t used;	/* allocated or reserved */
};
void frame_get_stats(struct frame_stats *st);

#endif
