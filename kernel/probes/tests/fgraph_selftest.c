/* Selftests of the function graph service (kernel/trace/fgraph.h) with a
 * user of their own, which hooks only the test's functions: a hooked
 * return shows the real caller to a backtrace, as a kretprobe's does
 * (both are the return service's), and a recursion deeper than a
 * thread's stack of frames hooks the first FGRAPH_DEPTH calls, counts
 * the rest as missed, and returns every call where it should. Run with
 * set_ftrace_filter empty, as at boot (the service's ops follows it),
 * and the function_graph tracer off (one user at a time). */
#include "kernel/nokprobe.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/selftest.h"
#include "kernel/trace/fgraph.h"

/* The function the user hooks, and the returns it saw. */
static uintptr_t hooked;
static int returns;

static int notrace fgraph_test_entry(const struct fgraph_ent *ent)
{
	return ent->func == __atomic_load_n(&hooked, __ATOMIC_RELAXED) ? 0 : -1;
}
NOKPROBE_SYMBOL(fgraph_test_entry);

static void notrace fgraph_test_return(const struct fgraph_ret *ret)
{
	(void)ret;
	__atomic_add_fetch(&returns, 1, __ATOMIC_RELAXED);
}
NOKPROBE_SYMBOL(fgraph_test_return);

static struct fgraph_ops test_ops = {
	.entryfunc = fgraph_test_entry, .retfunc = fgraph_test_return,
};

static bool hook(void *fn)
{
	__atomic_store_n(&hooked, (uintptr_t)fn, __ATOMIC_RELAXED);
	returns = 0;
	return register_ftrace_graph(&test_ops) == 0;
}

static void graph_backtrace_shows_real_callers(void)
{
	EXPECT(hook(probe_test_capture_backtrace));
	probe_test_expect_real_caller();
	unregister_ftrace_graph(&test_ops);
	EXPECT_EQ(returns, 1);
}

/* n + 1 nested calls, more than a thread's FGRAPH_DEPTH frames. Other
 * threads' calls may be missed meanwhile too (one that is ending has
 * no stack any more), so the count grows by at least the rest. */
static void depth_past_the_stack_is_missed(void)
{
	const long n = 2 * FGRAPH_DEPTH;
	uint64_t missed = fgraph_missed();

	EXPECT(hook(probe_test_sum_to));
	EXPECT_EQ(fgraph_depth(), 0u);
	EXPECT_EQ(probe_test_sum_to(n), n * (n + 1) / 2);
	EXPECT_EQ(fgraph_depth(), 0u);
	unregister_ftrace_graph(&test_ops);
	EXPECT_EQ(returns, FGRAPH_DEPTH);
	EXPECT(fgraph_missed() - missed >= (uint64_t)(n + 1 - FGRAPH_DEPTH));
}

static const struct selftest_case fgraph_cases[] = {
	SELFTEST_CASE(graph_backtrace_shows_real_callers),
	SELFTEST_CASE(depth_past_the_stack_is_missed),
};
SELFTEST_SUITE("fgraph", fgraph_cases);
