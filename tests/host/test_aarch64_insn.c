/*
 * Host tests for arch/aarch64/insn.c on hand-picked encodings: the class
 * of each kind of instruction the probes layer cares about, and the pure
 * parts of emulating them (branch targets, conditions, add/sub results,
 * stores through sp, encodings).
 *
 * The encodings were checked with aarch64-linux-gnu-as/objdump; the
 * whole-kernel comparison with objdump is check_aarch64_insn.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "arch/aarch64/insn.h"

#define PC 0xffffffff80201234ULL

struct sample {
	uint32_t raw;
	enum a64_class cls;
	enum a64_emu emu;
	const char *text;	/* what objdump calls it */
};

static void check_samples(const struct sample *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct a64_insn in;

		a64_decode(s[i].raw, &in);
		if (in.cls != s[i].cls || in.emu != s[i].emu)
			fail_msg("%08x (%s): got %s/%s (%s), want %s/%s", s[i].raw, s[i].text,
				 a64_class_name(in.cls), a64_emu_name(in.emu), in.what,
				 a64_class_name(s[i].cls), a64_emu_name(s[i].emu));
		assert_int_equal(in.raw, s[i].raw);
		assert_non_null(in.what);
	}
}

#define EMU(raw, kind, text) { raw, A64_EMULATED, A64_EMU_##kind, text }
#define OOL(raw, text) { raw, A64_OUT_OF_LINE, A64_EMU_NONE, text }
#define REFUSED(raw, text) { raw, A64_REFUSED, A64_EMU_NONE, text }
#define UNALLOC(raw, text) { raw, A64_UNALLOCATED, A64_EMU_NONE, text }

static void test_emulated(void **state)
{
	static const struct sample s[] = {
		EMU(0xd503201f, NOP, "nop"),
		EMU(0x910003fd, MOV_FROM_SP, "mov x29, sp"),
		EMU(0xd53b4220, MRS_DAIF, "mrs x0, daif"),
		EMU(0x10000040, ADR, "adr x0, .+8"),
		EMU(0xb0000000, ADRP, "adrp x0, page+1"),
		EMU(0x14000004, B, "b .+16"),
		EMU(0x94000040, BL, "bl .+0x100"),
		EMU(0x54000041, B_COND, "b.ne .+8"),
		EMU(0x54000010, B_COND, "bc.eq .+0 (v8.8: b.cond with a hint)"),
		EMU(0xb4000040, CBZ, "cbz x0, .+8"),
		EMU(0x35000041, CBNZ, "cbnz w1, .+8"),
		EMU(0x36180040, TBZ, "tbz w0, #3, .+8"),
		EMU(0xb7400060, TBNZ, "tbnz x0, #40, .+12"),
		EMU(0x18000040, LDR_LIT_W, "ldr w0, .+8"),
		EMU(0x58000040, LDR_LIT_X, "ldr x0, .+8"),
		EMU(0x98000040, LDRSW_LIT, "ldrsw x0, .+8"),
		EMU(0xd8000040, PRFM_LIT, "prfm pldl1keep, .+8"),
		EMU(0xd61f0020, BR, "br x1"),
		EMU(0xd63f0040, BLR, "blr x2"),
		EMU(0xd65f03c0, RET, "ret"),
		EMU(0xd65f0020, RET, "ret x1"),
		/* A function prologue's instructions. */
		EMU(0x91000400, ADD_IMM, "add x0, x0, #0x1"),
		EMU(0x910003bf, ADD_IMM, "mov sp, x29"),
		EMU(0x91400423, ADD_IMM, "add x3, x1, #0x1, lsl #12"),
		EMU(0xd108c3ff, SUB_IMM, "sub sp, sp, #0x230"),
		EMU(0x51000444, SUB_IMM, "sub w4, w2, #0x1"),
		EMU(0xa9bf7bfd, STP_SP, "stp x29, x30, [sp, #-16]!"),
		EMU(0xa9a07bfd, STP_SP, "stp x29, x30, [sp, #-512]!"),
		EMU(0xa8817bfd, STP_SP, "stp x29, x30, [sp], #16"),
		EMU(0xa90153f3, STP_SP, "stp x19, x20, [sp, #16]"),
		EMU(0x29050be1, STP_SP, "stp w1, w2, [sp, #40]"),
		EMU(0xf9000bf3, STR_SP, "str x19, [sp, #16]"),
		EMU(0xb90033e1, STR_SP, "str w1, [sp, #48]"),
		EMU(0xf81f0fe0, STR_SP, "str x0, [sp, #-16]!"),
		EMU(0xf80107e2, STR_SP, "str x2, [sp], #16"),
		EMU(0xf90007ff, STR_SP, "str xzr, [sp, #8]"),
	};

	(void)state;
	check_samples(s, sizeof(s) / sizeof(s[0]));
}

