/*
 * Host tests for arch/aarch64/module_reloc.c: every relocation type on
 * real instruction words, with hand-computed results (the encodings of
 * the expected words were checked with aarch64-linux-gnu-as/objdump),
 * then decoded back here to check that the instruction now reaches the
 * target. The limits of each field: the last value that fits is
 * written, the first that does not is refused with -ERANGE and the word
 * left as it was. Unknown types are refused with -ENOEXEC.
 *
 * Addresses are those of a module (0xffffffff82000000 up) using kernel
 * text (0xffffffff80200000 up), as on the real machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/module/arch_module.h"
#include "lib/elf.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MOD   0xffffffff82000000ULL	/* module text */
#define KTEXT 0xffffffff80200000ULL	/* kernel text */
#define P     (MOD + 0x10)		/* the usual place */

/* Type numbers from AAELF64, written again here so that a wrong number
 * in module_reloc.c is caught. */
enum {
	NONE = 0, NONE_OLD = 256,
	ABS64 = 257, ABS32 = 258, ABS16 = 259,
	PREL64 = 260, PREL32 = 261, PREL16 = 262,
	MOVW_UABS_G0 = 263, MOVW_UABS_G0_NC = 264, MOVW_UABS_G1 = 265,
	MOVW_UABS_G1_NC = 266, MOVW_UABS_G2 = 267, MOVW_UABS_G2_NC = 268,
	MOVW_UABS_G3 = 269,
	MOVW_SABS_G0 = 270, MOVW_SABS_G1 = 271, MOVW_SABS_G2 = 272,
	LD_PREL_LO19 = 273, ADR_PREL_LO21 = 274,
	ADR_PREL_PG_HI21 = 275, ADR_PREL_PG_HI21_NC = 276,
	ADD_ABS_LO12_NC = 277, LDST8_ABS_LO12_NC = 278,
	TSTBR14 = 279, CONDBR19 = 280, JUMP26 = 282, CALL26 = 283,
	LDST16_ABS_LO12_NC = 284, LDST32_ABS_LO12_NC = 285,
	LDST64_ABS_LO12_NC = 286,
	MOVW_PREL_G0 = 287, MOVW_PREL_G0_NC = 288, MOVW_PREL_G1 = 289,
	MOVW_PREL_G1_NC = 290, MOVW_PREL_G2 = 291, MOVW_PREL_G2_NC = 292,
	MOVW_PREL_G3 = 293,
	LDST128_ABS_LO12_NC = 299, PLT32 = 314,
};

/* Instructions with a zero immediate, as the assembler leaves them for
 * the relocation to fill in. */
#define BL	0x94000000	/* bl . */
#define B	0x14000000	/* b . */
#define B_NE	0x54000001	/* b.ne . */
#define LDR_LIT	0x58000000	/* ldr x0, . */
#define TBZ	0x36180000	/* tbz w0, #3, . */
#define ADR	0x10000000	/* adr x0, . */
#define ADRP	0x90000000	/* adrp x0, . */
#define ADD	0x91000000	/* add x0, x0, #0 */
#define LDRB	0x39400001	/* ldrb w1, [x0] */
#define LDRH	0x79400001	/* ldrh w1, [x0] */
#define LDRW	0xb9400001	/* ldr w1, [x0] */
#define LDRX	0xf9400001	/* ldr x1, [x0] */
#define LDRQ	0x3dc00000	/* ldr q0, [x0] */
#define MOVZ0	0xd2800000	/* movz x0, #0 */
#define MOVZ16	0xd2a00000	/* movz x0, #0, lsl #16 */
#define MOVZ32	0xd2c00000	/* movz x0, #0, lsl #32 */
#define MOVZ48	0xd2e00000	/* movz x0, #0, lsl #48 */
#define MOVN0	0x92800000	/* movn x0, #0 */
#define MOVK0	0xf2800000	/* movk x0, #0 */
#define MOVK16	0xf2a00000	/* movk x0, #0, lsl #16 */
#define MOVK32	0xf2c00000	/* movk x0, #0, lsl #32 */
#define MOVK48	0xf2e00000	/* movk x0, #0, lsl #48 */

