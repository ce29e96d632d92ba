/*
 * aarch64 module relocations: the RELA types GCC and GNU as emit for
 * module code built with -mcmodel=small -fno-pic (docs/modules.md), and
 * the other static data and instruction types of "ELF for the Arm 64-bit
 * Architecture" (AAELF64) that need no GOT, PLT or TLS.
 *
 * In the formulas, S is the symbol's address, A the addend, P the
 * address of the field and Page(x) is x with its low 12 bits cleared.
 * The loader hands us value = S + A and place = P; X is the result the
 * type computes, which must fit the field or -ERANGE is returned with
 * nothing written.
 *
 * Instruction fields are patched by reading the 32-bit little-endian
 * instruction word, replacing the field and writing the word back: the
 * rest of the instruction (the register numbers, the condition, the bit
 * tested) was set by the assembler and must stay. Data fields may lie at
 * any byte offset, so all accesses go through memcpy.
 *
 * There are no veneers (branch islands): modules are placed in the
 * executable-memory region, which asm/layout.h puts at most 94 MiB from
 * any kernel text address, so a BL between the two always reaches; one
 * that does not is refused with -ERANGE.
 */
#include "kernel/module/arch_module.h"
#include "kernel/module/reloc_field.h"
#include "lib/elf.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Relocation types, with their values from AAELF64. */
#define R_AARCH64_NONE			0
#define R_AARCH64_NONE_OLD		256	/* the old number of NONE */
#define R_AARCH64_ABS64			257
#define R_AARCH64_ABS32			258
#define R_AARCH64_ABS16			259
#define R_AARCH64_PREL64		260
#define R_AARCH64_PREL32		261
#define R_AARCH64_PREL16		262
#define R_AARCH64_MOVW_UABS_G0		263
#define R_AARCH64_MOVW_UABS_G0_NC	264
#define R_AARCH64_MOVW_UABS_G1		265
#define R_AARCH64_MOVW_UABS_G1_NC	266
#define R_AARCH64_MOVW_UABS_G2		267
#define R_AARCH64_MOVW_UABS_G2_NC	268
#define R_AARCH64_MOVW_UABS_G3		269
#define R_AARCH64_MOVW_SABS_G0		270
#define R_AARCH64_MOVW_SABS_G1		271
#define R_AARCH64_MOVW_SABS_G2		272
#define R_AARCH64_LD_PREL_LO19		273
#define R_AARCH64_ADR_PREL_LO21		274
#define R_AARCH64_ADR_PREL_PG_HI21	275
#define R_AARCH64_ADR_PREL_PG_HI21_NC	276
#define R_AARCH64_ADD_ABS_LO12_NC	277
#define R_AARCH64_LDST8_ABS_LO12_NC	278
#define R_AARCH64_TSTBR14		279
#define R_AARCH64_CONDBR19		280
#define R_AARCH64_JUMP26		282
#define R_AARCH64_CALL26		283
#define R_AARCH64_LDST16_ABS_LO12_NC	284
#define R_AARCH64_LDST32_ABS_LO12_NC	285
#define R_AARCH64_LDST64_ABS_LO12_NC	286
#define R_AARCH64_MOVW_PREL_G0		287
#define R_AARCH64_MOVW_PREL_G0_NC	288
#define R_AARCH64_MOVW_PREL_G1		289
#define R_AARCH64_MOVW_PREL_G1_NC	290
#define R_AARCH64_MOVW_PREL_G2		291
#define R_AARCH64_MOVW_PREL_G2_NC	292
#define R_AARCH64_MOVW_PREL_G3		293
#define R_AARCH64_LDST128_ABS_LO12_NC	299
#define R_AARCH64_PLT32			314

const uint16_t arch_module_machine = EM_AARCH64;

/* Replace the bits of mask in the instruction word at loc with bits. */
static void patch_insn(void *loc, uint32_t mask, uint32_t bits)
{
	uint8_t b[4];
	uint32_t insn;

	memcpy(b, loc, 4);
	insn = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
	insn = (insn & ~mask) | (bits & mask);
	put_le(loc, insn, 4);
}

