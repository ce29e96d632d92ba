/*
 * Kernel stacks (see stack.h): a bitmap of the stack region's slots,
 * the frames behind each slot's upper half, and the guards of the static
 * stacks in .bss.
 */
#include "kernel/mm/stack.h"
#include "kernel/cpu.h"
#include "kernel/mm/frame.h"
#include "kernel/mm/paging.h"
#include "kernel/nokprobe.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/trap.h"
#include "lib/bitops.h"
#include "lib/format.h"
#include <asm/layout.h>

#define SLOT_SIZE   (2 * KERNEL_STACK_SIZE)
#define SLOTS       (STACK_REGION_SIZE / SLOT_SIZE)
#define STACK_PAGES (KERNEL_STACK_SIZE / PAGE_SIZE)

_Static_assert(STACK_REGION_BASE % SLOT_SIZE == 0, "slots aligned to their size");

static uint64_t slot_used[SLOTS / 64];
static struct spinlock stack_lock = SPINLOCK_INIT("stacks");

extern const struct static_stack_guards __start_stack_guards[], __stop_stack_guards[];

/* Reserve a free slot, or return -1. */
static long reserve_slot(void)
{
	unsigned long flags = spin_lock_irqsave(&stack_lock);
	long found = -1;

	for (size_t i = 0; i < SLOTS && found < 0; i++) {
		if (!(slot_used[i / 64] & (1ULL << (i % 64)))) {
			slot_used[i / 64] |= 1ULL << (i % 64);
			found = (long)i;
		}
	}
	spin_unlock_irqrestore(&stack_lock, flags);
	return found;
}

static void release_slot(size_t i)
{
	unsigned long flags = spin_lock_irqsave(&stack_lock);

	slot_used[i / 64] &= ~(1ULL << (i % 64));
	spin_unlock_irqrestore(&stack_lock, flags);
}

size_t stack_bytes_in_use(void)
{
	unsigned long flags = spin_lock_irqsave(&stack_lock);
	size_t n = 0;

	for (size_t i = 0; i < SLOTS / 64; i++)
		n += bits_set(slot_used[i]);
	spin_unlock_irqrestore(&stack_lock, flags);
	return n * KERNEL_STACK_SIZE;
}

/* Unmap the first npages pages of the stack at base and free their frames. */
static void unmap_stack_pages(uintptr_t base, size_t npages)
{
	for (size_t i = 0; i < npages; i++) {
		uintptr_t va = base + i * PAGE_SIZE;
		uint64_t pa;

		if (virt_to_phys(va, &pa) < 0)
			continue;
		unmap_page(va);
		frame_free(pa);
	}
}

void *stack_alloc(void)
{
	long slot = reserve_slot();
	uintptr_t base;

	if (slot < 0)
		return NULL;
	/* The upper half of the slot; the lower half stays unmapped. */
	base = STACK_REGION_BASE + (uintptr_t)slot * SLOT_SIZE + KERNEL_STACK_SIZE;
	for (size_t i = 0; i < STACK_PAGES; i++) {
		uint64_t pa = frame_alloc();

		if (!pa || map_page(base + i * PAGE_SIZE, pa, PROT_READ | PROT_WRITE) < 0) {
			if (pa)
				frame_free(pa);
			unmap_stack_pages(base, i);
			release_slot((size_t)slot);
			return NULL;
		}
	}
	return (void *)base;
}

static bool in_region(uintptr_t addr)
{
	return addr >= STACK_REGION_BASE && addr < STACK_REGION_BASE + STACK_REGION_SIZE;
}

void stack_free(void *stack)
{
	uintptr_t base = (uintptr_t)stack;

	if (!in_region(base))
		return;
	unmap_stack_pages(base, STACK_PAGES);
	release_slot((base - STACK_REGION_BASE) / SLOT_SIZE);
}

bool stack_in_guard(uintptr_t addr)
{
	if (in_region(addr))
		return !(addr & KERNEL_STACK_SIZE);
	for (const struct static_stack_guards *g = __start_stack_guards; g < __stop_stack_guards; g++)
		for (size_t i = 0; i < g->count; i++)
			if (addr - (g->first + i * g->stride) < g->size)
				return true;
	return false;
}
NOKPROBE_SYMBOL(stack_in_guard);

void stack_guard_static(void)
{
	for (const struct static_stack_guards *g = __start_stack_guards; g < __stop_stack_guards; g++)
		for (size_t i = 0; i < g->count; i++)
			for (size_t off = 0; off < g->size; off += PAGE_SIZE)
				unmap_page(g->first + i * g->stride + off);
}

void stack_overflow_panic(struct pt_regs *regs, uintptr_t addr)
{
	char what[96];

	snprintf(what, sizeof(what),
		 "kernel stack overflow in thread %s on CPU %u (guard page hit at 0x%lx)",
		 current_thread()->name, this_cpu()->id, (unsigned long)addr);
	trap_panic(what, regs);
}
NOKPROBE_SYMBOL(stack_overflow_panic);