#define CANARY 0xcc

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t x)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(x >> (8 * i));
}

static int64_t sext(uint64_t x, unsigned int bits)
{
	return (int64_t)(x << (64 - bits)) >> (64 - bits);
}

/* ---- Instructions ---- */

struct insn_case {
	uint32_t type;
	uint32_t insn;		/* before */
	uint64_t place;
	uint64_t value;		/* S + A */
	int err;
	uint32_t want;		/* after, if err is 0 */
};

#define OK(type, insn, place, value, want) { type, insn, place, value, 0, want }
#define TOO_FAR(type, insn, place, value) { type, insn, place, value, -ERANGE, insn }

/* Where the instruction now points, decoded from its fields, for the
 * types that encode an address; 1 (never an instruction's target) if
 * the type encodes something else. */
static uint64_t decoded_target(uint32_t type, uint32_t insn, uint64_t place)
{
	uint64_t adr = (insn >> 29 & 3) | (uint64_t)(insn >> 5 & 0x7ffff) << 2;

	switch (type) {
	case CALL26:
	case JUMP26:
		return place + sext(insn & 0x3ffffff, 26) * 4;
	case CONDBR19:
	case LD_PREL_LO19:
		return place + sext(insn >> 5 & 0x7ffff, 19) * 4;
	case TSTBR14:
		return place + sext(insn >> 5 & 0x3fff, 14) * 4;
	case ADR_PREL_LO21:
		return place + sext(adr, 21);
	case ADR_PREL_PG_HI21:
		return (place & ~0xfffULL) + sext(adr, 21) * 4096;
	}
	return 1;
}

static void run_insn(const struct insn_case *c, size_t i)
{
	uint8_t buf[12];
	uint32_t got;
	uint64_t target;
	int err;

	memset(buf, CANARY, sizeof(buf));
	put32(buf + 4, c->insn);
	err = arch_module_relocate(c->type, buf + 4, c->place, c->value);
	got = get32(buf + 4);
	if (err != c->err || got != (c->err ? c->insn : c->want))
		fail_msg("case %zu (%s, value 0x%llx, place 0x%llx): returned %d word %08x, want %d %08x",
			 i, arch_module_reloc_name(c->type), (unsigned long long)c->value,
			 (unsigned long long)c->place, err, got, c->err,
			 c->err ? c->insn : c->want);
	for (size_t b = 0; b < sizeof(buf); b++)
		if ((b < 4 || b >= 8) && buf[b] != CANARY)
			fail_msg("case %zu: byte %zu outside the instruction changed", i, b);
	/* Decoding the word back must give the target (its page for ADRP). */
	target = decoded_target(c->type, got, c->place);
	if (c->err == 0 && target != 1) {
		uint64_t want = c->type == ADR_PREL_PG_HI21 ? c->value & ~0xfffULL : c->value;

		if (target != want)
			fail_msg("case %zu: decodes to 0x%llx, want 0x%llx", i,
				 (unsigned long long)target, (unsigned long long)want);
	}
}

static void run_insns(const struct insn_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_insn(&c[i], i);
}

/* B and BL: imm26 in words, 128 MiB either way. The first case is
 * `bl printk` at MOD + 0x10 with printk at KTEXT + 0x100: the offset is
 * 0xffffffff80200100 - 0xffffffff82000010 = -0x1dfff10 bytes,
 * -0x77ffc4 words, imm26 = 0x388003c. */
