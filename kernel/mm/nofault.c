/* Copies that survive a fault (see nofault.h), a byte at a time through
 * the architecture's fault-tolerant accesses (asm/nofault.h). */
#include "kernel/mm/nofault.h"
#include "kernel/nokprobe.h"
#include <asm/nofault.h>

/* notrace: the breakpoint path reads the text with it, and a call site
 * here, while its int3 is being patched in, would trap for ever. */
int notrace copy_from_kernel_nofault(void *dst, const void *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (arch_load_byte_nofault((uint8_t *)dst + i, (const uint8_t *)src + i))
			return -EFAULT;
	return 0;
}
NOKPROBE_SYMBOL(copy_from_kernel_nofault);

int copy_to_kernel_nofault(void *dst, const void *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (arch_store_byte_nofault((uint8_t *)dst + i, ((const uint8_t *)src)[i]))
			return -EFAULT;
	return 0;
}
NOKPROBE_SYMBOL(copy_to_kernel_nofault);

int notrace load_u64_nofault(uint64_t *out, const void *src)
{
	return arch_load_u64_nofault(out, src);
}
NOKPROBE_SYMBOL(load_u64_nofault);

long notrace strncpy_from_kernel_nofault(char *dst, const void *src, size_t size)
{
	const uint8_t *s = src;
	size_t i;

	for (i = 0; i + 1 < size; i++) {
		if (arch_load_byte_nofault((uint8_t *)&dst[i], &s[i]))
			return -EFAULT;
		if (dst[i] == '\0')
			return (long)i + 1;
	}
	dst[i] = '\0';
	return (long)i + 1;
}
NOKPROBE_SYMBOL(strncpy_from_kernel_nofault);
