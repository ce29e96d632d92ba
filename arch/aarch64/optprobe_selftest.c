/*
 * Selftests of the jump optimizer on aarch64: a safe point is optimized
 * and its handler sees the registers a breakpoint would show; every kind
 * of instruction the detour relocates gives the same result optimized as
 * not; the flags and the interrupt mask survive the detour; each check
 * refuses the function built to fail it; the detour buffer's copy, which
 * a breakpoint hit runs while a point is READY, runs the instruction; and
 * unoptimized text is identical to the original. What unoptimizes a point
 * on every architecture (post-handlers, jprobes, disable/enable and the
 * knobs) and that a handler's change to pc is ignored are tested in
 * kernel/probes/tests/optimizer_selftest.c, on opt_probed_sum and the B decoding this
 * file provides (kernel/probes/tests/probe_selftest_arch.h).
 *
 * Not here, unlike x86 (arch/x86_64/optprobe_selftest.c):
 *   - a probe inside the region: the region is the probed instruction
 *     alone, so a second probe there shares the point;
 *   - a thread stopped inside the region delaying the patch: the only
 *     addresses that part of the wait is about, addr+1 to addr+3, are
 *     never an aarch64 pc. The point can still wait at READY while a
 *     thread is stopped anywhere in the executable region (optimizer.c),
 *     and a hit then runs the detour buffer's copy:
 *     detour_copy_runs_the_instruction tests that path;
 *   - the refusals "detour buffers out of a B's reach" and "branch target
 *     out of a B's reach": the layout puts all kernel text and the
 *     executable region within a B's reach of each other (asm/layout.h),
 *     so no test function can fail them.
 */
#include "kernel/arch.h"
#include "kernel/probes/tests/probe_selftest_arch.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include <asm/irq.h>
#include <asm/sysreg.h>

