/*
 * Selftests of kprobes and jprobes: each behaviour the Kprobes guide
 * describes, on functions defined here for the purpose; and a fault in a
 * single-stepped instruction, on the assembly targets every architecture
 * provides (probe_selftest_arch.h), since only assembly can place a load
 * with an exception-table fix-up.
 *
 * The targets are global and never inlined, so the probes land on real
 * function code; `volatile` results keep the compiler from folding calls.
 */
#include "kernel/nokprobe.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/tests/probe_selftest_arch.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/selftest.h"
#include "kernel/symtab.h"
#include "kernel/mm/text_patch.h"
#include "kernel/time.h"
#include "kernel/trap.h"
#include "lib/errno.h"
#include "lib/string.h"

__noinline int probed_add(int a, int b)
{
	return a + b;
}

__noinline int probed_returns_zero(void)
{
	return 0;
}

static int (*volatile probed_add_ptr)(int, int) = probed_add;

__noinline int probed_add_caller(int a, int b)
{
	return probed_add_ptr(a, b) + 1;
}

/* Ten arguments: the last ones are passed on the stack (from the seventh
 * on x86_64, the ninth on aarch64). Weighted, so that a swap shows. */
__noinline long probed_ten(long a0, long a1, long a2, long a3, long a4, long a5, long a6,
			long a7, long a8, long a9)
{
	return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + 100 * a8 + 1000 * a9;
}

static long (*volatile probed_ten_ptr)(long, long, long, long, long, long, long, long, long,
				    long) = probed_ten;

/* The first 8 bytes of a function's code, read afresh every time (the
 * compiler would otherwise assume code never changes): what arming a
 * probe at its entry changes, a breakpoint or its call site (aarch64's
 * bl is the site's second word). */
static uint64_t text_head(void *fn)
{
	return *(volatile uint64_t *)fn;
}

/* Call through a volatile pointer: the call cannot be optimised away. */
static int call_add(int a, int b)
{
	return probed_add_ptr(a, b);
}

static int seq;
static int pre_seen, post_seen;
static uint64_t pre_arg0, pre_arg1;

static int record_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	pre_seen = ++seq;
	pre_arg0 = regs_get_argument(regs, 0);
	pre_arg1 = regs_get_argument(regs, 1);
	return 0;
}

static void record_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	(void)p;
	(void)regs;
	(void)flags;
	post_seen = ++seq;
}

static void reset_records(void)
{
	seq = pre_seen = post_seen = 0;
	pre_arg0 = pre_arg1 = 0;
}

static void handlers_run_in_order_with_registers(void)
{
	struct kprobe kp = { .symbol_name = "probed_add", .pre_handler = record_pre,
			     .post_handler = record_post };

	reset_records();
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ((uintptr_t)kp.addr, (uintptr_t)probed_add);
	EXPECT_EQ(call_add(3, 4), 7);
	EXPECT_EQ(pre_seen, 1);
	EXPECT_EQ(post_seen, 2);
	EXPECT_EQ(pre_arg0, 3);
	EXPECT_EQ(pre_arg1, 4);
	EXPECT_EQ(kprobe_nhit(&kp), 1);
	EXPECT_EQ(kprobe_nmissed(&kp), 0);
	unregister_kprobe(&kp);
	EXPECT_EQ(call_add(1, 1), 2);
	EXPECT_EQ(kprobe_nhit(&kp), 1);
}

/* A hit counts in this CPU's copy of the probe's counts and nowhere else;
 * reading adds every CPU's copy (others are written here by hand, as
 * their hits would); unregistering adds them into the public fields. */
