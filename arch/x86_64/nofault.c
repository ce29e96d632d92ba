/*
 * Byte copies that may fault (see kernel/nofault.h).
 *
 * Each copies one byte with a single mov that has an entry in the .ex_table
 * section. The result register is set to -EFAULT before the mov and cleared
 * after it; the fix-up entry sends a faulting mov straight past the clear,
 * so the function sees -EFAULT without any other fault-handling code.
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
	uint8_t v = 0;

	__asm__ volatile("1: movb (%2), %1\n\t"
			 "xorl %0, %0\n"
			 "2:\n\t"
			 EXTABLE_ENTRY(1b, 2b)
			 : "+r"(err), "+q"(v) : "r"(src) : "cc", "memory");
	*out = v;
	return err;
}

static int store_byte(uint8_t *dst, uint8_t v)
{
	int err = -EFAULT;

	__asm__ volatile("1: movb %1, (%2)\n\t"
			 "xorl %0, %0\n"
			 "2:\n\t"
			 EXTABLE_ENTRY(1b, 2b)
			 : "+r"(err) : "q"(v), "r"(dst) : "cc", "memory");
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