__asm__(
	".text\n"
	/* long opt_probed_sum(long a, long b): a + b + 1 */
	".globl opt_probed_sum\n.type opt_probed_sum, %function\n"
	"opt_probed_sum:\n"
	"	add x0, x0, x1\n"
	"	add x0, x0, #1\n"
	".Lopt_sum_ret:\n"
	"	ret\n"
	".size opt_probed_sum, .-opt_probed_sum\n"
	/* long opt_probed_call_sum(long a, long b, uint64_t out[2]): opt_probed_sum(a, b),
	 * with out[0] = sp and out[1] = the return address at opt_probed_sum's entry. */
	".globl opt_probed_call_sum\n.type opt_probed_call_sum, %function\n"
	"opt_probed_call_sum:\n"
	"	stp x29, x30, [sp, #-16]!\n"
	"	mov x29, sp\n"
	"	mov x9, sp\n"
	"	adr x10, 1f\n"
	"	stp x9, x10, [x2]\n"
	"	bl opt_probed_sum\n"
	"1:	ldp x29, x30, [sp], #16\n"
	"	ret\n"
	".size opt_probed_call_sum, .-opt_probed_call_sum\n"
	/* long opt_probed_sp(void): sp, read by the probed mov */
	".globl opt_probed_sp\n.type opt_probed_sp, %function\n"
	"opt_probed_sp:\n"
	"	mov x0, sp\n"
	"	ret\n"
	".size opt_probed_sp, .-opt_probed_sp\n"
	/* long opt_probed_adr(void): the address of a label */
	".globl opt_probed_adr\n.type opt_probed_adr, %function\n"
	"opt_probed_adr:\n"
	"	adr x0, 1f\n"
	"	ret\n"
	"1:	ret\n"
	".size opt_probed_adr, .-opt_probed_adr\n"
	/* long opt_probed_adrp(void): &opt_probed_value, through adrp + add */
	".globl opt_probed_adrp\n.type opt_probed_adrp, %function\n"
	"opt_probed_adrp:\n"
	"	adrp x0, opt_probed_value\n"
	"	add x0, x0, :lo12:opt_probed_value\n"
	"	ret\n"
	".size opt_probed_adrp, .-opt_probed_adrp\n"
	/* Literal loads: 64-bit, 32-bit zero-extended, 32-bit sign-extended. */
	".globl opt_probed_ldr_x\n.type opt_probed_ldr_x, %function\n"
	"opt_probed_ldr_x:\n"
	"	ldr x0, .Lopt_lit64\n"
	"	ret\n"
	".size opt_probed_ldr_x, .-opt_probed_ldr_x\n"
	".globl opt_probed_ldr_w\n.type opt_probed_ldr_w, %function\n"
	"opt_probed_ldr_w:\n"
	"	ldr w0, .Lopt_lit32\n"
	"	ret\n"
	".size opt_probed_ldr_w, .-opt_probed_ldr_w\n"
	".globl opt_probed_ldrsw\n.type opt_probed_ldrsw, %function\n"
	"opt_probed_ldrsw:\n"
	"	ldrsw x0, .Lopt_lit32\n"
	"	ret\n"
	".size opt_probed_ldrsw, .-opt_probed_ldrsw\n"
	"	.balign 8\n"
	".Lopt_lit64:	.quad 0x0123456789abcdef\n"
	".Lopt_lit32:	.word 0x80000010\n"
	/* long opt_probed_b(long x): x + 5, after a b over a mov */
	".globl opt_probed_b\n.type opt_probed_b, %function\n"
	"opt_probed_b:\n"
	"	b 1f\n"
	"	mov x0, #0\n"
	"1:	add x0, x0, #5\n"
	"	ret\n"
	".size opt_probed_b, .-opt_probed_b\n"
	/* long opt_probed_bl(long x): opt_probed_sum(x, 2) + 100, the bl probed */
	".globl opt_probed_bl\n.type opt_probed_bl, %function\n"
	"opt_probed_bl:\n"
	"	stp x29, x30, [sp, #-16]!\n"
	"	mov x29, sp\n"
	"	mov x1, #2\n"
	".Lopt_bl:\n"
	"	bl opt_probed_sum\n"
	"	add x0, x0, #100\n"
	"	ldp x29, x30, [sp], #16\n"
	"	ret\n"
	".size opt_probed_bl, .-opt_probed_bl\n"
	/* long opt_probed_less(long a, long b): a < b, the b.lt probed */
	".globl opt_probed_less\n.type opt_probed_less, %function\n"
	"opt_probed_less:\n"
	"	cmp x0, x1\n"
	".Lopt_bcond:\n"
	"	b.lt 1f\n"
	"	mov x0, #0\n"
	"	ret\n"
	"1:	mov x0, #1\n"
	"	ret\n"
	".size opt_probed_less, .-opt_probed_less\n"
	/* long opt_probed_cbz(long x): 1 if x == 0, else 2 */
	".globl opt_probed_cbz\n.type opt_probed_cbz, %function\n"
	"opt_probed_cbz:\n"
	"	cbz x0, 1f\n"
	"	mov x0, #2\n"
	"	ret\n"
	"1:	mov x0, #1\n"
	"	ret\n"
	".size opt_probed_cbz, .-opt_probed_cbz\n"
	/* long opt_probed_cbnz(long x): 20 if (int)x != 0, else 10 */
	".globl opt_probed_cbnz\n.type opt_probed_cbnz, %function\n"
	"opt_probed_cbnz:\n"
	"	cbnz w0, 1f\n"
	"	mov x0, #10\n"
	"	ret\n"
	"1:	mov x0, #20\n"
	"	ret\n"
	".size opt_probed_cbnz, .-opt_probed_cbnz\n"
	/* long opt_probed_tbz(long x): 0 if bit 3 of x is clear, else 8 */
	".globl opt_probed_tbz\n.type opt_probed_tbz, %function\n"
	"opt_probed_tbz:\n"
	"	tbz x0, #3, 1f\n"
	"	mov x0, #8\n"
	"	ret\n"
	"1:	mov x0, #0\n"
	"	ret\n"
	".size opt_probed_tbz, .-opt_probed_tbz\n"
	/* long opt_probed_tbnz(long x): 1 if bit 40 of x is set, else 0 */
	".globl opt_probed_tbnz\n.type opt_probed_tbnz, %function\n"
	"opt_probed_tbnz:\n"
	"	tbnz x0, #40, 1f\n"
	"	mov x0, #0\n"
	"	ret\n"
	"1:	mov x0, #1\n"
	"	ret\n"
	".size opt_probed_tbnz, .-opt_probed_tbnz\n"
	/* long opt_probed_br(long x): x + 5, through br */
	".globl opt_probed_br\n.type opt_probed_br, %function\n"
	"opt_probed_br:\n"
	"	adr x1, 1f\n"
	".Lopt_br:\n"
	"	br x1\n"
	"	mov x0, #0\n"
	"1:	add x0, x0, #5\n"
	"	ret\n"
	".size opt_probed_br, .-opt_probed_br\n"
	/* long opt_probed_nop(void): 7 */
	".globl opt_probed_nop\n.type opt_probed_nop, %function\n"
	"opt_probed_nop:\n"
	"	nop\n"
	"	mov x0, #7\n"
	"	ret\n"
	".size opt_probed_nop, .-opt_probed_nop\n"
	/* long opt_probed_flags(long a, long b): a < b, with a probed add between
	 * the cmp and the cset that reads its flags */
	".globl opt_probed_flags\n.type opt_probed_flags, %function\n"
	"opt_probed_flags:\n"
	"	cmp x0, x1\n"
	".Lopt_flags:\n"
	"	add x2, x2, #1\n"
	"	cset x0, lt\n"
	"	ret\n"
	".size opt_probed_flags, .-opt_probed_flags\n"
	/* unsigned long opt_probed_daif(void): DAIF, read by the probed mrs */
	".globl opt_probed_daif\n.type opt_probed_daif, %function\n"
	"opt_probed_daif:\n"
	"	mrs x0, daif\n"
	"	ret\n"
	".size opt_probed_daif, .-opt_probed_daif\n"
	/* Never called: a call through a register at the entry (its return
	 * address would be the detour buffer's), as `opt_probed_indirect` for the
	 * boot test probe_optimizer. */
	".globl opt_probed_indirect\n.type opt_probed_indirect, %function\n"
	"opt_probed_indirect:\n"
	"	blr x2\n"
	"	ret\n"
	".size opt_probed_indirect, .-opt_probed_indirect\n"
	/* long opt_probed_load(const char *p): *p, or -EFAULT through a fix-up */
	".globl opt_probed_load\n.type opt_probed_load, %function\n"
	"opt_probed_load:\n"
	"	mov x1, x0\n"
	"	mov x0, #-14\n"
	".Lopt_load:\n"
	"	ldrb w0, [x1]\n"
	".Lopt_load_end:\n"
	"	ret\n"
	".size opt_probed_load, .-opt_probed_load\n"
	".pushsection .ex_table, \"a\"\n.balign 8\n.quad .Lopt_load, .Lopt_load_end\n.popsection\n"
	".section .rodata\n.balign 8\n"
	".globl opt_probed_points\n.type opt_probed_points, %object\n"
	"opt_probed_points:\n"
	"	.quad .Lopt_sum_ret, .Lopt_bl, .Lopt_bcond, .Lopt_br, .Lopt_flags, .Lopt_load\n"
	".size opt_probed_points, .-opt_probed_points\n"
	".text\n");