static void test_branch26(void **state)
{
	static const struct insn_case c[] = {
		OK(CALL26, BL, P, KTEXT + 0x100, 0x9788003c),
		OK(CALL26, BL, P, P + 0x7fffffc, 0x95ffffff),
		TOO_FAR(CALL26, BL, P, P + 0x8000000),
		OK(CALL26, BL, P, P - 0x8000000, 0x96000000),
		TOO_FAR(CALL26, BL, P, P - 0x8000004),
		TOO_FAR(CALL26, BL, P, P + 2),	/* not an instruction */
		OK(JUMP26, B, P, P + 0x7fffffc, 0x15ffffff),
		TOO_FAR(JUMP26, B, P, P + 0x8000000),
		OK(JUMP26, B, P, P - 0x8000000, 0x16000000),
		TOO_FAR(JUMP26, B, P, P - 0x8000004),
		OK(JUMP26, B, P, P, B),
		/* A module placed too far from the kernel. */
		TOO_FAR(CALL26, BL, 0xffff000000000000ULL, KTEXT),
		/* A BL whose immediate was not zero: all 26 bits replaced. */
		OK(CALL26, 0x97ffffff, P, P + 4, 0x94000001),
	};

	(void)state;
	run_insns(c, ARRAY_SIZE(c));
}

/* B.cond, CBZ, LDR (literal): imm19 at 23:5, 1 MiB either way.
 * TBZ: imm14 at 18:5, 32 KiB either way. The condition, the register
 * and the bit number stay. */
static void test_branch19_14(void **state)
{
	static const struct insn_case c[] = {
		OK(CONDBR19, B_NE, P, P + 0xffffc, 0x547fffe1),
		TOO_FAR(CONDBR19, B_NE, P, P + 0x100000),
		OK(CONDBR19, B_NE, P, P - 0x100000, 0x54800001),
		TOO_FAR(CONDBR19, B_NE, P, P - 0x100004),
		TOO_FAR(CONDBR19, B_NE, P, P + 6),
		OK(CONDBR19, 0xb4000001, P, P + 8, 0xb4000041),	/* cbz x1 */
		OK(LD_PREL_LO19, LDR_LIT, P, P + 0xffffc, 0x587fffe0),
		TOO_FAR(LD_PREL_LO19, LDR_LIT, P, P + 0x100000),
		OK(LD_PREL_LO19, LDR_LIT, P, P - 0x100000, 0x58800000),
		TOO_FAR(LD_PREL_LO19, LDR_LIT, P, P - 0x100004),
		OK(TSTBR14, TBZ, P, P + 0x7ffc, 0x361bffe0),
		TOO_FAR(TSTBR14, TBZ, P, P + 0x8000),
		OK(TSTBR14, TBZ, P, P - 0x8000, 0x361c0000),
		TOO_FAR(TSTBR14, TBZ, P, P - 0x8004),
		OK(TSTBR14, 0xb7400060, P, P + 12, 0xb7400060),	/* tbnz x0, #40, .+12 */
	};

	(void)state;
	run_insns(c, ARRAY_SIZE(c));
}

/* ADR: a 21-bit byte offset split in immlo (30:29) and immhi (23:5).
 * ADRP: the same field holds the offset in 4 KiB pages between the
 * place's page and the target's, reaching 4 GiB either way. */
static void test_adr(void **state)
{
	static const struct insn_case c[] = {
		OK(ADR_PREL_LO21, ADR, P, P + 0xfffff, 0x707fffe0),
		TOO_FAR(ADR_PREL_LO21, ADR, P, P + 0x100000),
		OK(ADR_PREL_LO21, ADR, P, P - 0x100000, 0x10800000),
		TOO_FAR(ADR_PREL_LO21, ADR, P, P - 0x100001),
		OK(ADR_PREL_LO21, ADR, P, P + 5, 0x30000020),	/* immlo 1, immhi 1 */

		/* A string in the module's rodata, 3 pages on. */
		OK(ADR_PREL_PG_HI21, ADRP, P, MOD + 0x3123, 0xf0000000),
		/* Kernel data: page offset -0x1cdd, imm 0x1fe323. */
		OK(ADR_PREL_PG_HI21, ADRP, P, KTEXT + 0x123456, 0xf0ff1900),
		/* The limits, whatever the offsets within the pages. */
		OK(ADR_PREL_PG_HI21, ADRP, P, MOD + 0xffffffffULL, 0xf07fffe0),
		TOO_FAR(ADR_PREL_PG_HI21, ADRP, P, MOD + 0x100000000ULL),
		OK(ADR_PREL_PG_HI21, ADRP, P + 0xfe0, MOD - 0x100000000ULL, 0x90800000),
		TOO_FAR(ADR_PREL_PG_HI21, ADRP, P, MOD - 0x100000001ULL),
		/* The _NC form keeps the low 21 bits of the page offset. */
		OK(ADR_PREL_PG_HI21_NC, ADRP, P, MOD + 0x100000000ULL, 0x90800000),
		OK(ADR_PREL_PG_HI21_NC, ADRP, P, MOD + 0x3123, 0xf0000000),
		/* adrp x5: the register stays. */
		OK(ADR_PREL_PG_HI21, 0x90000005, P, MOD + 0x1000, 0xb0000005),
	};

	(void)state;
	run_insns(c, ARRAY_SIZE(c));
}