static void test_out_of_line(void **state)
{
	static const struct sample s[] = {
		OOL(0x92400000, "and x0, x0, #0x1"),
		OOL(0x12001c00, "and w0, w0, #0xff"),
		OOL(0xb200f3e0, "mov x0, #0x5555555555555555"),
		OOL(0xa8c17bfd, "ldp x29, x30, [sp], #16"),
		/* Flag-setting add/sub, and stores that are not a prologue's:
		 * through another base, or a form the emulation leaves out. */
		OOL(0xb1000400, "adds x0, x0, #0x1"),
		OOL(0xf100041f, "cmp x0, #0x1"),
		OOL(0xa9000801, "stp x1, x2, [x0]"),
		OOL(0xa8000be1, "stnp x1, x2, [sp]"),
		OOL(0x390003e0, "strb w0, [sp]"),
		OOL(0x790007e0, "strh w0, [sp, #2]"),
		OOL(0xf81f83e0, "stur x0, [sp, #-8]"),
		OOL(0xf8216be0, "str x0, [sp, x1]"),
		OOL(0xf8000be0, "sttr x0, [sp]"),
		OOL(0x690007e0, "stgp x0, x1, [sp]"),
		OOL(0xf94007e0, "ldr x0, [sp, #8]"),
		OOL(0xd2800540, "mov x0, #0x2a"),
		OOL(0xaa0103e0, "mov x0, x1"),
		OOL(0xeb01001f, "cmp x0, x1"),
		OOL(0x9a9f17e0, "cset x0, eq"),
		OOL(0x9ac10c00, "sdiv x0, x0, x1"),
		OOL(0x9b027c20, "mul x0, x1, x2"),
		OOL(0x9bc27c20, "umulh x0, x1, x2"),
		OOL(0xd3441c20, "ubfx x0, x1, #4, #4"),
		OOL(0xdac00c20, "rev x0, x1"),
		OOL(0xf9400020, "ldr x0, [x1]"),
		OOL(0x39400020, "ldrb w0, [x1]"),
		OOL(0xb8617800, "ldr w0, [x0, x1, lsl #2]"),
		OOL(0xf9800020, "prfm pldl1keep, [x1]"),
		OOL(0xc8dffc20, "ldar x0, [x1]"),
		OOL(0xc89ffc20, "stlr x0, [x1]"),
		OOL(0xc8a07c41, "cas x0, x1, [x2]"),
		OOL(0xf8200020, "ldadd x0, x0, [x1]"),
		OOL(0xd503203f, "yield"),
		OOL(0xd5033fdf, "isb"),
		OOL(0xd5033f9f, "dsb sy"),
		OOL(0xd5033bbf, "dmb ish"),
		OOL(0xd503305f, "clrex"),
		OOL(0xd538d080, "mrs x0, tpidr_el1"),
		OOL(0xd53b4200, "mrs x0, nzcv"),
		OOL(0xd508871f, "tlbi vmalle1"),
		OOL(0xd50b7520, "ic ivau, x0"),
	};

	(void)state;
	check_samples(s, sizeof(s) / sizeof(s[0]));
}

