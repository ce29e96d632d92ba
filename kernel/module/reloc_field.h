/* Helpers both architectures' relocation code uses (arch/<arch>/
 * module_reloc.c): does a value fit a field, and writing a field of any
 * alignment. Plain lib/ C, so the host tests compile them too. */
#ifndef KERNEL_MODULE_RELOC_FIELD_H
#define KERNEL_MODULE_RELOC_FIELD_H

#include "lib/string.h"
#include "lib/types.h"

/* Whether x, taken as signed, fits in bits bits of two's complement. */
static inline bool fits_signed(uint64_t x, unsigned int bits)
{
	int64_t v = (int64_t)x;
	int64_t lim = (int64_t)1 << (bits - 1);

	return v >= -lim && v < lim;
}

/* Whether x fits in bits bits unsigned (bits < 64). */
static inline bool fits_unsigned(uint64_t x, unsigned int bits)
{
	return x < ((uint64_t)1 << bits);
}

/* A narrow data field that may be read either way (a 16- or 32-bit
 * value, by the psABIs): -2^(bits-1) <= x < 2^bits. */
static inline bool fits_either(uint64_t x, unsigned int bits)
{
	return fits_signed(x, bits) || fits_unsigned(x, bits);
}

/* Write the low size bytes of x at loc, least significant first; loc
 * may be unaligned. */
static inline void put_le(void *loc, uint64_t x, size_t size)
{
	uint8_t bytes[8];

	for (size_t i = 0; i < size; i++)
		bytes[i] = (uint8_t)(x >> (8 * i));
	memcpy(loc, bytes, size);
}

#endif