/* ADD and LDR/STR (unsigned offset): the low 12 bits of S + A at 21:10,
 * scaled down by the access size; an unaligned target is refused. */
static void test_lo12(void **state)
{
	static const struct insn_case c[] = {
		OK(ADD_ABS_LO12_NC, ADD, P, MOD + 0x3abc, 0x912af000),
		OK(ADD_ABS_LO12_NC, ADD, P, KTEXT + 0x123fff, 0x913ffc00),
		OK(ADD_ABS_LO12_NC, 0x912af000, P, MOD + 0x1000, ADD),
		OK(LDST8_ABS_LO12_NC, LDRB, P, MOD + 0x3abc, 0x396af001),
		OK(LDST16_ABS_LO12_NC, LDRH, P, MOD + 0x3abc, 0x79557801),
		TOO_FAR(LDST16_ABS_LO12_NC, LDRH, P, MOD + 0x3abd),
		OK(LDST32_ABS_LO12_NC, LDRW, P, MOD + 0x3abc, 0xb94abc01),
		TOO_FAR(LDST32_ABS_LO12_NC, LDRW, P, MOD + 0x3abe),
		OK(LDST64_ABS_LO12_NC, LDRX, P, MOD + 0x3ab8, 0xf9455c01),
		OK(LDST64_ABS_LO12_NC, LDRX, P, MOD + 0x3ff8, 0xf947fc01),
		TOO_FAR(LDST64_ABS_LO12_NC, LDRX, P, MOD + 0x3abc),
		OK(LDST128_ABS_LO12_NC, LDRQ, P, MOD + 0x3ab0, 0x3dc2ac00),
		TOO_FAR(LDST128_ABS_LO12_NC, LDRQ, P, MOD + 0x3ab8),
	};

	(void)state;
	run_insns(c, ARRAY_SIZE(c));
}

/* MOVZ/MOVK with an absolute value, 16 bits (imm16 at 20:5) per group.
 * The checked groups refuse a value with bits above their own. */
static void test_movw_uabs(void **state)
{
	static const struct insn_case c[] = {
		OK(MOVW_UABS_G0, MOVZ0, P, 0x1234, 0xd2824680),
		OK(MOVW_UABS_G0, MOVZ0, P, 0xffff, 0xd29fffe0),
		TOO_FAR(MOVW_UABS_G0, MOVZ0, P, 0x10000),
		OK(MOVW_UABS_G0_NC, MOVK0, P, KTEXT + 0x1234, 0xf2824680),
		OK(MOVW_UABS_G1, MOVZ16, P, 0x12345678, 0xd2a24680),
		OK(MOVW_UABS_G1, MOVZ16, P, 0xffffffff, 0xd2bfffe0),
		TOO_FAR(MOVW_UABS_G1, MOVZ16, P, 0x100000000ULL),
		OK(MOVW_UABS_G1_NC, MOVK16, P, KTEXT + 0x1234, 0xf2b00400),
		OK(MOVW_UABS_G2, MOVZ32, P, 0x123400000000ULL, 0xd2c24680),
		OK(MOVW_UABS_G2, MOVZ32, P, 0xffffffffffffULL, 0xd2dfffe0),
		TOO_FAR(MOVW_UABS_G2, MOVZ32, P, 0x1000000000000ULL),
		OK(MOVW_UABS_G2_NC, MOVK32, P, KTEXT, 0xf2dfffe0),
		OK(MOVW_UABS_G3, MOVK48, P, 0x1234000000000000ULL, 0xf2e24680),
		OK(MOVW_UABS_G3, MOVZ48, P, KTEXT, 0xd2ffffe0),
	};

	(void)state;
	run_insns(c, ARRAY_SIZE(c));
}

