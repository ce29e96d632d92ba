/*
 * Host tests for arch/x86_64/insn.c on hand-picked encodings.
 *
 * Every instruction is decoded from a heap buffer of exactly its size,
 * and then every shorter prefix of it from a buffer of exactly that size
 * must give -EILSEQ: with AddressSanitizer on, a decoder that reads one
 * byte too far fails the test. (x86 encodings are prefix-free: once the
 * first bytes fix the length, no shorter sequence is complete.)
 *
 * The whole-program comparison with objdump is check_insn_boundaries.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "arch/x86_64/insn.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Parse "48 8b 05 10 00 00 00" into a new buffer of exactly n bytes. */
static uint8_t *parse_hex(const char *hex, size_t *n)
{
	uint8_t *buf = malloc(strlen(hex) / 2 + 1);
	char *end;

	assert_non_null(buf);
	*n = 0;
	for (;;) {
		unsigned long b = strtoul(hex, &end, 16);

		if (end == hex)
			break;
		assert_true(b <= 0xff);
		buf[(*n)++] = (uint8_t)b;
		hex = end;
	}
	/* Move to an allocation of the exact size, for ASan. */
	uint8_t *exact = malloc(*n ? *n : 1);

	assert_non_null(exact);
	memcpy(exact, buf, *n);
	free(buf);
	return exact;
}

/* Decode code[0..len) from a fresh heap copy of exactly len bytes. */
static int decode_exact(struct insn *insn, const uint8_t *code, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	int ret;

	assert_non_null(copy);
	memcpy(copy, code, len);
	ret = insn_decode(insn, copy, len);
	free(copy);
	return ret;
}

/* hex must be one whole instruction; returns its decoding. */
static struct insn decode_ok(const char *hex)
{
	struct insn insn;
	size_t n;
	uint8_t *code = parse_hex(hex, &n);
	int ret = decode_exact(&insn, code, n);

	if (ret != 0)
		fail_msg("%s: insn_decode returned %d", hex, ret);
	if (insn.length != n)
		fail_msg("%s: length %u, want %zu", hex, insn.length, n);
	for (size_t k = 0; k < n; k++) {
		struct insn part;

		ret = decode_exact(&part, code, k);
		if (ret != -EILSEQ)
			fail_msg("%s: first %zu bytes gave %d, want -EILSEQ",
				 hex, k, ret);
	}
	free(code);
	return insn;
}

static void decode_bad(const char *hex)
{
	struct insn insn;
	size_t n;
	uint8_t *code = parse_hex(hex, &n);
	int ret = decode_exact(&insn, code, n);

	if (ret != -EILSEQ)
		fail_msg("%s: insn_decode returned %d (length %u), want -EILSEQ",
			 hex, ret, insn.length);
	free(code);
}

/* ---- Lengths ---- */

static void test_lengths(void **state)
{
	static const char *const samples[] = {
		"90",					/* nop */
		"55",					/* push %rbp */
		"48 89 e5",				/* mov %rsp,%rbp */
		"41 57",				/* push %r15 */
		"0f 1f 00",				/* nopl (%rax) */
		"0f 1f 40 00",				/* nopl 0(%rax) */
		"0f 1f 44 00 00",			/* nopl 0(%rax,%rax) */
		"66 0f 1f 44 00 00",			/* nopw */
		"0f 1f 80 00 00 00 00",			/* nopl 0L(%rax) */
		"66 2e 0f 1f 84 00 00 00 00 00",	/* cs nopw */
		"66 66 2e 0f 1f 84 00 00 00 00 00",	/* data16 cs nopw */
		"66 66 66 66 66 66 2e 0f 1f 84 00 00 00 00 00", /* 15 */
		"66 90",				/* xchg %ax,%ax */
		"f3 90",				/* pause */
		"f3 0f 1e fa",				/* endbr64 */
		"0f a2",				/* cpuid */
		"48 0f af c1",				/* imul %rcx,%rax */
		"6b c0 0a",				/* imul $10,%eax,%eax */
		"69 c0 10 27 00 00",			/* imul $10000,%eax,%eax */
		"48 0f c7 0e",				/* cmpxchg16b (%rsi) */
		"0f c7 f0",				/* rdrand %eax */
		"f3 0f b8 c0",				/* popcnt %eax,%eax */
		"0f ba e0 03",				/* bt $3,%eax */
		"0f c2 c1 01",				/* cmpltps %xmm1,%xmm0 */
		"66 0f 38 00 c1",			/* pshufb */
		"66 0f 3a 0f c1 08",			/* palignr $8 */
		"66 0f 38 f6 c1",			/* adcx %ecx,%eax */
		"f3 0f 6f 04 24",			/* movdqu (%rsp),%xmm0 */
		"d9 ee",				/* fldz */
		"dd 44 24 08",				/* fldl 8(%rsp) */
		"df e0",				/* fnstsw %ax */
		"9b",					/* fwait: alone */
		"0f 0f c1 b4",				/* pfmul %mm1,%mm0 */
		"c6 f8 01",				/* xabort $1 */
		"f0 48 0f b1 0a",			/* lock cmpxchg */
		"65 48 8b 04 25 28 00 00 00",		/* mov %gs:0x28,%rax */
		"f3 48 ab",				/* rep stos */
		"f3 f0 48 0f b8 0a",			/* lock popcnt */
		"0f a7 c0",				/* xstore-rng */
		"66 0f 38 db c1",			/* aesimc */
		"f3 0f 3a f0 c0 01",			/* hreset $1 */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++)
		decode_ok(samples[i]);
}

