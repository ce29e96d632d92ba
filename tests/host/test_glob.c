/* Host tests for the glob matcher (lib/glob.c): a case for each rule of
 * lib/glob.h, broken patterns included, each checked against the host's
 * fnmatch(3) with no flags as well as against the answer written here
 * (glibc 2.36's); then a differential test, glob_match against fnmatch
 * on random patterns and strings from a fixed seed, and patterns that
 * would make a backtracking matcher run away. The program runs in the C
 * locale (it never calls setlocale), as the matcher compares. */
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* The host's answer, and the host's snprintf for printing a case, both
 * before rename.h renames strlen & co. */
static bool host_match(const char *pattern, const char *str)
{
	return fnmatch(pattern, str, 0) == 0;
}

/* s with its bytes outside printable ASCII, its quotes and its
 * backslashes as C escapes, so a failing case can be pasted back. */
static const char *shown(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; *s && n + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f)
			n += (size_t)snprintf(buf + n, size - n, "\\%03o", c);
		else if (c == '"' || c == '\\')
			n += (size_t)snprintf(buf + n, size - n, "\\%c", c);
		else
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return buf;
}

#include "tests/host/rename.h"
#include "lib/glob.h"
#include "lib/string.h"

struct glob_case {
	const char *pattern;
	const char *str;
	bool matches;
};

/* Whether glob_match and the host's fnmatch answer as the case says;
 * prints each that does not. */
static bool case_holds(const struct glob_case *c)
{
	bool mine = glob_match(c->pattern, c->str), host = host_match(c->pattern, c->str);
	char p[512], s[512];

	if (mine == c->matches && host == c->matches)
		return true;
	print_error("pattern \"%s\" string \"%s\": expected %s, glob_match %s, fnmatch %s\n",
		    shown(c->pattern, p, sizeof(p)), shown(c->str, s, sizeof(s)),
		    c->matches ? "a match" : "no match", mine ? "matches" : "does not",
		    host ? "matches" : "does not");
	return false;
}

static void check_cases(const struct glob_case *cases, size_t n)
{
	size_t failed = 0;

	for (size_t i = 0; i < n; i++)
		failed += !case_holds(&cases[i]);
	if (failed)
		fail_msg("%zu of %zu cases failed", failed, n);
}

#define CHECK_CASES(cases) check_cases(cases, sizeof(cases) / sizeof(cases[0]))

static void test_characters_and_wildcards(void **state)
{
	static const struct glob_case cases[] = {
		{ "", "", true },
		{ "", "a", false },
		{ "a", "", false },
		{ "vfs_read", "vfs_read", true },
		{ "vfs_read", "vfs_reads", false },
		{ "vfs_read", "vfs_rea", false },
		{ "*", "", true },
		{ "*", "anything", true },
		{ "**", "x", true },
		{ "vfs_*", "vfs_read", true },
		{ "vfs_*", "vfs_", true },
		{ "vfs_*", "do_vfs_read", false },
		{ "*_read", "vfs_read", true },
		{ "*_read", "vfs_readv", false },
		{ "*vfs*", "do_vfs_read", true },
		{ "a*b*c", "aXbYc", true },
		{ "a*b*c", "aXcYb", false },
		{ "a*b", "abbb", true },
		{ "a*ab", "aaab", true },
		{ "*a*b*", "xaybz", true },
		{ "*/*", "a/b", true },		/* no flags: / is a character */
		{ "a*", "a/b/c", true },
		{ "*", ".hidden", true },	/* and so is a leading . */
		{ "?", "a", true },
		{ "?", "", false },
		{ "?", "/", true },
		{ "?", ".", true },
		{ "??", "a", false },
		{ "a?c", "abc", true },
		{ "a?c", "ac", false },
		{ "*?", "", false },
		{ "*??", "ab", true },
		{ "?*?", "a", false },
		{ "\xe9*", "\xe9t\xe9", true },	/* bytes >= 0x80 are characters too */
	};

	(void)state;
	CHECK_CASES(cases);
}