static void counts_are_per_cpu_and_summed(void)
{
	struct kprobe kp = { .symbol_name = "probed_add", .pre_handler = probe_test_count_pre };
	unsigned int here, other, first_id;
	unsigned long flags;

	EXPECT_EQ(register_kprobe(&kp), 0);
	flags = arch_irq_save();	/* stay on this CPU */
	here = this_cpu()->id;
	other = (here + 1) % MAX_CPUS;
	EXPECT_EQ(call_add(1, 2), 3);
	EXPECT_EQ(per_cpu_ptr(kprobe_counts_of(&kp), here)->nhit, 1);
	EXPECT_EQ(per_cpu_ptr(kprobe_counts_of(&kp), other)->nhit, 0);
	arch_irq_restore(flags);
	EXPECT_EQ(kp.nhit, 0);	/* the public field waits for unregistering */
	per_cpu_ptr(kprobe_counts_of(&kp), other)->nhit += 5;
	per_cpu_ptr(kprobe_counts_of(&kp), other)->nmissed += 2;
	EXPECT_EQ(kprobe_nhit(&kp), 6);
	EXPECT_EQ(kprobe_nmissed(&kp), 2);
	unregister_kprobe(&kp);
	EXPECT_EQ(kp.nhit, 6);
	EXPECT_EQ(kp.nmissed, 2);
	EXPECT_EQ(kprobe_nhit(&kp), 6);
	/* Registering again starts from zero, under a new number. */
	first_id = kp.id;
	kp.addr = NULL;
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(kprobe_nhit(&kp), 0);
	EXPECT(kp.id > first_id);
	unregister_kprobe(&kp);
}

/* What the reports (probe_report.h) copy of a kprobe and a kretprobe
 * sharing a point, after one call: who (a number each, the later one
 * higher, and the kernel as owner), where, what kind, the flags and
 * counts, the kretprobe's instances, the point's bytes and counts; the
 * snapshot lists both, in registration order; and a probe that is not
 * registered has no report. */
static void reports_copy_probes_and_their_point(void)
{
	static struct kprobe_info all[64];
	static struct kprobe_report r;
	struct kprobe kp = { .symbol_name = "probed_add", .pre_handler = probe_test_count_pre };
	struct kretprobe rp = { .kp.symbol_name = "probed_add", .maxactive = 3 };
	uint8_t before[KPROBE_REPORT_BYTES];
	unsigned long hits = 0;
	int n, at_kp = -1, at_rp = -1;

	memcpy(before, (const void *)probed_add, sizeof(before));
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(register_kretprobe(&rp), 0);
	EXPECT_EQ(call_add(1, 2), 3);
	EXPECT_EQ(disable_kprobe(&kp), 0);

	EXPECT(kp.id > 0 && rp.kp.id > kp.id);
	EXPECT_EQ(kprobe_report(kp.id, &r), 0);
	EXPECT(r.info.probe == &kp && r.info.kind == KPROBE_KIND_K && r.info.id == kp.id);
	EXPECT_STREQ(r.info.owner, "");
	EXPECT_EQ(r.info.addr, (uintptr_t)probed_add);
	EXPECT_STREQ(r.info.where, "probed_add+0x0");
	EXPECT_STREQ(r.info.module, "");
	EXPECT_EQ(r.info.flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE), KPROBE_FLAG_DISABLED);
	EXPECT(r.info.nhit == 1 && r.info.nmissed == 0 && r.info.insn_len > 0);
	EXPECT(r.info.maxactive == 0 && r.gone_why[0] == '\0');
	EXPECT_EQ(memcmp(r.original, before, sizeof(before)), 0);
	EXPECT(memcmp(r.live, before, sizeof(before)) != 0);	/* the kretprobe arms it */
	EXPECT(r.insn[0] && r.optimizer[0]);
	for (int how = 0; how < PROBE_EXEC_KINDS; how++)
		hits += r.taken[how];
	EXPECT_EQ(hits + r.opt_hits, 1);	/* the point's one hit, either way */

	EXPECT_EQ(kprobe_report(rp.kp.id, &r), 0);
	EXPECT(r.info.kind == KPROBE_KIND_R && r.info.nhit == 1 && r.info.id == rp.kp.id);
	EXPECT(!(r.info.flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE)));
	EXPECT(r.info.maxactive == 3 && r.info.instances_in_use == 0);

	n = kprobes_snapshot(all, 0, (int)ARRAY_SIZE(all));
	for (int i = 0; i < MIN(n, (int)ARRAY_SIZE(all)); i++) {
		if (all[i].probe == &kp)
			at_kp = i;
		if (all[i].probe == &rp.kp)
			at_rp = i;
	}
	EXPECT(at_kp >= 0 && at_rp > at_kp);
	unregister_kretprobe(&rp);
	unregister_kprobe(&kp);
	EXPECT_EQ(kprobe_report(kp.id, &r), -ENOENT);
	EXPECT_EQ(kprobe_get_info(&rp.kp, &r.info), -ENOENT);
}

