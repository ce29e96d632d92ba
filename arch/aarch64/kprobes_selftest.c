/*
 * Selftests of the aarch64 probe back end: every emulated instruction
 * class (a function prologue's stores through sp and add/sub included),
 * boosted and stepped instructions, the interrupt mask around a step,
 * the instructions that are refused, and kretprobes and the jprobe
 * return where aarch64 differs. The fault handler during a stepped load is tested in
 * kernel/probes/tests/kprobes_selftest.c, on probed_load and the other targets this
 * file provides (kernel/probes/tests/probe_selftest_arch.h).
 *
 * The probed code is written in assembly so the tests know exactly which
 * instruction sits at each probed address; .L labels keep those addresses
 * out of the symbol table, and probed_points[] and a64_probed_points[] hand them to
 * C. Each test runs the code with and without probes and compares: an
 * emulated instruction must do exactly what the real one does.
 */
#include "kernel/probes/tests/probe_selftest_arch.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/selftest.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/irq.h>
#include <asm/sysreg.h>

__asm__(
	".text\n"
	/* long probed_branchy(long x): 1 if x == 0, else 2 (cbz, b, ret) */
	".globl probed_branchy\n.type probed_branchy, %function\n"
	"probed_branchy:\n"
	".Lstp:	stp x29, x30, [sp, #-16]!\n"
	".Lmovfp:	mov x29, sp\n"
	".Lcbz:	cbz x0, 1f\n"
	".Lmovimm:	mov x0, #2\n"
	".Lb:	b 2f\n"
	"1:	mov x0, #1\n"
	"2:	ldp x29, x30, [sp], #16\n"
	".Lret:	ret\n"
	".size probed_branchy, .-probed_branchy\n"
	/* long a64_probed_cbnz(long x): 20 if x != 0, else 10 */
	".globl a64_probed_cbnz\n.type a64_probed_cbnz, %function\n"
	"a64_probed_cbnz:\n"
	".Lcbnz:	cbnz w0, 1f\n"
	"	mov x0, #10\n"
	"	ret\n"
	"1:	mov x0, #20\n"
	"	ret\n"
	".size a64_probed_cbnz, .-a64_probed_cbnz\n"
	/* long a64_probed_bits(long x): (bit 3 of x ? 8 : 0) + (bit 40 of x ? 1 : 0) */
	".globl a64_probed_bits\n.type a64_probed_bits, %function\n"
	"a64_probed_bits:\n"
	".Ltbz:	tbz x0, #3, 1f\n"
	"	mov x1, #8\n"
	"	b 2f\n"
	"1:	mov x1, #0\n"
	"2:\n"
	".Ltbnz:	tbnz x0, #40, 3f\n"
	"	mov x0, x1\n"
	"	ret\n"
	"3:	add x0, x1, #1\n"
	"	ret\n"
	".size a64_probed_bits, .-a64_probed_bits\n"
	/* long a64_probed_less(long a, long b): a < b (b.lt) */
	".globl a64_probed_less\n.type a64_probed_less, %function\n"
	"a64_probed_less:\n"
	"	cmp x0, x1\n"
	".Lbcond:	b.lt 1f\n"
	"	mov x0, #0\n"
	"	ret\n"
	"1:	mov x0, #1\n"
	"	ret\n"
	".size a64_probed_less, .-a64_probed_less\n"
	/* uintptr_t a64_probed_adr(void): the address of .Ladr_target */
	".globl a64_probed_adr\n.type a64_probed_adr, %function\n"
	"a64_probed_adr:\n"
	".Ladr:	adr x0, .Ladr_target\n"
	"	ret\n"
	".Ladr_target:	ret\n"
	".size a64_probed_adr, .-a64_probed_adr\n"
	/* long *a64_probed_adrp(void): &a64_probed_value, through adrp + add */
	".globl a64_probed_adrp\n.type a64_probed_adrp, %function\n"
	"a64_probed_adrp:\n"
	".Ladrp:	adrp x0, a64_probed_value\n"
	"	add x0, x0, :lo12:a64_probed_value\n"
	"	ret\n"
	".size a64_probed_adrp, .-a64_probed_adrp\n"
	/* Literal loads: 64-bit, 32-bit zero-extended, 32-bit sign-extended. */
	".globl a64_probed_ldr_x\n.type a64_probed_ldr_x, %function\n"
	"a64_probed_ldr_x:\n"
	".Lldrx:	ldr x0, .Llit64\n"
	"	ret\n"
	".size a64_probed_ldr_x, .-a64_probed_ldr_x\n"
	".globl a64_probed_ldr_w\n.type a64_probed_ldr_w, %function\n"
	"a64_probed_ldr_w:\n"
	"	mov x0, #-1\n"
	".Lldrw:	ldr w0, .Llit32\n"
	"	ret\n"
	".size a64_probed_ldr_w, .-a64_probed_ldr_w\n"
	".globl a64_probed_ldrsw\n.type a64_probed_ldrsw, %function\n"
	"a64_probed_ldrsw:\n"
	".Lldrsw:	ldrsw x0, .Llit32\n"
	"	ret\n"
	".size a64_probed_ldrsw, .-a64_probed_ldrsw\n"
	"	.balign 8\n"
	".Llit64:	.quad 0x0000123400005678\n"
	".Llit32:	.word 0x80000010\n"
	/* long a64_probed_calls(long (*fn)(long), long x): fn(x) + probed_branchy(0) */
	".globl a64_probed_calls\n.type a64_probed_calls, %function\n"
	"a64_probed_calls:\n"
	"	stp x29, x30, [sp, #-32]!\n"
	"	mov x29, sp\n"
	"	str x19, [sp, #16]\n"
	"	mov x2, x0\n"
	"	mov x0, x1\n"
	".Lblr:	blr x2\n"
	"	mov x19, x0\n"
	"	mov x0, #0\n"
	".Lbl:	bl probed_branchy\n"
	"	add x0, x0, x19\n"
	"	ldr x19, [sp, #16]\n"
	"	ldp x29, x30, [sp], #32\n"
	"	ret\n"
	".size a64_probed_calls, .-a64_probed_calls\n"
	/* long a64_probed_br(long x): x + 5, through br */
	".globl a64_probed_br\n.type a64_probed_br, %function\n"
	"a64_probed_br:\n"
	"	adr x1, 1f\n"
	".Lbr:	br x1\n"
	"	mov x0, #0\n"
	"1:	add x0, x0, #5\n"
	"	ret\n"
	".size a64_probed_br, .-a64_probed_br\n"
	/* long a64_probed_nop(void): 7 */
	".globl a64_probed_nop\n.type a64_probed_nop, %function\n"
	"a64_probed_nop:\n"
	".Lnop:	nop\n"
	"	mov x0, #7\n"
	"	ret\n"
	".size a64_probed_nop, .-a64_probed_nop\n"
	/* unsigned long a64_probed_daif(void): DAIF, read by the probed mrs */
	".globl a64_probed_daif\n.type a64_probed_daif, %function\n"
	"a64_probed_daif:\n"
	".Lmrs:	mrs x0, daif\n"
	"	ret\n"
	".size a64_probed_daif, .-a64_probed_daif\n"
	/* unsigned long a64_probed_daif_after(void): DAIF just after a
	 * probed eor (out of line: stepped with a post-handler) */
	".globl a64_probed_daif_after\n.type a64_probed_daif_after, %function\n"
	"a64_probed_daif_after:\n"
	".Ladd:	eor x1, x1, #1\n"
	"	mrs x0, daif\n"
	"	ret\n"
	".size a64_probed_daif_after, .-a64_probed_daif_after\n"
	/* long a64_probed_set_z(void): 3, returning with the Z flag set */
	".globl a64_probed_set_z\n.type a64_probed_set_z, %function\n"
	"a64_probed_set_z:\n"
	"	cmp xzr, xzr\n"
	"	mov x0, #3\n"
	"	ret\n"
	".size a64_probed_set_z, .-a64_probed_set_z\n"
	/* long a64_probed_z_after(long (*fn)(void)): 1 if Z is set when fn returns */
	".globl a64_probed_z_after\n.type a64_probed_z_after, %function\n"
	"a64_probed_z_after:\n"
	"	stp x29, x30, [sp, #-16]!\n"
	"	mov x29, sp\n"
	"	cmp x0, #1\n"		/* clears Z: x0 is a function's address */
	"	blr x0\n"
	"	cset x0, eq\n"
	"	ldp x29, x30, [sp], #16\n"
	"	ret\n"
	".size a64_probed_z_after, .-a64_probed_z_after\n"
	/* void a64_probed_frame(uint64_t out[12], uint64_t a, uint64_t b): a
	 * prologue of every store through sp and add/sub (immediate) that
	 * is emulated, then out[] = what it finds in its frame (x29 = entry
	 * sp - 96), so each store's bytes and each write-back's sp show:
	 *   0,1 a, b (stp offset)      2 b (str offset)
	 *   3 a | b << 32 (stp w)      4 a (str w, low word)
	 *   5 a (str pre, at x29-48)   6 b (str post, at x29+64)
	 *   7,8 a, b (stp post)        9 a + 0x1000 (add, lsl #12)
	 *   10 (uint32_t)(b - 1)       11 sp - x29 at the end (0)
	 * sp stays 16-byte aligned throughout. */
	".globl a64_probed_frame\n.type a64_probed_frame, %function\n"
	"a64_probed_frame:\n"
	".Lfstp:	stp x29, x30, [sp, #-96]!\n"
	"	mov x29, sp\n"
	".Lfstpo:	stp x1, x2, [sp, #16]\n"
	".Lfstr:	str x2, [sp, #32]\n"
	".Lfstpw:	stp w1, w2, [sp, #40]\n"
	".Lfstrw:	str w1, [sp, #48]\n"
	".Lfsub:	sub sp, sp, #32\n"
	".Lfstrpre:	str x1, [sp, #-16]!\n"
	".Lfaddsp:	add sp, sp, #112\n"
	".Lfstrpost:	str x2, [sp], #16\n"
	".Lfstppost:	stp x1, x2, [sp], #-80\n"
	".Lfaddx:	add x3, x1, #1, lsl #12\n"
	".Lfsubw:	sub w4, w2, #1\n"
	"	ldp x5, x6, [x29, #16]\n"
	"	stp x5, x6, [x0]\n"
	"	ldr x5, [x29, #32]\n"
	"	ldr x6, [x29, #40]\n"
	"	stp x5, x6, [x0, #16]\n"
	"	ldr w5, [x29, #48]\n"
	"	ldr x6, [x29, #-48]\n"
	"	stp x5, x6, [x0, #32]\n"
	"	ldr x5, [x29, #64]\n"
	"	ldr x6, [x29, #80]\n"
	"	stp x5, x6, [x0, #48]\n"
	"	ldr x5, [x29, #88]\n"
	"	stp x5, x3, [x0, #64]\n"
	"	mov x5, sp\n"
	"	sub x5, x5, x29\n"
	"	stp x4, x5, [x0, #80]\n"
	"	ldp x29, x30, [sp], #96\n"
	"	ret\n"
	".size a64_probed_frame, .-a64_probed_frame\n"
	/* long a64_probed_cset(void): 1 if Z was set at its call (cset eq:
	 * out of line, so boosted) */
	".globl a64_probed_cset\n.type a64_probed_cset, %function\n"
	"a64_probed_cset:\n"
	"	cset x0, eq\n"
	"	ret\n"
	".size a64_probed_cset, .-a64_probed_cset\n"
	/* long a64_probed_call_cmp(long (*fn)(void), long x): fn() called
	 * with the flags of cmp x, #0 */
	".globl a64_probed_call_cmp\n.type a64_probed_call_cmp, %function\n"
	"a64_probed_call_cmp:\n"
	"	stp x29, x30, [sp, #-16]!\n"
	"	mov x29, sp\n"
	"	cmp x1, #0\n"
	"	blr x0\n"
	"	ldp x29, x30, [sp], #16\n"
	"	ret\n"
	".size a64_probed_call_cmp, .-a64_probed_call_cmp\n"
	/* long a64_probed_x16(long x): x + 3, through x16 (an emulated
	 * literal load that writes it: a jprobe here returns through eret) */
	".globl a64_probed_x16\n.type a64_probed_x16, %function\n"
	"a64_probed_x16:\n"
	"	ldr x16, 1f\n"
	"	add x0, x0, x16\n"
	"	ret\n"
	"	.balign 8\n"
	"1:	.quad 3\n"
	".size a64_probed_x16, .-a64_probed_x16\n"
	/* long probed_load(const char *p): *p, or -EFAULT through a fix-up */
	".globl probed_load\n.type probed_load, %function\n"
	"probed_load:\n"
	"	mov x1, x0\n"
	"	mov x0, #-14\n"
	".Lload:	ldrb w0, [x1]\n"
	".Lload_end:	ret\n"
	".size probed_load, .-probed_load\n"
	".pushsection .ex_table, \"a\"\n.balign 8\n.quad .Lload, .Lload_end\n.popsection\n"
	/* Never called: an atomic increment's exclusive loop. */
	".globl a64_probed_exclusive\n.type a64_probed_exclusive, %function\n"
	"a64_probed_exclusive:\n"
	"1:	ldxr w1, [x0]\n"
	".Linside:	add w1, w1, #1\n"
	"	stxr w2, w1, [x0]\n"
	".Lafter:	cbnz w2, 1b\n"
	"	ret\n"
	".size a64_probed_exclusive, .-a64_probed_exclusive\n"
	/* Never called: instructions that must not be probed. */
	".globl a64_probed_refused\n.type a64_probed_refused, %function\n"
	"a64_probed_refused:\n"
	".Lldxr:	ldxr x0, [x1]\n"
	".Lstxr:	stxr w2, x0, [x1]\n"
	".Lldaxr:	ldaxr w0, [x1]\n"
	".Lstlxr:	stlxr w2, w0, [x1]\n"
	".Lldxp:	ldxp x0, x3, [x1]\n"
	".Lstxp:	stxp w2, x0, x3, [x1]\n"
	".Leret:	eret\n"
	".Lbrk:	brk #0x7ff\n"
	".Lhvc:	hvc #0\n"
	".Lsmc:	smc #0\n"
	".Lsvc:	svc #0\n"
	".Lhlt:	hlt #0\n"
	".Lwfi:	wfi\n"
	".Lwfe:	wfe\n"
	".Ldaifset:	msr daifset, #2\n"
	".Lmsrdaif:	msr daif, x0\n"
	".Lmsrvbar:	msr vbar_el1, x0\n"
	".Lmrselr:	mrs x0, elr_el1\n"
	".Lretaa:	.inst 0xd65f0bff\n"	/* retaa */
	".Ludf:	udf #0\n"
	".size a64_probed_refused, .-a64_probed_refused\n"
	".section .rodata\n.balign 8\n"
	".globl probed_points\n.type probed_points, %object\n"
	"probed_points:\n"
	"	.quad .Lmovimm, .Lload\n"
	".size probed_points, .-probed_points\n"
	".globl a64_probed_points\n.type a64_probed_points, %object\n"
	"a64_probed_points:\n"
	"	.quad .Lstp, .Lmovfp, .Lcbz, .Lb, .Lret, .Lcbnz, .Ltbz, .Ltbnz\n"
	"	.quad .Lbcond, .Ladr, .Ladr_target, .Ladrp, .Lldrx, .Lldrw, .Lldrsw\n"
	"	.quad .Lblr, .Lbl, .Lbr, .Lnop, .Lmrs, .Ladd, .Linside, .Lafter\n"
	"	.quad .Lldxr, .Lstxr, .Lldaxr, .Lstlxr, .Lldxp, .Lstxp, .Leret, .Lbrk\n"
	"	.quad .Lhvc, .Lsmc, .Lsvc, .Lhlt, .Lwfi, .Lwfe, .Ldaifset, .Lmsrdaif\n"
	"	.quad .Lmsrvbar, .Lmrselr, .Lretaa, .Ludf\n"
	".size a64_probed_points, .-a64_probed_points\n"
	".globl a64_frame_points\n.type a64_frame_points, %object\n"
	"a64_frame_points:\n"
	"	.quad .Lfstp, .Lfstpo, .Lfstr, .Lfstpw, .Lfstrw, .Lfsub, .Lfstrpre\n"
	"	.quad .Lfaddsp, .Lfstrpost, .Lfstppost, .Lfaddx, .Lfsubw\n"
	".size a64_frame_points, .-a64_frame_points\n"
	".text\n");

