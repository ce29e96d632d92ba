/* Memory-mapped device registers.
 *
 * Devices are reached through the MMIO window (asm/layout.h): ioremap
 * returns the window address of a physical range and makes sure it is
 * mapped as device memory, now and in the final page tables. The access
 * functions are single 8- or 32-bit loads and stores the compiler may
 * neither merge, split nor reorder with each other. */
#ifndef ASM_IO_H
#define ASM_IO_H

#include <stddef.h>
#include <stdint.h>

/* Kernel address of the device registers at [pa, pa + size). Panics if
 * the range is outside the window. */
void *ioremap(uint64_t pa, size_t size);

static inline uint32_t readl(const volatile void *addr)
{
	uint32_t v;

	__asm__ volatile("ldr %w0, [%1]" : "=r"(v) : "r"(addr) : "memory");
	return v;
}

static inline void writel(uint32_t v, volatile void *addr)
{
	__asm__ volatile("str %w0, [%1]" : : "rZ"(v), "r"(addr) : "memory");
}

static inline uint8_t readb(const volatile void *addr)
{
	uint8_t v;

	__asm__ volatile("ldrb %w0, [%1]" : "=r"(v) : "r"(addr) : "memory");
	return v;
}

#endif