static void test_sets(void **state)
{
	static const struct glob_case cases[] = {
		{ "[abc]", "b", true },
		{ "[abc]", "d", false },
		{ "[abc]", "", false },
		{ "[abc]", "ab", false },
		{ "[a-c]", "b", true },
		{ "[a-c]", "c", true },
		{ "[a-c]", "d", false },
		{ "[!a-c]", "d", true },
		{ "[!a-c]", "b", false },
		{ "[^a-c]", "d", true },	/* glibc's other negation */
		{ "[^a-c]", "a", false },
		{ "[]a]", "]", true },		/* a ] first is a member */
		{ "[]a]", "a", true },
		{ "[!]a]", "]", false },
		{ "[!]]", "x", true },
		{ "[]-a]", "^", true },		/* ] can start a range: ]-a */
		{ "[-a]", "-", true },		/* a - first or last is a member */
		{ "[a-]", "-", true },
		{ "[a-]", "a", true },
		{ "[!-]", "-", false },
		{ "[a-c-e]", "-", true },	/* after a range, - is a member */
		{ "[a-c-e]", "d", false },
		{ "[a-c-e]", "e", true },
		{ "[z-a]", "m", false },	/* a range backwards holds nothing */
		{ "[z-a]", "z", false },
		{ "[Z-a]", "_", true },		/* by byte value */
		{ "[a-z]", "\xe9", false },
		{ "[\x80-\xff]", "\xe9", true },
		{ "[!a]", "\xff", true },
		{ "kprobe_[a-z]*", "kprobe_trap", true },
		{ "kprobe_[a-z]*", "kprobe_0", false },
		{ "[*?]", "?", true },		/* * and ? are members in a set */
		{ "[*?]", "a", false },
		{ "[[]", "[", true },
		{ "[!!]", "!", false },
		{ "[a!]", "!", true },
	};

	(void)state;
	CHECK_CASES(cases);
}

static void test_classes(void **state)
{
	static const struct glob_case cases[] = {
		{ "[[:alpha:]]", "a", true },
		{ "[[:alpha:]]", "1", false },
		{ "[[:digit:]]", "5", true },
		{ "[[:digit:]]", "a", false },
		{ "[[:alnum:]]", "Z", true },
		{ "[[:alnum:]]", "_", false },
		{ "[[:upper:]]", "Q", true },
		{ "[[:upper:]]", "q", false },
		{ "[[:lower:]]", "q", true },
		{ "[[:lower:]]", "Q", false },
		{ "[[:space:]]", "\t", true },
		{ "[[:space:]]", "\v", true },
		{ "[[:space:]]", "x", false },
		{ "[[:blank:]]", " ", true },
		{ "[[:blank:]]", "\n", false },
		{ "[[:punct:]]", "!", true },
		{ "[[:punct:]]", "a", false },
		{ "[[:xdigit:]]", "f", true },
		{ "[[:xdigit:]]", "g", false },
		{ "[[:cntrl:]]", "\x01", true },
		{ "[[:cntrl:]]", "\x7f", true },
		{ "[[:cntrl:]]", "a", false },
		{ "[[:print:]]", " ", true },
		{ "[[:print:]]", "\x7f", false },
		{ "[[:graph:]]", "~", true },
		{ "[[:graph:]]", " ", false },
		{ "[![:digit:]]", "a", true },
		{ "[![:digit:]]", "7", false },
		{ "[[:alpha:][:digit:]_]", "_", true },
		{ "[[:alpha:][:digit:]_]", "-", false },
		{ "[[:digit:]-z]", "-", true },	/* a class starts no range */
		{ "[[:digit:]-z]", "y", false },
		{ "[[:alpha:]]", "\xe9", false },	/* the C locale: ASCII */
		{ "[![:print:]]", "\xe9", true },
		{ "[[:foo:]]", "f", false },	/* an unknown class: no match */
		{ "[![:foo:]]", "x", false },	/* negated too */
		{ "[a[:foo:]]", "a", true },	/* unless a member before matched */
		{ "[[::]]", ":", false },
		/* Not a name of the letters a to y: the [ is a character. */
		{ "[[:ALPHA:]]", "A]", true },
		{ "[[:ALPHA:]]", "A", false },
		{ "[[:z:]]", "z]", true },
		{ "[:alpha:]", "h", true },	/* the set of :, a, l, p, h */
		{ "[:alpha:]", "b", false },
	};

	(void)state;
	CHECK_CASES(cases);
}