/* ---- Immediates and the operand-size prefix ---- */

static void test_immediates(void **state)
{
	struct insn in;

	(void)state;
	in = decode_ok("b8 78 56 34 12");		/* mov $0x12345678,%eax */
	assert_int_equal(in.imm_size, 4);
	assert_int_equal(in.imm_offset, 1);
	assert_int_equal(in.imm, 0x12345678);

	in = decode_ok("66 b8 34 12");			/* mov $0x1234,%ax */
	assert_int_equal(in.imm_size, 2);
	assert_int_equal(in.imm, 0x1234);
	assert_int_equal(in.prefixes[INSN_PFX_OPSIZE], 0x66);
	assert_int_equal(in.nprefixes, 1);

	in = decode_ok("48 b8 88 77 66 55 44 33 22 11");	/* movabs */
	assert_int_equal(in.rex, 0x48);
	assert_int_equal(in.imm_size, 8);
	assert_true(in.imm == 0x1122334455667788LL);

	/* REX.W beats 66 for the operand size. */
	in = decode_ok("66 48 b8 88 77 66 55 44 33 22 11");
	assert_int_equal(in.imm_size, 8);

	in = decode_ok("48 c7 c0 ff ff ff ff");		/* mov $-1,%rax */
	assert_int_equal(in.imm_size, 4);
	assert_int_equal(in.imm, -1);

	decode_ok("66 c7 00 34 12");			/* movw $0x1234,(%rax) */
	decode_ok("66 81 c3 34 12");			/* add $0x1234,%bx */
	decode_ok("81 c3 78 56 34 12");			/* add $0x12345678,%ebx */
	decode_ok("66 83 c3 01");			/* add $1,%bx */
	decode_ok("66 05 34 12");			/* add $0x1234,%ax */
	decode_ok("66 68 34 12");			/* pushw $0x1234 */
	decode_ok("68 00 01 00 00");			/* push $0x100 */
	in = decode_ok("6a ff");			/* push $-1 */
	assert_int_equal(in.imm, -1);

	/* moffs: 8 bytes of address, 4 with 67; 66 does not change it. */
	in = decode_ok("a1 88 77 66 55 44 33 22 11");
	assert_int_equal(in.imm_size, 8);
	decode_ok("48 a3 88 77 66 55 44 33 22 11");
	decode_ok("66 a1 88 77 66 55 44 33 22 11");
	in = decode_ok("67 a1 44 33 22 11");
	assert_int_equal(in.imm_size, 4);

	/* enter $0x10,$1: iw then ib */
	in = decode_ok("c8 10 00 01");
	assert_int_equal(in.imm_size, 2);
	assert_int_equal(in.imm, 0x10);
	assert_int_equal(in.imm2_size, 1);
	assert_int_equal(in.imm2, 1);

	/* extrq and insertq: two imm8; vmread (no prefix) none */
	in = decode_ok("66 0f 78 c0 01 02");
	assert_int_equal(in.imm, 1);
	assert_int_equal(in.imm2, 2);
	decode_ok("f2 0f 78 c1 01 02");
	in = decode_ok("0f 78 c0");
	assert_int_equal(in.imm_size, 0);
}

