/*
 * Selftests of the x86_64 probe back end: each way of running the probed
 * instruction (emulated, boosted, single-stepped) on the instruction kinds
 * that need care, and the instructions that are refused. The fault
 * handler is tested in kernel/probes/tests/kprobes_selftest.c, on probed_load and
 * the other targets this file provides (kernel/probes/tests/probe_selftest_arch.h).
 *
 * The probed code is written in assembly so the tests know exactly which
 * instruction sits at each probed address; .L labels keep those addresses
 * out of the symbol table, and probed_points[] and x86_probed_points[] hand them
 * to C.
 */
#include "kernel/probes/tests/probe_selftest_arch.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/selftest.h"
#include "lib/errno.h"
#include <asm/irq.h>

__asm__(
	".text\n"
	/* long probed_branchy(long x): 1 if x == 0, else 2 (jcc, jmp, ret) */
	".globl probed_branchy\n.type probed_branchy, @function\n"
	"probed_branchy:\n"
	".Lpush:	pushq %rbp\n"
	".Lmov:	movq %rsp, %rbp\n"
	"	testq %rdi, %rdi\n"
	".Ljcc:	je 1f\n"
	".Lmovimm:	movq $2, %rax\n"
	".Ljmp:	jmp 2f\n"
	"1:	movq $1, %rax\n"
	"2:	popq %rbp\n"
	".Lret:	ret\n"
	".size probed_branchy, .-probed_branchy\n"
	/* long x86_probed_loop(long n): counts n iterations of `loop` */
	".globl x86_probed_loop\n.type x86_probed_loop, @function\n"
	"x86_probed_loop:\n"
	"	movq %rdi, %rcx\n"
	"	xorl %eax, %eax\n"
	"1:	incl %eax\n"
	".Lloop:	loop 1b\n"
	"	ret\n"
	".size x86_probed_loop, .-x86_probed_loop\n"
	/* long x86_probed_calls(long (*fn)(long), long x): fn(x) + probed_branchy(0) */
	".globl x86_probed_calls\n.type x86_probed_calls, @function\n"
	"x86_probed_calls:\n"
	"	pushq %rbx\n"
	"	movq %rdi, %rax\n"
	"	movq %rsi, %rdi\n"
	".Lcallind:	call *%rax\n"
	"	movq %rax, %rbx\n"
	"	xorl %edi, %edi\n"
	".Lcallrel:	call probed_branchy\n"
	"	addq %rbx, %rax\n"
	"	popq %rbx\n"
	"	ret\n"
	".size x86_probed_calls, .-x86_probed_calls\n"
	/* long x86_probed_riprel(void): loads x86_probed_value through %rip */
	".globl x86_probed_riprel\n.type x86_probed_riprel, @function\n"
	"x86_probed_riprel:\n"
	".Lriprel:	movq x86_probed_value(%rip), %rax\n"
	"	ret\n"
	".size x86_probed_riprel, .-x86_probed_riprel\n"
	/* unsigned long x86_probed_flags(void): the flags, as pushf sees them */
	".globl x86_probed_flags\n.type x86_probed_flags, @function\n"
	"x86_probed_flags:\n"
	".Lpushf:	pushfq\n"
	"	popq %rax\n"
	"	ret\n"
	".size x86_probed_flags, .-x86_probed_flags\n"
	/* void x86_probed_set_carry(void): returns with the carry flag set */
	".globl x86_probed_set_carry\n.type x86_probed_set_carry, @function\n"
	"x86_probed_set_carry:\n"
	"	stc\n"
	"	ret\n"
	".size x86_probed_set_carry, .-x86_probed_set_carry\n"
	/* long probed_load(const char *p): *p, or -EFAULT through a fix-up */
	".globl probed_load\n.type probed_load, @function\n"
	"probed_load:\n"
	"	movq $-14, %rax\n"
	".Lload:	movzbq (%rdi), %rax\n"
	".Lload_end:	ret\n"
	".size probed_load, .-probed_load\n"
	".pushsection .ex_table, \"a\"\n.balign 8\n.quad .Lload, .Lload_end\n.popsection\n"
	/* Never called: instructions that must not be probed. */
	".globl x86_probed_refused\n.type x86_probed_refused, @function\n"
	"x86_probed_refused:\n"
	".Lhlt:	hlt\n"
	".Lint3:	int3\n"
	".Lcli:	cli\n"
	".Lsti:	sti\n"
	".Liret:	iretq\n"
	".Lcr3:	movq %cr3, %rax\n"
	".Lsysret:	sysretq\n"
	".Lud2:	ud2\n"
	".Lxbegin:	xbegin 1f\n"
	"1:\n"
	".size x86_probed_refused, .-x86_probed_refused\n"
	/* Never called: VEX-encoded instructions whose last opcode byte is
	 * that of a push (57: push %rdi) and of a nop (90). */
	".globl x86_probed_vex\n.type x86_probed_vex, @function\n"
	"x86_probed_vex:\n"
	".Lvxorps:	vxorps %xmm0, %xmm0, %xmm0\n"
	".Lkmovw:	kmovw %k1, %k0\n"
	".size x86_probed_vex, .-x86_probed_vex\n"
	".section .rodata\n.balign 8\n"
	".globl probed_points\n.type probed_points, @object\n"
	"probed_points:\n"
	"	.quad .Lmovimm, .Lload\n"
	".size probed_points, .-probed_points\n"
	".globl x86_probed_points\n.type x86_probed_points, @object\n"
	"x86_probed_points:\n"
	"	.quad .Lpush, .Lmov, .Ljcc, .Ljmp, .Lret, .Lloop\n"
	"	.quad .Lcallind, .Lcallrel, .Lriprel, .Lpushf, .Lvxorps, .Lkmovw\n"
	"	.quad .Lhlt, .Lint3, .Lcli, .Lsti, .Liret, .Lcr3, .Lsysret, .Lud2, .Lxbegin\n"
	".size x86_probed_points, .-x86_probed_points\n"
	".text\n");