/* Fault injection: make the function fail without running it. */
static int inject_error(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	regs_return_from_entry(regs, (uint64_t)-EIO);
	return 1;	/* we moved the instruction pointer */
}

static void pre_handler_can_inject_an_error(void)
{
	struct kprobe kp = { .symbol_name = "probed_returns_zero", .pre_handler = inject_error };
	int (*volatile fn)(void) = probed_returns_zero;

	EXPECT_EQ(fn(), 0);
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(fn(), -EIO);
	unregister_kprobe(&kp);
	EXPECT_EQ(fn(), 0);
}

static int order[4], norder;

static int note_a(struct kprobe *p, struct pt_regs *r) { (void)p; (void)r; order[norder++] = 1; return 0; }
static int note_b(struct kprobe *p, struct pt_regs *r) { (void)p; (void)r; order[norder++] = 2; return 0; }
static int note_c(struct kprobe *p, struct pt_regs *r) { (void)p; (void)r; order[norder++] = 3; return 0; }

static void several_probes_share_an_address(void)
{
	struct kprobe a = { .symbol_name = "probed_add", .pre_handler = note_a };
	struct kprobe b = { .symbol_name = "probed_add", .pre_handler = note_b };
	struct kprobe c = { .symbol_name = "probed_add", .pre_handler = note_c };
	uint64_t orig = text_head(probed_add);

	norder = 0;
	EXPECT_EQ(register_kprobe(&a), 0);
	EXPECT_EQ(register_kprobe(&b), 0);
	EXPECT_EQ(register_kprobe(&c), 0);
	EXPECT(a.point == b.point && b.point == c.point);
	call_add(1, 2);
	EXPECT_EQ(norder, 3);
	EXPECT(order[0] == 1 && order[1] == 2 && order[2] == 3);
	unregister_kprobe(&b);
	norder = 0;
	call_add(1, 2);
	EXPECT(norder == 2 && order[0] == 1 && order[1] == 3);
	unregister_kprobe(&a);
	unregister_kprobe(&c);
	EXPECT_EQ(text_head(probed_add), orig);
}

/* A point with one enabled probe calls it without walking its list
 * (pp->sole): disabling and enabling either of two probes must switch
 * between that and the walk, and keep the order. */
static void one_of_two_probes_disabled(void)
{
	struct kprobe a = { .symbol_name = "probed_add", .pre_handler = note_a };
	struct kprobe b = { .symbol_name = "probed_add", .pre_handler = note_b };

	EXPECT_EQ(register_kprobe(&a), 0);
	EXPECT_EQ(register_kprobe(&b), 0);
	EXPECT_EQ(disable_kprobe(&a), 0);
	norder = 0;
	call_add(1, 2);
	EXPECT(norder == 1 && order[0] == 2);
	EXPECT_EQ(enable_kprobe(&a), 0);
	EXPECT_EQ(disable_kprobe(&b), 0);
	norder = 0;
	call_add(1, 2);
	EXPECT(norder == 1 && order[0] == 1);
	EXPECT_EQ(enable_kprobe(&b), 0);
	norder = 0;
	call_add(1, 2);
	EXPECT(norder == 2 && order[0] == 1 && order[1] == 2);
	EXPECT_EQ(kprobe_nhit(&a), 2);
	EXPECT_EQ(kprobe_nhit(&b), 2);
	unregister_kprobe(&a);
	unregister_kprobe(&b);
}

