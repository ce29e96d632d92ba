/* x86 port I/O, memory-mapped device registers and firmware tables.
 *
 * What lies outside RAM is mapped on demand where the direct map would
 * put it: at DIRECT_MAP_BASE + its physical address. Device registers
 * (the local APIC's) are mapped uncached by ioremap, as aarch64 maps them
 * in its MMIO window; firmware tables (ACPI's) read-only and cached by
 * memremap_ro. The register access functions are single 8-, 16- or
 * 32-bit loads and stores the compiler may neither merge, split nor
 * reorder with each other. */
#ifndef ASM_IO_H
#define ASM_IO_H

#include <stddef.h>
#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* Kernel address of the device registers at [pa, pa + size), mapped
 * uncached (arch/x86_64/paging.c). Only after paging_init; panics if
 * the range is RAM or no page-table frame is left. */
void *ioremap(uint64_t pa, size_t size);

/* Kernel address of the firmware data at [pa, pa + size) (ACPI's tables),
 * readable: pages the direct map lacks (firmware memory is not RAM to
 * the memory map) are mapped read-only and not executable. Only after
 * paging_init. NULL if the range wraps or no page-table frame is left. */
const void *memremap_ro(uint64_t pa, size_t size);

static inline uint32_t readl(const volatile void *addr)
{
	uint32_t v;

	__asm__ volatile("movl %1, %0" : "=r"(v) : "m"(*(const volatile uint32_t *)addr) : "memory");
	return v;
}

static inline void writel(uint32_t v, volatile void *addr)
{
	__asm__ volatile("movl %1, %0" : "=m"(*(volatile uint32_t *)addr) : "r"(v) : "memory");
}

static inline uint8_t readb(const volatile void *addr)
{
	uint8_t v;

	__asm__ volatile("movb %1, %0" : "=q"(v) : "m"(*(const volatile uint8_t *)addr) : "memory");
	return v;
}

static inline void writeb(uint8_t v, volatile void *addr)
{
	__asm__ volatile("movb %1, %0" : "=m"(*(volatile uint8_t *)addr) : "q"(v) : "memory");
}

static inline uint16_t readw(const volatile void *addr)
{
	uint16_t v;

	__asm__ volatile("movw %1, %0" : "=r"(v) : "m"(*(const volatile uint16_t *)addr) : "memory");
	return v;
}

static inline void writew(uint16_t v, volatile void *addr)
{
	__asm__ volatile("movw %1, %0" : "=m"(*(volatile uint16_t *)addr) : "r"(v) : "memory");
}

#endif