enum {
	P_STP, P_MOVFP, P_CBZ, P_B, P_RET, P_CBNZ, P_TBZ, P_TBNZ,
	P_BCOND, P_ADR, P_ADR_TARGET, P_ADRP, P_LDRX, P_LDRW, P_LDRSW,
	P_BLR, P_BL, P_BR, P_NOP, P_MRS, P_ADD, P_INSIDE, P_AFTER,
	P_FIRST_REFUSED,
	P_NPOINTS = P_FIRST_REFUSED + 20
};

extern const uintptr_t a64_probed_points[P_NPOINTS];
long a64_probed_cbnz(long x);
long a64_probed_bits(long x);
long a64_probed_less(long a, long b);
uintptr_t a64_probed_adr(void);
long *a64_probed_adrp(void);
uint64_t a64_probed_ldr_x(void);
uint64_t a64_probed_ldr_w(void);
uint64_t a64_probed_ldrsw(void);
long a64_probed_calls(long (*fn)(long), long x);
long a64_probed_br(long x);
long a64_probed_nop(void);
unsigned long a64_probed_daif(void);
unsigned long a64_probed_daif_after(void);
long a64_probed_set_z(void);
long a64_probed_z_after(long (*fn)(void));
long a64_probed_value = 0x1234567890L;
void a64_probed_frame(uint64_t out[12], uint64_t a, uint64_t b);
long a64_probed_cset(void);
long a64_probed_call_cmp(long (*fn)(void), long x);
long a64_probed_x16(long x);