static void disable_enable_and_global_knob(void)
{
	struct kprobe kp = { .symbol_name = "probed_add", .pre_handler = probe_test_count_pre };
	struct kprobe off = { .symbol_name = "probed_returns_zero",
			      .pre_handler = probe_test_count_pre, .flags = KPROBE_FLAG_DISABLED };
	uint64_t orig = text_head(probed_add);

	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(register_kprobe(&off), 0);
	EXPECT(text_head(probed_add) != orig);		/* armed */
	EXPECT_EQ(disable_kprobe(&kp), 0);
	EXPECT(kp.flags & KPROBE_FLAG_DISABLED);
	EXPECT_EQ(text_head(probed_add), orig);		/* disarmed */
	call_add(1, 1);
	EXPECT_EQ(kprobe_nhit(&kp), 0);
	EXPECT_EQ(enable_kprobe(&kp), 0);
	call_add(1, 1);
	EXPECT_EQ(kprobe_nhit(&kp), 1);

	kprobes_global_disarm();
	EXPECT(!kprobes_globally_armed());
	EXPECT(!(kp.flags & KPROBE_FLAG_DISABLED));	/* own state kept */
	EXPECT_EQ(text_head(probed_add), orig);
	call_add(1, 1);
	EXPECT_EQ(kprobe_nhit(&kp), 1);
	kprobes_global_arm();
	call_add(1, 1);
	EXPECT_EQ(kprobe_nhit(&kp), 2);
	EXPECT(off.flags & KPROBE_FLAG_DISABLED);	/* still disabled */
	probed_returns_zero();
	EXPECT_EQ(kprobe_nhit(&off), 0);

	unregister_kprobe(&kp);
	unregister_kprobe(&off);
	EXPECT_EQ(disable_kprobe(&kp), -EINVAL);
}

static void batch_registration_rolls_back(void)
{
	struct kprobe a = { .symbol_name = "probed_add", .pre_handler = probe_test_count_pre };
	struct kprobe b = { .symbol_name = "probed_returns_zero",
			    .pre_handler = probe_test_count_pre };
	struct kprobe bad = { .symbol_name = "no_such_function_xyz" };
	struct kprobe *kps[] = { &a, &b, &bad };
	uint64_t orig_a = text_head(probed_add), orig_b = text_head(probed_returns_zero);

	EXPECT_EQ(register_kprobes(kps, 3), -ENOENT);
	EXPECT(a.point == NULL && b.point == NULL);
	EXPECT_EQ(text_head(probed_add), orig_a);
	EXPECT_EQ(text_head(probed_returns_zero), orig_b);

	a.addr = b.addr = NULL;		/* they were resolved from the names */
	EXPECT_EQ(register_kprobes(kps, 2), 0);
	call_add(2, 2);
	EXPECT_EQ(kprobe_nhit(&a), 1);
	unregister_kprobes(kps, 2);
}

/* A pre-handler that calls its own probed function: the inner hit is a
 * reentry, counted in nmissed, and runs no handler. */
static int recursing_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	EXPECT_EQ(call_add(10, 20), 30);
	return 0;
}

static void reentry_is_counted_in_nmissed(void)
{
	struct kprobe kp = { .symbol_name = "probed_add", .pre_handler = recursing_pre,
			     .post_handler = record_post };

	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(call_add(5, 6), 11);
	EXPECT_EQ(kprobe_nhit(&kp), 1);
	EXPECT_EQ(kprobe_nmissed(&kp), 1);
	unregister_kprobe(&kp);
}

