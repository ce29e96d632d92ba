/* Selftests of the return service (kernel/rethook.h) with two users at
 * once: a kretprobe, and a second user that hooks the same calls from a
 * kprobe of its own. Both hook each call; the service must run both
 * handlers, newest hook first, show the real callers to backtraces, and
 * count calls it has no room for as missed without breaking a return. */
#include "kernel/arch.h"
#include "kernel/backtrace.h"
#include "kernel/probes/kprobes.h"
#include "kernel/rethook.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/symtab.h"
#include "lib/errno.h"
#include "lib/string.h"

__noinline long rh_double(long x)
{
	return 2 * x;
}

/* Recursion: depth n returns n + (result of depth n-1). */
__noinline long rh_sum_to(long n)
{
	long (*volatile self)(long) = rh_sum_to;

	return n <= 0 ? 0 : n + self(n - 1);
}

static struct backtrace_entry bt[BACKTRACE_MAX];
static int nbt;

__noinline long rh_capture_backtrace(long x)
{
	nbt = backtrace_collect(arch_current_frame(), bt, BACKTRACE_MAX);
	return x + 1;
}

static long (*volatile double_ptr)(long) = rh_double;
static long (*volatile sum_ptr)(long) = rh_sum_to;
static long (*volatile capture_ptr)(long) = rh_capture_backtrace;

/* What each user saw, in order: 'K'/'k' for the kretprobe's entry and
 * return, 'S'/'s' for the second user's; and the return values and
 * return addresses both handlers saw. */
#define MAX_EVENTS 8
static char events[MAX_EVENTS + 1];
static int nevents;
static long seen_value[2];
static uintptr_t seen_ip[2];
static int returns[2];		/* handler runs: [0] the kretprobe's, [1] the second user's */
static int second_refused;	/* hooks the service refused the second user */

static void reset(void)
{
	memset(events, 0, sizeof(events));
	nevents = 0;
	returns[0] = returns[1] = 0;
	second_refused = 0;
}

static void event(char c, int user, struct pt_regs *regs)
{
	if (nevents < MAX_EVENTS)
		events[nevents++] = c;
	if (regs) {
		seen_value[user] = (long)regs_return_value(regs);
		seen_ip[user] = instruction_pointer(regs);
		returns[user]++;
	}
}

static int kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	(void)regs;
	event('K', 0, NULL);
	return 0;
}

static int kretprobe_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	event('k', 0, regs);
	return 0;
}

/* The second user: its record is unused (the calls are told apart by
 * order alone). */
static void second_return(void *record, struct pt_regs *regs)
{
	(void)record;
	event('s', 1, regs);
}

static void second_reclaim(void *record)
{
	(void)record;
}

static const struct rethook second_user = {
	.handler = second_return,
	.reclaim = second_reclaim,
};

static int second_entry(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	event('S', 1, NULL);
	if (rethook_hook(&current_thread()->rethook, &second_user, NULL, regs) == -ENOSPC)
		second_refused++;
	return 0;
}

/* Register both users on symbol: the kretprobe first. */
static void hook_both(struct kretprobe *rp, struct kprobe *kp, const char *symbol)
{
	*rp = (struct kretprobe){ .kp.symbol_name = symbol, .handler = kretprobe_ret,
				  .entry_handler = kretprobe_entry, .maxactive = 2 * RETHOOK_DEPTH };
	*kp = (struct kprobe){ .symbol_name = symbol, .pre_handler = second_entry };
	EXPECT_EQ(register_kretprobe(rp), 0);
	EXPECT_EQ(register_kprobe(kp), 0);
	reset();
}

static void unhook_both(struct kretprobe *rp, struct kprobe *kp)
{
	unregister_kprobe(kp);
	unregister_kretprobe(rp);
}

static void both_handlers_run_newest_first(void)
{
	unsigned int depth = current_thread()->rethook.depth;
	struct kretprobe rp;
	struct kprobe kp;

	hook_both(&rp, &kp, "rh_double");
	EXPECT_EQ(double_ptr(21), 42);
	/* Each user's entry once, then the returns in reverse order of the
	 * entries: the newest hook returns first. */
	EXPECT_EQ(nevents, 4);
	EXPECT(strcmp(events, "KSsk") == 0 || strcmp(events, "SKks") == 0);
	EXPECT_EQ(seen_value[0], 42);
	EXPECT_EQ(seen_value[1], 42);
	/* Both see the real return address, not the trampoline's. */
	EXPECT_EQ(seen_ip[0], seen_ip[1]);
	EXPECT(seen_ip[0] != (uintptr_t)rethook_trampoline);
	EXPECT_EQ(current_thread()->rethook.depth, depth);
	unhook_both(&rp, &kp);
	EXPECT_EQ(kretprobe_nmissed(&rp), 0ul);
}

static bool names(uintptr_t addr, const char *name)
{
	struct symbol s;

	return sym_by_addr(addr, &s) == 0 && strcmp(s.name, name) == 0;
}

static void backtrace_shows_real_callers(void)
{
	bool caller_seen = false, trampoline_seen = false;
	struct kretprobe rp;
	struct kprobe kp;

	hook_both(&rp, &kp, "rh_capture_backtrace");
	EXPECT_EQ(capture_ptr(1), 2);
	for (int i = 0; i < nbt; i++) {
		caller_seen |= names(bt[i].addr, "backtrace_shows_real_callers");
		trampoline_seen |= names(bt[i].addr, "rethook_trampoline");
	}
	EXPECT(nbt > 1);
	EXPECT(caller_seen);
	EXPECT(!trampoline_seen);
	EXPECT_EQ(returns[0], 1);
	EXPECT_EQ(returns[1], 1);
	unhook_both(&rp, &kp);
}

/* Recursion deeper than the service's stack: the hooks beyond it are
 * refused (each user counts its own), every return still goes where it
 * should, and every hook that was taken has its handler run. */
static void depth_overflow_is_missed(void)
{
	const long n = RETHOOK_DEPTH;	/* n + 1 calls, two hooks asked for each */
	unsigned int room = RETHOOK_DEPTH - current_thread()->rethook.depth;
	struct kretprobe rp;
	struct kprobe kp;
	long missed;

	hook_both(&rp, &kp, "rh_sum_to");
	EXPECT_EQ(sum_ptr(n), n * (n + 1) / 2);
	unhook_both(&rp, &kp);
	missed = (long)kretprobe_nmissed(&rp) + second_refused;
	EXPECT_EQ(missed, 2 * (n + 1) - (long)room);
	EXPECT(kretprobe_nmissed(&rp) > 0);
	EXPECT(second_refused > 0);
	EXPECT_EQ((unsigned int)(returns[0] + returns[1]), room);
	EXPECT_EQ(current_thread()->rethook.depth, RETHOOK_DEPTH - room);
	/* And the service works again once the deep calls are over. */
	hook_both(&rp, &kp, "rh_double");
	EXPECT_EQ(double_ptr(4), 8);
	EXPECT_EQ(returns[0], 1);
	EXPECT_EQ(returns[1], 1);
	unhook_both(&rp, &kp);
}

static const struct selftest_case rethook_cases[] = {
	SELFTEST_CASE(both_handlers_run_newest_first),
	SELFTEST_CASE(backtrace_shows_real_callers),
	SELFTEST_CASE(depth_overflow_is_missed),
};
SELFTEST_SUITE("rethook", rethook_cases);