/* f6/f7: only /0 and /1 (test) have an immediate. */
static void test_group3(void **state)
{
	struct insn in;

	(void)state;
	in = decode_ok("f6 c0 01");			/* test $1,%al */
	assert_int_equal(in.imm_size, 1);
	in = decode_ok("f6 08 11");			/* testb $0x11,(%rax) /1 */
	assert_int_equal(in.imm, 0x11);
	in = decode_ok("f6 d0");			/* not %al */
	assert_int_equal(in.imm_size, 0);
	decode_ok("f6 d8");				/* neg %al */
	decode_ok("f6 f1");				/* div %cl */
	in = decode_ok("f7 c1 00 01 00 00");		/* test $0x100,%ecx */
	assert_int_equal(in.imm_size, 4);
	decode_ok("66 f7 c1 00 01");			/* test $0x100,%cx */
	decode_ok("48 f7 c1 00 01 00 00");		/* test $0x100,%rcx */
	in = decode_ok("f7 d1");			/* not %ecx */
	assert_int_equal(in.imm_size, 0);
	decode_ok("48 f7 f1");				/* div %rcx */
	decode_ok("f7 44 24 08 01 00 00 00");		/* testl $1,8(%rsp) */
}

/* ---- ModRM, SIB, displacement ---- */

static void test_modrm_sib(void **state)
{
	struct insn in;

	(void)state;
	in = decode_ok("8b 04 24");			/* mov (%rsp),%eax */
	assert_true(in.has_modrm);
	assert_true(in.has_sib);
	assert_int_equal(in.disp_size, 0);

	in = decode_ok("8b 44 24 08");			/* mov 8(%rsp),%eax */
	assert_int_equal(in.disp_size, 1);
	assert_int_equal(in.disp_offset, 3);
	assert_int_equal(in.disp, 8);

	in = decode_ok("8b 84 24 00 01 00 00");		/* mov 0x100(%rsp) */
	assert_int_equal(in.disp_size, 4);
	assert_int_equal(in.disp, 0x100);

	in = decode_ok("8b 45 f8");			/* mov -8(%rbp),%eax */
	assert_false(in.has_sib);
	assert_int_equal(in.disp, -8);

	/* SIB with base=101 and mod=00: no base, disp32; not rip-relative */
	in = decode_ok("8b 04 25 00 10 00 00");		/* mov 0x1000,%eax */
	assert_true(in.has_sib);
	assert_int_equal(in.disp_size, 4);
	assert_false(in.rip_relative);
	decode_ok("42 8b 04 25 00 00 00 00");		/* mov 0(,%r12,1) */

	/* REX.B does not change the special cases: r13 needs a disp8 and
	 * r12 a SIB, as rbp and rsp do. */
	in = decode_ok("41 8b 45 00");			/* mov 0(%r13),%eax */
	assert_int_equal(in.disp_size, 1);
	in = decode_ok("41 8b 04 24");			/* mov (%r12),%eax */
	assert_true(in.has_sib);

	in = decode_ok("89 c8");			/* mov %ecx,%eax */
	assert_true(in.has_modrm);
	assert_int_equal(in.modrm, 0xc8);
	assert_false(in.has_sib);

	/* mov to/from cr/dr ignores mod: no SIB, no displacement */
	in = decode_ok("0f 22 05");			/* mov %rbp,%cr0 */
	assert_false(in.rip_relative);
	assert_int_equal(in.disp_size, 0);
	decode_ok("0f 20 18");				/* mov %cr3,%rax */
	decode_ok("0f 23 c0");				/* mov %rax,%db0 */
}