static void registration_errors(void)
{
	struct kprobe both = { .symbol_name = "probed_add", .addr = (uint8_t *)probed_add };
	struct kprobe none = { 0 };
	struct kprobe unknown = { .symbol_name = "vfs_raed" };
	/* Every function starts with push %rbp / stp: +2 is inside the
	 * second instruction on x86_64 and not a multiple of 4 on aarch64. */
	struct kprobe inside = { .symbol_name = "probed_add", .offset = 2 };
	struct kprobe black = { .symbol_name = "text_poke" };
	struct kprobe twice = { .symbol_name = "probed_add" };
	struct kprobe gone = { .addr = (uint8_t *)0x10 };
	struct kprobe past = { .symbol_name = "probed_add" };
	struct symbol add;
	struct kretprobe not_entry = { .kp = { .symbol_name = "probed_add", .offset = 1 } };

	EXPECT_EQ(register_kprobe(&both), -EINVAL);
	EXPECT_EQ(register_kprobe(&none), -EINVAL);
	EXPECT_EQ(register_kprobe(&unknown), -ENOENT);
	EXPECT_EQ(register_kprobe(&inside), -EILSEQ);
	EXPECT_EQ(register_kprobe(&black), -EINVAL);
	EXPECT(within_nokprobe_text((uintptr_t)register_kprobe));	/* the core itself */
	EXPECT_EQ(register_kprobe(&gone), -ENOENT);
	/* An offset at the end of the symbol: the next function's code. */
	EXPECT_EQ(sym_by_name("probed_add", &add), 0);
	past.offset = (unsigned int)add.size;
	EXPECT_EQ(register_kprobe(&past), -ERANGE);
	EXPECT_EQ(register_kretprobe(&not_entry), -EINVAL);
	EXPECT_EQ(register_kprobe(&twice), 0);
	EXPECT_EQ(register_kprobe(&twice), -EEXIST);
	unregister_kprobe(&twice);
	/* Unregistering what is not registered clears the address. */
	EXPECT(twice.addr != NULL);
	unregister_kprobe(&twice);
	EXPECT(twice.addr == NULL);
}

static uint64_t jp_args[2];
static int jp_calls;

static int jprobe_entry_add(int a, int b)
{
	jp_args[0] = (uint64_t)a;
	jp_args[1] = (uint64_t)b;
	jp_calls++;
	jprobe_return();
}

static void jprobe_sees_arguments(void)
{
	struct jprobe jp = { .kp.symbol_name = "probed_add", .entry = jprobe_entry_add };
	struct jprobe second = { .kp.symbol_name = "probed_add", .entry = jprobe_entry_add };
	struct kprobe also = { .symbol_name = "probed_add", .pre_handler = record_pre };

	jp_calls = 0;
	reset_records();
	EXPECT_EQ(register_jprobe(&jp), 0);
	EXPECT_EQ(register_jprobe(&second), -EBUSY);
	EXPECT(second.kp.addr == NULL);		/* a failure leaves the probe as it was */
	EXPECT_EQ(register_kprobe(&also), 0);
	EXPECT_EQ(call_add(40, 2), 42);	/* the function still runs normally */
	EXPECT_EQ(jp_calls, 1);
	EXPECT_EQ(jp_args[0], 40);
	EXPECT_EQ(jp_args[1], 2);
	EXPECT_EQ(pre_seen, 1);		/* the kprobe sharing the point ran */
	EXPECT_EQ(call_add(-1, 1), 0);
	EXPECT_EQ(jp_calls, 2);
	unregister_kprobe(&also);
	unregister_jprobe(&jp);
	EXPECT_EQ(call_add(1, 1), 2);
	EXPECT_EQ(jp_calls, 2);
}

/* A post-handler at the jprobe's address makes the probed instruction
 * single-stepped - jprobe_return resumes the saved registers straight
 * into the step, whose trap then runs the post-handler - or emulated,
 * the post-handler running in jprobe_return itself (aarch64 emulates a
 * prologue's stp); on a call site (ftrace) there is no instruction, and
 * the post-handler runs in jprobe_return too. Either way it runs once
 * per hit. */
static void jprobe_with_a_post_handler(void)
{
	struct jprobe jp = { .kp.symbol_name = "probed_add", .entry = jprobe_entry_add };
	struct kprobe post = { .symbol_name = "probed_add", .post_handler = record_post };

	jp_calls = 0;
	reset_records();
	EXPECT_EQ(register_jprobe(&jp), 0);
	EXPECT_EQ(register_kprobe(&post), 0);
	EXPECT(probe_test_exec_path(&jp.kp) == PROBE_EXEC_STEP ||
	       probe_test_exec_path(&jp.kp) == PROBE_EXEC_EMULATE ||
	       probe_test_exec_path(&jp.kp) == PROBE_EXEC_FTRACE);
	EXPECT_EQ(call_add(40, 2), 42);
	EXPECT_EQ(jp_calls, 1);
	EXPECT_EQ(jp_args[0], 40);
	EXPECT_EQ(post_seen, 1);
	EXPECT_EQ(call_add(5, 6), 11);
	EXPECT_EQ(jp_calls, 2);
	EXPECT_EQ(post_seen, 2);
	unregister_kprobe(&post);
	unregister_jprobe(&jp);
}