enum { P_SUM_RET, P_BL, P_BCOND, P_BR, P_FLAGS, P_LOAD };
extern const uintptr_t opt_probed_points[6];
long opt_probed_value = 42;

long opt_probed_call_sum(long a, long b, uint64_t out[2]);
long opt_probed_sp(long, long);
long opt_probed_adr(long, long);
long opt_probed_adrp(long, long);
long opt_probed_ldr_x(long, long);
long opt_probed_ldr_w(long, long);
long opt_probed_ldrsw(long, long);
long opt_probed_b(long, long);
long opt_probed_bl(long, long);
long opt_probed_less(long, long);
long opt_probed_cbz(long, long);
long opt_probed_cbnz(long, long);
long opt_probed_tbz(long, long);
long opt_probed_tbnz(long, long);
long opt_probed_br(long, long);
long opt_probed_nop(long, long);
long opt_probed_flags(long, long);
unsigned long opt_probed_daif(void);
void opt_probed_indirect(void);

static long (*volatile sum)(long, long) = opt_probed_sum;

#define B_MASK 0xfc000000
#define B_OPCODE 0x14000000

static uint32_t word_at(uintptr_t addr)
{
	return *(volatile uint32_t *)addr;
}

/* Where the B at addr goes (26-bit signed word offset), or 0 if addr
 * holds no B. */
uintptr_t probe_test_jump_target(uintptr_t addr)
{
	uint32_t insn = word_at(addr);
	int64_t words = (int64_t)((uint64_t)(insn & 0x03ffffff) << 38) >> 38;

	if ((insn & B_MASK) != B_OPCODE)
		return 0;
	return addr + words * 4;
}

static struct pt_regs seen;
static uint64_t seen_daif;
static unsigned int seen_preempt_count;
static int seen_hits;

static int record_regs(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	seen = *regs;
	seen_daif = read_sysreg(daif);
	seen_preempt_count = current_thread()->preempt_count;
	seen_hits++;
	return 0;
}

