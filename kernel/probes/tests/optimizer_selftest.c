/*
 * Selftests of the jump optimizer on every architecture.
 *
 * The suite "optprobes" checks what unoptimizes a point and what an
 * optimized point ignores, on opt_probed_sum, which each architecture writes in
 * assembly (probe_selftest_arch.h); what only one architecture has (its
 * jump, its registers, its safety checks) is tested in
 * arch/<arch>/optprobe_selftest.c.
 *
 * The suite "optprobes-stress": a probe at the entry of every function of
 * lib/ and the VFS at once, every one the checks allow optimized, while
 * checked workloads run here and in a preempted reader thread; then all
 * removed, and the text, heap and slots must be as before.
 */
#include "kernel/arch.h"
#include "kernel/backtrace.h"
#include "kernel/cpu.h"
#include "kernel/mm/heap.h"
#include "kernel/cmd_output.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/optimizer.h"
#include "kernel/probes/tests/probe_selftest_arch.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/probes/tests/stress_workload.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/symtab.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Call through a volatile pointer so the calls really happen. */
static long (*volatile sum)(long, long) = opt_probed_sum;

/* How much of opt_probed_sum's text to compare: more than the jump replaces on
 * either architecture. */
#define TEXT_BYTES 16

/* True if opt_probed_sum's text is orig again. */
static bool text_is(const uint8_t *orig)
{
	return memcmp(orig, (const void *)opt_probed_sum, TEXT_BYTES) == 0;
}

static void disable_enable_and_knobs(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_sum,
			     .pre_handler = probe_test_count_pre };
	uint8_t orig[TEXT_BYTES];
	unsigned long hits;

	memcpy(orig, (const void *)opt_probed_sum, sizeof(orig));
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	EXPECT_EQ(disable_kprobe(&kp), 0);
	EXPECT(!(kp.flags & KPROBE_FLAG_OPTIMIZED));
	EXPECT(text_is(orig));
	EXPECT_EQ(enable_kprobe(&kp), 0);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	EXPECT(probe_test_jumps_to_detour(&kp));

	kprobes_global_disarm();
	EXPECT(!(kp.flags & KPROBE_FLAG_OPTIMIZED));
	EXPECT(text_is(orig));
	kprobes_global_arm();
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);

	kprobes_set_optimization(false);
	EXPECT(!(kp.flags & KPROBE_FLAG_OPTIMIZED));
	EXPECT(arch_is_breakpoint((uintptr_t)opt_probed_sum));	/* a breakpoint probe again */
	hits = kprobe_nhit(&kp);
	EXPECT_EQ(sum(2, 2), 5);
	EXPECT_EQ(kprobe_nhit(&kp), hits + 1);
	kprobes_set_optimization(true);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	unregister_kprobe(&kp);
	EXPECT(text_is(orig));
}

static void post_handler_probe_unoptimizes(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_sum,
			     .pre_handler = probe_test_count_pre };
	struct kprobe post = { .addr = (uint8_t *)opt_probed_sum,
			       .post_handler = probe_test_nop_post };

	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	EXPECT_EQ(register_kprobe(&post), 0);
	EXPECT(!(kp.flags & KPROBE_FLAG_OPTIMIZED));	/* at once */
	EXPECT(arch_is_breakpoint((uintptr_t)opt_probed_sum));
	EXPECT_EQ(sum(1, 2), 4);
	unregister_kprobe(&post);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	unregister_kprobe(&kp);
}

static volatile int jprobe_calls;

static long jprobe_entry(long a, long b)
{
	(void)a;
	(void)b;
	jprobe_calls++;
	jprobe_return();
}

/* A jprobe changes the instruction pointer, which the detour ignores. */
static void jprobe_unoptimizes(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_sum,
			     .pre_handler = probe_test_count_pre };
	struct jprobe jp = { .kp.addr = (uint8_t *)opt_probed_sum, .entry = jprobe_entry };

	jprobe_calls = 0;
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	EXPECT_EQ(register_jprobe(&jp), 0);
	EXPECT(!(kp.flags & KPROBE_FLAG_OPTIMIZED));
	EXPECT(arch_is_breakpoint((uintptr_t)opt_probed_sum));
	EXPECT_EQ(sum(4, 5), 10);
	EXPECT_EQ(jprobe_calls, 1);
	unregister_jprobe(&jp);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	unregister_kprobe(&kp);
}

static uint64_t diverted_arg0;

/* A pre-handler that tries to make the function return at once. */
static int divert(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	regs_return_from_entry(regs, 999);
	/* On aarch64 that also set the first argument: x0 holds both. */
	diverted_arg0 = regs_get_argument(regs, 0);
	return 1;
}

static void pc_change_is_ignored_when_optimized(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_sum, .pre_handler = divert };
	long got;

	kprobes_set_optimization(false);
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(sum(1, 1), 999);	/* a breakpoint probe may divert */
	kprobes_set_optimization(true);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	/* An optimized one may not: the new pc is ignored, and opt_probed_sum runs
	 * on the registers as the handler left them. */
	got = sum(1, 1);
	EXPECT_EQ(got, (long)diverted_arg0 + 1 + 1);
	unregister_kprobe(&kp);
}

__noinline long opt_probed_sum_caller(long a, long b)
{
	return sum(a, b) + 1;
}

static void handler_backtrace_names_probed_function_and_caller(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_sum,
			     .pre_handler = probe_test_record_backtrace };

	kprobes_set_optimization(false);
	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(opt_probed_sum_caller(1, 2), 5);
	/* across the breakpoint's trap */
	EXPECT(probe_test_backtrace_reached((void *)opt_probed_sum, "opt_probed_sum_caller"));
	kprobes_set_optimization(true);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	EXPECT_EQ(opt_probed_sum_caller(1, 2), 5);
	/* across the detour buffer */
	EXPECT(probe_test_backtrace_reached((void *)opt_probed_sum, "opt_probed_sum_caller"));
	unregister_kprobe(&kp);
}