/* A PC-relative branch or literal load: x is the byte offset, which
 * must be a multiple of 4 and fit a signed field of bits bits counting
 * words, at bit lsb (B/BL: 26 at 0; B.cond, CBZ, LDR literal: 19 at 5;
 * TBZ: 14 at 5). */
static int reloc_branch(void *loc, uint64_t x, unsigned int bits, unsigned int lsb)
{
	uint32_t mask = (((uint32_t)1 << bits) - 1) << lsb;

	if ((x & 3) != 0 || !fits_signed(x, bits + 2))
		return -ERANGE;
	patch_insn(loc, mask, (uint32_t)(x >> 2) << lsb);
	return 0;
}

/* ADR and ADRP share a 21-bit immediate split in two: its low 2 bits
 * (immlo) at 30:29, the other 19 (immhi) at 23:5. */
static void put_adr_imm(void *loc, uint64_t imm)
{
	uint32_t lo = (uint32_t)imm & 3;
	uint32_t hi = (uint32_t)(imm >> 2) & 0x7ffff;

	patch_insn(loc, 0x3u << 29 | 0x7ffffu << 5, lo << 29 | hi << 5);
}

/* The 12-bit unsigned immediate of ADD and of LDR/STR (unsigned
 * offset), at 21:10, which a load or store scales by its access size
 * (1 << scale): the low 12 bits of x, which must be aligned to that
 * size, or the access would miss its target. */
static int reloc_lo12(void *loc, uint64_t x, unsigned int scale)
{
	uint64_t lo = x & 0xfff;

	if ((lo & (((uint64_t)1 << scale) - 1)) != 0)
		return -ERANGE;
	patch_insn(loc, 0xfffu << 10, (uint32_t)(lo >> scale) << 10);
	return 0;
}

/* MOVZ/MOVK with 16 bits of an unsigned x: group g selects bits
 * [16g+15:16g]. A checked group requires x < 2^(16g+16): the bits above
 * would be lost. The instruction keeps its own opcode. */
static int reloc_movw_unsigned(void *loc, uint64_t x, unsigned int g, bool check)
{
	if (check && !fits_unsigned(x, 16 * g + 16))
		return -ERANGE;
	patch_insn(loc, 0xffffu << 5, (uint32_t)((x >> (16 * g)) & 0xffff) << 5);
	return 0;
}

/* MOVN/MOVZ with a signed x: MOVZ of x's group if x >= 0, else MOVN of
 * the group of ~x, which the CPU inverts back. The opcode (opc, 30:29)
 * is set accordingly. A checked group requires
 * -2^(16g+16) <= x < 2^(16g+16). */
static int reloc_movw_signed(void *loc, uint64_t x, unsigned int g, bool check)
{
	bool negative = (int64_t)x < 0;
	uint64_t imm = negative ? ~x : x;
	uint32_t opc = negative ? 0 : 2;	/* MOVN 00, MOVZ 10 */

	if (check && !fits_signed(x, 16 * g + 17))
		return -ERANGE;
	patch_insn(loc, 0x3u << 29 | 0xffffu << 5,
		   opc << 29 | (uint32_t)((imm >> (16 * g)) & 0xffff) << 5);
	return 0;
}

/* MOVK with 16 bits of x, unchecked (the _NC groups of a PC-relative
 * value, which the MOVN/MOVZ of a higher group sign-extends). */
static int reloc_movw_nc(void *loc, uint64_t x, unsigned int g)
{
	return reloc_movw_unsigned(loc, x, g, false);
}

/* The data relocations: a size-byte field, checked as AAELF64 says
 * when narrower than 64 bits. */
static int reloc_data(void *loc, uint64_t x, size_t size)
{
	if (size < 8 && !fits_either(x, 8 * size))
		return -ERANGE;
	put_le(loc, x, size);
	return 0;
}