static void test_escapes(void **state)
{
	static const struct glob_case cases[] = {
		{ "\\*", "*", true },
		{ "\\*", "a", false },
		{ "\\?", "?", true },
		{ "\\?", "a", false },
		{ "\\[a]", "[a]", true },
		{ "\\[a]", "a", false },
		{ "\\\\", "\\", true },
		{ "\\a", "a", true },
		{ "*\\*", "abc*", true },
		{ "*\\*", "abc", false },
		{ "\\", "\\", false },		/* a lone \ at the end matches nothing */
		{ "\\", "", false },
		{ "a\\", "a\\", false },
		{ "a\\", "a", false },
		{ "*\\", "x\\", false },
		{ "[\\]]", "]", true },		/* and in a set */
		{ "[\\]]", "\\", false },
		{ "[!\\]]", "]", false },
		{ "[\\!a]", "!", true },
		{ "[\\^a]", "^", true },
		{ "[\\a-\\c]", "b", true },
		{ "[a\\-c]", "-", true },	/* an escaped - makes no range */
		{ "[a\\-c]", "b", false },
		{ "[\\", "[\\", false },
		{ "[a\\", "[a\\", false },
	};

	(void)state;
	CHECK_CASES(cases);
}

static void test_unclosed_sets(void **state)
{
	static const struct glob_case cases[] = {
		{ "[", "[", true },		/* a [ no ] closes is a character */
		{ "[", "a", false },
		{ "[ab", "[ab", true },
		{ "[ab", "a", false },
		{ "[[", "[[", true },
		{ "[!", "[!", true },
		{ "[]", "[]", true },		/* the ] is the set's first member */
		{ "[!]", "[!]", true },
		{ "a[b", "a[b", true },
		{ "*[ab", "x[ab", true },
		{ "[*", "[xyz", true },		/* then the * is a wildcard */
		{ "[?", "[x", true },
		{ "[[:alpha:]", "[:", true },	/* then [:alpha:] is a set */
		{ "[[:alpha:]", "a", false },
		{ "[a-", "[a-", false },	/* a range with no end: nothing */
		{ "[a-", "a", false },
		{ "[a-\\", "[a-\\", false },
	};

	(void)state;
	CHECK_CASES(cases);
}

/* [=c=] and [.c.], and the broken forms glibc reads in its own ways. */
static void test_collating_forms(void **state)
{
	static const struct glob_case cases[] = {
		{ "[[=a=]]", "a", true },
		{ "[[=a=]]", "b", false },
		{ "[[=a=]b]", "b", true },
		{ "[[=a=]-c]", "b", false },	/* [=a=] starts no range */
		{ "[[=a]", "=", true },		/* not whole: [, =, a */
		{ "[[.a.]]", "a", true },
		{ "[[.a.]-c]", "b", true },
		{ "[a-[.c.]]", "b", true },
		{ "[[...]]", ".", true },
		{ "[[.].]]", "]", true },
		{ "[[.ab.]]", "a", false },	/* no such element: nothing */
		{ "[[..]]", ".", false },
		{ "[[.a]", "[", false },
		{ "[a-[.bc.]]", "a", false },
		/* glibc's test for a range after [.c.] takes -] for one and
		 * reads none: only the - is matched. */
		{ "[[.a.]-]", "-", true },
		{ "[[.a.]-]", "a", false },
		/* After the member that matched, the rest is only skipped,
		 * and a [= there must be whole. */
		{ "[a[=b]", "a", false },
		{ "[a[=b]", "[", true },
		{ "[a[=b]", "b", true },
		{ "[a[=b=x]", "a", false },
		{ "[a[=b=x]", "[", true },
		/* Skipping, a [.name.] may be of any length. */
		{ "[a[.xy.]]", "a", true },
		{ "[a[.xy.]]", "x", false },
	};

	(void)state;
	CHECK_CASES(cases);
}

