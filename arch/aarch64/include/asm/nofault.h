/*
 * One-byte accesses that may fault, for kernel/mm/nofault.c.
 *
 * Each is a single ldrb/strb with an exception-table entry. The result is
 * set to -EFAULT before the access and cleared after it; the fix-up entry
 * sends a faulting access straight past the clear, so the caller sees
 * -EFAULT without any other fault-handling code. (On aarch64, as on x86,
 * the exception address is the faulting instruction itself.)
 */
#ifndef ASM_NOFAULT_H
#define ASM_NOFAULT_H

#include "kernel/trap.h"
#include "lib/errno.h"

static inline int arch_load_byte_nofault(uint8_t *out, const uint8_t *src)
{
	int err = -EFAULT;
	uint32_t v = 0;

	__asm__ volatile("1: ldrb %w1, [%2]\n\t"
			 "mov %w0, #0\n"
			 "2:\n\t"
			 EXTABLE_ENTRY(1b, 2b)
			 : "+r"(err), "+r"(v) : "r"(src) : "memory");
	*out = (uint8_t)v;
	return err;
}

/* The same for a word, in one access (a probe event's dereference, on
 * the way of every hit): the address need not be aligned. */
static inline int arch_load_u64_nofault(uint64_t *out, const uint64_t *src)
{
	int err = -EFAULT;
	uint64_t v = 0;

	__asm__ volatile("1: ldr %1, [%2]\n\t"
			 "mov %w0, #0\n"
			 "2:\n\t"
			 EXTABLE_ENTRY(1b, 2b)
			 : "+r"(err), "+r"(v) : "r"(src) : "memory");
	*out = v;
	return err;
}

static inline int arch_store_byte_nofault(uint8_t *dst, uint8_t v)
{
	int err = -EFAULT;

	__asm__ volatile("1: strb %w1, [%2]\n\t"
			 "mov %w0, #0\n"
			 "2:\n\t"
			 EXTABLE_ENTRY(1b, 2b)
			 : "+r"(err) : "r"((uint32_t)v), "r"(dst) : "memory");
	return err;
}

#endif