/* The probed instructions of a64_probed_frame, and where sp is when
 * each is reached, from the entry sp. */
enum { FRAME_NPOINTS = 12 };
extern const uintptr_t a64_frame_points[FRAME_NPOINTS];
static const long frame_sp_at[FRAME_NPOINTS] = {
	0, -96, -96, -96, -96, -96, -128, -144, -32, -16, -96, -96,
};

/* Call through volatile pointers so the calls really happen. */
static long (*volatile branchy)(long) = probed_branchy;
static long (*volatile cbnz_fn)(long) = a64_probed_cbnz;
static long (*volatile bits_fn)(long) = a64_probed_bits;
static long (*volatile less)(long, long) = a64_probed_less;
static uintptr_t (*volatile adr_fn)(void) = a64_probed_adr;
static long *(*volatile adrp_fn)(void) = a64_probed_adrp;
static uint64_t (*volatile ldr_x)(void) = a64_probed_ldr_x;
static uint64_t (*volatile ldr_w)(void) = a64_probed_ldr_w;
static uint64_t (*volatile ldrsw)(void) = a64_probed_ldrsw;
static long (*volatile calls)(long (*)(long), long) = a64_probed_calls;
static long (*volatile br_fn)(long) = a64_probed_br;
static long (*volatile nop_fn)(void) = a64_probed_nop;
static unsigned long (*volatile daif_fn)(void) = a64_probed_daif;
static unsigned long (*volatile daif_after)(void) = a64_probed_daif_after;
static void (*volatile frame_fn)(uint64_t *, uint64_t, uint64_t) = a64_probed_frame;
static long (*volatile call_cmp)(long (*)(void), long) = a64_probed_call_cmp;
static long (*volatile x16_fn)(long) = a64_probed_x16;
static long (*volatile z_after)(long (*)(void)) = a64_probed_z_after;