static void test_rip_relative(void **state)
{
	struct insn in;

	(void)state;
	in = decode_ok("48 8b 05 10 00 00 00");		/* mov 0x10(%rip),%rax */
	assert_true(in.rip_relative);
	assert_int_equal(in.disp_offset, 3);
	assert_int_equal(in.disp_size, 4);
	assert_int_equal(in.disp, 0x10);
	assert_int_equal(insn_rip_target(&in, 0x1000), 0x1000 + 7 + 0x10);

	/* With an immediate after the displacement: the target counts
	 * from the end of the whole instruction. */
	in = decode_ok("c7 05 f0 ff ff ff 01 00 00 00");	/* movl $1,-16(%rip) */
	assert_true(in.rip_relative);
	assert_int_equal(in.disp_offset, 2);
	assert_int_equal(in.imm_offset, 6);
	assert_int_equal(in.imm_size, 4);
	assert_int_equal(in.disp, -16);
	assert_int_equal(insn_rip_target(&in, 0x1000), 0x1000 + 10 - 16);

	in = decode_ok("80 3d 00 10 00 00 05");		/* cmpb $5,0x1000(%rip) */
	assert_true(in.rip_relative);
	assert_int_equal(in.imm_offset, 6);

	in = decode_ok("48 8d 3d 00 00 00 00");		/* lea 0(%rip),%rdi */
	assert_true(in.rip_relative);
	in = decode_ok("67 8b 05 10 00 00 00");		/* mov 0x10(%eip) */
	assert_true(in.rip_relative);
	in = decode_ok("c5 f9 6f 05 10 00 00 00");	/* vmovdqa 0x10(%rip) */
	assert_true(in.rip_relative);
	assert_int_equal(in.disp_offset, 4);
}

/* ---- Branches ---- */

static void test_branches(void **state)
{
	struct insn in;

	(void)state;
	in = decode_ok("e8 00 00 00 00");		/* call next */
	assert_int_equal(in.flow, INSN_FLOW_CALL_REL);
	assert_int_equal(in.rel, 0);
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4005);

	in = decode_ok("e8 fb ff ff ff");		/* call self */
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4000);

	in = decode_ok("e9 00 01 00 00");		/* jmp +0x100 */
	assert_int_equal(in.flow, INSN_FLOW_JMP_REL);
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4105);

	in = decode_ok("eb fe");			/* jmp self */
	assert_int_equal(in.flow, INSN_FLOW_JMP_REL);
	assert_int_equal(in.rel, -2);
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4000);

	in = decode_ok("74 10");			/* je +0x10 */
	assert_int_equal(in.flow, INSN_FLOW_JCC_REL);
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4012);

	in = decode_ok("7f 80");			/* jg -0x80 */
	assert_int_equal(in.rel, -128);
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4002 - 128);

	in = decode_ok("0f 85 00 01 00 00");		/* jne +0x100 */
	assert_int_equal(in.flow, INSN_FLOW_JCC_REL);
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4106);

	in = decode_ok("0f 8c f0 ff ff ff");		/* jl -0x10 */
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4006 - 0x10);

	in = decode_ok("e3 05");			/* jrcxz */
	assert_int_equal(in.flow, INSN_FLOW_JCC_REL);
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4007);
	in = decode_ok("67 e3 05");			/* jecxz */
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4008);
	in = decode_ok("e2 fe");			/* loop self */
	assert_int_equal(in.flow, INSN_FLOW_JCC_REL);
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4000);

	in = decode_ok("c7 f8 00 01 00 00");		/* xbegin +0x100 */
	assert_int_equal(in.flow, INSN_FLOW_JCC_REL);
	assert_int_equal(insn_branch_target(&in, 0x4000), 0x4106);

	/* bnd (f2) and notrack (3e) prefixes */
	in = decode_ok("f2 e9 00 00 00 00");
	assert_int_equal(in.flow, INSN_FLOW_JMP_REL);
	in = decode_ok("3e ff e0");			/* notrack jmp *%rax */
	assert_int_equal(in.flow, INSN_FLOW_JMP_INDIRECT);

	in = decode_ok("ff d0");			/* call *%rax */
	assert_int_equal(in.flow, INSN_FLOW_CALL_INDIRECT);
	in = decode_ok("ff 15 00 00 00 00");		/* call *0(%rip) */
	assert_int_equal(in.flow, INSN_FLOW_CALL_INDIRECT);
	assert_true(in.rip_relative);
	in = decode_ok("41 ff 14 24");			/* call *(%r12) */
	assert_int_equal(in.flow, INSN_FLOW_CALL_INDIRECT);
	in = decode_ok("ff 18");			/* lcall *(%rax) */
	assert_int_equal(in.flow, INSN_FLOW_CALL_INDIRECT);
	in = decode_ok("ff e0");			/* jmp *%rax */
	assert_int_equal(in.flow, INSN_FLOW_JMP_INDIRECT);
	in = decode_ok("ff 24 c5 00 10 00 00");		/* jmp *0x1000(,%rax,8) */
	assert_int_equal(in.flow, INSN_FLOW_JMP_INDIRECT);
	in = decode_ok("ff 28");			/* ljmp *(%rax) */
	assert_int_equal(in.flow, INSN_FLOW_JMP_INDIRECT);
	in = decode_ok("ff c0");			/* inc %eax */
	assert_int_equal(in.flow, INSN_FLOW_NONE);
	in = decode_ok("ff 30");			/* push (%rax) */
	assert_int_equal(in.flow, INSN_FLOW_NONE);
}