/* MOVN/MOVZ with a signed value (absolute, or PC-relative for PREL):
 * MOVZ of the group if the value is >= 0, MOVN of the inverted group
 * if it is negative, whatever the instruction was. */
static void test_movw_signed(void **state)
{
	static const struct insn_case c[] = {
		OK(MOVW_SABS_G0, MOVZ0, P, (uint64_t)-1, MOVN0),
		OK(MOVW_SABS_G0, MOVZ0, P, (uint64_t)-0x10000, 0x929fffe0),
		TOO_FAR(MOVW_SABS_G0, MOVZ0, P, (uint64_t)-0x10001),
		OK(MOVW_SABS_G0, MOVN0, P, 0xffff, 0xd29fffe0),
		TOO_FAR(MOVW_SABS_G0, MOVZ0, P, 0x10000),
		OK(MOVW_SABS_G1, MOVZ16, P, (uint64_t)-0x10000, 0x92a00000),
		OK(MOVW_SABS_G1, MOVZ16, P, (uint64_t)-0x100000000LL, 0x92bfffe0),
		TOO_FAR(MOVW_SABS_G1, MOVZ16, P, (uint64_t)-0x100000001LL),
		OK(MOVW_SABS_G1, MOVZ16, P, 0xffffffff, 0xd2bfffe0),
		TOO_FAR(MOVW_SABS_G1, MOVZ16, P, 0x100000000ULL),
		OK(MOVW_SABS_G2, MOVZ32, P, 0xffffffffffffULL, 0xd2dfffe0),
		TOO_FAR(MOVW_SABS_G2, MOVZ32, P, 0x1000000000000ULL),
		OK(MOVW_SABS_G2, MOVZ32, P, (uint64_t)-0x1000000000000LL, 0x92dfffe0),
		TOO_FAR(MOVW_SABS_G2, MOVZ32, P, (uint64_t)-0x1000000000001LL),

		OK(MOVW_PREL_G0, MOVZ0, P, P - 1, MOVN0),
		OK(MOVW_PREL_G0, MOVZ0, P, P + 0xffff, 0xd29fffe0),
		TOO_FAR(MOVW_PREL_G0, MOVZ0, P, P + 0x10000),
		TOO_FAR(MOVW_PREL_G0, MOVZ0, P, P - 0x10001),
		OK(MOVW_PREL_G0_NC, MOVK0, P, P - 1, 0xf29fffe0),
		OK(MOVW_PREL_G1, MOVZ16, P, P + 0x12345678, 0xd2a24680),
		TOO_FAR(MOVW_PREL_G1, MOVZ16, P, P + 0x100000000ULL),
		OK(MOVW_PREL_G1, MOVZ16, P, P - 0x100000000ULL, 0x92bfffe0),
		OK(MOVW_PREL_G1_NC, MOVK16, P, P + 0x12345678, 0xf2a24680),
		OK(MOVW_PREL_G2, MOVZ32, P, P - 0x1000000000000ULL, 0x92dfffe0),
		TOO_FAR(MOVW_PREL_G2, MOVZ32, P, P + 0x1000000000000ULL),
		OK(MOVW_PREL_G2_NC, MOVK32, P, P + 0x123400000000ULL, 0xf2c24680),
		OK(MOVW_PREL_G3, MOVZ48, P, P - 0x2000000000000ULL, 0x92e00020),
		OK(MOVW_PREL_G3, MOVZ48, P, P + 0x1234000000000000ULL, 0xd2e24680),
	};

	(void)state;
	run_insns(c, ARRAY_SIZE(c));
}

/* The large code model's address load, movz g3 then movk g2, g1, g0:
 * the four immediates put together give back the address. */