bool probe_test_is_data_fault(const struct pt_regs *regs, int trapnr)
{
	(void)trapnr;
	return ESR_EC(regs->esr) == EC_DABT_CUR;
}

bool probe_test_irqs_enabled(void)
{
	return !(a64_probed_daif() & PSR_I);
}

static void function_entry(void)
{
	bool optimizing = probe_test_breakpoints_only();
	struct kprobe stp, mov;

	/* stp x29, x30, [sp, #-16]! is boosted without a post-handler (its
	 * copy costs less than its emulation) and emulated with one: the
	 * store lands in the gap the exception entry leaves below sp
	 * (SYNC_STACK_GAP). mov x29, sp is emulated either way. */
	EXPECT(probe_test_at(&stp, a64_probed_points[P_STP], false));
	EXPECT(probe_test_at(&mov, a64_probed_points[P_MOVFP], true));
	EXPECT_EQ(branchy(0), 1);
	EXPECT_EQ(branchy(5), 2);
	EXPECT_EQ(kprobe_nhit(&stp), 2);
	EXPECT_EQ(probe_test_path_count(&stp, PROBE_EXEC_BOOST), 2);
	EXPECT_EQ(probe_test_path_count(&mov, PROBE_EXEC_EMULATE), 2);
	unregister_kprobe(&stp);
	EXPECT(probe_test_at(&stp, a64_probed_points[P_STP], true));
	EXPECT_EQ(branchy(0), 1);
	EXPECT_EQ(probe_test_path_count(&stp, PROBE_EXEC_EMULATE), 1);
	EXPECT_EQ(probe_test_path_count(&stp, PROBE_EXEC_STEP), 0);
	unregister_kprobe(&stp);
	unregister_kprobe(&mov);
	probe_test_optimizer_back(optimizing);
}

/* What the probes on a64_probed_frame saw, by point. */
static uintptr_t frame_pc[FRAME_NPOINTS], frame_sp[FRAME_NPOINTS], frame_post_pc[FRAME_NPOINTS];
static int frame_posts[FRAME_NPOINTS];

static int frame_index(const struct kprobe *p)
{
	for (int i = 0; i < FRAME_NPOINTS; i++)
		if ((uintptr_t)p->addr == a64_frame_points[i])
			return i;
	return 0;
}

static int frame_pre(struct kprobe *p, struct pt_regs *regs)
{
	int i = frame_index(p);

	frame_pc[i] = regs->pc;
	frame_sp[i] = regs->sp;
	return 0;
}

