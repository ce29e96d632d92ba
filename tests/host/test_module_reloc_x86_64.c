/*
 * Host tests for arch/x86_64/module_reloc.c: every relocation type on
 * hand-computed bytes, the limits of each field (the last value that
 * fits is written, the first that does not is refused with -ERANGE and
 * nothing written), fields at odd addresses, and unknown types.
 *
 * Addresses are those of a module (0xffffffffa0000000 up) calling into
 * kernel text (0xffffffff80100000 up), as on the real machine.
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

#define MOD   0xffffffffa0000000ULL	/* module text */
#define KTEXT 0xffffffff80100000ULL	/* kernel text */

/* Type numbers from the psABI, written again here so that a wrong
 * number in module_reloc.c is caught. */
enum {
	NONE = 0, R64 = 1, PC32 = 2, PLT32 = 4, R32 = 10, R32S = 11,
	R16 = 12, PC16 = 13, R8 = 14, PC8 = 15, PC64 = 24,
};

struct reloc_case {
	uint32_t type;
	uint64_t place;
	uint64_t value;		/* S + A */
	int err;
	uint8_t want[8];	/* the field afterwards (if err is 0) */
	size_t width;		/* its size in bytes */
};

#define CANARY 0xcc
#define FIELD_AT 5		/* an odd offset: fields need no alignment */

/* Apply c in a buffer of canary bytes; only the field may change, and
 * only if the relocation succeeded. */
static void run_case(const struct reloc_case *c, size_t i)
{
	uint8_t buf[24];
	int err;

	memset(buf, CANARY, sizeof(buf));
	err = arch_module_relocate(c->type, buf + FIELD_AT, c->place, c->value);
	if (err != c->err)
		fail_msg("case %zu (%s, value 0x%llx, place 0x%llx): returned %d, want %d",
			 i, arch_module_reloc_name(c->type), (unsigned long long)c->value,
			 (unsigned long long)c->place, err, c->err);
	for (size_t b = 0; b < sizeof(buf); b++) {
		bool in_field = c->err == 0 && b >= FIELD_AT && b < FIELD_AT + c->width;
		uint8_t want = in_field ? c->want[b - FIELD_AT] : CANARY;

		if (buf[b] != want)
			fail_msg("case %zu (%s): byte %zu is 0x%02x, want 0x%02x", i,
				 arch_module_reloc_name(c->type), b, buf[b], want);
	}
}

static void run_cases(const struct reloc_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_case(&c[i], i);
}

#define OK(type, place, value, width, ...) \
	{ type, place, value, 0, { __VA_ARGS__ }, width }
#define TOO_FAR(type, place, value) \
	{ type, place, value, -ERANGE, { 0 }, 0 }

static void test_none(void **state)
{
	static const struct reloc_case c[] = {
		OK(NONE, MOD, KTEXT, 0),
	};

	(void)state;
	run_cases(c, ARRAY_SIZE(c));
}

/* R_X86_64_64: a pointer in data, e.g. a function pointer in a struct. */
static void test_64(void **state)
{
	static const struct reloc_case c[] = {
		OK(R64, MOD + 0x2000, KTEXT + 0x230, 8,
		   0x30, 0x02, 0x10, 0x80, 0xff, 0xff, 0xff, 0xff),
		OK(R64, MOD, 0x0123456789abcdefULL, 8,
		   0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01),
	};

	(void)state;
	run_cases(c, ARRAY_SIZE(c));
}

/* R_X86_64_PC32 and PLT32: S + A - P in a signed 32-bit field. The
 * first case is `call printk` at MOD + 0x1000 (e8 at 0x1000, the field
 * at 0x1001, A = -4) with printk at KTEXT + 0x230:
 * 0xffffffff8010022c - 0xffffffffa0001001 = -0x1ff00dd5 = 0xe00ff22b. */
