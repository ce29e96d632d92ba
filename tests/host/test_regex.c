/* Host tests for the regular expressions (lib/regex.c): what each form
 * matches in a BRE and in an ERE, the readings GNU grep gives the forms
 * POSIX leaves open, -i and -w, every refusal with GNU's words, and that
 * no expression makes matching run away. The expected answers are GNU
 * grep 3.8's on the same lines, but for the two refusals marked "ours"
 * (GNU takes both) and the bound on nested groups (GNU's is its own
 * stack's end: "stack overflow"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "lib/errno.h"
#include "lib/regex.h"
#include "lib/string.h"

static struct regex re;

struct match_case {
	const char *pattern;
	const char *text;
	bool matches;
};

static void compile(const char *pattern, unsigned int flags)
{
	const char *error = NULL;
	int err = regex_compile(&re, pattern, flags, &error);

	if (err)
		fail_msg("'%s' refused: %s", pattern, error);
}

static void check_cases(const struct match_case *cases, size_t n, unsigned int flags,
			bool words)
{
	for (size_t i = 0; i < n; i++) {
		bool got;

		compile(cases[i].pattern, flags);
		got = regex_search(&re, cases[i].text, strlen(cases[i].text), words);
		if (got != cases[i].matches)
			fail_msg("'%s' on '%s': expected %s", cases[i].pattern, cases[i].text,
				 cases[i].matches ? "a match" : "no match");
	}
}

static void test_bre(void **state)
{
	static const struct match_case cases[] = {
		{ "", "", true },
		{ "abc", "xxabcxx", true },
		{ "abc", "ab", false },
		{ "a.c", "abc", true },
		{ "a.c", "ac", false },
		{ "ab*c", "ac", true },
		{ "ab*c", "abbbc", true },
		{ "^ab", "abc", true },
		{ "^ab", "cab", false },
		{ "ab$", "cab", true },
		{ "ab$", "abc", false },
		{ "^$", "", true },
		{ "^$", "x", false },
		{ "[abc]x", "bx", true },
		{ "[^abc]x", "bx", false },
		{ "[^abc]x", "dx", true },
		{ "[a-c]", "b", true },
		{ "[a-c]", "d", false },
		{ "[]a]", "]", true },
		{ "[a-]", "-", true },
		{ "[[:digit:]]\\{3\\}", "a123b", true },
		{ "[[:digit:]]\\{3\\}", "a12b", false },
		{ "[[:alpha:]_][[:alnum:]_]*", "9_x", true },
		{ "[[:space:]]", "a b", true },
		{ "[[:upper:]]", "abc", false },
		{ "[[.a.]]", "a", true },
		{ "[[=b=]]", "b", true },
		{ "\\(ab\\)*c", "ababc", true },
		{ "^\\(ab\\)*$", "abab", true },
		{ "^\\(ab\\)*$", "aba", false },
		{ "a\\{2,3\\}", "aa", true },
		{ "^a\\{2,3\\}$", "aaaa", false },
		{ "^a\\{2,\\}$", "aaaa", true },
		{ "^a\\{,2\\}$", "aaa", false },
		{ "^a\\{0\\}b$", "b", true },
		{ "ab\\+c", "ac", false },
		{ "ab\\+c", "abbc", true },
		{ "ab\\?c", "ac", true },
		{ "ab\\?c", "abbc", false },
		{ "cat\\|dog", "hotdog", true },
		{ "^\\(cat\\|dog\\)$", "dogs", false },
		/* GNU's readings of what POSIX leaves open. */
		{ "*a", "*a", true },		/* a leading * is a literal */
		{ "*a", "a", false },
		{ "\\(*a\\)", "*a", true },
		{ "^*a", "*a", true },		/* so after an anchor */
		{ "^*a", "a", false },
		{ "a^", "a^", true },		/* ^ away from the start */
		{ "a$b", "a$b", true },		/* $ away from the end */
		{ "\\(^a\\)", "ab", true },	/* anchors in a group */
		{ "a\\(b$\\)", "ab", true },
		{ "^^", "^a", true },		/* the second ^ is a literal */
		{ "^^", "a", false },
		{ "\\{1\\}a", "{1}a", true },	/* \{ with nothing before */
		{ "a+b?", "a+b?", true },	/* plain + and ? are literals */
		{ "a|b", "a|b", true },
		{ "a\\.b", "axb", false },
		{ "a\\*", "a*", true },
		{ "\\<is\\>", "this is", true },
		{ "\\<is\\>", "this", false },
		{ "\\bx", "a x", true },
		{ "\\Bx", "a x", false },
		{ "\\w\\W\\w", "a-b", true },
		{ "\\s", "ab", false },
		{ "\\S", " a", true },
		{ "a\\z", "az", true },		/* other escapes are the character */
	};

	(void)state;
	check_cases(cases, ARRAY_SIZE(cases), 0, false);
}