static void frame_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	int i = frame_index(p);

	(void)flags;
	frame_posts[i]++;
	frame_post_pc[i] = regs->pc;
}

/* out[] as a64_probed_frame(out, a, b) must leave it (see its comment). */
static void frame_expect(const uint64_t *out, uint64_t a, uint64_t b)
{
	EXPECT_EQ(out[0], a);
	EXPECT_EQ(out[1], b);
	EXPECT_EQ(out[2], b);
	EXPECT_EQ(out[3], (uint32_t)a | (uint64_t)(uint32_t)b << 32);
	EXPECT_EQ(out[4], (uint32_t)a);
	EXPECT_EQ(out[5], a);
	EXPECT_EQ(out[6], b);
	EXPECT_EQ(out[7], a);
	EXPECT_EQ(out[8], b);
	EXPECT_EQ(out[9], a + 0x1000);
	EXPECT_EQ(out[10], (uint32_t)(b - 1));
	EXPECT_EQ(out[11], 0);
}

/* Every store through sp and add/sub (immediate) form of a function's
 * prologue, probed with a post-handler, is emulated in the breakpoint's
 * own exception, post-handler included: the right registers and memory,
 * sp written back, the pre-handler sees the pc at the probe, the
 * post-handler runs once with the pc after it. Without a post-handler
 * the same instructions are boosted, with the same results. Interrupts
 * are masked around the calls, as the test reads back one store made
 * below the final sp. */
static void prologue_is_emulated(bool post)
{
	struct kprobe kp[FRAME_NPOINTS];
	uint64_t out[12] = { 0 };
	unsigned long flags;
	uintptr_t entry_sp;
	bool optimizing = probe_test_breakpoints_only();

	flags = arch_irq_save();
	frame_fn(out, 0x1111222233334444ULL, 0);
	arch_irq_restore(flags);
	frame_expect(out, 0x1111222233334444ULL, 0);
	for (int i = 0; i < FRAME_NPOINTS; i++) {
		kp[i] = (struct kprobe){ .addr = (uint8_t *)a64_frame_points[i],
					 .pre_handler = frame_pre,
					 .post_handler = post ? frame_post : NULL };
		frame_posts[i] = 0;
		EXPECT_EQ(register_kprobe(&kp[i]), 0);
	}
	memset(out, 0, sizeof(out));
	flags = arch_irq_save();
	frame_fn(out, 0x5555666677778888ULL, 0x10);
	arch_irq_restore(flags);
	frame_expect(out, 0x5555666677778888ULL, 0x10);
	entry_sp = frame_sp[0];
	for (int i = 0; i < FRAME_NPOINTS; i++) {
		EXPECT_EQ(probe_test_path_count(&kp[i], post ? PROBE_EXEC_EMULATE
							  : PROBE_EXEC_BOOST), 1);
		EXPECT_EQ(frame_pc[i], a64_frame_points[i]);
		EXPECT_EQ(frame_sp[i], entry_sp + frame_sp_at[i]);
		EXPECT_EQ(frame_posts[i], post ? 1 : 0);
		if (post)
			EXPECT_EQ(frame_post_pc[i], a64_frame_points[i] + 4);
		unregister_kprobe(&kp[i]);
	}
	probe_test_optimizer_back(optimizing);
}

static void prologue_is_emulated_with_post_handler(void)
{
	prologue_is_emulated(true);
}

static void prologue_is_boosted_without_post_handler(void)
{
	prologue_is_emulated(false);
}

static void conditional_branches_are_emulated(void)
{
	struct kprobe cbz, cbnz, tbz, tbnz, bcond;

	EXPECT(probe_test_at(&cbz, a64_probed_points[P_CBZ], true));
	EXPECT(probe_test_at(&cbnz, a64_probed_points[P_CBNZ], false));
	EXPECT(probe_test_at(&tbz, a64_probed_points[P_TBZ], false));
	EXPECT(probe_test_at(&tbnz, a64_probed_points[P_TBNZ], false));
	EXPECT(probe_test_at(&bcond, a64_probed_points[P_BCOND], false));
	EXPECT_EQ(branchy(0), 1);	/* cbz taken */
	EXPECT_EQ(branchy(7), 2);	/* not taken */
	EXPECT_EQ(cbnz_fn(3), 20);
	EXPECT_EQ(cbnz_fn(0), 10);
	EXPECT_EQ(cbnz_fn(1L << 32), 10);	/* cbnz w0: 32 bits only */
	EXPECT_EQ(bits_fn(0), 0);
	EXPECT_EQ(bits_fn(8), 8);
	EXPECT_EQ(bits_fn(1L << 40), 1);
	EXPECT_EQ(bits_fn((1L << 40) | 8), 9);
	EXPECT_EQ(less(1, 2), 1);	/* b.lt taken */
	EXPECT_EQ(less(2, 1), 0);
	EXPECT_EQ(less(-5, 3), 1);	/* signed */
	EXPECT_EQ(less(3, 3), 0);
	EXPECT_EQ(kprobe_nhit(&cbz), 2);
	EXPECT_EQ(kprobe_nhit(&tbnz), 4);
	EXPECT_EQ(kprobe_nhit(&bcond), 4);
	EXPECT_EQ(probe_test_path_count(&cbz, PROBE_EXEC_EMULATE), 2);
	EXPECT_EQ(probe_test_path_count(&bcond, PROBE_EXEC_EMULATE), 4);
	unregister_kprobe(&cbz);
	unregister_kprobe(&cbnz);
	unregister_kprobe(&tbz);
	unregister_kprobe(&tbnz);
	unregister_kprobe(&bcond);
}