static void test_refused(void **state)
{
	static const struct sample s[] = {
		REFUSED(0xc85f7c20, "ldxr x0, [x1]"),
		REFUSED(0xc8027c20, "stxr w2, x0, [x1]"),
		REFUSED(0x885ffc20, "ldaxr w0, [x1]"),
		REFUSED(0x8802fc20, "stlxr w2, w0, [x1]"),
		REFUSED(0x085f7c20, "ldxrb w0, [x1]"),
		REFUSED(0xc87f0c20, "ldxp x0, x3, [x1]"),
		REFUSED(0xc8220c20, "stxp w2, x0, x3, [x1]"),
		REFUSED(0xd69f03e0, "eret"),
		REFUSED(0xd6bf03e0, "drps"),
		REFUSED(0xd65f0bff, "retaa"),
		REFUSED(0xd63f081f, "blraaz x0"),
		REFUSED(0xd4000001, "svc #0"),
		REFUSED(0xd4000002, "hvc #0"),
		REFUSED(0xd4000003, "smc #0"),
		REFUSED(0xd4200000, "brk #0"),
		REFUSED(0xd4400000, "hlt #0"),
		REFUSED(0xd4a00001, "dcps1"),
		REFUSED(0xd503207f, "wfi"),
		REFUSED(0xd503205f, "wfe"),
		REFUSED(0xd50342df, "msr daifset, #2"),
		REFUSED(0xd50343ff, "msr daifclr, #3"),
		REFUSED(0xd50041bf, "msr spsel, #1"),
		REFUSED(0xd51b4220, "msr daif, x0"),
		REFUSED(0xd518c000, "msr vbar_el1, x0"),
		REFUSED(0xd5384020, "mrs x0, elr_el1"),
		REFUSED(0xd5384000, "mrs x0, spsr_el1"),
		REFUSED(0xd5385200, "mrs x0, esr_el1"),
		REFUSED(0xd5386000, "mrs x0, far_el1"),
		REFUSED(0xd5384100, "mrs x0, sp_el0"),
		REFUSED(0x5c000040, "ldr d0, .+8"),
		REFUSED(0xfd400020, "ldr d0, [x1]"),
		REFUSED(0x1e602800, "fadd d0, d0, d0"),
		REFUSED(0x4ea11c20, "mov v0.16b, v1.16b"),
	};

	(void)state;
	check_samples(s, sizeof(s) / sizeof(s[0]));
}

static void test_unallocated(void **state)
{
	static const struct sample s[] = {
		UNALLOC(0x00000000, "udf #0"),
		UNALLOC(0x0000dead, "udf #0xdead"),
		UNALLOC(0x55000000, "b.cond space with o1=1"),
		UNALLOC(0xb2800000, "move wide, opc=01"),
		UNALLOC(0xd4000004, "exception generation, op2 != 0"),
		UNALLOC(0xd61e0000, "br with op2 != 11111"),
		UNALLOC(0x3a400400, "ccmn with o2 set"),
		UNALLOC(0xf8600800, "ldr (register), option<1> clear"),
		UNALLOC(0x921ebce6, "and, bitmask of a 16-bit element all ones"),
		UNALLOC(0x9200fc00, "and, bitmask with no element size"),
		UNALLOC(0x1240fc00, "and w, N=1"),
	};

	(void)state;
	check_samples(s, sizeof(s) / sizeof(s[0]));
}

/* Decode raw, which must be an emulated instruction. */
static struct a64_insn emulated_insn(uint32_t raw)
{
	struct a64_insn in;

	a64_decode(raw, &in);
	assert_int_equal(in.cls, A64_EMULATED);
	return in;
}

static uint64_t target(uint32_t raw, uint64_t pc)
{
	struct a64_insn in = emulated_insn(raw);

	return a64_pcrel_target(&in, pc);
}

static void test_targets(void **state)
{
	(void)state;
	assert_true(target(0x10000040, PC) == PC + 8);		/* adr +8 */
	assert_true(target(0x10ffffe1, PC) == PC - 4);		/* adr x1, -4 */
	assert_true(target(0x30000000, PC) == PC + 1);		/* adr: byte offsets */
	assert_true(target(0xb0000000, PC) == 0xffffffff80202000ULL);	/* adrp +1 page */
	assert_true(target(0xf0ffffe0, PC) == 0xffffffff80200000ULL);	/* adrp -1 page */
	assert_true(target(0x14000004, PC) == PC + 16);		/* b */
	assert_true(target(0x17ffffff, PC) == PC - 4);		/* b . - 4 */
	assert_true(target(0x16000000, PC) == PC - (128ULL << 20));	/* b: furthest back */
	assert_true(target(0x94000040, PC) == PC + 0x100);	/* bl */
	assert_true(target(0x54ffffe1, PC) == PC - 4);		/* b.ne . - 4 */
	assert_true(target(0xb4000040, PC) == PC + 8);		/* cbz */
	assert_true(target(0xb7400060, PC) == PC + 12);		/* tbnz */
	assert_true(target(0x3607ffe0, PC) == PC - 4);		/* tbz, backwards */
	assert_true(target(0x58000040, PC) == PC + 8);		/* ldr literal */
	assert_true(target(0x58ffffe0, PC) == PC - 4);
}