static long (*volatile load)(const char *) = probed_load;
static int faults_offered;
static long load_result;
static bool as_interrupt;

static int offer_count(struct kprobe *p, struct pt_regs *regs, int trapnr)
{
	(void)p;
	(void)regs;
	(void)trapnr;
	faults_offered++;
	return 0;	/* not handled: the load's fix-up is */
}

/* A pre-handler whose load faults into its fix-up - either in its own
 * code, or as an interrupt's code would if one arrived during the handler
 * (aarch64 leaves interrupts on in an optimized hit): the interrupt
 * entry's count of nesting is what tells the two apart. */
static int faulting_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	if (as_interrupt)
		this_cpu()->irq_depth++;
	load_result = load((const char *)0x10);
	if (as_interrupt)
		this_cpu()->irq_depth--;
	return 0;
}

static void fault_in_a_nested_interrupt_is_not_the_handlers(void)
{
	struct kprobe kp = { .addr = (uint8_t *)opt_probed_sum, .pre_handler = faulting_pre,
			     .fault_handler = offer_count };

	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	faults_offered = 0;
	as_interrupt = false;
	EXPECT_EQ(sum(1, 2), 4);
	EXPECT_EQ(load_result, -EFAULT);
	EXPECT_EQ(faults_offered, 1);	/* the handler's own fault */
	as_interrupt = true;
	EXPECT_EQ(sum(1, 2), 4);
	EXPECT_EQ(load_result, -EFAULT);
	EXPECT_EQ(faults_offered, 1);	/* not the interrupt's */
	EXPECT_EQ(kprobe_nhit(&kp), 2);
	unregister_kprobe(&kp);
}

static const struct selftest_case optprobe_cases[] = {
	SELFTEST_CASE(disable_enable_and_knobs),
	SELFTEST_CASE(post_handler_probe_unoptimizes),
	SELFTEST_CASE(jprobe_unoptimizes),
	SELFTEST_CASE(pc_change_is_ignored_when_optimized),
	SELFTEST_CASE(handler_backtrace_names_probed_function_and_caller),
	SELFTEST_CASE(fault_in_a_nested_interrupt_is_not_the_handlers),
};
SELFTEST_SUITE("optprobes", optprobe_cases);

#define MAX_ENTRIES 512
#define SETTLE_TICKS 1000

static int count_hit(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	return 0;
}

/* Probe the first trapping instruction of every function in [start,
 * end): its entry, or past its call site (probe_test_past_site), where a
 * probe rides on the site and has no jump to make. Returns how many. */
static size_t probe_entries(struct kprobe **kps, size_t n, size_t max, uintptr_t start, uintptr_t end)
{
	const struct symtab *t = &kernel_symtab;

	for (size_t i = 0; i < t->count && n < max; i++) {
		const struct symtab_entry *e = &t->entries[i];
		struct kprobe *kp;

		if (!sym_type_is_text(symtab_type(t, i)) || !e->size || e->addr < start ||
		    e->addr >= end)
			continue;
		kp = kzalloc(sizeof(*kp));
		if (!kp)
			break;
		kp->addr = (uint8_t *)probe_test_past_site((uintptr_t)e->addr);
		kp->pre_handler = count_hit;
		if (register_kprobe(kp) == 0)
			kps[n++] = kp;
		else
			kfree(kp);
	}
	return n;
}

/* No point left queued or waiting for its patch. */
static bool settled(struct kprobe **kps, size_t n)
{
	bool done = true;

	mutex_lock(&kprobe_mutex);
	for (size_t i = 0; i < n; i++) {
		enum opt_state st = kps[i]->point->opt_state;

		done &= st != OPT_QUEUED && st != OPT_READY;
	}
	mutex_unlock(&kprobe_mutex);
	return done;
}

static void optimize_everything_in_lib_and_vfs(void)
{
	static struct kprobe *kps[MAX_ENTRIES];
	struct stress_snapshot snap;
	unsigned long through_jumps = 0, rounds;
	size_t n = 0, optimized = 0;
	uint64_t end;

	stress_snapshot_take(&snap);
	n = probe_entries(kps, n, MAX_ENTRIES, (uintptr_t)__lib_text_start, (uintptr_t)__lib_text_end);
	n = probe_entries(kps, n, MAX_ENTRIES, (uintptr_t)__vfs_text_start, (uintptr_t)__vfs_text_end);
	EXPECT(n > 50);
	end = sched_ticks() + SETTLE_TICKS;
	while (!settled(kps, n) && sched_ticks() < end)
		thread_sleep(2);
	EXPECT(settled(kps, n));
	for (size_t i = 0; i < n; i++)
		optimized += (kps[i]->flags & KPROBE_FLAG_OPTIMIZED) != 0;
	EXPECT(optimized > 20);

	rounds = stress_run_workload();

	for (size_t i = 0; i < n; i++)
		through_jumps += probe_test_opt_hits(kps[i]);
	EXPECT(through_jumps > 100);
	cmd_printf("    # %zu probes, %zu optimized; %lu hits through jumps; reader rounds %lu\n",
		   n, optimized, through_jumps, rounds);
	unregister_kprobes(kps, (int)n);
	for (size_t i = 0; i < n; i++)
		kfree(kps[i]);
	stress_snapshot_check(&snap);
}

static const struct selftest_case optimizer_stress_cases[] = {
	SELFTEST_CASE(optimize_everything_in_lib_and_vfs),
};
SELFTEST_SUITE("optprobes-stress", optimizer_stress_cases);
