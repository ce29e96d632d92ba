/* Host tests for the words of set_ftrace_filter (kernel/trace/
 * ftrace_filter_word.c): each form Linux takes, cut up as the tracer
 * matches it, and each that Linux refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/trace/ftrace_filter_word.h"
#include "lib/errno.h"
#include "lib/string.h"

static struct ftrace_filter_word parsed(const char *word)
{
	struct ftrace_filter_word w;

	assert_int_equal(ftrace_filter_word_parse(word, strlen(word), &w), 0);
	return w;
}

static void test_globs_and_names(void **state)
{
	struct ftrace_filter_word w = parsed("vfs_read");

	(void)state;
	assert_false(w.negate);
	assert_string_equal(w.glob, "vfs_read");
	assert_string_equal(w.module, "");
	assert_int_equal(w.index, 0);
	w = parsed("!ramfs_*");
	assert_true(w.negate);
	assert_string_equal(w.glob, "ramfs_*");
	/* Digits among other characters are a name, not an index. */
	w = parsed("1abc");
	assert_int_equal(w.index, 0);
	assert_string_equal(w.glob, "1abc");
}

static void test_indices(void **state)
{
	(void)state;
	assert_int_equal(parsed("1").index, 1);
	assert_int_equal(parsed("2048").index, 2048);
	assert_int_equal(parsed("!7").index, 7);
	assert_true(parsed("!7").negate);
}

static void test_modules(void **state)
{
	struct ftrace_filter_word w = parsed(":mod:mod_exporter");

	(void)state;
	assert_string_equal(w.glob, "");
	assert_string_equal(w.module, "mod_exporter");
	w = parsed("!exporter_*:mod:mod_exporter");
	assert_true(w.negate);
	assert_string_equal(w.glob, "exporter_*");
	assert_string_equal(w.module, "mod_exporter");
	/* With a module, digits are a name to match, not an index. */
	w = parsed("12:mod:m");
	assert_int_equal(w.index, 0);
}

static void test_refusals(void **state)
{
	static const char *const bad[] = {
		"", "!", "0", "!0", "99999999999999999999999",
		"vfs_read:traceon", "vfs_read:mod", "vfs_read:mod:", ":mod:a:b", "x:bar:y",
	};
	struct ftrace_filter_word w;
	char long_word[FTRACE_WORD_MAX + 2];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ftrace_filter_word_parse(bad[i], strlen(bad[i]), &w), -EINVAL);
	assert_int_equal(ftrace_filter_word_parse("vf\0s", 4, &w), -EINVAL);
	memset(long_word, 'a', sizeof(long_word));
	assert_int_equal(ftrace_filter_word_parse(long_word, FTRACE_WORD_MAX, &w), 0);
	assert_int_equal(ftrace_filter_word_parse(long_word, FTRACE_WORD_MAX + 1, &w), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_globs_and_names),
		cmocka_unit_test(test_indices),
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