static uint64_t add_sub(uint32_t raw, uint64_t rn_value)
{
	struct a64_insn in = emulated_insn(raw);

	return a64_add_sub_imm_result(&in, rn_value);
}

static void test_add_sub(void **state)
{
	(void)state;
	assert_true(add_sub(0x91000400, 41) == 42);			/* add x0, x0, #1 */
	assert_true(add_sub(0x91400423, 5) == 0x1005);		/* lsl #12 */
	assert_true(add_sub(0xd108c3ff, 0x10000) == 0x10000 - 0x230);	/* sub sp */
	assert_true(add_sub(0x51000444, 0) == 0xffffffffULL);	/* sub w: 32 bits */
	assert_true(add_sub(0x51000444, 0x100000005ULL) == 4);
	assert_true(add_sub(0x910003bf, 0x1230) == 0x1230);		/* mov sp, x29 */
}

/* A store through sp: what it writes, from sp, and the write-back. */
static void check_store(uint32_t raw, int64_t offset, int64_t sp_change, unsigned int size,
			unsigned int count, unsigned int rt, unsigned int rt2)
{
	struct a64_insn in = emulated_insn(raw);
	struct a64_sp_store st;

	a64_decode_sp_store(&in, &st);
	if (st.offset != offset || st.sp_change != sp_change || st.size != size ||
	    st.count != count || st.rt != rt || (count == 2 && st.rt2 != rt2))
		fail_msg("%08x: offset %lld sp %+lld size %u count %u rt %u rt2 %u", raw,
			 (long long)st.offset, (long long)st.sp_change, st.size, st.count,
			 st.rt, st.rt2);
	/* Within the reach the trap entry's gap is sized for. */
	assert_true(st.offset >= -A64_SP_STORE_REACH);
}

static void test_sp_stores(void **state)
{
	(void)state;
	check_store(0xa9bf7bfd, -16, -16, 8, 2, 29, 30);	/* stp x29, x30, [sp, #-16]! */
	check_store(0xa9a07bfd, -512, -512, 8, 2, 29, 30);	/* the furthest */
	check_store(0xa8817bfd, 0, 16, 8, 2, 29, 30);		/* post-indexed */
	check_store(0xa90153f3, 16, 0, 8, 2, 19, 20);		/* signed offset */
	check_store(0x29050be1, 40, 0, 4, 2, 1, 2);		/* stp w */
	check_store(0xf9000bf3, 16, 0, 8, 1, 19, 0);		/* str, unsigned offset */
	check_store(0xb90033e1, 48, 0, 4, 1, 1, 0);		/* str w */
	check_store(0xf81f0fe0, -16, -16, 8, 1, 0, 0);		/* str pre-indexed */
	check_store(0xf80107e2, 0, 16, 8, 1, 2, 0);		/* str post-indexed */
	check_store(0xf90007ff, 8, 0, 8, 1, 31, 0);		/* str xzr */
	check_store(0xb81f0fe0, -16, -16, 4, 1, 0, 0);		/* str w0, [sp, #-16]! */
	check_store(0xf8100fe0, -256, -256, 8, 1, 0, 0);	/* str pre: the furthest */
}

#define N (1ULL << 31)
#define Z (1ULL << 30)
#define C (1ULL << 29)
#define V (1ULL << 28)

static void test_conditions(void **state)
{
	/* Every flag combination against the definitions of the 16 codes. */
	(void)state;
	for (unsigned int flags = 0; flags < 16; flags++) {
		uint64_t pstate = (uint64_t)flags << 28;
		bool n = pstate & N, z = pstate & Z, c = pstate & C, v = pstate & V;
		bool want[16] = {
			z, !z, c, !c, n, !n, v, !v, c && !z, !(c && !z),
			n == v, n != v, !z && n == v, !(!z && n == v), true, true,
		};

		for (unsigned int cond = 0; cond < 16; cond++)
			if (a64_condition_holds(cond, pstate | 0x3c5) != want[cond])
				fail_msg("cond %u with NZCV %x", cond, flags);
	}
}

static bool taken(uint32_t raw, uint64_t pstate, uint64_t rt)
{
	struct a64_insn in;

	a64_decode(raw, &in);
	return a64_branch_taken(&in, pstate, rt);
}