static void safe_point_is_optimized_and_fires(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_sum, .pre_handler = record_regs };
	uint32_t before = word_at((uintptr_t)opt_probed_sum);
	uint64_t at_entry[2];
	unsigned long flags;
	long masked_sum;

	seen_hits = 0;
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	EXPECT(kp.flags & KPROBE_FLAG_OPTIMIZED);
	EXPECT(probe_test_jumps_to_detour(&kp));
	EXPECT_EQ(opt_probed_call_sum(30, 12, at_entry), 43);
	EXPECT_EQ(seen_hits, 1);
	EXPECT_EQ(seen.regs[0], 30);
	EXPECT_EQ(seen.regs[1], 12);
	EXPECT_EQ(seen.pc, (uintptr_t)opt_probed_sum);		/* at the probe, as for a BRK */
	EXPECT_EQ(seen.sp, at_entry[0]);
	EXPECT_EQ(seen.regs[30], at_entry[1]);		/* the return address */
	EXPECT_EQ(seen.pstate & 0xf, PSR_MODE_EL1H);
	EXPECT_EQ(ESR_EC(seen.esr), EC_BRK64);		/* as the breakpoint's */
	/* The handler is not preemptible, but interrupts stay as the probed
	 * code had them: on here, off when called with them off. */
	EXPECT_EQ(seen_preempt_count, 1);
	EXPECT(!(seen_daif & PSR_I));
	EXPECT(!(seen.pstate & PSR_I));
	EXPECT_EQ(current_thread()->preempt_count, 0);
	EXPECT_EQ(probe_test_opt_hits(&kp), 1);
	flags = arch_irq_save();
	masked_sum = opt_probed_call_sum(1, 2, at_entry);
	arch_irq_restore(flags);
	EXPECT_EQ(masked_sum, 4);
	EXPECT(seen_daif & PSR_I);
	EXPECT(seen.pstate & PSR_I);
	EXPECT_EQ(seen_hits, 2);
	unregister_kprobe(&kp);
	EXPECT_EQ(word_at((uintptr_t)opt_probed_sum), before);
	EXPECT_EQ(sum(1, 1), 3);
}

/* One relocated instruction: the function, the probed address, the
 * arguments. */
struct relocation_case {
	const char *what;
	long (*fn)(long, long);
	uintptr_t addr;		/* 0: the function's entry */
	long a, b;
};

/* The same call site for both runs, so opt_probed_sp sees the same sp. */
static __attribute__((noinline)) long call_case(const struct relocation_case *c)
{
	return c->fn(c->a, c->b);
}

