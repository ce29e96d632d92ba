/* Counting the bits of a word (the kernel links no libgcc, whose
 * __popcountdi2 is what __builtin_popcountl calls without a POPCNT
 * instruction). */
#ifndef LIB_BITOPS_H
#define LIB_BITOPS_H

/* How many bits of x are set: each round clears the lowest one. */
static inline unsigned int bits_set(unsigned long x)
{
	unsigned int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

#endif