static void test_flow_classes(void **state)
{
	static const struct {
		const char *hex;
		enum insn_flow flow;
	} cases[] = {
		{ "c3", INSN_FLOW_RET },
		{ "f3 c3", INSN_FLOW_RET },		/* repz ret */
		{ "c2 08 00", INSN_FLOW_RET },		/* ret $8 */
		{ "cb", INSN_FLOW_RET },		/* lret */
		{ "ca 10 00", INSN_FLOW_RET },
		{ "cc", INSN_FLOW_INT },		/* int3 */
		{ "cd 80", INSN_FLOW_INT },
		{ "f1", INSN_FLOW_INT },		/* int1 */
		{ "0f 0b", INSN_FLOW_INT },		/* ud2 */
		{ "0f b9 00", INSN_FLOW_INT },		/* ud1 (%rax),%eax */
		{ "0f ff 00", INSN_FLOW_INT },		/* ud0 */
		{ "cf", INSN_FLOW_IRET },
		{ "48 cf", INSN_FLOW_IRET },		/* iretq */
		{ "0f 05", INSN_FLOW_SYSCALL },
		{ "0f 07", INSN_FLOW_SYSCALL },		/* sysret */
		{ "48 0f 07", INSN_FLOW_SYSCALL },	/* sysretq */
		{ "0f 34", INSN_FLOW_SYSCALL },		/* sysenter */
		{ "0f 35", INSN_FLOW_SYSCALL },		/* sysexit */
		{ "f4", INSN_FLOW_HALT },
		{ "90", INSN_FLOW_NONE },
		{ "c9", INSN_FLOW_NONE },		/* leave */
		{ "c5 f8 77", INSN_FLOW_NONE },		/* vzeroupper */
	};
	struct insn in;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		in = decode_ok(cases[i].hex);

		if (in.flow != cases[i].flow)
			fail_msg("%s: flow %s, want %s", cases[i].hex,
				 insn_flow_name(in.flow),
				 insn_flow_name(cases[i].flow));
	}
	in = decode_ok("c2 08 00");
	assert_int_equal(in.imm_size, 2);
	assert_int_equal(in.imm, 8);
}

static void test_flow_names(void **state)
{
	(void)state;
	assert_string_equal(insn_flow_name(INSN_FLOW_NONE), "none");
	assert_string_equal(insn_flow_name(INSN_FLOW_JMP_REL), "jmp");
	assert_string_equal(insn_flow_name(INSN_FLOW_JCC_REL), "jcc");
	assert_string_equal(insn_flow_name(INSN_FLOW_CALL_REL), "call");
	assert_string_equal(insn_flow_name(INSN_FLOW_JMP_INDIRECT), "jmp*");
	assert_string_equal(insn_flow_name(INSN_FLOW_CALL_INDIRECT), "call*");
	assert_string_equal(insn_flow_name(INSN_FLOW_RET), "ret");
	assert_string_equal(insn_flow_name(INSN_FLOW_INT), "int");
	assert_string_equal(insn_flow_name(INSN_FLOW_IRET), "iret");
	assert_string_equal(insn_flow_name(INSN_FLOW_SYSCALL), "syscall");
	assert_string_equal(insn_flow_name(INSN_FLOW_HALT), "hlt");
	assert_string_equal(insn_flow_name((enum insn_flow)99), "?");
}

/* ---- Privileged instructions and flags ---- */

