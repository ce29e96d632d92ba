/* In-kernel self tests.
 *
 * A suite is a named array of test cases, declared with SELFTEST_SUITE()
 * in the file whose code it tests. The linker gathers the suites into
 * one table (.selftests, see linker/); selftest_run() in
 * kernel/selftest.c walks it and prints KTAP (the format of Linux's
 * KUnit), ending with `selftest: N passed, N failed`. The `selftest`
 * shell command calls it. */
#ifndef KERNEL_SELFTEST_H
#define KERNEL_SELFTEST_H

#include "lib/types.h"

struct selftest_case {
	const char *name;
	void (*run)(void);
};

struct selftest_suite {
	const char *name;
	const struct selftest_case *cases;
	size_t ncases;
};

#define SELFTEST_CASE(fn) { #fn, fn }

#define SELFTEST_SUITE(suite_name, case_array)                                 \
	static const struct selftest_suite selftest_suite_##case_array         \
		__used __section(".selftests") __aligned(8) = {               \
		.name = suite_name, .cases = case_array,                      \
		.ncases = ARRAY_SIZE(case_array),                             \
	}

extern const struct selftest_suite __start_selftests[], __stop_selftests[];

/* Record a failed expectation in the running case (prints a KTAP
 * diagnostic line with file and line, on the standard output of the
 * command that runs the tests). Use the EXPECT macros. */
void selftest_fail(const char *file, int line, const char *fmt, ...) __printf(3, 4);

#define EXPECT(cond)                                                           \
	do {                                                                   \
		if (!(cond))                                                   \
			selftest_fail(__FILE__, __LINE__, "expected %s", #cond); \
	} while (0)

#define EXPECT_EQ(a, b)                                                        \
	do {                                                                   \
		long long _a = (long long)(a), _b = (long long)(b);            \
		if (_a != _b)                                                  \
			selftest_fail(__FILE__, __LINE__,                      \
				      "expected %s == %s (%lld != %lld)",      \
				      #a, #b, _a, _b);                         \
	} while (0)

#define EXPECT_STREQ(a, b)                                                     \
	do {                                                                   \
		const char *_a = (a), *_b = (b);                               \
		if (!_a || !_b || strcmp(_a, _b) != 0)                         \
			selftest_fail(__FILE__, __LINE__,                      \
				      "expected %s == \"%s\", got \"%s\"",     \
				      #a, _b ? _b : "(null)", _a ? _a : "(null)"); \
	} while (0)

/* Does work() give back every byte and allocation of the heap it took,
 * once the grace periods it started have ended (memory freed with
 * call_rcu)? Other threads allocate too, so one attempt may see their
 * bytes come or go: it tries three times. A real leak shows every time;
 * someone else's allocation almost never does. */
bool selftest_heap_balanced(void (*work)(void));

/* Run every suite (name == NULL) or the one named, printing the KTAP
 * report to the calling command's standard output (kernel/cmd_output.h);
 * returns failed cases, or -ENOENT (nothing printed) if no suite has
 * that name. */
int selftest_run(const char *name);

#endif