static void test_branch_taken(void **state)
{
	(void)state;
	assert_true(taken(0x54000041, 0, 0));		/* b.ne, Z clear */
	assert_false(taken(0x54000041, Z, 0));
	assert_true(taken(0x5400004b, N, 0));		/* b.lt: N != V */
	assert_false(taken(0x5400004b, N | V, 0));
	assert_true(taken(0xb4000040, 0, 0));		/* cbz x0 */
	assert_false(taken(0xb4000040, 0, 1ULL << 32));
	assert_true(taken(0x34000040, 0, 1ULL << 32));	/* cbz w0: low 32 bits */
	assert_false(taken(0x35000041, 0, 1ULL << 32));	/* cbnz w1 */
	assert_true(taken(0x35000041, 0, 0x80000000));
	assert_true(taken(0xb5000040, 0, 1ULL << 63));	/* cbnz x0 */
	assert_true(taken(0x36180040, 0, ~8ULL));	/* tbz #3 */
	assert_false(taken(0x36180040, 0, 8));
	assert_true(taken(0xb7400060, 0, 1ULL << 40));	/* tbnz #40 */
	assert_false(taken(0xb7400060, 0, 1ULL << 8));
}

static void test_encodings(void **state)
{
	const uint64_t slot = 0xffffffff82000000ULL, text = 0xffffffff80200000ULL;
	uint32_t b;

	(void)state;
	assert_int_equal(a64_encode_brk(0), 0xd4200000);
	assert_int_equal(a64_encode_brk(0x4), 0xd4200080);
	assert_int_equal(a64_encode_brk(0x3e8), 0xd4207d00);
	assert_true(a64_is_brk(a64_encode_brk(0xffff)));
	assert_false(a64_is_brk(0xd4000001));		/* svc */
	assert_false(a64_is_brk(0xd4400000));		/* hlt */

	/* A B from a slot back to text, and its decoded target. */
	assert_true(a64_b_reaches(slot, text));
	b = a64_encode_b(slot, text);
	assert_true(target(b, slot) == text);
	b = a64_encode_b(text, slot);
	assert_true(target(b, text) == slot);
	/* The reach: -128 MiB exactly, +128 MiB - 4. */
	assert_true(a64_b_reaches(slot, slot - (128ULL << 20)));
	assert_false(a64_b_reaches(slot, slot - (128ULL << 20) - 4));
	assert_true(a64_b_reaches(slot, slot + (128ULL << 20) - 4));
	assert_false(a64_b_reaches(slot, slot + (128ULL << 20)));
	assert_false(a64_b_reaches(slot, slot + 2));
}

static void test_exclusives(void **state)
{
	(void)state;
	assert_true(a64_is_load_exclusive(0xc85f7c20));		/* ldxr */
	assert_true(a64_is_load_exclusive(0x885ffc20));		/* ldaxr */
	assert_true(a64_is_load_exclusive(0xc87f0c20));		/* ldxp */
	assert_false(a64_is_load_exclusive(0xc8027c20));	/* stxr */
	assert_true(a64_is_store_exclusive(0xc8027c20));
	assert_true(a64_is_store_exclusive(0x8802fc20));	/* stlxr */
	assert_true(a64_is_store_exclusive(0xc8220c20));	/* stxp */
	assert_false(a64_is_load_exclusive(0xc8dffc20));	/* ldar */
	assert_false(a64_is_store_exclusive(0xc89ffc20));	/* stlr */
	assert_false(a64_is_load_exclusive(0xc8a07c41));	/* cas */
	assert_false(a64_is_load_exclusive(0xf9400020));	/* ldr */
}

static void test_names(void **state)
{
	(void)state;
	for (int emu = 0; emu < A64_EMU_COUNT; emu++)
		assert_non_null(a64_emu_name((enum a64_emu)emu));
	assert_string_equal(a64_emu_name(A64_EMU_B_COND), "b.cond");
	assert_string_equal(a64_class_name(A64_OUT_OF_LINE), "out of line");
	assert_string_equal(a64_class_name((enum a64_class)99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emulated),
		cmocka_unit_test(test_out_of_line),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_unallocated),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_add_sub),
		cmocka_unit_test(test_sp_stores),
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_branch_taken),
		cmocka_unit_test(test_encodings),
		cmocka_unit_test(test_exclusives),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