static void test_movw_sequence(void **state)
{
	static const struct {
		uint32_t type, insn;
	} seq[] = {
		{ MOVW_UABS_G3, MOVZ48 }, { MOVW_UABS_G2_NC, MOVK32 },
		{ MOVW_UABS_G1_NC, MOVK16 }, { MOVW_UABS_G0_NC, MOVK0 },
	};
	uint64_t value = KTEXT + 0x12345, got = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(seq); i++) {
		uint8_t word[4];
		uint32_t insn;

		put32(word, seq[i].insn);
		assert_int_equal(arch_module_relocate(seq[i].type, word, P + 4 * i, value), 0);
		insn = get32(word);
		assert_int_equal(insn & ~(0xffffu << 5), seq[i].insn);
		got |= (uint64_t)(insn >> 5 & 0xffff) << (16 * (3 - i));
	}
	assert_int_equal(got, value);
}

/* ---- Data ---- */

struct data_case {
	uint32_t type;
	uint64_t place;
	uint64_t value;
	int err;
	uint8_t want[8];
	size_t width;
};

#define DATA(type, place, value, width, ...) \
	{ type, place, value, 0, { __VA_ARGS__ }, width }
#define DATA_TOO_FAR(type, place, value) { type, place, value, -ERANGE, { 0 }, 0 }

/* Fields at an odd offset: data relocations need no alignment. */
static void run_data(const struct data_case *c, size_t i)
{
	uint8_t buf[24];
	int err;

	memset(buf, CANARY, sizeof(buf));
	err = arch_module_relocate(c->type, buf + 5, c->place, c->value);
	if (err != c->err)
		fail_msg("case %zu (%s, value 0x%llx): returned %d, want %d", i,
			 arch_module_reloc_name(c->type), (unsigned long long)c->value,
			 err, c->err);
	for (size_t b = 0; b < sizeof(buf); b++) {
		bool in_field = c->err == 0 && b >= 5 && b < 5 + c->width;
		uint8_t want = in_field ? c->want[b - 5] : CANARY;

		if (buf[b] != want)
			fail_msg("case %zu (%s): byte %zu is 0x%02x, want 0x%02x", i,
				 arch_module_reloc_name(c->type), b, buf[b], want);
	}
}

/* ABS and PREL of 64, 32 and 16 bits; the narrow ones accept a value
 * read as either signed or unsigned (-2^(n-1) <= X < 2^n). PLT32 is
 * strictly signed. */
static void test_data(void **state)
{
	static const struct data_case c[] = {
		DATA(ABS64, MOD, KTEXT + 0x100, 8, 0x00, 0x01, 0x20, 0x80, 0xff, 0xff, 0xff, 0xff),
		DATA(ABS32, MOD, 0xffffffff, 4, 0xff, 0xff, 0xff, 0xff),
		DATA_TOO_FAR(ABS32, MOD, 0x100000000ULL),
		DATA(ABS32, MOD, KTEXT + 0x100, 4, 0x00, 0x01, 0x20, 0x80),
		DATA(ABS32, MOD, 0xffffffff80000000ULL, 4, 0x00, 0x00, 0x00, 0x80),
		DATA_TOO_FAR(ABS32, MOD, 0xffffffff7fffffffULL),
		DATA(ABS16, MOD, 0xffff, 2, 0xff, 0xff),
		DATA_TOO_FAR(ABS16, MOD, 0x10000),
		DATA(ABS16, MOD, (uint64_t)-0x8000, 2, 0x00, 0x80),
		DATA_TOO_FAR(ABS16, MOD, (uint64_t)-0x8001),
		/* KTEXT - (MOD + 0x100) = -0x1e00100 */
		DATA(PREL64, MOD + 0x100, KTEXT, 8, 0x00, 0xff, 0x1f, 0xfe, 0xff, 0xff, 0xff, 0xff),
		DATA(PREL32, MOD + 0x100, KTEXT, 4, 0x00, 0xff, 0x1f, 0xfe),
		DATA(PREL32, MOD, MOD + 0xffffffffULL, 4, 0xff, 0xff, 0xff, 0xff),
		DATA_TOO_FAR(PREL32, MOD, MOD + 0x100000000ULL),
		DATA(PREL32, MOD, MOD - 0x80000000ULL, 4, 0x00, 0x00, 0x00, 0x80),
		DATA_TOO_FAR(PREL32, MOD, MOD - 0x80000001ULL),
		DATA(PREL16, MOD, MOD + 0xffff, 2, 0xff, 0xff),
		DATA_TOO_FAR(PREL16, MOD, MOD + 0x10000),
		DATA(PREL16, MOD, MOD - 0x8000, 2, 0x00, 0x80),
		DATA_TOO_FAR(PREL16, MOD, MOD - 0x8001),
		DATA(PLT32, MOD, MOD + 0x7fffffff, 4, 0xff, 0xff, 0xff, 0x7f),
		DATA_TOO_FAR(PLT32, MOD, MOD + 0x80000000ULL),
		DATA(PLT32, MOD, MOD - 0x80000000ULL, 4, 0x00, 0x00, 0x00, 0x80),
		DATA_TOO_FAR(PLT32, MOD, MOD - 0x80000001ULL),
		DATA(NONE, MOD, KTEXT, 0),
		DATA(NONE_OLD, MOD, KTEXT, 0),
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(c); i++)
		run_data(&c[i], i);
}