static void test_privileged(void **state)
{
	static const char *const privileged[] = {
		"f4",			/* hlt */
		"fa", "fb",		/* cli, sti */
		"cf", "48 cf",		/* iret, iretq */
		"48 0f 07",		/* sysretq */
		"0f 35",		/* sysexit */
		"0f 30", "0f 32",	/* wrmsr, rdmsr */
		"0f 33",		/* rdpmc */
		"0f 22 d8",		/* mov %rax,%cr3 */
		"0f 20 d8",		/* mov %cr3,%rax */
		"0f 23 f8",		/* mov %rax,%db7 */
		"0f 01 15 e0 00 10 00",	/* lgdt 0x1000e0(%rip) */
		"0f 01 1f",		/* lidt (%rdi) */
		"0f 00 d0",		/* lldt %ax */
		"0f 00 d8",		/* ltr %ax */
		"0f 01 38",		/* invlpg (%rax) */
		"0f 01 f8",		/* swapgs */
		"0f 01 ca",		/* clac */
		"0f 01 c8",		/* monitor */
		"0f 01 d1",		/* xsetbv */
		"0f 01 c1",		/* vmcall */
		"0f 06",		/* clts */
		"0f 09",		/* wbinvd */
		"e4 60", "e6 80",	/* in $0x60,%al; out %al,$0x80 */
		"ec", "ef",		/* in (%dx),%al; out %eax,(%dx) */
		"f3 6c",		/* rep insb */
		"8e d0",		/* mov %eax,%ss */
		"0f a9",		/* pop %gs */
		"0f 78 c0",		/* vmread */
		"0f c7 30",		/* vmptrld (%rax) */
		"66 0f 38 82 00",	/* invpcid (%rax),%eax */
	};
	static const char *const unprivileged[] = {
		"90", "0f 05", "cc", "cd 80", "0f 0b", "9c", "9d",
		"0f 01 d0",		/* xgetbv */
		"0f 01 f9",		/* rdtscp */
		"0f 01 e0",		/* smsw %eax */
		"0f 01 00",		/* sgdt (%rax) */
		"0f 00 c0",		/* sldt %eax */
		"0f 31",		/* rdtsc */
		"0f a2",		/* cpuid */
		"66 0f 78 c0 01 02",	/* extrq */
		"0f c7 f0",		/* rdrand */
		"8c d8",		/* mov %ds,%eax (a read) */
		"c5 f8 77",
	};
	struct insn in;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(privileged); i++) {
		in = decode_ok(privileged[i]);
		if (!in.privileged)
			fail_msg("%s: not privileged", privileged[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(unprivileged); i++) {
		in = decode_ok(unprivileged[i]);
		if (in.privileged)
			fail_msg("%s: privileged", unprivileged[i]);
	}
}

static void test_flags(void **state)
{
	struct insn in;

	(void)state;
	in = decode_ok("9c");				/* pushf */
	assert_true(in.pushes_flags);
	assert_false(in.modifies_flags_if);
	in = decode_ok("9d");				/* popf */
	assert_true(in.modifies_flags_if);
	assert_false(in.privileged);
	assert_true(decode_ok("fa").modifies_flags_if);	/* cli */
	assert_true(decode_ok("fb").modifies_flags_if);	/* sti */
	assert_true(decode_ok("48 cf").modifies_flags_if);	/* iretq */
	in = decode_ok("90");
	assert_false(in.modifies_flags_if);
	assert_false(in.pushes_flags);
}

/* ---- Prefixes ---- */

static void test_prefixes(void **state)
{
	struct insn in;

	(void)state;
	in = decode_ok("f0 48 0f b1 0a");		/* lock cmpxchg */
	assert_true(in.lock);
	assert_int_equal(in.prefixes[INSN_PFX_LOCK_REP], 0xf0);
	assert_int_equal(in.rep, 0);
	assert_int_equal(in.rex, 0x48);
	assert_int_equal(in.opcode_len, 2);
	assert_int_equal(in.opcode[0], 0x0f);
	assert_int_equal(in.opcode[1], 0xb1);

	in = decode_ok("65 48 8b 04 25 28 00 00 00");
	assert_int_equal(in.prefixes[INSN_PFX_SEGMENT], 0x65);

	in = decode_ok("66 66 2e 0f 1f 84 00 00 00 00 00");
	assert_int_equal(in.nprefixes, 3);
	assert_int_equal(in.prefixes[INSN_PFX_OPSIZE], 0x66);
	assert_int_equal(in.prefixes[INSN_PFX_SEGMENT], 0x2e);

	in = decode_ok("f3 f0 0f b8 c0");		/* lock popcnt */
	assert_true(in.lock);
	assert_int_equal(in.rep, 0xf3);
	assert_int_equal(in.prefixes[INSN_PFX_LOCK_REP], 0xf0);

	in = decode_ok("f3 0f 1e fa");			/* endbr64 */
	assert_int_equal(in.prefixes[INSN_PFX_LOCK_REP], 0xf3);
	assert_int_equal(in.rep, 0xf3);
	assert_false(in.lock);
	assert_int_equal(in.opcode_len, 2);
	assert_int_equal(in.opcode[1], 0x1e);
	assert_int_equal(in.modrm, 0xfa);
	assert_int_equal(in.flow, INSN_FLOW_NONE);
	assert_false(in.privileged);

	in = decode_ok("66 0f 3a 0f c1 08");		/* palignr */
	assert_int_equal(in.opcode_len, 3);
	assert_int_equal(in.map, 3);
	assert_int_equal(in.imm, 8);

	/* A REX followed by a legacy prefix is ignored by the CPU, so
	 * the instruction is 3 bytes (objdump shows the REX apart). */
	in = decode_ok("48 66 90");
	assert_int_equal(in.rex, 0);

	/* 14 prefixes and an opcode: 15 bytes, the limit. */
	decode_ok("66 66 66 66 66 66 66 66 66 66 66 66 66 66 90");
}

/* ---- VEX, EVEX, XOP ---- */

static void test_vex(void **state)
{
	struct insn in;

	(void)state;
	in = decode_ok("c5 f8 77");			/* vzeroupper */
	assert_true(in.vex);
	assert_int_equal(in.vex_len, 2);
	assert_false(in.has_modrm);
	assert_int_equal(in.map, 1);

	in = decode_ok("c5 f9 6f c1");			/* vmovdqa %xmm1,%xmm0 */
	assert_true(in.has_modrm);
	assert_int_equal(in.opcode[0], 0x6f);

	in = decode_ok("c5 fd 70 c1 1b");		/* vpshufd $0x1b */
	assert_int_equal(in.imm, 0x1b);

	in = decode_ok("c4 e2 79 00 c1");		/* vpshufb */
	assert_int_equal(in.vex_len, 3);
	assert_int_equal(in.map, 2);
	assert_int_equal(in.imm_size, 0);

	in = decode_ok("c4 e3 79 0f c1 08");		/* vpalignr $8 */
	assert_int_equal(in.map, 3);
	assert_int_equal(in.imm, 8);

	decode_ok("c4 e3 fb f0 c1 05");			/* rorx $5,%rcx,%rax */
	decode_ok("c4 e2 78 49 00");			/* ldtilecfg (%rax) */
	decode_ok("c4 62 f9 92 04 48");			/* vgatherdpd (VSIB) */
}

static void test_evex(void **state)
{
	struct insn in;

	(void)state;
	/* vmovdqa32 0x40(%rax),%zmm0: disp8 1, scaled by 64 at run time */
	in = decode_ok("62 f1 7d 48 6f 40 01");
	assert_true(in.vex);
	assert_int_equal(in.vex_len, 4);
	assert_int_equal(in.disp_size, 1);
	assert_int_equal(in.disp, 1);

	in = decode_ok("62 f1 7d 48 6f 05 11 22 33 44");	/* (%rip) */
	assert_true(in.rip_relative);
	assert_int_equal(in.disp_offset, 6);

	in = decode_ok("62 f3 7d 48 0f c1 08");		/* vpalignr, map 3 */
	assert_int_equal(in.imm, 8);
	decode_ok("62 f1 7c 48 c2 c1 01");		/* vcmpltps */
	decode_ok("62 f5 7c 48 58 c1");			/* vaddph, map 5 */
	decode_ok("62 f1 7d 48 6f c0");
}

static void test_xop_and_pop(void **state)
{
	struct insn in;

	(void)state;
	in = decode_ok("8f e8 78 c2 c0 01");		/* vprotd $1, map 8 */
	assert_true(in.vex);
	assert_int_equal(in.map, 8);
	assert_int_equal(in.imm_size, 1);

	in = decode_ok("8f ea 78 10 c0 11 22 33 44");	/* bextr $imm32 */
	assert_int_equal(in.map, 10);
	assert_int_equal(in.imm_size, 4);

	in = decode_ok("8f e9 78 81 c0");		/* vfrczps, map 9 */
	assert_int_equal(in.imm_size, 0);

	/* ModRM.reg = 0: plain pop */
	in = decode_ok("8f c0");			/* pop %rax */
	assert_false(in.vex);
	decode_ok("8f 00");				/* pop (%rax) */
	decode_ok("8f 44 24 08");			/* pop 8(%rsp) */
}

/* ---- Invalid, truncated and over-long ---- */

static void test_invalid(void **state)
{
	static const char *const bad[] = {
		"",
		"06", "07", "0e", "16", "17", "1e", "1f",	/* push/pop seg */
		"27", "2f", "37", "3f",			/* BCD */
		"60", "61",				/* pusha, popa */
		"d4 0a", "d5 0a", "d6",			/* aam, aad, salc */
		"ce",					/* into */
		"82 c0 01",
		"9a 00 00 00 00 00 00",			/* lcall ptr16:32 */
		"ea 00 00 00 00 00 00",			/* ljmp ptr16:32 */
		"c6 08 00",				/* c6 /1 */
		"c7 08 00 00 00 00",			/* c7 /1 */
		"fe 10",				/* fe /2 */
		"ff 38",				/* ff /7 */
		"ff d8",				/* lcall with a register */
		"ff e8",				/* ljmp with a register */
		"0f 00 30",				/* 0f 00 /6 */
		"0f 04", "0f 0a", "0f 0c", "0f 24 c0", "0f 36",
		"0f 39", "0f 3b", "0f 7a c0",
		"0f b8 c0",				/* jmpe */
		"0f ba 00 01",				/* 0f ba /0 */
		"0f 38 ff c0",
		"0f 3a 99 c0 00",
		"c4 e0 79 00 c0",			/* VEX map 0 */
		"c4 e4 79 00 c0",			/* VEX map 4 */
		"66 c5 f9 6f c1",			/* 66 before VEX */
		"f3 c5 f9 6f c1",
		"f0 c5 f9 6f c1",
		"48 c5 f9 6f c1",			/* REX before VEX */
		"62 f9 7d 48 6f c0",			/* EVEX P0 bit 3 */
		"62 f1 79 48 6f c0",			/* EVEX P1 bit 2 */
		"62 f4 7d 48 6f c0",			/* EVEX map 4 */
		"62 f0 7d 48 6f c0",			/* EVEX map 0 */
		"8f e0 78 c2 c0 01",			/* XOP map 0 */
		"8f eb 78 c2 c0 01",			/* XOP map 11 */
		/* near branches with 66: rel16 on AMD, rel32 on Intel */
		"66 e8 00 00",
		"66 e8 00 00 00 00",
		"66 e9 00 00 00 00",
		"66 0f 84 00 00 00 00",
		/* 15 prefixes and an opcode: 16 bytes */
		"66 66 66 66 66 66 66 66 66 66 66 66 66 66 66 90",
		/* 17 bytes: prefixes and a movabs */
		"66 66 66 66 66 66 66 48 b8 00 00 00 00 00 00 00 00",
		/* only prefixes */
		"66", "f0 f3", "48", "66 48",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		decode_bad(bad[i]);
}

/* Trailing bytes after the instruction do not change its decoding. */
static void test_longer_buffer(void **state)
{
	uint8_t buf[32];
	struct insn in;
	static const uint8_t movabs[] = { 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 };

	(void)state;
	memset(buf, 0xcc, sizeof(buf));
	memcpy(buf, movabs, sizeof(movabs));
	assert_int_equal(insn_decode(&in, buf, sizeof(buf)), 0);
	assert_int_equal(in.length, 10);

	/* The whole buffer is prefixes: stops at 15 bytes, not at 32. */
	memset(buf, 0x66, sizeof(buf));
	assert_int_equal(insn_decode(&in, buf, sizeof(buf)), -EILSEQ);

	/* A decoding failure leaves no stale fields behind. */
	assert_int_equal(insn_decode(&in, movabs, sizeof(movabs)), 0);
	assert_int_equal(insn_decode(&in, buf, 0), -EILSEQ);
	assert_int_equal(in.length, 0);
	assert_int_equal(in.imm_size, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_immediates),
		cmocka_unit_test(test_group3),
		cmocka_unit_test(test_modrm_sib),
		cmocka_unit_test(test_rip_relative),
		cmocka_unit_test(test_branches),
		cmocka_unit_test(test_flow_classes),
		cmocka_unit_test(test_flow_names),
		cmocka_unit_test(test_privileged),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_vex),
		cmocka_unit_test(test_evex),
		cmocka_unit_test(test_xop_and_pop),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_longer_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