size_t arch_module_reloc_width(uint32_t type)
{
	switch (type) {
	case R_AARCH64_NONE:
	case R_AARCH64_NONE_OLD:
		return 0;
	case R_AARCH64_ABS64:
	case R_AARCH64_PREL64:
		return 8;
	case R_AARCH64_ABS16:
	case R_AARCH64_PREL16:
		return 2;
	}
	/* The 32-bit data types, and every instruction: one word. */
	return arch_module_reloc_name(type) ? 4 : 0;
}

int arch_module_relocate(uint32_t type, void *loc, uint64_t place, uint64_t value)
{
	uint64_t rel = value - place;	/* S + A - P */
	uint64_t page_rel = (value & ~0xfffULL) - (place & ~0xfffULL);

	switch (type) {
	case R_AARCH64_NONE:
	case R_AARCH64_NONE_OLD:
		return 0;

	case R_AARCH64_ABS64:	return reloc_data(loc, value, 8);
	case R_AARCH64_ABS32:	return reloc_data(loc, value, 4);
	case R_AARCH64_ABS16:	return reloc_data(loc, value, 2);
	case R_AARCH64_PREL64:	return reloc_data(loc, rel, 8);
	case R_AARCH64_PREL32:	return reloc_data(loc, rel, 4);
	case R_AARCH64_PREL16:	return reloc_data(loc, rel, 2);
	case R_AARCH64_PLT32:
		/* A 32-bit offset to a function; strictly signed. */
		if (!fits_signed(rel, 32))
			return -ERANGE;
		put_le(loc, rel, 4);
		return 0;

	case R_AARCH64_CALL26:
	case R_AARCH64_JUMP26:
		return reloc_branch(loc, rel, 26, 0);
	case R_AARCH64_CONDBR19:
	case R_AARCH64_LD_PREL_LO19:
		return reloc_branch(loc, rel, 19, 5);
	case R_AARCH64_TSTBR14:
		return reloc_branch(loc, rel, 14, 5);

	case R_AARCH64_ADR_PREL_LO21:
		if (!fits_signed(rel, 21))
			return -ERANGE;
		put_adr_imm(loc, rel);
		return 0;
	case R_AARCH64_ADR_PREL_PG_HI21:
		/* ADRP reaches 4 GiB either way, in pages. */
		if (!fits_signed(page_rel, 33))
			return -ERANGE;
		put_adr_imm(loc, page_rel >> 12);
		return 0;
	case R_AARCH64_ADR_PREL_PG_HI21_NC:
		put_adr_imm(loc, page_rel >> 12);
		return 0;

	case R_AARCH64_ADD_ABS_LO12_NC:
	case R_AARCH64_LDST8_ABS_LO12_NC:	return reloc_lo12(loc, value, 0);
	case R_AARCH64_LDST16_ABS_LO12_NC:	return reloc_lo12(loc, value, 1);
	case R_AARCH64_LDST32_ABS_LO12_NC:	return reloc_lo12(loc, value, 2);
	case R_AARCH64_LDST64_ABS_LO12_NC:	return reloc_lo12(loc, value, 3);
	case R_AARCH64_LDST128_ABS_LO12_NC:	return reloc_lo12(loc, value, 4);

	case R_AARCH64_MOVW_UABS_G0:	return reloc_movw_unsigned(loc, value, 0, true);
	case R_AARCH64_MOVW_UABS_G0_NC:	return reloc_movw_unsigned(loc, value, 0, false);
	case R_AARCH64_MOVW_UABS_G1:	return reloc_movw_unsigned(loc, value, 1, true);
	case R_AARCH64_MOVW_UABS_G1_NC:	return reloc_movw_unsigned(loc, value, 1, false);
	case R_AARCH64_MOVW_UABS_G2:	return reloc_movw_unsigned(loc, value, 2, true);
	case R_AARCH64_MOVW_UABS_G2_NC:	return reloc_movw_unsigned(loc, value, 2, false);
	case R_AARCH64_MOVW_UABS_G3:	return reloc_movw_unsigned(loc, value, 3, false);
	case R_AARCH64_MOVW_SABS_G0:	return reloc_movw_signed(loc, value, 0, true);
	case R_AARCH64_MOVW_SABS_G1:	return reloc_movw_signed(loc, value, 1, true);
	case R_AARCH64_MOVW_SABS_G2:	return reloc_movw_signed(loc, value, 2, true);
	case R_AARCH64_MOVW_PREL_G0:	return reloc_movw_signed(loc, rel, 0, true);
	case R_AARCH64_MOVW_PREL_G0_NC:	return reloc_movw_nc(loc, rel, 0);
	case R_AARCH64_MOVW_PREL_G1:	return reloc_movw_signed(loc, rel, 1, true);
	case R_AARCH64_MOVW_PREL_G1_NC:	return reloc_movw_nc(loc, rel, 1);
	case R_AARCH64_MOVW_PREL_G2:	return reloc_movw_signed(loc, rel, 2, true);
	case R_AARCH64_MOVW_PREL_G2_NC:	return reloc_movw_nc(loc, rel, 2);
	case R_AARCH64_MOVW_PREL_G3:	return reloc_movw_signed(loc, rel, 3, false);
	}
	return -ENOEXEC;
}

