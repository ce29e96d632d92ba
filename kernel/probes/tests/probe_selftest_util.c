/* Helpers shared by the probe selftests (see the header). */
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/arch.h"
#include "kernel/backtrace.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/tests/probe_selftest_arch.h"
#include "kernel/rethook.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/selftest.h"
#include "kernel/symtab.h"
#include "kernel/trace/ftrace_sites.h"
#include "lib/string.h"
#include <asm/ftrace.h>

#define SETTLE_TICKS 100	/* the optimizer waits 5 ticks, then works */

uintptr_t probe_test_past_site(uintptr_t func)
{
	return ftrace_is_site(func) ? func + ARCH_FTRACE_SITE_SIZE : func;
}

__noinline long probe_test_sum_to(long n)
{
	/* Through a volatile pointer, so that the compiler keeps every
	 * level a real call. */
	long (*volatile self)(long) = probe_test_sum_to;

	return n <= 0 ? 0 : n + self(n - 1);
}

static struct backtrace_entry bt[BACKTRACE_MAX];
static int nbt;

__noinline long probe_test_capture_backtrace(long x)
{
	nbt = backtrace_collect(arch_current_frame(), bt, BACKTRACE_MAX);
	return x + 1;
}

static bool in_function(uintptr_t addr, const char *name)
{
	struct symbol s;

	return sym_by_addr(addr, &s) == 0 && strcmp(s.name, name) == 0;
}

void probe_test_expect_real_caller(void)
{
	/* Called through a volatile pointer, so that the compiler calls the
	 * probed function itself, not a copy made for this caller. */
	long (*volatile capture)(long) = probe_test_capture_backtrace;
	bool caller_seen = false, trampoline_seen = false;

	EXPECT_EQ(capture(1), 2);
	for (int i = 0; i < nbt; i++) {
		caller_seen |= in_function(bt[i].addr, __func__);
		trampoline_seen |= rethook_is_trampoline(bt[i].addr);
	}
	EXPECT(nbt > 1);
	EXPECT(caller_seen);
	EXPECT(!trampoline_seen);
}

bool probe_test_other_cpu(unsigned int *cpu)
{
	unsigned long others;

	preempt_disable();
	others = smp_cpus_running() & ~(1UL << this_cpu()->id);
	preempt_enable();
	if (!others)
		return false;
	*cpu = (unsigned int)__builtin_ctzl(others);
	return true;
}

int probe_test_count_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	return 0;
}

void probe_test_nop_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	(void)p;
	(void)regs;
	(void)flags;
}

bool probe_test_at(struct kprobe *kp, uintptr_t addr, bool post)
{
	*kp = (struct kprobe){ .addr = (uint8_t *)addr, .pre_handler = probe_test_count_pre,
			       .post_handler = post ? probe_test_nop_post : NULL };
	return register_kprobe(kp) == 0;
}

bool probe_test_breakpoints_only(void)
{
	bool was_on = kprobes_optimization_enabled();

	kprobes_set_optimization(false);
	return was_on;
}

void probe_test_optimizer_back(bool was_on)
{
	kprobes_set_optimization(was_on);
}

unsigned long probe_test_path_count(const struct kprobe *kp, enum probe_exec how)
{
	return point_exec_count(kp->point, how);
}

enum probe_exec probe_test_exec_path(const struct kprobe *kp)
{
	return kprobe_exec_path(kp->point);
}

unsigned long probe_test_opt_hits(const struct kprobe *kp)
{
	return point_opt_hits(kp->point);
}

enum opt_state probe_test_opt_state(struct kprobe *kp)
{
	enum opt_state st;

	mutex_lock(&kprobe_mutex);
	st = kp->point->opt_state;
	mutex_unlock(&kprobe_mutex);
	return st;
}

enum opt_state probe_test_settle(struct kprobe *kp)
{
	uint64_t end = sched_ticks() + SETTLE_TICKS;
	enum opt_state st;

	while ((st = probe_test_opt_state(kp)) != OPT_OPTIMIZED && st != OPT_REFUSED &&
	       sched_ticks() < end)
		thread_sleep(1);
	return st;
}

bool probe_test_jumps_to_detour(const struct kprobe *kp)
{
	uintptr_t to = probe_test_jump_target((uintptr_t)kp->addr);
	uintptr_t detour = (uintptr_t)kp->point->detour;

	return detour && to >= detour && to < detour + ARCH_DETOUR_SIZE;
}

void probe_test_expect_refused(uintptr_t addr, const char *why, uintptr_t where)
{
	struct kprobe kp = { .addr = (uint8_t *)addr, .pre_handler = probe_test_count_pre };

	EXPECT_EQ(register_kprobe(&kp), 0);
	EXPECT_EQ(probe_test_settle(&kp), OPT_REFUSED);
	EXPECT_STREQ(kp.point->opt_refusal, why);
	EXPECT_EQ(kp.point->opt_refusal_addr, where);
	EXPECT(!(kp.flags & KPROBE_FLAG_OPTIMIZED));
	EXPECT(arch_is_breakpoint(addr));	/* still a breakpoint probe */
	unregister_kprobe(&kp);
}

static struct backtrace_entry seen_bt[BACKTRACE_MAX];
static int seen_nbt;

int probe_test_record_backtrace(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	seen_nbt = backtrace_collect(arch_current_frame(), seen_bt, BACKTRACE_MAX);
	return 0;
}

bool probe_test_backtrace_reached(void *fn, const char *caller)
{
	struct symbol s;
	int n = seen_nbt;

	seen_nbt = 0;
	for (int i = 0; i + 1 < n; i++) {
		if (!seen_bt[i].stopped || seen_bt[i].addr != (uintptr_t)fn)
			continue;
		return !seen_bt[i + 1].stopped && sym_by_addr(seen_bt[i + 1].addr - 1, &s) == 0 &&
		       strcmp(s.name, caller) == 0;
	}
	return false;
}
