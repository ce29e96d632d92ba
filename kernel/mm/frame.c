/*
 * Physical memory: a bitmap with one bit per 4 KiB frame, set when the
 * frame is in use. The bitmap is a fixed array in .bss, which covers the
 * first FRAME_MAX_BYTES of physical memory (RAM above that is ignored);
 * allocation scans from the last position found free, so it is cheap on
 * average and hands out low memory first.
 */
#include "kernel/mm/frame.h"
#include "boot/boot_info.h"
#include "kernel/spinlock.h"
#include "lib/string.h"
#include <asm/layout.h>

#define FRAME_MAX_BYTES (4ULL << 30)
#define NFRAMES (FRAME_MAX_BYTES / PAGE_SIZE)
#define LOW_RESERVED (1 << 20)	/* BIOS data, VGA memory, ROMs */

static uint64_t bitmap[NFRAMES / 64];
static size_t total_frames, used_frames;
static size_t next_hint;
static struct spinlock frame_lock = SPINLOCK_INIT("frames");

static bool frame_used(size_t n) { return bitmap[n / 64] & (1ULL << (n % 64)); }
static void set_used(size_t n)   { bitmap[n / 64] |= 1ULL << (n % 64); }
static void set_free(size_t n)   { bitmap[n / 64] &= ~(1ULL << (n % 64)); }

/* Mark [base, base+size) used; whole frames that the range touches. */
static void reserve_range(uint64_t base, uint64_t size)
{
	uint64_t first = base / PAGE_SIZE;
	uint64_t end = ALIGN_UP(base + size, PAGE_SIZE) / PAGE_SIZE;

	for (uint64_t n = first; n < end && n < NFRAMES; n++) {
		if (!frame_used(n)) {
			set_used(n);
			used_frames++;
		}
	}
}

void frame_init(const struct boot_info *bi, uint64_t kernel_phys_start,
		uint64_t kernel_phys_end)
{
	/* Start with everything used, then free what the map calls RAM:
	 * holes in the map are never handed out. */
	memset(bitmap, 0xff, sizeof(bitmap));
	for (size_t i = 0; i < bi->nram; i++) {
		uint64_t first = ALIGN_UP(bi->ram[i].base, PAGE_SIZE) / PAGE_SIZE;
		uint64_t end = (bi->ram[i].base + bi->ram[i].size) / PAGE_SIZE;

		for (uint64_t n = first; n < end && n < NFRAMES; n++) {
			if (frame_used(n)) {
				set_free(n);
				total_frames++;
			}
		}
	}
	reserve_range(0, LOW_RESERVED);
	reserve_range(kernel_phys_start, kernel_phys_end - kernel_phys_start);
	reserve_range(bi->info_base, bi->info_size);
	if (bi->initrd_size)
		reserve_range(bi->initrd_base, bi->initrd_size);
}

uint64_t frame_alloc(void)
{
	unsigned long flags = spin_lock_irqsave(&frame_lock);
	uint64_t pa = 0;

	for (size_t i = 0; i < NFRAMES; i++) {
		size_t n = (next_hint + i) % NFRAMES;

		if (!frame_used(n)) {
			set_used(n);
			used_frames++;
			next_hint = n + 1;
			pa = (uint64_t)n * PAGE_SIZE;
			break;
		}
	}
	spin_unlock_irqrestore(&frame_lock, flags);
	return pa;
}

void frame_free(uint64_t pa)
{
	unsigned long flags = spin_lock_irqsave(&frame_lock);
	size_t n = pa / PAGE_SIZE;

	if (n < NFRAMES && frame_used(n)) {
		set_free(n);
		used_frames--;
		if (n < next_hint)
			next_hint = n;
	}
	spin_unlock_irqrestore(&frame_lock, flags);
}

void frame_get_stats(struct frame_stats *st)
{
	unsigned long flags = spin_lock_irqsave(&frame_lock);

	st->total = total_frames;
	st->used = used_frames;	/* only RAM frames are ever counted */
	spin_unlock_irqrestore(&frame_lock, flags);
}