enum {
	P_PUSH, P_MOV, P_JCC, P_JMP, P_RET, P_LOOP, P_CALLIND, P_CALLREL,
	P_RIPREL, P_PUSHF, P_VXORPS, P_KMOVW, P_FIRST_REFUSED,
	P_NPOINTS = P_FIRST_REFUSED + 9
};

extern const uintptr_t x86_probed_points[P_NPOINTS];
long x86_probed_loop(long n);
long x86_probed_calls(long (*fn)(long), long x);
long x86_probed_riprel(void);
unsigned long x86_probed_flags(void);
void x86_probed_set_carry(void);
long x86_probed_value = 0x1234567890L;

/* Call through volatile pointers so the calls really happen. */
static long (*volatile branchy)(long) = probed_branchy;
static long (*volatile loop_fn)(long) = x86_probed_loop;
static long (*volatile calls)(long (*)(long), long) = x86_probed_calls;
static long (*volatile riprel)(void) = x86_probed_riprel;
static unsigned long (*volatile flags_fn)(void) = x86_probed_flags;
static void (*volatile set_carry)(void) = x86_probed_set_carry;

bool probe_test_is_data_fault(const struct pt_regs *regs, int trapnr)
{
	(void)regs;
	return trapnr == 14;	/* the page fault vector */
}

bool probe_test_irqs_enabled(void)
{
	return x86_probed_flags() & X86_RFLAGS_IF;
}

static void function_entry_is_emulated(void)
{
	struct kprobe a, b;

	EXPECT(probe_test_at(&a, x86_probed_points[P_PUSH], false));
	/* emulated even with a post-handler */
	EXPECT(probe_test_at(&b, x86_probed_points[P_MOV], true));
	EXPECT_EQ(branchy(0), 1);
	EXPECT_EQ(branchy(5), 2);
	EXPECT_EQ(kprobe_nhit(&a), 2);
	EXPECT_EQ(probe_test_path_count(&a, PROBE_EXEC_EMULATE), 2);
	EXPECT_EQ(probe_test_path_count(&b, PROBE_EXEC_EMULATE), 2);
	unregister_kprobe(&a);
	unregister_kprobe(&b);
}

static void branches_are_emulated(void)
{
	struct kprobe jcc, jmp, ret, loop, callrel;

	EXPECT(probe_test_at(&jcc, x86_probed_points[P_JCC], false));
	EXPECT(probe_test_at(&jmp, x86_probed_points[P_JMP], false));
	EXPECT(probe_test_at(&ret, x86_probed_points[P_RET], false));
	EXPECT(probe_test_at(&loop, x86_probed_points[P_LOOP], false));
	EXPECT(probe_test_at(&callrel, x86_probed_points[P_CALLREL], false));
	EXPECT_EQ(branchy(0), 1);	/* jcc taken */
	EXPECT_EQ(branchy(7), 2);	/* jcc not taken, then jmp */
	EXPECT_EQ(kprobe_nhit(&jcc), 2);
	EXPECT_EQ(probe_test_path_count(&jcc, PROBE_EXEC_EMULATE), 2);
	EXPECT_EQ(kprobe_nhit(&jmp), 1);
	EXPECT_EQ(kprobe_nhit(&ret), 2);
	EXPECT_EQ(loop_fn(5), 5);
	EXPECT_EQ(kprobe_nhit(&loop), 5);
	EXPECT_EQ(calls(probed_branchy, 3), 2 + 1);
	EXPECT_EQ(kprobe_nhit(&callrel), 1);
	EXPECT_EQ(probe_test_path_count(&callrel, PROBE_EXEC_EMULATE), 1);
	unregister_kprobe(&jcc);
	unregister_kprobe(&jmp);
	unregister_kprobe(&ret);
	unregister_kprobe(&loop);
	unregister_kprobe(&callrel);
}