/* glibc gives up on a class name of CHARCLASS_NAME_MAX (2048) letters
 * when reading members, and of one letter fewer when skipping them. */
static void test_class_name_bound(void **state)
{
	static char pattern[2100];

	(void)state;
	for (size_t len = 2045; len <= 2050; len++) {
		struct glob_case c = { pattern, "a", len < 2048 };

		/* "[[:aaa...]": not closed by ":]", so a set of [, : and a. */
		memset(pattern, 'a', sizeof(pattern));
		memcpy(pattern, "[[:", 3);
		pattern[3 + len] = ']';
		pattern[4 + len] = '\0';
		if (!case_holds(&c))
			fail_msg("reading a name of %zu letters", len);

		/* "[x[:aaa...]": x matches, and the rest is skipped. */
		pattern[3 + len] = 'a';
		memcpy(pattern, "[x[:", 4);
		pattern[4 + len] = ']';
		pattern[5 + len] = '\0';
		c.str = "x";
		c.matches = len < 2047;
		if (!case_holds(&c))
			fail_msg("skipping a name of %zu letters", len);
	}
}

static void test_has_magic(void **state)
{
	(void)state;
	assert_false(glob_has_magic(""));
	assert_false(glob_has_magic("vfs_read"));
	assert_false(glob_has_magic("a]b!-^:.="));
	assert_true(glob_has_magic("vfs_*"));
	assert_true(glob_has_magic("vfs_rea?"));
	assert_true(glob_has_magic("[v]fs_read"));
	assert_true(glob_has_magic("vfs\\_read"));
	assert_true(glob_has_magic("["));
}

/* A small random number generator of our own, so that a seed gives the
 * same cases with any C library (xorshift64). */
static uint64_t rng = 1;

