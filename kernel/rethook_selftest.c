/* Selftests of the return service (kernel/rethook.h) with two users at
 * once: a kretprobe, and a second user that hooks the same calls from a
 * kprobe of its own. Both hook each call; the service must run both
 * handlers, newest hook first, show the real callers to backtraces, and
 * hook calls as deep as they go, a user missing only the calls it has no
 * record for. */
#include "kernel/nokprobe.h"
#include "kernel/probes/kprobes.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/rethook.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "lib/string.h"

__noinline long rh_double(long x)
{
	return 2 * x;
}

static long (*volatile double_ptr)(long) = rh_double;

/* What each user saw, in order: 'K'/'k' for the kretprobe's entry and
 * return, 'S'/'s' for the second user's; and the return values and
 * return addresses both handlers saw. */
#define MAX_EVENTS 8
static char events[MAX_EVENTS + 1];
static int nevents;
static long seen_value[2];
static uintptr_t seen_ip[2];
static int returns[2];		/* handler runs: [0] the kretprobe's, [1] the second user's */
static int second_refused;	/* calls the second user missed, all nodes taken */
static int out_of_order;	/* its returns that handed back another node */

static void reset(void)
{
	memset(events, 0, sizeof(events));
	nevents = 0;
	returns[0] = returns[1] = 0;
	second_refused = 0;
	out_of_order = 0;
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

/* The second user. Its records are bare nodes, taken as a stack: hooked
 * calls return newest first, so the node a return hands back is always
 * the newest taken (out_of_order counts any that is not). */
#define SECOND_NODES 128
static struct rethook_node second_nodes[SECOND_NODES];
static int second_used;

static void second_return(struct rethook_node *node, struct pt_regs *regs)
{
	if (node != &second_nodes[--second_used])
		out_of_order++;
	event('s', 1, regs);
}

static void second_reclaim(struct rethook_node *node)
{
	(void)node;
	second_used--;
}

/* rethook_selftest_trampoline.S: the second user's own trampoline. */
extern char second_user_trampoline[];

static const struct rethook second_user = {
	.handler = second_return,
	.reclaim = second_reclaim,
	.trampoline = second_user_trampoline,
};

/* Its C half. */
void second_user_return(struct pt_regs *regs)
{
	rethook_return(&current_thread()->rethooks, &second_user, regs);
}
NOKPROBE_SYMBOL(second_user_return);

/* With no node free it misses the call, as a kretprobe with no free
 * instance does. */
static int second_entry(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	event('S', 1, NULL);
	if (second_used == SECOND_NODES) {
		second_refused++;
		return 0;
	}
	second_nodes[second_used].rethook = &second_user;
	rethook_hook(&current_thread()->rethooks, &second_user, &second_nodes[second_used++], regs);
	return 0;
}

/* Register both users on symbol, the kretprobe first, with maxactive
 * instances. */
static void hook_both(struct kretprobe *rp, struct kprobe *kp, const char *symbol, int maxactive)
{
	*rp = (struct kretprobe){ .kp.symbol_name = symbol, .handler = kretprobe_ret,
				  .entry_handler = kretprobe_entry, .maxactive = maxactive };
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
	struct rethook_node *before = current_thread()->rethooks;
	struct kretprobe rp;
	struct kprobe kp;

	hook_both(&rp, &kp, "rh_double", 4);
	EXPECT_EQ(double_ptr(21), 42);
	/* Each user's entry once, then the returns in reverse order of the
	 * entries: the newest hook returns first. */
	EXPECT_EQ(nevents, 4);
	EXPECT(strcmp(events, "KSsk") == 0 || strcmp(events, "SKks") == 0);
	EXPECT_EQ(seen_value[0], 42);
	EXPECT_EQ(seen_value[1], 42);
	/* Both see the real return address, not the trampoline's. */
	EXPECT_EQ(seen_ip[0], seen_ip[1]);
	EXPECT(!rethook_is_trampoline(seen_ip[0]));
	EXPECT(current_thread()->rethooks == before);
	unhook_both(&rp, &kp);
	EXPECT_EQ(kretprobe_nmissed(&rp), 0ul);
}

static void backtrace_shows_real_callers(void)
{
	struct kretprobe rp;
	struct kprobe kp;

	hook_both(&rp, &kp, "probe_test_capture_backtrace", 4);
	probe_test_expect_real_caller();
	EXPECT_EQ(returns[0], 1);
	EXPECT_EQ(returns[1], 1);
	unhook_both(&rp, &kp);
}

/* Deep recursion, every call hooked by both users: the service has no
 * limit of its own, so a user runs out only of its own records. The
 * kretprobe has fewer instances than there are calls and misses the
 * rest; the second user, with nodes enough, hooks every call; every
 * return goes where it should, newest first. */
static void deep_recursion_is_missed_only_by_its_user(void)
{
	const long n = 100;	/* n + 1 calls */
	const int maxactive = 16;
	struct rethook_node *before = current_thread()->rethooks;
	struct kretprobe rp;
	struct kprobe kp;

	hook_both(&rp, &kp, "probe_test_sum_to", maxactive);
	EXPECT_EQ(probe_test_sum_to(n), n * (n + 1) / 2);
	unhook_both(&rp, &kp);
	EXPECT_EQ(kretprobe_nmissed(&rp), (unsigned long)(n + 1 - maxactive));
	EXPECT_EQ(returns[0], maxactive);
	EXPECT_EQ(second_refused, 0);
	EXPECT_EQ(returns[1], n + 1);
	EXPECT_EQ(out_of_order, 0);
	EXPECT_EQ(second_used, 0);
	EXPECT(current_thread()->rethooks == before);
}

static const struct selftest_case rethook_cases[] = {
	SELFTEST_CASE(both_handlers_run_newest_first),
	SELFTEST_CASE(backtrace_shows_real_callers),
	SELFTEST_CASE(deep_recursion_is_missed_only_by_its_user),
};
SELFTEST_SUITE("rethook", rethook_cases);
