/*
 * x86_64 module relocations: the RELA types GCC and GNU as emit for
 * module code built with -mcmodel=kernel -fno-pic (docs/modules.md).
 *
 * The formulas are the System V x86-64 psABI's: S is the symbol's
 * address, A the addend, P the address of the field. The loader hands us
 * value = S + A and place = P.
 *
 * There is no PLT and no GOT: modules are placed in the executable-memory
 * region, which asm/layout.h puts within 2 GiB of the kernel, so a call's
 * R_X86_64_PLT32 is resolved straight to the function, exactly like
 * R_X86_64_PC32.
 *
 * The field may lie at any byte offset (a 64-bit pointer in a packed
 * structure, say), so it is read and written with memcpy, never through
 * a wider pointer. x86_64 is little-endian, like the field.
 */
#include "kernel/module/arch_module.h"
#include "kernel/module/reloc_field.h"
#include "lib/elf.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Relocation types, with their values from the x86-64 psABI. */
#define R_X86_64_NONE	0	/* nothing */
#define R_X86_64_64	1	/* S + A, 64 bits */
#define R_X86_64_PC32	2	/* S + A - P, signed 32 bits */
#define R_X86_64_PLT32	4	/* L + A - P; here L = S */
#define R_X86_64_32	10	/* S + A, zero-extended 32 bits */
#define R_X86_64_32S	11	/* S + A, sign-extended 32 bits */
#define R_X86_64_16	12	/* S + A, 16 bits */
#define R_X86_64_PC16	13	/* S + A - P, 16 bits */
#define R_X86_64_8	14	/* S + A, 8 bits */
#define R_X86_64_PC8	15	/* S + A - P, 8 bits */
#define R_X86_64_PC64	24	/* S + A - P, 64 bits */

const uint16_t arch_module_machine = EM_X86_64;

size_t arch_module_reloc_width(uint32_t type)
{
	switch (type) {
	case R_X86_64_64:
	case R_X86_64_PC64:
		return 8;
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
	case R_X86_64_32:
	case R_X86_64_32S:
		return 4;
	case R_X86_64_16:
	case R_X86_64_PC16:
		return 2;
	case R_X86_64_8:
	case R_X86_64_PC8:
		return 1;
	}
	return 0;
}

int arch_module_relocate(uint32_t type, void *loc, uint64_t place, uint64_t value)
{
	uint64_t rel = value - place;	/* S + A - P, wrapping like the CPU */

	switch (type) {
	case R_X86_64_NONE:
		return 0;
	case R_X86_64_64:
		put_le(loc, value, 8);
		return 0;
	case R_X86_64_PC64:
		put_le(loc, rel, 8);
		return 0;
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		if (!fits_signed(rel, 32))
			return -ERANGE;
		put_le(loc, rel, 4);
		return 0;
	case R_X86_64_32:
		/* The CPU zero-extends the field: a kernel address, which
		 * has its top bits set, never fits. */
		if (!fits_unsigned(value, 32))
			return -ERANGE;
		put_le(loc, value, 4);
		return 0;
	case R_X86_64_32S:
		/* The CPU sign-extends the field: what -mcmodel=kernel
		 * relies on for addresses in the top 2 GiB. */
		if (!fits_signed(value, 32))
			return -ERANGE;
		put_le(loc, value, 4);
		return 0;
	case R_X86_64_16:
		/* The psABI leaves the sign open; accept either reading,
		 * as the GNU and LLVM linkers do. */
		if (!fits_either(value, 16))
			return -ERANGE;
		put_le(loc, value, 2);
		return 0;
	case R_X86_64_8:
		if (!fits_either(value, 8))
			return -ERANGE;
		put_le(loc, value, 1);
		return 0;
	case R_X86_64_PC16:
		if (!fits_signed(rel, 16))
			return -ERANGE;
		put_le(loc, rel, 2);
		return 0;
	case R_X86_64_PC8:
		if (!fits_signed(rel, 8))
			return -ERANGE;
		put_le(loc, rel, 1);
		return 0;
	}
	return -ENOEXEC;
}

const char *arch_module_reloc_name(uint32_t type)
{
	switch (type) {
	case R_X86_64_NONE:	return "R_X86_64_NONE";
	case R_X86_64_64:	return "R_X86_64_64";
	case R_X86_64_PC32:	return "R_X86_64_PC32";
	case R_X86_64_PLT32:	return "R_X86_64_PLT32";
	case R_X86_64_32:	return "R_X86_64_32";
	case R_X86_64_32S:	return "R_X86_64_32S";
	case R_X86_64_16:	return "R_X86_64_16";
	case R_X86_64_PC16:	return "R_X86_64_PC16";
	case R_X86_64_8:	return "R_X86_64_8";
	case R_X86_64_PC8:	return "R_X86_64_PC8";
	case R_X86_64_PC64:	return "R_X86_64_PC64";
	}
	return NULL;
}