static void test_pc32(void **state)
{
	static const struct reloc_case c[] = {
		OK(PLT32, MOD + 0x1001, KTEXT + 0x230 - 4, 4, 0x2b, 0xf2, 0x0f, 0xe0),
		OK(PC32, MOD + 0x1001, KTEXT + 0x230 - 4, 4, 0x2b, 0xf2, 0x0f, 0xe0),
		/* A forward reference within the module: +0x1f. */
		OK(PC32, MOD + 0x1001, MOD + 0x1020, 4, 0x1f, 0x00, 0x00, 0x00),
		/* The limits: 2^31 - 1 forward, 2^31 back. */
		OK(PC32, MOD, MOD + 0x7fffffff, 4, 0xff, 0xff, 0xff, 0x7f),
		TOO_FAR(PC32, MOD, MOD + 0x80000000),
		OK(PC32, MOD, MOD - 0x80000000, 4, 0x00, 0x00, 0x00, 0x80),
		TOO_FAR(PC32, MOD, MOD - 0x80000001),
		OK(PLT32, MOD, MOD + 0x7fffffff, 4, 0xff, 0xff, 0xff, 0x7f),
		TOO_FAR(PLT32, MOD, MOD + 0x80000000),
		OK(PLT32, MOD, MOD - 0x80000000, 4, 0x00, 0x00, 0x00, 0x80),
		TOO_FAR(PLT32, MOD, MOD - 0x80000001),
		/* A module loaded far from the kernel cannot call it. */
		TOO_FAR(PLT32, 0xffff888000000000ULL, KTEXT),
		/* Wrapping around zero is a plain subtraction. */
		OK(PC32, 0xfffffffffffffff0ULL, 0x10, 4, 0x20, 0x00, 0x00, 0x00),
	};

	(void)state;
	run_cases(c, ARRAY_SIZE(c));
}

/* R_X86_64_32: zero-extended, so a kernel address never fits. */
static void test_32(void **state)
{
	static const struct reloc_case c[] = {
		OK(R32, MOD, 0x12345678, 4, 0x78, 0x56, 0x34, 0x12),
		OK(R32, MOD, 0xffffffff, 4, 0xff, 0xff, 0xff, 0xff),
		TOO_FAR(R32, MOD, 0x100000000ULL),
		TOO_FAR(R32, MOD, KTEXT),
		TOO_FAR(R32, MOD, (uint64_t)-1),
	};

	(void)state;
	run_cases(c, ARRAY_SIZE(c));
}

/* R_X86_64_32S: sign-extended, which is how -mcmodel=kernel code holds
 * an address in an instruction (`movq $sym, %rax`, switch tables'
 * `jmp *table(,%rax,8)`): the top 2 GiB and the bottom 2 GiB fit. */
static void test_32s(void **state)
{
	static const struct reloc_case c[] = {
		OK(R32S, MOD, MOD + 0x3008, 4, 0x08, 0x30, 0x00, 0xa0),
		OK(R32S, MOD, KTEXT, 4, 0x00, 0x00, 0x10, 0x80),
		OK(R32S, MOD, 0xffffffff80000000ULL, 4, 0x00, 0x00, 0x00, 0x80),
		TOO_FAR(R32S, MOD, 0xffffffff7fffffffULL),
		OK(R32S, MOD, 0x7fffffff, 4, 0xff, 0xff, 0xff, 0x7f),
		TOO_FAR(R32S, MOD, 0x80000000),
		TOO_FAR(R32S, MOD, 0xffff888000000000ULL),
	};

	(void)state;
	run_cases(c, ARRAY_SIZE(c));
}

static void test_pc64(void **state)
{
	static const struct reloc_case c[] = {
		/* KTEXT - (MOD + 0x10) = -0x1ff00010 */
		OK(PC64, MOD + 0x10, KTEXT, 8,
		   0xf0, 0xff, 0x0f, 0xe0, 0xff, 0xff, 0xff, 0xff),
		/* Any distance fits: from the bottom of memory to the top. */
		OK(PC64, 0x1000, KTEXT, 8,
		   0x00, 0xf0, 0x0f, 0x80, 0xff, 0xff, 0xff, 0xff),
	};

	(void)state;
	run_cases(c, ARRAY_SIZE(c));
}

/* The narrow ones: 16 and 8 bits, read as signed or unsigned for the
 * absolute types, signed for the PC-relative ones. */