/* A handler's backtrace on a call site ([FTRACE]) crosses the regs
 * trampoline as one on a breakpoint crosses the trap: to probed_add at
 * its first instruction, then its caller. */
static void ftrace_handler_backtrace_names_function_and_caller(void)
{
	struct kprobe kp = { .symbol_name = "probed_add", .pre_handler = probe_test_record_backtrace };

	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT(probe_test_exec_path(&kp) == PROBE_EXEC_FTRACE);
	EXPECT_EQ(probed_add_caller(2, 3), 6);
	EXPECT(probe_test_backtrace_reached((void *)probed_add, "probed_add_caller"));
	unregister_kprobe(&kp);
}

static long jp_stack_args[3];

static long jprobe_entry_ten(long a0, long a1, long a2, long a3, long a4, long a5, long a6,
			     long a7, long a8, long a9)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7;
	jp_stack_args[0] = a0;
	jp_stack_args[1] = a8;
	jp_stack_args[2] = a9;
	jp_calls++;
	jprobe_return();
}

/* The entry function runs below the trap frame, on a copy of the top of
 * the probed stack: arguments passed on the stack must arrive there. */
static void jprobe_sees_stack_arguments(void)
{
	struct jprobe jp = { .kp.symbol_name = "probed_ten", .entry = jprobe_entry_ten };

	jp_calls = 0;
	EXPECT_EQ(register_jprobe(&jp), 0);
	EXPECT_EQ(probed_ten_ptr(1, 1, 1, 1, 1, 1, 1, 1, 7, 9), 8 + 700 + 9000);
	EXPECT_EQ(jp_calls, 1);
	EXPECT_EQ(jp_stack_args[0], 1);
	EXPECT_EQ(jp_stack_args[1], 7);
	EXPECT_EQ(jp_stack_args[2], 9);
	unregister_jprobe(&jp);
}

/* A thread that took an optimized point's jump just before a jprobe was
 * registered there reaches optprobe_callback with the jprobe listed (the
 * jprobe unoptimizes the point, but a thread already in the detour buffer
 * goes on). Without a trap frame the jprobe cannot run: it is missed, and
 * the registers stay as they were. (Were it run, these registers, with a
 * stack pointer of 0, would make it panic.) */
static void jprobe_reached_by_a_jump_is_missed(void)
{
	struct jprobe jp = { .kp.symbol_name = "probed_add", .entry = jprobe_entry_add };
	struct pt_regs regs, before;
	unsigned long flags;

	memset(&regs, 0, sizeof(regs));
	instruction_pointer_set(&regs, (uintptr_t)probed_add);
	before = regs;
	EXPECT_EQ(register_jprobe(&jp), 0);
	flags = arch_irq_save();	/* as in a detour buffer: this CPU is busy */
	optprobe_callback(jp.kp.point, &regs);
	arch_irq_restore(flags);
	EXPECT_EQ(kprobe_nmissed(&jp.kp), 1);
	EXPECT(memcmp(&regs, &before, sizeof(regs)) == 0);
	EXPECT(kprobe_status() == KPROBE_IDLE);
	unregister_jprobe(&jp);
}

static void jprobe_batch_and_enable_disable(void)
{
	struct jprobe a = { .kp.symbol_name = "probed_add", .entry = jprobe_entry_add };
	struct jprobe b = { .kp.symbol_name = "probed_add", .entry = jprobe_entry_add };
	struct jprobe *jps[] = { &a, &b };

	jp_calls = 0;
	EXPECT_EQ(register_jprobes(jps, 2), -EBUSY);	/* one per function: rolled back */
	EXPECT(a.kp.point == NULL);
	a.kp.addr = NULL;
	EXPECT_EQ(register_jprobes(jps, 1), 0);
	EXPECT_EQ(disable_jprobe(&a), 0);
	EXPECT_EQ(call_add(1, 2), 3);
	EXPECT_EQ(jp_calls, 0);
	EXPECT_EQ(enable_jprobe(&a), 0);
	EXPECT_EQ(call_add(1, 2), 3);
	EXPECT_EQ(jp_calls, 1);
	unregister_jprobes(jps, 1);
}