static void branches_and_calls_are_emulated(void)
{
	struct kprobe b, ret, bl, blr, br;

	EXPECT(probe_test_at(&b, a64_probed_points[P_B], false));
	EXPECT(probe_test_at(&ret, a64_probed_points[P_RET], true));
	EXPECT(probe_test_at(&bl, a64_probed_points[P_BL], false));
	EXPECT(probe_test_at(&blr, a64_probed_points[P_BLR], true));
	EXPECT(probe_test_at(&br, a64_probed_points[P_BR], false));
	EXPECT_EQ(branchy(9), 2);
	EXPECT_EQ(kprobe_nhit(&b), 1);
	/* blr to a64_probed_cbnz, then bl to probed_branchy: both return through the
	 * link register the emulation wrote. */
	EXPECT_EQ(calls(a64_probed_cbnz, 4), 20 + 1);
	EXPECT_EQ(calls(probed_branchy, 0), 1 + 1);
	EXPECT_EQ(kprobe_nhit(&bl), 2);
	EXPECT_EQ(kprobe_nhit(&blr), 2);
	EXPECT_EQ(kprobe_nhit(&ret), 1 + 2 + 1);
	EXPECT_EQ(br_fn(10), 15);
	EXPECT_EQ(kprobe_nhit(&br), 1);
	EXPECT_EQ(probe_test_path_count(&blr, PROBE_EXEC_EMULATE), 2);
	EXPECT_EQ(probe_test_path_count(&ret, PROBE_EXEC_EMULATE), 4);
	unregister_kprobe(&b);
	unregister_kprobe(&ret);
	unregister_kprobe(&bl);
	unregister_kprobe(&blr);
	unregister_kprobe(&br);
}

static void pc_relative_loads_are_emulated(void)
{
	struct kprobe adr, adrp, x, w, sw;
	uint64_t want_x = ldr_x(), want_w = ldr_w(), want_sw = ldrsw();

	EXPECT_EQ(want_x, 0x0000123400005678ULL);
	EXPECT_EQ(want_w, 0x80000010ULL);
	EXPECT_EQ(want_sw, 0xffffffff80000010ULL);
	EXPECT(probe_test_at(&adr, a64_probed_points[P_ADR], false));
	EXPECT(probe_test_at(&adrp, a64_probed_points[P_ADRP], false));
	EXPECT(probe_test_at(&x, a64_probed_points[P_LDRX], false));
	EXPECT(probe_test_at(&w, a64_probed_points[P_LDRW], false));
	EXPECT(probe_test_at(&sw, a64_probed_points[P_LDRSW], true));
	EXPECT_EQ(adr_fn(), a64_probed_points[P_ADR_TARGET]);
	EXPECT(adrp_fn() == &a64_probed_value);
	EXPECT_EQ(ldr_x(), want_x);
	EXPECT_EQ(ldr_w(), want_w);
	EXPECT_EQ(ldrsw(), want_sw);
	EXPECT_EQ(kprobe_nhit(&adr) + kprobe_nhit(&adrp) + kprobe_nhit(&x) + kprobe_nhit(&w) +
		  kprobe_nhit(&sw), 5);
	EXPECT_EQ(probe_test_path_count(&adrp, PROBE_EXEC_EMULATE), 1);
	EXPECT_EQ(probe_test_path_count(&sw, PROBE_EXEC_EMULATE), 1);
	unregister_kprobe(&adr);
	unregister_kprobe(&adrp);
	unregister_kprobe(&x);
	unregister_kprobe(&w);
	unregister_kprobe(&sw);
}

static void nop_is_emulated(void)
{
	struct kprobe kp;

	EXPECT(probe_test_at(&kp, a64_probed_points[P_NOP], true));
	EXPECT_EQ(nop_fn(), 7);
	EXPECT_EQ(probe_test_path_count(&kp, PROBE_EXEC_EMULATE), 1);
	unregister_kprobe(&kp);
}

static void boosted_without_post_handler(void)
{
	bool optimizing = probe_test_breakpoints_only();
	struct kprobe kp;

	EXPECT(probe_test_at(&kp, probed_points[PROBED_MOVIMM], false));
	EXPECT_EQ(branchy(9), 2);
	EXPECT_EQ(branchy(3), 2);
	EXPECT_EQ(probe_test_path_count(&kp, PROBE_EXEC_BOOST), 2);
	EXPECT_EQ(probe_test_path_count(&kp, PROBE_EXEC_STEP), 0);
	unregister_kprobe(&kp);
	probe_test_optimizer_back(optimizing);
}

static void stepped_with_post_handler(void)
{
	struct kprobe kp;

	EXPECT(probe_test_at(&kp, probed_points[PROBED_MOVIMM], true));
	EXPECT_EQ(branchy(9), 2);
	EXPECT_EQ(probe_test_path_count(&kp, PROBE_EXEC_STEP), 1);
	EXPECT_EQ(probe_test_path_count(&kp, PROBE_EXEC_BOOST), 0);
	unregister_kprobe(&kp);
}

/* The step runs with interrupts masked; the code after it must get the
 * interrupted mask back, and an emulated mrs daif must see that mask. */
