/* Selftests of the function tracer's call sites (kernel/trace/
 * ftrace_sites.h) in the running kernel: every site is turned off (the
 * compiler's NOP; on aarch64 the first word made `mov x9, x30` at
 * boot); a site is a function's entry
 * and nothing else; a notrace function has none. The table is checked
 * against the ELF on the host too (tests/host/check_ftrace_sites.py). */
#include "kernel/mm/heap.h"
#include "kernel/selftest.h"
#include "kernel/trace/ftrace_sites.h"
#include "lib/errno.h"
#include <asm/ftrace.h>

/* One function with a site and one without, to look up. */
static __noinline int traced_function(int x)
{
	return x + 1;
}

static notrace __noinline int untraced_function(int x)
{
	return x + 2;
}

static void every_site_is_turned_off(void)
{
	uintptr_t ip, last = 0;
	const char *module;
	uint64_t n = 0;

	while (ftrace_site_nth(n, &ip, &module) == 0 && !module) {
		EXPECT(arch_ftrace_site_is_off(ip));
		EXPECT(ip > last);	/* sorted, each once */
		last = ip;
		n++;
	}
	EXPECT(n > 500);
}

static void a_site_is_a_function_entry(void)
{
	EXPECT_EQ(traced_function(1) + untraced_function(1), 5);
	EXPECT(ftrace_site_at((uintptr_t)traced_function));
	EXPECT(ftrace_site_at((uintptr_t)kmalloc));
	EXPECT(!ftrace_site_at((uintptr_t)kmalloc + 1));
	EXPECT(!ftrace_site_at((uintptr_t)untraced_function));
	EXPECT(!ftrace_site_at(0));
}

static void the_nth_site_ends(void)
{
	uintptr_t ip;
	const char *module;

	EXPECT_EQ(ftrace_site_nth(0, &ip, &module), 0);
	EXPECT_EQ(ftrace_site_nth(~0ull, &ip, &module), -ENOENT);
}

static const struct selftest_case ftrace_sites_cases[] = {
	SELFTEST_CASE(every_site_is_turned_off),
	SELFTEST_CASE(a_site_is_a_function_entry),
	SELFTEST_CASE(the_nth_site_ends),
};
SELFTEST_SUITE("ftrace_sites", ftrace_sites_cases);
