/* The selftest runner, which the `selftest` shell command calls
 * (kernel/shell/selftest_cmd.c).
 *
 * Output is KTAP version 1, the format of Linux's KUnit, so existing
 * tools can read it: one top-level line per suite, and nested inside it
 * (indented four spaces) one line per case. Diagnostics of a failed
 * expectation are "#" lines printed before the case's result line. The
 * report is the `selftest` command's output (cmd_printf): it can go to a
 * file or a pipe, and stays out of the kernel log.
 *
 *	KTAP version 1
 *	1..1
 *	    KTAP version 1
 *	    # Subtest: shell
 *	    1..2
 *	    ok 1 typing
 *	    # kernel/shell/shell_selftest.c:42: expected x == 1 (2 != 1)
 *	    not ok 2 history
 *	not ok 1 shell
 *	selftest: 1 passed, 1 failed
 */
#include "kernel/selftest.h"
#include "kernel/mm/heap.h"
#include "kernel/cmd_output.h"
#include "kernel/rcu.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* What the runner and selftest_fail() share about the case being run.
 * The tests run in the shell thread, one at a time, so one global will
 * do; it is a struct so it can move into per-CPU data when tests run on
 * several CPUs. */
struct selftest_state {
	bool failed;	/* an expectation of the current case failed */
};

static struct selftest_state selftest_state;

bool selftest_heap_balanced(void (*work)(void))
{
	struct heap_stats before, after;

	for (int attempt = 0; attempt < 3; attempt++) {
		heap_get_stats(&before);
		work();
		rcu_barrier();
		heap_get_stats(&after);
		if (after.bytes_in_use == before.bytes_in_use &&
		    after.allocations == before.allocations)
			return true;
	}
	return false;
}

/* A failure's diagnostic is a line of the `selftest` command's report,
 * so it goes to the command's output. It is formatted first and printed
 * in one call, so that the line stays whole (a longer diagnostic is cut
 * at the buffer's end). */
void selftest_fail(const char *file, int line, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	selftest_state.failed = true;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	cmd_printf("    # %s:%d: %s\n", file, line, why);
}

static const char *result(bool ok)
{
	return ok ? "ok" : "not ok";
}

/* Run one case; returns true if it passed. */
static bool run_case(const struct selftest_case *tc, size_t number)
{
	bool passed;

	selftest_state.failed = false;
	tc->run();
	passed = !selftest_state.failed;

	cmd_printf("    %s %zu %s\n", result(passed), number, tc->name);
	return passed;
}

/* Run a suite as KTAP test number `number`, adding to the counts. */
static void run_suite(const struct selftest_suite *suite, size_t number,
		      int *passed, int *failed)
{
	int suite_failed = 0;
	size_t i;

	cmd_printf("    KTAP version 1\n");
	cmd_printf("    # Subtest: %s\n", suite->name);
	cmd_printf("    1..%zu\n", suite->ncases);
	for (i = 0; i < suite->ncases; i++) {
		if (run_case(&suite->cases[i], i + 1))
			(*passed)++;
		else
			suite_failed++;
	}
	*failed += suite_failed;
	cmd_printf("%s %zu %s\n", result(suite_failed == 0), number, suite->name);
}

static bool suite_selected(const struct selftest_suite *suite,
			   const char *name)
{
	return !name || strcmp(suite->name, name) == 0;
}

int selftest_run(const char *name)
{
	const struct selftest_suite *suite;
	size_t total = 0, number = 0;
	int passed = 0, failed = 0;

	/* KTAP wants the plan ("1..N") before the first result. */
	for (suite = __start_selftests; suite < __stop_selftests; suite++) {
		if (suite_selected(suite, name))
			total++;
	}
	if (total == 0 && name)
		return -ENOENT;

	cmd_printf("KTAP version 1\n");
	cmd_printf("1..%zu\n", total);
	for (suite = __start_selftests; suite < __stop_selftests; suite++) {
		if (suite_selected(suite, name))
			run_suite(suite, ++number, &passed, &failed);
	}
	cmd_printf("selftest: %d passed, %d failed\n", passed, failed);
	return failed;
}