static void interrupt_mask_survives(void)
{
	struct kprobe step, mrs;
	unsigned long irqs_on, irqs_off, flags;

	irqs_on = daif_fn();
	flags = arch_irq_save();
	irqs_off = daif_fn();
	arch_irq_restore(flags);
	EXPECT_EQ(irqs_on & PSR_I, 0);
	EXPECT_EQ(irqs_off & PSR_I, PSR_I);

	EXPECT(probe_test_at(&step, a64_probed_points[P_ADD], true));
	EXPECT(probe_test_at(&mrs, a64_probed_points[P_MRS], true));
	EXPECT_EQ(daif_after(), irqs_on);
	EXPECT_EQ(daif_fn(), irqs_on);
	flags = arch_irq_save();
	EXPECT_EQ(daif_after(), irqs_off);
	EXPECT_EQ(daif_fn(), irqs_off);
	arch_irq_restore(flags);
	EXPECT_EQ(probe_test_path_count(&step, PROBE_EXEC_STEP), 2);
	EXPECT_EQ(probe_test_path_count(&mrs, PROBE_EXEC_EMULATE), 2);
	unregister_kprobe(&step);
	unregister_kprobe(&mrs);
}

static void unsafe_instructions_are_refused(void)
{
	struct kprobe kp;

	for (int i = P_FIRST_REFUSED; i < P_NPOINTS; i++) {
		kp = (struct kprobe){ .addr = (uint8_t *)a64_probed_points[i] };
		EXPECT_EQ(register_kprobe(&kp), -EINVAL);
	}
	/* Between a load-exclusive and its store-exclusive: refused; after
	 * the store: fine. */
	kp = (struct kprobe){ .addr = (uint8_t *)a64_probed_points[P_INSIDE] };
	EXPECT_EQ(register_kprobe(&kp), -EINVAL);
	EXPECT(probe_test_at(&kp, a64_probed_points[P_AFTER], false));
	unregister_kprobe(&kp);
	/* Not a multiple of 4 from the function's start. */
	kp = (struct kprobe){ .addr = (uint8_t *)a64_probed_points[P_MOVFP] + 2 };
	EXPECT_EQ(register_kprobe(&kp), -EILSEQ);
}

static int ret_seen;
static long ret_value;

static int note_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	ret_seen++;
	ret_value = (long)regs_return_value(regs);
	return 0;
}

/* A leaf with no frame record, whose first instruction is emulated:
 * the link register is replaced all the same. */
static void kretprobe_on_a_leaf(void)
{
	struct kretprobe rp = { .kp.addr = (uint8_t *)a64_probed_nop, .handler = note_return };

	ret_seen = 0;
	EXPECT_EQ(register_kretprobe(&rp), 0);
	EXPECT_EQ(nop_fn(), 7);
	EXPECT_EQ(ret_seen, 1);
	EXPECT_EQ(ret_value, 7);
	unregister_kretprobe(&rp);
}

/* The trampoline gives back the flags and the interrupt mask the
 * function returned with, whatever the handler (C code) did to them. */
static void kretprobe_trampoline_keeps_flags(void)
{
	struct kretprobe rp = { .kp.addr = (uint8_t *)a64_probed_set_z, .handler = note_return };

	EXPECT_EQ(z_after(a64_probed_set_z), 1);
	ret_seen = 0;
	EXPECT_EQ(register_kretprobe(&rp), 0);
	EXPECT_EQ(z_after(a64_probed_set_z), 1);
	EXPECT_EQ(ret_seen, 1);
	EXPECT_EQ(ret_value, 3);
	EXPECT_EQ(daif_fn() & PSR_I, 0);
	unregister_kretprobe(&rp);
}

/* ---- jprobes: the return without an exception return ---- */

static uint64_t jp_seen[2];
static int jp_calls;

static void jprobe_entry_frame(uint64_t *out, uint64_t a, uint64_t b)
{
	(void)out;
	jp_seen[0] = a;
	jp_seen[1] = b;
	jp_calls++;
	jprobe_return();
}

static long jprobe_entry_void(void)
{
	jp_calls++;
	jprobe_return();
}

static long jprobe_entry_long(long x)
{
	jp_seen[0] = (uint64_t)x;
	jp_calls++;
	jprobe_return();
}

static uint64_t read_elr(void)
{
	uint64_t elr;

	__asm__ volatile("mrs %0, elr_el1" : "=r"(elr));
	return elr;
}

/*
 * Whether the jprobe hit in fn ended without an exception return: the
 * breakpoint's eret into jprobe_trampoline left ELR_EL1 pointing there,
 * and any later exception entry, or trap_return, would have changed it.
 * Interrupts are masked so that none can. Returns what fn returned.
 */
static long call_masked(long (*fn)(long), long x, bool *no_eret)
{
	unsigned long flags = arch_irq_save();
	long ret = fn(x);

	*no_eret = read_elr() == (uintptr_t)jprobe_trampoline;
	arch_irq_restore(flags);
	return ret;
}

static long call_frame(long x)
{
	uint64_t out[12];

	frame_fn(out, (uint64_t)x, 7);
	frame_expect(out, (uint64_t)x, 7);
	return (long)out[0];
}

static long call_cset(long x)
{
	return call_cmp(a64_probed_cset, x);
}

/* A jprobe at a prologue's stp: the arguments are seen, the function
 * runs right, and no eret ends the hit - with the stp boosted (the
 * jprobe alone) or emulated (a kprobe with a post-handler shares the
 * point; the post-handler runs once, in jprobe_return). */