static unsigned int next_random(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

/* The pieces random patterns are made of: every special character,
 * classes good and bad, [=c=] and [.c.], and a few plain characters. */
static const char *const pattern_atoms[] = {
	"*", "?", "[", "]", "!", "^", "-", "\\", ":", "a", "b", "z", "A", "0", "/", ".",
	"=", "\xe9", "[:alpha:]", "[:digit:]", "[:upper:]", "[:punct:]", "[:space:]",
	"[:foo:]", "[:", ":]", "[=a=]", "[.a.]", "[.", ".]", "[!", "[]", "a-z", "\\]",
};

static const char string_chars[] = "abzA0[]!^-\\:./=*? \t\xe9";

static void random_pattern(char *pattern, size_t size)
{
	unsigned int atoms = next_random(10);
	size_t n = 0;

	pattern[0] = '\0';
	for (unsigned int i = 0; i < atoms; i++) {
		const char *a = pattern_atoms[next_random(ARRAY_SIZE(pattern_atoms))];
		size_t len = strlen(a);

		if (n + len >= size)
			break;
		memcpy(pattern + n, a, len + 1);
		n += len;
	}
}

/* Half the strings are random, half are the pattern's own characters
 * with a few taken out or changed, which match far more often. */
static void random_string(char *str, size_t size, const char *pattern)
{
	size_t n = 0;

	if (next_random(2)) {
		for (unsigned int len = next_random(7); n < len && n + 1 < size; n++)
			str[n] = string_chars[next_random(sizeof(string_chars) - 1)];
	} else {
		for (const char *p = pattern; *p && n + 1 < size; p++) {
			unsigned int r = next_random(8);

			if (r == 0)
				continue;
			str[n++] = r == 1 ? string_chars[next_random(sizeof(string_chars) - 1)] : *p;
		}
	}
	str[n] = '\0';
}

static void test_against_fnmatch(void **state)
{
	enum { SEED = 41, PATTERNS = 200000, STRINGS = 8 };
	unsigned long pairs = 0, matched = 0, mismatches = 0;
	char pattern[128], str[128], p[512], s[512];

	(void)state;
	rng = SEED;
	for (int i = 0; i < PATTERNS; i++) {
		random_pattern(pattern, sizeof(pattern));
		for (int j = 0; j < STRINGS; j++) {
			bool mine, host;

			random_string(str, sizeof(str), pattern);
			mine = glob_match(pattern, str);
			host = host_match(pattern, str);
			pairs++;
			matched += host;
			if (mine != host && mismatches++ < 20)
				print_error("seed %d: pattern \"%s\" string \"%s\": fnmatch %s, glob_match %s\n",
					    SEED, shown(pattern, p, sizeof(p)), shown(str, s, sizeof(s)),
					    host ? "matches" : "does not", mine ? "matches" : "does not");
			if (!glob_has_magic(pattern) && mine != (strcmp(pattern, str) == 0))
				fail_msg("\"%s\" has no magic but is no plain string",
					 shown(pattern, p, sizeof(p)));
		}
		if (glob_has_magic(pattern) != (strpbrk(pattern, "*?[\\") != NULL))
			fail_msg("glob_has_magic(\"%s\") is wrong", shown(pattern, p, sizeof(p)));
	}
	print_message("glob against fnmatch: seed %d, %d patterns, %lu pairs, %lu matching, "
		      "%lu mismatches\n", SEED, PATTERNS, pairs, matched, mismatches);
	if (mismatches)
		fail_msg("%lu pairs differ from fnmatch", mismatches);
}

/* Patterns that make a backtracking matcher take exponential time, here
 * at most len(pattern) * len(str) steps each, and the one form that
 * costs more (lib/glob.c), which still ends soon. */
static void test_no_blow_up(void **state)
{
	static char pattern[4096], str[8192];

	(void)state;
	/* *a*a*a...*b against a's: a backtracker tries every split. */
	for (size_t i = 0; i < 2000; i++)
		memcpy(pattern + 2 * i, "*a", 2);
	strcpy(pattern + 4000, "*b");
	memset(str, 'a', 8000);
	str[8000] = '\0';
	assert_false(glob_match(pattern, str));
	str[7999] = 'b';
	assert_true(glob_match(pattern, str));
	/* ?* runs, which each take one character or more. */
	for (size_t i = 0; i < 2000; i++)
		memcpy(pattern + 2 * i, "?*", 2);
	pattern[4000] = '\0';
	str[1999] = '\0';
	assert_false(glob_match(pattern, str));
	/* Unclosed [s, each read to the pattern's end before it is taken
	 * for a [: the one form costing more (lib/glob.c), still bounded. */
	pattern[0] = '*';
	memset(pattern + 1, '[', 300);
	strcpy(pattern + 301, "x");
	memset(str, '[', 600);
	strcpy(str + 600, "x");
	assert_true(glob_match(pattern, str));
	str[600] = '\0';
	assert_false(glob_match(pattern, str));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_characters_and_wildcards),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_unclosed_sets),
		cmocka_unit_test(test_collating_forms),
		cmocka_unit_test(test_class_name_bound),
		cmocka_unit_test(test_has_magic),
		cmocka_unit_test(test_against_fnmatch),
		cmocka_unit_test(test_no_blow_up),
	};

	/* glibc takes [^...] for a negation only without POSIXLY_CORRECT. */
	unsetenv("POSIXLY_CORRECT");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