#define NAME(type) { type, #type }

static const struct {
	uint32_t type;
	const char *name;
} names[] = {
	NAME(R_AARCH64_NONE),
	{ R_AARCH64_NONE_OLD, "R_AARCH64_NONE" },
	NAME(R_AARCH64_ABS64),
	NAME(R_AARCH64_ABS32),
	NAME(R_AARCH64_ABS16),
	NAME(R_AARCH64_PREL64),
	NAME(R_AARCH64_PREL32),
	NAME(R_AARCH64_PREL16),
	NAME(R_AARCH64_PLT32),
	NAME(R_AARCH64_CALL26),
	NAME(R_AARCH64_JUMP26),
	NAME(R_AARCH64_CONDBR19),
	NAME(R_AARCH64_LD_PREL_LO19),
	NAME(R_AARCH64_TSTBR14),
	NAME(R_AARCH64_ADR_PREL_LO21),
	NAME(R_AARCH64_ADR_PREL_PG_HI21),
	NAME(R_AARCH64_ADR_PREL_PG_HI21_NC),
	NAME(R_AARCH64_ADD_ABS_LO12_NC),
	NAME(R_AARCH64_LDST8_ABS_LO12_NC),
	NAME(R_AARCH64_LDST16_ABS_LO12_NC),
	NAME(R_AARCH64_LDST32_ABS_LO12_NC),
	NAME(R_AARCH64_LDST64_ABS_LO12_NC),
	NAME(R_AARCH64_LDST128_ABS_LO12_NC),
	NAME(R_AARCH64_MOVW_UABS_G0),
	NAME(R_AARCH64_MOVW_UABS_G0_NC),
	NAME(R_AARCH64_MOVW_UABS_G1),
	NAME(R_AARCH64_MOVW_UABS_G1_NC),
	NAME(R_AARCH64_MOVW_UABS_G2),
	NAME(R_AARCH64_MOVW_UABS_G2_NC),
	NAME(R_AARCH64_MOVW_UABS_G3),
	NAME(R_AARCH64_MOVW_SABS_G0),
	NAME(R_AARCH64_MOVW_SABS_G1),
	NAME(R_AARCH64_MOVW_SABS_G2),
	NAME(R_AARCH64_MOVW_PREL_G0),
	NAME(R_AARCH64_MOVW_PREL_G0_NC),
	NAME(R_AARCH64_MOVW_PREL_G1),
	NAME(R_AARCH64_MOVW_PREL_G1_NC),
	NAME(R_AARCH64_MOVW_PREL_G2),
	NAME(R_AARCH64_MOVW_PREL_G2_NC),
	NAME(R_AARCH64_MOVW_PREL_G3),
};

const char *arch_module_reloc_name(uint32_t type)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].type == type)
			return names[i].name;
	return NULL;
}
