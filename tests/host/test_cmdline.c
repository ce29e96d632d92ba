/* Host tests for the shell's command-line parser (kernel/shell/cmdline.c):
 * words, quotes, backslashes and redirections, and every refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/shell/cmdline.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MAX_WORDS 8

struct parsed {
	char store[256];
	char *words[MAX_WORDS + 1];
	struct cmdline cl;
	int err;
};

/* One static result: cl.argv points into it, so it must not be copied. */
static struct parsed *parse(const char *line)
{
	static struct parsed p;

	p.err = cmdline_parse(line, p.store, strlen(line) + 1, p.words, MAX_WORDS, &p.cl);
	return &p;
}

/* The line parses, into exactly the words given (NULL-ended). */
static void expect_words(const struct parsed *p, const char *const *want)
{
	int n = 0;

	assert_int_equal(p->err, 0);
	assert_null(p->cl.error);
	for (; want[n]; n++)
		assert_string_equal(p->cl.argv[n], want[n]);
	assert_int_equal(p->cl.argc, n);
	assert_null(p->cl.argv[n]);
}

static void test_words_split_on_blanks(void **state)
{
	struct parsed *p = parse("  echo \t one  two\t");

	(void)state;
	expect_words(p, (const char *const[]){ "echo", "one", "two", NULL });
	assert_null(p->cl.redirect);
}

static void test_empty_and_blank_lines(void **state)
{
	struct parsed *p = parse("");

	(void)state;
	expect_words(p, (const char *const[]){ NULL });
	p = parse(" \t ");
	expect_words(p, (const char *const[]){ NULL });
}

static void test_single_quotes_keep_everything(void **state)
{
	struct parsed *p = parse("echo 'p:ev vfs_read count=%dx' '>' 'a\\b' '\"'");

	(void)state;
	expect_words(p, (const char *const[]){ "echo", "p:ev vfs_read count=%dx", ">",
						 "a\\b", "\"", NULL });
	assert_null(p->cl.redirect);
}

static void test_double_quotes_and_their_escapes(void **state)
{
	struct parsed *p = parse("echo \"a 'b' > c\" \"q\\\"q\" \"s\\\\s\" \"t\\nt\"");

	(void)state;
	expect_words(p, (const char *const[]){ "echo", "a 'b' > c", "q\"q", "s\\s", "t\\nt",
						 NULL });
}

static void test_parts_join_into_one_word(void **state)
{
	struct parsed *p = parse("x a'b c'\"d\"e '' \"\"");

	(void)state;
	/* '' and "" are empty words, as in sh. */
	expect_words(p, (const char *const[]){ "x", "ab cde", "", "", NULL });
}

static void test_backslash_outside_quotes(void **state)
{
	struct parsed *p = parse("echo a\\ b \\> \\' end\\");

	(void)state;
	/* A backslash at the very end stays a backslash. */
	expect_words(p, (const char *const[]){ "echo", "a b", ">", "'", "end\\", NULL });
	assert_null(p->cl.redirect);
}

static void test_redirect_truncate(void **state)
{
	struct parsed *p = parse("echo \"0\" > /sys/kernel/debug/kprobes/enabled");

	(void)state;
	expect_words(p, (const char *const[]){ "echo", "0", NULL });
	assert_string_equal(p->cl.redirect, "/sys/kernel/debug/kprobes/enabled");
	assert_false(p->cl.append);
}

static void test_redirect_append_anywhere(void **state)
{
	struct parsed *p = parse("echo a>>'/tmp/my file' b");

	(void)state;
	expect_words(p, (const char *const[]){ "echo", "a", "b", NULL });
	assert_string_equal(p->cl.redirect, "/tmp/my file");
	assert_true(p->cl.append);
	p = parse("echo 1>x");
	expect_words(p, (const char *const[]){ "echo", "1", NULL });
	assert_string_equal(p->cl.redirect, "x");
	p = parse(">x");
	expect_words(p, (const char *const[]){ NULL });
	assert_string_equal(p->cl.redirect, "x");
}

static void expect_refused(const char *line, int err, const char *why)
{
	struct parsed *p = parse(line);

	assert_int_equal(p->err, err);
	assert_string_equal(p->cl.error, why);
	assert_null(p->cl.argv[p->cl.argc]);
}

static void test_refusals(void **state)
{
	(void)state;
	expect_refused("echo 'abc", -EINVAL, "missing closing '");
	expect_refused("echo \"abc\\\"", -EINVAL, "missing closing \"");
	expect_refused("echo a >", -EINVAL, "> needs a file name");
	expect_refused("echo a >>  ", -EINVAL, ">> needs a file name");
	expect_refused("echo a > > b", -EINVAL, "> needs a file name");
	expect_refused("echo a >>> b", -EINVAL, ">> needs a file name");
	expect_refused("echo a > x > y", -EINVAL, "only one > or >> per command");
	expect_refused("1 2 3 4 5 6 7 8 9", -E2BIG, "too many words");
	/* A quote left open after the last word allowed is still a quote. */
	expect_refused("1 2 3 4 5 6 7 8 > 'x", -EINVAL, "missing closing '");
}

static void test_exactly_max_words(void **state)
{
	struct parsed *p = parse("1 2 3 4 5 6 7 8");

	(void)state;
	expect_words(p, (const char *const[]){ "1", "2", "3", "4", "5", "6", "7", "8", NULL });
}

static void test_store_too_small(void **state)
{
	char store[4];
	char *words[MAX_WORDS + 1];
	struct cmdline cl;

	(void)state;
	assert_int_equal(cmdline_parse("abcd", store, sizeof(store), words, MAX_WORDS, &cl),
			 -E2BIG);
	assert_string_equal(cl.error, "line too long to split");
	assert_int_equal(cmdline_parse("abc", store, sizeof(store), words, MAX_WORDS, &cl), 0);
	assert_string_equal(words[0], "abc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words_split_on_blanks),
		cmocka_unit_test(test_empty_and_blank_lines),
		cmocka_unit_test(test_single_quotes_keep_everything),
		cmocka_unit_test(test_double_quotes_and_their_escapes),
		cmocka_unit_test(test_parts_join_into_one_word),
		cmocka_unit_test(test_backslash_outside_quotes),
		cmocka_unit_test(test_redirect_truncate),
		cmocka_unit_test(test_redirect_append_anywhere),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_exactly_max_words),
		cmocka_unit_test(test_store_too_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