/* GOT, TLS, dynamic types and numbers that are no type: refused,
 * nothing written. */
static void test_unknown(void **state)
{
	static const uint32_t types[] = {
		1 /* P32_ABS32 (ILP32) */, 255, 281 /* unassigned */,
		311 /* ADR_GOT_PAGE */, 312 /* LD64_GOT_LO12_NC */,
		512 /* TLSGD_ADR_PREL21 */, 1024 /* COPY */, 1027 /* RELATIVE */,
		0xffffffff,
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		struct data_case c = { types[i], MOD, MOD, -ENOEXEC, { 0 }, 0 };

		run_data(&c, i);
		assert_null(arch_module_reloc_name(types[i]));
	}
}

/* Each type the loader knows has its AAELF64 name, and only those. */
static void test_names(void **state)
{
	size_t known = 0;

	(void)state;
	assert_int_equal(arch_module_machine, EM_AARCH64);
	assert_string_equal(arch_module_reloc_name(CALL26), "R_AARCH64_CALL26");
	assert_string_equal(arch_module_reloc_name(ADR_PREL_PG_HI21), "R_AARCH64_ADR_PREL_PG_HI21");
	assert_string_equal(arch_module_reloc_name(LDST128_ABS_LO12_NC),
			    "R_AARCH64_LDST128_ABS_LO12_NC");
	assert_string_equal(arch_module_reloc_name(MOVW_PREL_G3), "R_AARCH64_MOVW_PREL_G3");
	assert_string_equal(arch_module_reloc_name(PLT32), "R_AARCH64_PLT32");
	assert_string_equal(arch_module_reloc_name(NONE_OLD), "R_AARCH64_NONE");
	for (uint32_t type = 0; type < 1100; type++) {
		uint8_t word[8] = { 0 };
		int err = arch_module_relocate(type, word, MOD, MOD);
		const char *name = arch_module_reloc_name(type);

		if (name) {
			known++;
			assert_int_equal(strncmp(name, "R_AARCH64_", 10), 0);
			assert_int_not_equal(err, -ENOEXEC);
		} else {
			assert_int_equal(err, -ENOEXEC);
		}
	}
	/* NONE twice, the 6 data types, PLT32, 2 B/BL, 3 more branches and
	 * literal loads, 3 ADR/ADRP, ADD, 5 LDST, 7 UABS, 3 SABS, 7 PREL. */
	assert_int_equal(known, 2 + 6 + 1 + 2 + 3 + 3 + 1 + 5 + 7 + 3 + 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_branch26),
		cmocka_unit_test(test_branch19_14),
		cmocka_unit_test(test_adr),
		cmocka_unit_test(test_lo12),
		cmocka_unit_test(test_movw_uabs),
		cmocka_unit_test(test_movw_signed),
		cmocka_unit_test(test_movw_sequence),
		cmocka_unit_test(test_data),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