static void test_narrow(void **state)
{
	static const struct reloc_case c[] = {
		OK(R16, MOD, 0xffff, 2, 0xff, 0xff),
		OK(R16, MOD, (uint64_t)-0x8000, 2, 0x00, 0x80),
		TOO_FAR(R16, MOD, 0x10000),
		TOO_FAR(R16, MOD, (uint64_t)-0x8001),
		OK(R8, MOD, 0xff, 1, 0xff),
		OK(R8, MOD, (uint64_t)-0x80, 1, 0x80),
		TOO_FAR(R8, MOD, 0x100),
		TOO_FAR(R8, MOD, (uint64_t)-0x81),
		OK(PC16, MOD + 0x100, MOD + 0x100 + 0x7fff, 2, 0xff, 0x7f),
		TOO_FAR(PC16, MOD + 0x100, MOD + 0x100 + 0x8000),
		OK(PC16, MOD + 0x100, MOD + 0x100 - 0x8000, 2, 0x00, 0x80),
		TOO_FAR(PC16, MOD + 0x100, MOD + 0x100 - 0x8001),
		OK(PC8, MOD + 0x100, MOD + 0x100 + 0x7f, 1, 0x7f),
		TOO_FAR(PC8, MOD + 0x100, MOD + 0x100 + 0x80),
		OK(PC8, MOD + 0x100, MOD + 0x100 - 0x80, 1, 0x80),
		TOO_FAR(PC8, MOD + 0x100, MOD + 0x100 - 0x81),
	};

	(void)state;
	run_cases(c, ARRAY_SIZE(c));
}

/* Types that need a GOT, a PLT, TLS or a symbol's size, and numbers
 * that are no type at all: refused, nothing written. */
static void test_unknown(void **state)
{
	static const uint32_t types[] = {
		3 /* GOT32 */, 5 /* COPY */, 8 /* RELATIVE */, 9 /* GOTPCREL */,
		16 /* DTPMOD64 */, 23 /* TPOFF32 */, 32 /* SIZE32 */,
		41 /* GOTPCRELX */, 42 /* REX_GOTPCRELX */, 43, 1000, 0xffffffff,
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		struct reloc_case c = { types[i], MOD, MOD, -ENOEXEC, { 0 }, 0 };

		run_case(&c, i);
		assert_null(arch_module_reloc_name(types[i]));
	}
}

/* Each type the loader knows has a name, and only those. */
static void test_names(void **state)
{
	static const struct {
		uint32_t type;
		const char *name;
	} names[] = {
		{ NONE, "R_X86_64_NONE" }, { R64, "R_X86_64_64" },
		{ PC32, "R_X86_64_PC32" }, { PLT32, "R_X86_64_PLT32" },
		{ R32, "R_X86_64_32" }, { R32S, "R_X86_64_32S" },
		{ R16, "R_X86_64_16" }, { PC16, "R_X86_64_PC16" },
		{ R8, "R_X86_64_8" }, { PC8, "R_X86_64_PC8" },
		{ PC64, "R_X86_64_PC64" },
	};
	size_t known = 0;

	(void)state;
	assert_int_equal(arch_module_machine, EM_X86_64);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const char *name = arch_module_reloc_name(names[i].type);

		assert_non_null(name);
		assert_string_equal(name, names[i].name);
	}
	/* A name exactly where relocate knows the type. */
	for (uint32_t type = 0; type < 1024; type++) {
		uint8_t buf[8] = { 0 };
		int err = arch_module_relocate(type, buf, MOD, MOD);

		if (arch_module_reloc_name(type)) {
			known++;
			assert_int_not_equal(err, -ENOEXEC);
		} else {
			assert_int_equal(err, -ENOEXEC);
		}
	}
	assert_int_equal(known, ARRAY_SIZE(names));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_64),
		cmocka_unit_test(test_pc32),
		cmocka_unit_test(test_32),
		cmocka_unit_test(test_32s),
		cmocka_unit_test(test_pc64),
		cmocka_unit_test(test_narrow),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