/* Call the arch's targets through volatile pointers so the calls really
 * happen. */
static long (*volatile load)(const char *) = probed_load;
static long (*volatile branchy)(long) = probed_branchy;

static int faults_seen;
static bool fault_was_data_fault;

static int note_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	(void)p;
	faults_seen++;
	fault_was_data_fault = probe_test_is_data_fault(regs, trapnr);
	/* The step was ended first: the fault is at the original load. */
	EXPECT_EQ(instruction_pointer(regs), probed_points[PROBED_LOAD]);
	return 0;	/* not handled here: let the fix-up table do it */
}

static void fault_in_step_reaches_fault_handler(void)
{
	struct kprobe kp = { .addr = (uint8_t *)probed_points[PROBED_LOAD],
			     .pre_handler = probe_test_count_pre, .fault_handler = note_fault };
	const char good = 'x';

	faults_seen = 0;
	fault_was_data_fault = false;
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(load(&good), 'x');
	EXPECT_EQ(load((const char *)0x10), -EFAULT);
	EXPECT_EQ(faults_seen, 1);
	EXPECT(fault_was_data_fault);
	/* May fault into a fix-up: always stepped, never boosted. */
	EXPECT_EQ(probe_test_path_count(&kp, PROBE_EXEC_STEP), 2);
	EXPECT_EQ(load(&good), 'x');	/* and all is well afterwards */
	unregister_kprobe(&kp);
}

/* A fault handler that handles the fault itself, through the fix-up
 * table: the probe layer must have ended the step before calling it. */
static int fix_up_fault(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	(void)p;
	(void)trapnr;
	faults_seen++;
	return extable_fixup(regs);
}

static void fault_handler_can_handle_the_fault(void)
{
	struct kprobe kp = { .addr = (uint8_t *)probed_points[PROBED_LOAD],
			     .pre_handler = probe_test_count_pre, .fault_handler = fix_up_fault };
	struct kprobe after;
	const char good = 'y';

	faults_seen = 0;
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(load((const char *)0x10), -EFAULT);
	EXPECT_EQ(faults_seen, 1);
	EXPECT_EQ(load(&good), 'y');
	unregister_kprobe(&kp);
	/* Nothing of that step is left behind: another step works, with
	 * interrupts as they were (a step runs with them masked). */
	EXPECT(probe_test_at(&after, probed_points[PROBED_MOVIMM], true));
	EXPECT_EQ(branchy(9), 2);
	EXPECT_EQ(probe_test_path_count(&after, PROBE_EXEC_STEP), 1);
	EXPECT(probe_test_irqs_enabled());
	unregister_kprobe(&after);
}

/* A pre-handler that runs a single-stepped instruction (the fix-up load):
 * with a probe on it, that is a reentry that needs the saved level. */
static int loading_pre(struct kprobe *p, struct pt_regs *regs)
{
	const char good = 'z';

	(void)p;
	(void)regs;
	EXPECT_EQ(load(&good), 'z');
	return 0;
}

static void stepped_reentry_leaves_nothing_behind(void)
{
	struct kprobe outer = { .symbol_name = "probed_add", .pre_handler = loading_pre };
	struct kprobe inner = { .addr = (uint8_t *)probed_points[PROBED_LOAD],
				.pre_handler = probe_test_count_pre };
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();

	EXPECT_EQ(register_kprobe(&inner), 0);
	EXPECT_EQ(register_kprobe(&outer), 0);
	EXPECT_EQ(call_add(1, 2), 3);
	EXPECT_EQ(kprobe_nhit(&outer), 1);
	EXPECT_EQ(kprobe_nmissed(&inner), 1);
	/* Unregistering waits while any CPU's saved level names a probe or
	 * point: a level left filled would make it wait forever. */
	EXPECT(kcb->prev.point == NULL);
	EXPECT(kcb->prev.running == NULL);
	kcb->prev.point = NULL;		/* (after a failure: so as not to hang) */
	kcb->prev.running = NULL;
	unregister_kprobe(&inner);
	unregister_kprobe(&outer);
}