/* EXPECT, naming the case that failed. */
#define EXPECT_IN_CASE(c, cond)                                                 \
	do {                                                                   \
		if (!(cond))                                                   \
			selftest_fail(__FILE__, __LINE__, "%s: expected %s",  \
				      (c)->what, #cond);                       \
	} while (0)

static void run_relocation_case(const struct relocation_case *c)
{
	uintptr_t addr = c->addr ? c->addr : (uintptr_t)c->fn;
	struct kprobe kp = { .addr = (uint8_t *)addr, .pre_handler = record_regs };
	uint32_t before = word_at(addr);
	long want = call_case(c);

	seen_hits = 0;
	EXPECT_IN_CASE(c, register_kprobe(&kp) == 0);
	EXPECT_IN_CASE(c, probe_test_settle(&kp) == OPT_OPTIMIZED);
	EXPECT_IN_CASE(c, probe_test_jumps_to_detour(&kp));
	EXPECT_IN_CASE(c, call_case(c) == want);
	EXPECT_IN_CASE(c, seen_hits == 1);
	EXPECT_IN_CASE(c, probe_test_opt_hits(&kp) == 1);
	EXPECT_IN_CASE(c, seen.pc == addr);
	unregister_kprobe(&kp);
	EXPECT_IN_CASE(c, word_at(addr) == before);	/* byte-identical again */
	EXPECT_IN_CASE(c, call_case(c) == want);
}

static void each_relocation_runs_like_the_original(void)
{
	const struct relocation_case cases[] = {
		{ "add (copied)", opt_probed_sum, 0, 30, 12 },
		{ "mov x0, sp (copied)", opt_probed_sp, 0, 0, 0 },
		{ "adr", opt_probed_adr, 0, 0, 0 },
		{ "adrp", opt_probed_adrp, 0, 0, 0 },
		{ "ldr x (literal)", opt_probed_ldr_x, 0, 0, 0 },
		{ "ldr w (literal)", opt_probed_ldr_w, 0, 0, 0 },
		{ "ldrsw (literal)", opt_probed_ldrsw, 0, 0, 0 },
		{ "b", opt_probed_b, 0, 10, 0 },
		{ "bl", opt_probed_bl, opt_probed_points[P_BL], 10, 0 },
		{ "b.lt taken", opt_probed_less, opt_probed_points[P_BCOND], 1, 2 },
		{ "b.lt not taken", opt_probed_less, opt_probed_points[P_BCOND], 2, 1 },
		{ "cbz taken", opt_probed_cbz, 0, 0, 0 },
		{ "cbz not taken", opt_probed_cbz, 0, 5, 0 },
		{ "cbnz taken", opt_probed_cbnz, 0, 3, 0 },
		{ "cbnz not taken", opt_probed_cbnz, 0, 1L << 32, 0 },
		{ "tbz taken", opt_probed_tbz, 0, 7, 0 },
		{ "tbz not taken", opt_probed_tbz, 0, 8, 0 },
		{ "tbnz taken", opt_probed_tbnz, 0, 1L << 40, 0 },
		{ "tbnz not taken", opt_probed_tbnz, 0, 1L << 39, 0 },
		{ "br (copied)", opt_probed_br, opt_probed_points[P_BR], 10, 0 },
		{ "ret (copied)", opt_probed_sum, opt_probed_points[P_SUM_RET], 1, 2 },
		{ "nop (dropped)", opt_probed_nop, 0, 0, 0 },
		{ "flags kept: cmp; <add>; cset lt", opt_probed_flags, opt_probed_points[P_FLAGS],
		  1, 2 },
		{ "flags kept, the other way", opt_probed_flags, opt_probed_points[P_FLAGS],
		  2, 1 },
	};

	EXPECT_EQ(opt_probed_adrp(0, 0), (long)&opt_probed_value);
	EXPECT_EQ(opt_probed_ldr_w(0, 0), 0x80000010L);
	EXPECT_EQ(opt_probed_ldrsw(0, 0), (long)(int32_t)0x80000010);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_relocation_case(&cases[i]);
}

/* The copied mrs reads the caller's mask, not the detour's. */
static void interrupt_mask_survives(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_daif, .pre_handler = record_regs };
	unsigned long on = opt_probed_daif(), off, flags;

	flags = arch_irq_save();
	off = opt_probed_daif();
	arch_irq_restore(flags);
	EXPECT(!(on & PSR_I));
	EXPECT(off & PSR_I);
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	EXPECT_EQ(opt_probed_daif(), on);
	flags = arch_irq_save();
	EXPECT_EQ(opt_probed_daif(), off);
	arch_irq_restore(flags);
	EXPECT_EQ(probe_test_opt_hits(&kp), 2);
	unregister_kprobe(&kp);
}

static void each_check_refuses(void)
{
	probe_test_expect_refused((uintptr_t)opt_probed_indirect,
				  "call through a register in region at",
				  (uintptr_t)opt_probed_indirect);
	probe_test_expect_refused(opt_probed_points[P_LOAD], "exception fix-up at",
				  opt_probed_points[P_LOAD]);
}

/*
 * A breakpoint hit on a READY or OPTIMIZED point resumes in the detour
 * buffer's copy (choose_exec, PROBE_EXEC_DETOUR): pc moves to
 * pp->detour_copy. On aarch64 no hit can meet that state (see the top of
 * this file), so test its two halves: a hit would take that path, and
 * the copy - called here like opt_probed_sum itself - runs the probed add and
 * branches back into opt_probed_sum, without the handler.
 */
static void detour_copy_runs_the_instruction(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_sum, .pre_handler = record_regs };
	long (*copy)(long, long);

	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	EXPECT_EQ(probe_test_exec_path(&kp), PROBE_EXEC_DETOUR);
	EXPECT(kp.point->detour_copy > kp.point->detour &&
	       kp.point->detour_copy < kp.point->detour + ARCH_DETOUR_SIZE);
	copy = (long (*)(long, long))kp.point->detour_copy;
	seen_hits = 0;
	EXPECT_EQ(copy(20, 22), 43);
	EXPECT_EQ(seen_hits, 0);
	unregister_kprobe(&kp);
}

static const struct selftest_case optprobe_cases[] = {
	SELFTEST_CASE(safe_point_is_optimized_and_fires),
	SELFTEST_CASE(each_relocation_runs_like_the_original),
	SELFTEST_CASE(interrupt_mask_survives),
	SELFTEST_CASE(each_check_refuses),
	SELFTEST_CASE(detour_copy_runs_the_instruction),
};
SELFTEST_SUITE("optprobes-aarch64", optprobe_cases);