static void boosted_without_post_handler(void)
{
	struct kprobe kp, rip;

	EXPECT(probe_test_at(&kp, probed_points[PROBED_MOVIMM], false));
	EXPECT(probe_test_at(&rip, x86_probed_points[P_RIPREL], false));
	EXPECT_EQ(branchy(9), 2);
	EXPECT_EQ(riprel(), 0x1234567890L);
	EXPECT_EQ(probe_test_path_count(&kp, PROBE_EXEC_BOOST), 1);
	EXPECT_EQ(probe_test_path_count(&rip, PROBE_EXEC_BOOST), 1);
	unregister_kprobe(&kp);
	unregister_kprobe(&rip);
}

static void stepped_with_post_handler(void)
{
	struct kprobe kp, rip, ind;

	EXPECT(probe_test_at(&kp, probed_points[PROBED_MOVIMM], true));
	EXPECT(probe_test_at(&rip, x86_probed_points[P_RIPREL], true));
	EXPECT(probe_test_at(&ind, x86_probed_points[P_CALLIND], true));
	EXPECT_EQ(branchy(9), 2);
	EXPECT_EQ(riprel(), 0x1234567890L);
	EXPECT_EQ(calls(x86_probed_loop, 4), 4 + 1);	/* the return address was fixed */
	EXPECT_EQ(probe_test_path_count(&kp, PROBE_EXEC_STEP), 1);
	EXPECT_EQ(probe_test_path_count(&rip, PROBE_EXEC_STEP), 1);
	EXPECT_EQ(probe_test_path_count(&ind, PROBE_EXEC_STEP), 1);
	unregister_kprobe(&kp);
	unregister_kprobe(&rip);
	unregister_kprobe(&ind);
}

static void pushf_does_not_leak_the_trap_flag(void)
{
	struct kprobe kp;
	unsigned long before = flags_fn(), after;

	EXPECT(probe_test_at(&kp, x86_probed_points[P_PUSHF], true));
	after = flags_fn();
	EXPECT_EQ(probe_test_path_count(&kp, PROBE_EXEC_STEP), 1);
	EXPECT_EQ(after & (1UL << 8), 0);			/* TF */
	EXPECT_EQ(after & (1UL << 9), before & (1UL << 9));	/* IF */
	unregister_kprobe(&kp);
}

static void unsafe_instructions_are_refused(void)
{
	for (int i = P_FIRST_REFUSED; i < P_NPOINTS; i++) {
		struct kprobe kp = { .addr = (uint8_t *)x86_probed_points[i] };

		EXPECT_EQ(register_kprobe(&kp), -EINVAL);
	}
}

#define X86_RFLAGS_CF (1UL << 0)

static unsigned long seen_return_flags;

static int note_return_flags(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	seen_return_flags = regs->rflags;
	return 0;
}

/* The trampoline saves the flags the function returned with before any
 * instruction of its own changes them. */
static void kretprobe_sees_the_returned_flags(void)
{
	struct kretprobe rp = { .kp.addr = (uint8_t *)x86_probed_set_carry,
				.handler = note_return_flags };

	seen_return_flags = 0;
	EXPECT_EQ(register_kretprobe(&rp), 0);
	set_carry();
	EXPECT(seen_return_flags & X86_RFLAGS_CF);
	unregister_kretprobe(&rp);
}

/* The decoder keeps only the last opcode byte of a VEX instruction: it
 * must not be taken for the legacy instruction with that byte. */
static void vex_instructions_are_not_emulated(void)
{
	static const int points[] = { P_VXORPS, P_KMOVW };

	for (size_t i = 0; i < ARRAY_SIZE(points); i++) {
		struct kprobe kp;

		EXPECT(probe_test_at(&kp, x86_probed_points[points[i]], false));
		EXPECT(probe_test_exec_path(&kp) != PROBE_EXEC_EMULATE);
		unregister_kprobe(&kp);
	}
}

static const struct selftest_case x86_probe_cases[] = {
	SELFTEST_CASE(function_entry_is_emulated),
	SELFTEST_CASE(branches_are_emulated),
	SELFTEST_CASE(boosted_without_post_handler),
	SELFTEST_CASE(stepped_with_post_handler),
	SELFTEST_CASE(pushf_does_not_leak_the_trap_flag),
	SELFTEST_CASE(unsafe_instructions_are_refused),
	SELFTEST_CASE(vex_instructions_are_not_emulated),
	SELFTEST_CASE(kretprobe_sees_the_returned_flags),
};
SELFTEST_SUITE("kprobes-x86", x86_probe_cases);