/* A handler that takes its time on another CPU: how many CPUs are inside
 * it, and a caller thread that keeps hitting it until told to stop. */
static volatile int slow_inside, slow_callers_stop, slow_caller_done;

static int slow_pre(struct kprobe *p, struct pt_regs *regs)
{
	ktime_t end = ktime_get() + NSEC_PER_SEC / 50;	/* 20 ms */

	(void)p;
	(void)regs;
	__atomic_fetch_add(&slow_inside, 1, __ATOMIC_ACQ_REL);
	while (ktime_get() < end)
		arch_cpu_relax();
	__atomic_fetch_sub(&slow_inside, 1, __ATOMIC_ACQ_REL);
	return 0;
}

static void slow_caller(void *unused)
{
	(void)unused;
	while (!slow_callers_stop)
		call_add(1, 2);
	slow_caller_done = 1;
}

/* unregister_kprobe must not return while another CPU still runs the
 * probe's handler: the caller may free the handler's data, or unload
 * the module whose code it is, right after. The grace period it waits
 * for covers that CPU, which is in a read-side section for as long as
 * the handler runs (interrupts off). A second probe stays at the same
 * address, so that nothing is patched: patching waits for every CPU too
 * (text_poke's IPIs), which would hide a missing grace period. On one
 * CPU there is nothing to see. */
static void unregister_waits_for_a_handler_on_another_cpu(void)
{
	struct kprobe kp = { .addr = (uint8_t *)probed_add, .pre_handler = slow_pre };
	struct kprobe stays = { .addr = (uint8_t *)probed_add,
				.pre_handler = probe_test_count_pre };
	unsigned int other;

	if (!probe_test_other_cpu(&other))
		return;
	slow_inside = slow_callers_stop = slow_caller_done = 0;
	EXPECT_EQ(register_kprobe(&stays), 0);
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT(thread_create_on(other, "st-slow", slow_caller, NULL) >= 0);
	while (!__atomic_load_n(&slow_inside, __ATOMIC_ACQUIRE))
		thread_yield();
	/* The other CPU is inside the handler now, for up to 20 ms. */
	unregister_kprobe(&kp);
	EXPECT_EQ(__atomic_load_n(&slow_inside, __ATOMIC_ACQUIRE), 0);
	slow_callers_stop = 1;
	while (!slow_caller_done)
		thread_sleep(1);
	EXPECT_EQ(slow_inside, 0);	/* and no hit since */
	unregister_kprobe(&stays);
}

static const struct selftest_case kprobes_cases[] = {
	SELFTEST_CASE(handlers_run_in_order_with_registers),
	SELFTEST_CASE(ftrace_handler_backtrace_names_function_and_caller),
	SELFTEST_CASE(counts_are_per_cpu_and_summed),
	SELFTEST_CASE(reports_copy_probes_and_their_point),
	SELFTEST_CASE(pre_handler_can_inject_an_error),
	SELFTEST_CASE(several_probes_share_an_address),
	SELFTEST_CASE(one_of_two_probes_disabled),
	SELFTEST_CASE(disable_enable_and_global_knob),
	SELFTEST_CASE(batch_registration_rolls_back),
	SELFTEST_CASE(reentry_is_counted_in_nmissed),
	SELFTEST_CASE(registration_errors),
	SELFTEST_CASE(jprobe_sees_arguments),
	SELFTEST_CASE(jprobe_with_a_post_handler),
	SELFTEST_CASE(jprobe_sees_stack_arguments),
	SELFTEST_CASE(jprobe_batch_and_enable_disable),
	SELFTEST_CASE(jprobe_reached_by_a_jump_is_missed),
	SELFTEST_CASE(fault_in_step_reaches_fault_handler),
	SELFTEST_CASE(fault_handler_can_handle_the_fault),
	SELFTEST_CASE(stepped_reentry_leaves_nothing_behind),
	SELFTEST_CASE(unregister_waits_for_a_handler_on_another_cpu),
};
SELFTEST_SUITE("kprobes", kprobes_cases);
