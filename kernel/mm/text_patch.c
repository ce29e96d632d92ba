/*
 * The text-patching routine (see text_patch.h).
 *
 * Why an alias and not "make the page writable for a moment"? Because the
 * code being patched may be running on another CPU, or be the code doing
 * the patching: the executable mapping must stay intact and never be
 * writable. The window is a fixed, private address, mapped for the
 * duration of one page's copy; only text_poke uses it, under text_lock.
 *
 * With SMP, the last step (arch_sync_icache) will also make the other CPUs
 * serialize before they run the new bytes.
 */
#include "kernel/mm/text_patch.h"
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "kernel/mm/paging.h"
#include "kernel/spinlock.h"
#include "lib/errno.h"
#include <asm/layout.h>

static struct spinlock text_lock = SPINLOCK_INIT("text_poke");

/* A private copy loop rather than memcpy: memcpy is ordinary, probe-able
 * library code, and the patcher must not run code it may be patching.
 * Whole aligned 4-byte words are written with one store each, so that an
 * aarch64 instruction changes at once, never a byte at a time (see
 * arch_optimize in arch/aarch64/optprobe.c); both architectures are
 * little-endian. */
static void __kprobes copy_code_bytes(uint8_t *dst, const uint8_t *src, size_t len)
{
	if (((uintptr_t)dst & 3) == 0 && (len & 3) == 0) {
		for (size_t i = 0; i < len; i += 4)
			*(volatile uint32_t *)(dst + i) = src[i] | (uint32_t)src[i + 1] << 8 |
				(uint32_t)src[i + 2] << 16 | (uint32_t)src[i + 3] << 24;
		return;
	}
	for (size_t i = 0; i < len; i++)
		((volatile uint8_t *)dst)[i] = src[i];
}

void __kprobes text_read(void *dst, const void *src, size_t len)
{
	copy_code_bytes(dst, src, len);
}

static int __kprobes poke_page(uintptr_t addr, const uint8_t *src, size_t len)
{
	uint64_t pa;

	if (virt_to_phys(addr, &pa) < 0)
		return -EFAULT;
	if (map_page(TEXT_POKE_ADDR, ALIGN_DOWN(pa, PAGE_SIZE), PROT_READ | PROT_WRITE) < 0)
		return -EFAULT;
	copy_code_bytes((uint8_t *)(TEXT_POKE_ADDR + (addr & (PAGE_SIZE - 1))), src, len);
	unmap_page(TEXT_POKE_ADDR);
	return 0;
}

int __kprobes text_poke(void *addr, const void *src, size_t len)
{
	uintptr_t a = (uintptr_t)addr;
	const uint8_t *s = src;
	unsigned long flags = spin_lock_irqsave(&text_lock);
	int err = 0;

	while (len && !err) {
		size_t chunk = MIN(len, PAGE_SIZE - (a & (PAGE_SIZE - 1)));

		err = poke_page(a, s, chunk);
		a += chunk;
		s += chunk;
		len -= chunk;
	}
	arch_sync_icache((uintptr_t)addr, (size_t)(a - (uintptr_t)addr));
	spin_unlock_irqrestore(&text_lock, flags);
	return err;
}
