/*
 * Byte copies that may fault (see kernel/nofault.h).
 *
 * Each copies one byte with a single ldrb/strb that has an entry in the
 * .ex_table section. The result register is set to -EFAULT before the
 * access and cleared after it; the fix-up entry sends a faulting access
 * straight past the clear, so the function sees -EFAULT without any other
 * fault-handling code. (On aarch64 the exception address is the faulting
 * instruction itself, as on x86.)
 */
#include "kernel/nofault.h"
#include "kernel/nokprobe.h"
#include "lib/errno.h"

#define EXTABLE_ENTRY(insn, fixup)                                             \
	".pushsection .ex_table, \"a\"\n\t"                                    \
	".balign 8\n\t"                                                        \
	".quad " #insn ", " #fixup "\n\t"                                      \
	".popsection\n\t"

static int load_byte(uint8_t *out, const uint8_t *src)
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

static int store_byte(uint8_t *dst, uint8_t v)
{
	int err = -EFAULT;

	__asm__ volatile("1: strb %w1, [%2]\n\t"
			 "mov %w0, #0\n"
			 "2:\n\t"
			 EXTABLE_ENTRY(1b, 2b)
			 : "+r"(err) : "r"((uint32_t)v), "r"(dst) : "memory");
	return err;
}

int copy_from_kernel_nofault(void *dst, const void *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (load_byte((uint8_t *)dst + i, (const uint8_t *)src + i))
			return -EFAULT;
	return 0;
}

int copy_to_kernel_nofault(void *dst, const void *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (store_byte((uint8_t *)dst + i, ((const uint8_t *)src)[i]))
			return -EFAULT;
	return 0;
}
NOKPROBE_SYMBOL(load_byte);
NOKPROBE_SYMBOL(store_byte);
NOKPROBE_SYMBOL(copy_from_kernel_nofault);
NOKPROBE_SYMBOL(copy_to_kernel_nofault);