static void test_ere(void **state)
{
	static const struct match_case cases[] = {
		{ "ab+c", "abbc", true },
		{ "ab+c", "ac", false },
		{ "ab?c", "ac", true },
		{ "(ab)+$", "xabab", true },
		{ "^(ab)+$", "xabab", false },
		{ "a{2}", "aa", true },
		{ "^a{2}$", "aaa", false },
		{ "^a{1,}$", "aaa", true },
		{ "^a{,2}$", "aaa", false },
		{ "^(a|bc)*$", "abca", true },
		{ "^(a|bc)*$", "abc b", false },
		{ "a|b|c", "xc", true },
		{ "()", "", true },
		{ "a||b", "x", true },		/* an empty branch matches */
		{ "(|a)", "x", true },
		/* GNU's readings. */
		{ "a)", "a)", true },		/* a ) with no ( is a literal */
		{ "a{", "a{", true },		/* { that starts no count */
		{ "a{x", "a{x", true },
		{ "a{1", "a{1", true },
		{ "a{1,x}", "a{1,x}", true },
		{ "{}", "{}", true },		/* {} with nothing before */
		{ "*a", "ba", true },		/* an operator with nothing before */
		{ "+a", "ba", true },
		{ "^*a", "ba", true },		/* ^* is the anchor repeated */
		{ "b$*", "ab", true },
		{ "a$b", "a$b", false },	/* $ is always an anchor */
		{ "a\\|b", "a|b", true },	/* escaped operators are literals */
		{ "a\\+", "a+", true },
		{ "\\(a\\)", "(a)", true },
		{ "a\\{1\\}", "a{1}", true },
	};

	(void)state;
	check_cases(cases, ARRAY_SIZE(cases), REGEX_EXTENDED, false);
}

/* An operator after an anchor: GNU grep 3.8 in the C locale repeats the
 * anchor (its DFA's reading), so A\b* is A followed by \b any number
 * of times, A alone; but in a BRE, after anchors with nothing else
 * before them in the branch, the operator is a literal. */
static void test_repeated_anchors(void **state)
{
	static const struct match_case bre[] = {
		{ "A\\b*", "AB", true },
		{ "A\\b*B", "AB", true },
		{ "A\\b*B", "A*B", false },	/* the * is no literal */
		{ "A\\b\\+", "AB", false },	/* \b once or more: \b */
		{ "A\\b\\+", "A B", true },
		{ "A\\b\\+B", "A+B", false },
		{ "A\\B*", "A", true },
		{ "A\\B\\+", "AB", true },
		{ "A\\B\\+", "A ", false },
		{ "A\\<*", "AB", true },
		{ "A\\<\\?B", "AB", true },
		{ "A\\>*B", "AB", true },
		{ "A\\B\\{,2\\}", "A ", true },
		{ "A\\B\\{1,\\}", "A ", false },
		{ "A\\b\\{0\\}B", "AB", true },
		{ "A\\`*", "xA", true },
		{ "A\\'\\+", "AB", false },
		{ "A\\'\\+", "BA", true },
		{ "\\(A\\b*\\)B", "AB", true },
		/* Only anchors before: the operator is a literal. */
		{ "\\B*A", "*A", true },
		{ "\\B*A", "A", false },
		{ "\\b\\b*", "A*", true },
		{ "\\b\\b*", "A", false },
		{ "\\(\\b*A\\)", "x*A", true },
	};
	static const struct match_case ere[] = {
		{ "A\\b*B", "AB", true },
		{ "A\\B+", "AB", true },
		{ "A\\B+", "A ", false },
		{ "A\\>?B", "AB", true },
		{ "\\b{2}A", "A", true },
		{ "(A\\b{1})", "A", true },
		{ "(A\\b*{2})", "A", true },
		/* A ) right after an anchor's *, + or ? is a literal. */
		{ "(A\\b*))B", "A)B", true },
		/* ...but not after a | between them: the group is closed. */
		{ "(A\\b*|)", "B", true },
		/* A { that starts no count is skipped by GNU's regex compiler
		 * there, as a * is: the {} after it is a literal too. */
		{ "{{}", "{{}", true },
		{ "(*{1}*)", "B", true },
	};

	(void)state;
	check_cases(bre, ARRAY_SIZE(bre), 0, false);
	check_cases(ere, ARRAY_SIZE(ere), REGEX_EXTENDED, false);
}