static void jprobe_returns_without_eret(void)
{
	struct jprobe jp = { .kp.addr = (uint8_t *)a64_probed_frame, .entry = jprobe_entry_frame };
	struct kprobe post = { .addr = (uint8_t *)a64_probed_frame, .pre_handler = frame_pre,
			       .post_handler = frame_post };
	bool optimizing = probe_test_breakpoints_only();
	bool no_eret = false;

	jp_calls = 0;
	EXPECT_EQ(register_jprobe(&jp), 0);
	EXPECT_EQ(call_masked(call_frame, 0x1234, &no_eret), 0x1234);
	EXPECT(no_eret);
	EXPECT_EQ(jp_calls, 1);
	EXPECT_EQ(jp_seen[0], 0x1234);
	EXPECT_EQ(jp_seen[1], 7);
	EXPECT_EQ(probe_test_path_count(&jp.kp, PROBE_EXEC_BOOST), 1);

	frame_posts[0] = 0;
	no_eret = false;
	EXPECT_EQ(register_kprobe(&post), 0);
	EXPECT_EQ(call_masked(call_frame, 0x4321, &no_eret), 0x4321);
	EXPECT(no_eret);
	EXPECT_EQ(jp_calls, 2);
	EXPECT_EQ(jp_seen[0], 0x4321);
	EXPECT_EQ(frame_posts[0], 1);
	EXPECT_EQ(frame_pc[0], (uintptr_t)a64_probed_frame);
	EXPECT_EQ(frame_post_pc[0], (uintptr_t)a64_probed_frame + 4);
	EXPECT_EQ(probe_test_path_count(&jp.kp, PROBE_EXEC_EMULATE), 1);
	unregister_kprobe(&post);
	unregister_jprobe(&jp);
	probe_test_optimizer_back(optimizing);
}

/* The first instruction boosted (cset eq, out of line): it reads the
 * flags the caller set, which the branch back restored with msr nzcv;
 * and the interrupt mask the function runs with is the caller's, which
 * msr daif restored (the entry function ran with interrupts masked). */
static void jprobe_branch_back_restores_pstate(void)
{
	struct jprobe jp = { .kp.addr = (uint8_t *)a64_probed_cset, .entry = jprobe_entry_void };
	struct jprobe jd = { .kp.addr = (uint8_t *)a64_probed_daif_after,
			     .entry = jprobe_entry_void };
	unsigned long irqs_on = daif_fn(), flags;
	bool no_eret = false;

	jp_calls = 0;
	EXPECT_EQ(register_jprobe(&jp), 0);
	EXPECT_EQ(call_masked(call_cset, 0, &no_eret), 1);
	EXPECT(no_eret);
	EXPECT_EQ(call_masked(call_cset, 5, &no_eret), 0);
	EXPECT(no_eret);
	EXPECT_EQ(jp_calls, 2);
	EXPECT_EQ(probe_test_path_count(&jp.kp, PROBE_EXEC_BOOST), 2);
	unregister_jprobe(&jp);

	EXPECT_EQ(register_jprobe(&jd), 0);
	EXPECT_EQ(daif_after(), irqs_on);
	flags = arch_irq_save();
	EXPECT_EQ(daif_after() & PSR_I, PSR_I);
	arch_irq_restore(flags);
	EXPECT_EQ(jp_calls, 4);
	unregister_jprobe(&jd);
}

/* Where the branch back cannot be used, the exception return still is:
 * a stepped first instruction (a post-handler on an out-of-line one), and
 * an emulated one that writes x16 (ldr x16, literal). */
static void jprobe_returns_through_eret_when_needed(void)
{
	struct jprobe jp = { .kp.addr = (uint8_t *)a64_probed_cset, .entry = jprobe_entry_void };
	struct jprobe jx = { .kp.addr = (uint8_t *)a64_probed_x16, .entry = jprobe_entry_long };
	struct kprobe post;
	bool no_eret = true;

	jp_calls = 0;
	EXPECT_EQ(register_jprobe(&jp), 0);
	EXPECT(probe_test_at(&post, (uintptr_t)a64_probed_cset, true));
	EXPECT_EQ(call_masked(call_cset, 0, &no_eret), 1);
	EXPECT(!no_eret);
	EXPECT_EQ(call_cmp(a64_probed_cset, 3), 0);
	EXPECT_EQ(jp_calls, 2);
	EXPECT_EQ(probe_test_path_count(&jp.kp, PROBE_EXEC_STEP), 2);
	unregister_kprobe(&post);
	unregister_jprobe(&jp);

	no_eret = true;
	EXPECT_EQ(register_jprobe(&jx), 0);
	EXPECT_EQ(call_masked(x16_fn, 39, &no_eret), 42);
	EXPECT(!no_eret);
	EXPECT_EQ(jp_seen[0], 39);
	EXPECT_EQ(probe_test_path_count(&jx.kp, PROBE_EXEC_EMULATE), 1);
	unregister_jprobe(&jx);
}

static const struct selftest_case aarch64_probe_cases[] = {
	SELFTEST_CASE(function_entry),
	SELFTEST_CASE(prologue_is_emulated_with_post_handler),
	SELFTEST_CASE(prologue_is_boosted_without_post_handler),
	SELFTEST_CASE(conditional_branches_are_emulated),
	SELFTEST_CASE(branches_and_calls_are_emulated),
	SELFTEST_CASE(pc_relative_loads_are_emulated),
	SELFTEST_CASE(nop_is_emulated),
	SELFTEST_CASE(boosted_without_post_handler),
	SELFTEST_CASE(stepped_with_post_handler),
	SELFTEST_CASE(interrupt_mask_survives),
	SELFTEST_CASE(unsafe_instructions_are_refused),
	SELFTEST_CASE(kretprobe_on_a_leaf),
	SELFTEST_CASE(kretprobe_trampoline_keeps_flags),
	SELFTEST_CASE(jprobe_returns_without_eret),
	SELFTEST_CASE(jprobe_branch_back_restores_pstate),
	SELFTEST_CASE(jprobe_returns_through_eret_when_needed),
};
SELFTEST_SUITE("kprobes-aarch64", aarch64_probe_cases);