static void test_ignore_case(void **state)
{
	static const struct match_case cases[] = {
		{ "VFS_read", "vfs_READ", true },
		{ "[a-c]x", "BX", true },
		{ "[^a]", "A", false },
		{ "[[:upper:]]", "a", true },
		{ "\\w", "Q", true },
	};

	(void)state;
	check_cases(cases, ARRAY_SIZE(cases), REGEX_ICASE, false);
}

static void test_whole_words(void **state)
{
	static const struct match_case cases[] = {
		{ "vfs_read", "ffff T vfs_read", true },
		{ "vfs_read", "ffff T vfs_readdir", false },
		{ "vfs_read", "ffff T __vfs_read", false },
		{ "read", "x-read-y", true },
		{ "read", "readread read", true },	/* a later match may count */
		{ "a*", "b a", true },
		{ "b", "ab", false },
		{ "", "", true },
		{ "", "ab", false },
	};

	(void)state;
	check_cases(cases, ARRAY_SIZE(cases), 0, true);
}

struct refusal {
	const char *pattern;
	unsigned int flags;
	const char *error;
};

static void test_refusals(void **state)
{
	static const struct refusal cases[] = {
		{ "a[b", 0, "Unmatched [, [^, [:, [., or [=" },
		{ "[]", 0, "Unmatched [, [^, [:, [., or [=" },
		{ "[^]", REGEX_EXTENDED, "Unmatched [, [^, [:, [., or [=" },
		{ "[[:alpha:]", 0, "Unmatched [, [^, [:, [., or [=" },
		{ "[[:alpha", 0, "Unmatched [, [^, [:, [., or [=" },
		{ "[", 0, "Invalid regular expression" },
		{ "a[^", 0, "Invalid regular expression" },
		{ "a\\(", 0, "Unmatched ( or \\(" },
		{ "(a", REGEX_EXTENDED, "Unmatched ( or \\(" },
		{ "a\\)", 0, "Unmatched ) or \\)" },
		{ "a\\{1", 0, "Unmatched \\{" },
		{ "a\\{1,2", 0, "Unmatched \\{" },
		{ "a\\{\\\\}", 0, "Unmatched \\{" },	/* \\ is a backslash, no \} */
		{ "a\\{x\\\\\\}", 0, "Invalid content of \\{\\}" },
		{ "a\\{x\\}", 0, "Invalid content of \\{\\}" },
		{ "a\\{2,1\\}", 0, "Invalid content of \\{\\}" },
		{ "a{2,1}", REGEX_EXTENDED, "Invalid content of \\{\\}" },
		{ "a{}", REGEX_EXTENDED, "Invalid content of \\{\\}" },
		{ "a{32768}", REGEX_EXTENDED, "Regular expression too big" },
		{ "a{5000}", REGEX_EXTENDED, "Regular expression too big" },	/* ours */
		{ "x\\", 0, "Trailing backslash" },
		{ "[[:foo:]]", 0, "Invalid character class name" },
		{ "[:alpha:]", 0, "character class syntax is [[:space:]], not [:space:]" },
		{ "[b-a]", 0, "Invalid range end" },
		{ "[[.ab.]]", 0, "Invalid collation character" },
		{ "\\(a\\)\\1", 0, "back-references (\\1 to \\9) are not supported" },	/* ours */
		{ "(A\\b*)", REGEX_EXTENDED, "Unmatched ( or \\(" },
		{ "(^*)", REGEX_EXTENDED, "Unmatched ( or \\(" },
		{ "(A\\B+)", REGEX_EXTENDED, "Unmatched ( or \\(" },
		/* A ) right after a *, + or ? with nothing before it, or after
		 * a { that starts no count there, is a literal too. */
		{ "(*)", REGEX_EXTENDED, "Unmatched ( or \\(" },
		{ "(+)", REGEX_EXTENDED, "Unmatched ( or \\(" },
		{ "(a|*)", REGEX_EXTENDED, "Unmatched ( or \\(" },
		{ "({)", REGEX_EXTENDED, "Unmatched ( or \\(" },
		{ "(\\b{)", REGEX_EXTENDED, "Unmatched ( or \\(" },
		/* GNU's regex compiler reads a leading {2} as a 2 and a }, so a
		 * {} after it follows an atom. */
		{ "{2}{}", REGEX_EXTENDED, "Invalid content of \\{\\}" },
		/* An empty group, or a{0}, is an atom all the same. */
		{ "(){}", REGEX_EXTENDED, "Invalid content of \\{\\}" },
		{ "a{0}{}", REGEX_EXTENDED, "Invalid content of \\{\\}" },
		/* The refusals of GNU's second reader, its DFA, come only when
		 * its regex compiler finds nothing else wrong, and in the DFA's
		 * words: [:alpha:], and a bad \{ after an anchor (a literal to
		 * the regex compiler). */
		{ "[:alpha:]\\(", 0, "Unmatched ( or \\(" },
		{ "[:alpha:][b-a]", 0, "Invalid range end" },
		{ "a\\<\\{", 0, "invalid content of \\{\\}" },
		{ "a\\b\\{x\\}", 0, "invalid content of \\{\\}" },
		{ "a\\b*\\{x\\}", 0, "Invalid content of \\{\\}" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *error = NULL;
		int err = regex_compile(&re, cases[i].pattern, cases[i].flags, &error);

		if (err != -EINVAL || !error || strcmp(error, cases[i].error) != 0)
			fail_msg("'%s': expected '%s', got %d '%s'", cases[i].pattern,
				 cases[i].error, err, error ? error : "(none)");
	}
}

/* (a*)*b and (a|aa)*c take a backtracking matcher exponential time on a
 * line of a's with no b; here they are at most length x program steps.
 * A count that fits the program still works. */
static void test_no_blow_up(void **state)
{
	char line[4001];

	(void)state;
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	compile("(a*)*b", REGEX_EXTENDED);
	assert_false(regex_search(&re, line, strlen(line), false));
	compile("^(a|aa)*c", REGEX_EXTENDED);
	assert_false(regex_search(&re, line, strlen(line), false));
	compile("((a*)*|b)*$", REGEX_EXTENDED);
	assert_true(regex_search(&re, line, strlen(line), true));
	compile("^a{500}", REGEX_EXTENDED);
	assert_true(regex_search(&re, line, strlen(line), false));
	assert_false(regex_search(&re, line, 499, false));
}

static int stop_calls;

static bool stop_now(void)
{
	stop_calls++;
	return true;
}

/* The stop hook is asked every REGEX_STOP_EVERY characters, and gives
 * the search up: a match after that point is not found. */
static void test_stop_hook(void **state)
{
	char line[4 * REGEX_STOP_EVERY + 2];

	(void)state;
	memset(line, 'a', sizeof(line) - 2);
	line[sizeof(line) - 2] = 'b';
	line[sizeof(line) - 1] = '\0';
	compile("a*b", 0);
	assert_true(regex_search(&re, line, strlen(line), false));
	re.stop = stop_now;
	stop_calls = 0;
	assert_false(regex_search(&re, line, strlen(line), false));
	assert_int_equal(stop_calls, 1);
	assert_true(regex_search(&re, "ab", 2, false));	/* too short to ask */
	assert_int_equal(stop_calls, 1);
	compile("a*b", 0);
	assert_null(re.stop);	/* compiling clears it */
}

/* n groups, one inside the other, around an a: ((a)) for n = 2. */
static const char *nested(int n, bool ere)
{
	static char pattern[4 * 1000 + 2];
	const char *open = ere ? "(" : "\\(", *close = ere ? ")" : "\\)";
	size_t len = strlen(open);
	char *p = pattern;

	for (int i = 0; i < n; i++, p += len)
		memcpy(p, open, len);
	*p++ = 'a';
	for (int i = 0; i < n; i++, p += len)
		memcpy(p, close, len);
	*p = '\0';
	return pattern;
}

/* Groups nest REGEX_MAX_DEPTH deep and no deeper: one more, or a
 * thousand more, is one refusal, not a compiler run off its stack. */
static void test_nesting_bound(void **state)
{
	(void)state;
	for (int ere = 0; ere <= 1; ere++) {
		unsigned int flags = ere ? REGEX_EXTENDED : 0;
		const int too_deep[] = { REGEX_MAX_DEPTH + 1, 1000 };

		compile(nested(REGEX_MAX_DEPTH, ere), flags);
		assert_true(regex_search(&re, "xax", 3, false));
		assert_false(regex_search(&re, "xbx", 3, false));
		for (size_t i = 0; i < ARRAY_SIZE(too_deep); i++) {
			const char *error = NULL;
			int err = regex_compile(&re, nested(too_deep[i], ere), flags, &error);

			if (err != -EINVAL || !error || strcmp(error, "Groups nested too deep") != 0)
				fail_msg("%d groups deep (%s): got %d '%s'", too_deep[i],
					 ere ? "ERE" : "BRE", err, error ? error : "(none)");
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bre),
		cmocka_unit_test(test_ere),
		cmocka_unit_test(test_repeated_anchors),
		cmocka_unit_test(test_ignore_case),
		cmocka_unit_test(test_whole_words),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_no_blow_up),
		cmocka_unit_test(test_stop_hook),
		cmocka_unit_test(test_nesting_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
