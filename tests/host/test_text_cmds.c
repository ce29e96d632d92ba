/* Host tests for the shell's text tools: grep, head, tail, wc, sort,
 * uniq and seq, run by tests/host/text_cmds_host.c over host stand-ins
 * for the kernel. Each test runs a command line over a given piped text
 * (or none) and compares everything printed with what GNU's tool
 * prints; the usage lines are spelled out, so that a change to one is
 * seen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "tests/host/text_cmds_host.h"
#include "kernel/shell/cmdline.h"
#include "kernel/command.h"
#include "kernel/shell/getopt.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* The files of text_cmds_host.c, by index. */
#define SEQ_TEXT (text_cmds_files[3].text)

/* Run line (one command, split as the shell splits it) with input piped
 * into it (NULL: no pipe); returns everything it printed. */
static const char *run(const char *input, const char *line)
{
	static char store[256];
	static char *words[64];
	struct cmdline cmd;
	struct cmdline_list list = {
		.cmds = &cmd, .max_cmds = 1, .words = words, .max_words = ARRAY_SIZE(words),
		.store = store, .store_size = sizeof(store),
	};
	const char *output;

	assert_int_equal(cmdline_parse(line, &list), 0);
	assert_int_equal(list.count, 1);
	assert_true(text_cmds_run(input, input ? strlen(input) : 0, cmd.argc, cmd.argv, &output));
	return output;
}

/* ---- The tests ---- */

static void test_grep(void **state)
{
	const char *text = "vfs_read\nvfs_readdir\nVFS_READ x\n__vfs_read\n";

	(void)state;
	assert_string_equal(run(text, "grep vfs_read"), "vfs_read\nvfs_readdir\n__vfs_read\n");
	assert_string_equal(run(text, "grep -w vfs_read"), "vfs_read\n");
	assert_string_equal(run(text, "grep -i -w vfs_read"), "vfs_read\nVFS_READ x\n");
	assert_string_equal(run(text, "grep -iw vfs_read"), "vfs_read\nVFS_READ x\n");
	assert_string_equal(run(text, "grep -c vfs"), "3\n");
	assert_string_equal(run(text, "grep -vc vfs"), "1\n");
	assert_string_equal(run(text, "grep -v read$"), "vfs_readdir\nVFS_READ x\n");
	assert_string_equal(run(text, "grep '^v.*\\(dir\\|read\\)$'"), "vfs_read\nvfs_readdir\n");
	assert_string_equal(run(text, "grep -E '^(_|V)+'"), "VFS_READ x\n__vfs_read\n");
	assert_string_equal(run(text, "grep -e -x"), "");
	assert_string_equal(run("a-x\n", "grep -e -x"), "a-x\n");
	assert_string_equal(run("a-x\n", "grep -- -x"), "a-x\n");
	/* Options after the pattern, as GNU's getopt allows. */
	assert_string_equal(run(text, "grep dir -c"), "1\n");
	/* No pipe and no file: nothing to read. */
	assert_string_equal(run(NULL, "grep -c x"), "0\n");
}

static void test_grep_files(void **state)
{
	(void)state;
	assert_string_equal(run(NULL, "grep t /a"), "two\nthree\n");
	assert_string_equal(run(NULL, "grep t /a /b"), "/a:two\n/a:three\n");
	assert_string_equal(run(NULL, "grep -c t /a /b"), "/a:2\n/b:0\n");
	assert_string_equal(run(NULL, "grep e /nope /nl"),
			    "grep: /nope: No such file or directory\n/nl:no newline\n");
	assert_string_equal(run(NULL, "grep x /etc"), "grep: /etc: Is a directory\n");
}

static void test_grep_refusals(void **state)
{
	const char *usage = "grep: usage: grep [-cEivw] [-e PATTERN | PATTERN] [FILE]...\n";

	(void)state;
	assert_string_equal(run("a\n", "grep 'a\\('"), "grep: Unmatched ( or \\(\n");
	assert_string_equal(run("a\n", "grep -E 'a{2,1}'"), "grep: Invalid content of \\{\\}\n");
	assert_string_equal(run("a\n", "grep '[[:digit:]'"), "grep: Unmatched [, [^, [:, [., or [=\n");
	assert_string_equal(run("a\n", "grep"), usage);
	assert_string_equal(run("a\n", "grep -q a"), usage);
	assert_string_equal(run("a\n", "grep --count a"), usage);
	assert_string_equal(run("a\n", "grep -e"), usage);
}

static void test_head(void **state)
{
	(void)state;
	assert_string_equal(run(NULL, "head /seq"), "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
	assert_string_equal(run(SEQ_TEXT, "head -n 2"), "1\n2\n");
	assert_string_equal(run(SEQ_TEXT, "head -n2"), "1\n2\n");
	assert_string_equal(run(SEQ_TEXT, "head -2"), "1\n2\n");
	assert_string_equal(run(SEQ_TEXT, "head -n 0"), "");
	assert_string_equal(run(NULL, "head /seq -n 1"), "1\n");
	assert_string_equal(run(NULL, "head -n 1 /a /b"), "==> /a <==\none\n\n==> /b <==\nx y\n");
	assert_string_equal(run(NULL, "head -n 1 /nope /b"),
			    "head: cannot open '/nope' for reading: No such file or directory\n"
			    "==> /b <==\nx y\n");
	/* A last line with no newline gets one, as from GNU's. */
	assert_string_equal(run(NULL, "head /nl"), "no newline\n");
	assert_string_equal(run("a\n", "head -n x"), "head: invalid number of lines: 'x'\n");
	assert_string_equal(run("a\n", "head -c 3"), "head: usage: head [-n N] [FILE]...\n");
	assert_string_equal(run("a\n", "head -n"), "head: usage: head [-n N] [FILE]...\n");
}

static void test_tail(void **state)
{
	(void)state;
	assert_string_equal(run(NULL, "tail /seq"), "3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n");
	assert_string_equal(run(SEQ_TEXT, "tail -n 2"), "11\n12\n");
	assert_string_equal(run(SEQ_TEXT, "tail -2"), "11\n12\n");
	assert_string_equal(run(SEQ_TEXT, "tail -n +11"), "11\n12\n");
	assert_string_equal(run(SEQ_TEXT, "tail -n +0"), SEQ_TEXT);
	assert_string_equal(run("a\nb\n", "tail -n 5"), "a\nb\n");
	assert_string_equal(run(NULL, "tail -n 1 /a /b"), "==> /a <==\nthree\n\n==> /b <==\nx y\n");
	assert_string_equal(run("a\n", "tail -n +x"), "tail: invalid number of lines: '+x'\n");
	assert_string_equal(run(NULL, "tail /nope"),
			    "tail: cannot open '/nope' for reading: No such file or directory\n");
}

static void test_wc(void **state)
{
	(void)state;
	/* From a pipe: 7 wide, and one count alone is not padded. */
	assert_string_equal(run("hello world\n", "wc"), "      1       2      12\n");
	assert_string_equal(run("hello world\n", "wc -lw"), "      1       2\n");
	assert_string_equal(run("hello world\n", "wc -l"), "1\n");
	assert_string_equal(run("hello world\n", "wc -c"), "12\n");
	assert_string_equal(run("no newline", "wc -l"), "0\n");
	assert_string_equal(run(NULL, "wc -l"), "0\n");
	/* A word needs a printable character. */
	assert_string_equal(run("\x01 a\x02" "b \x7f\n", "wc -w"), "1\n");
	/* Files: as wide as the sizes added up (14, 14 + 4: 2). */
	assert_string_equal(run(NULL, "wc /a"), " 3  3 14 /a\n");
	assert_string_equal(run(NULL, "wc /a /b"), " 3  3 14 /a\n 1  2  4 /b\n 4  5 18 total\n");
	assert_string_equal(run(NULL, "wc -l /a /nope"),
			    " 3 /a\nwc: /nope: No such file or directory\n 3 total\n");
	assert_string_equal(run(NULL, "wc -l /a"), "3 /a\n");
	assert_string_equal(run("a\n", "wc -m"), "wc: usage: wc [-clw] [FILE]...\n");
}

static void test_sort(void **state)
{
	const char *mixed = "+5\n3\n-2\n 4\n-\n1.5\n1.10\n-0\n0\nabc\n10\n";

	(void)state;
	assert_string_equal(run("b\na\nab\n\nB\n", "sort"), "\nB\na\nab\nb\n");
	assert_string_equal(run("b\na\nab\n\nB\n", "sort -r"), "b\nab\na\nB\n\n");
	/* GNU's -n: no '+', blanks first, fractions; ties by bytes. */
	assert_string_equal(run(mixed, "sort -n"),
			    "-2\n+5\n-\n-0\n0\nabc\n1.10\n1.5\n3\n 4\n10\n");
	assert_string_equal(run("1 b\n1 a\n2\n", "sort -n"), "1 a\n1 b\n2\n");
	assert_string_equal(run("1 b\n1 a\n2\n", "sort -nr"), "2\n1 b\n1 a\n");
	assert_string_equal(run("1 b\n1 a\n2\n", "sort -rn"), "2\n1 b\n1 a\n");
	assert_string_equal(run("-10\n-9\n-9.5\n", "sort -n"), "-10\n-9.5\n-9\n");
	assert_string_equal(run("100000000000000000000001\n99999999999999999999999\n", "sort -n"),
			    "99999999999999999999999\n100000000000000000000001\n");
	assert_string_equal(run(NULL, "sort /a /b /nl"), "no newline\none\nthree\ntwo\nx y\n");
	assert_string_equal(run(NULL, "sort /a /nope"),
			    "sort: cannot read: /nope: No such file or directory\n");
	assert_string_equal(run("", "sort"), "");
	assert_string_equal(run("a\n", "sort -k 2"), "sort: usage: sort [-nr] [FILE]...\n");
}

/* The merge sort over many lines in every order: the output is sorted
 * and has every line once. */
static void test_sort_many(void **state)
{
	static char text[200000];
	const char *out;
	size_t len = 0;
	int last = -1, count = 0;

	(void)state;
	for (int i = 0; i < 20000; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%d\n", (i * 7919) % 20000);
	out = run(text, "sort -n");
	for (const char *p = out; *p; p = strchr(p, '\n') + 1) {
		int n = atoi(p);

		assert_int_equal(n, last + 1);
		last = n;
		count++;
	}
	assert_int_equal(count, 20000);
}

static void test_uniq(void **state)
{
	(void)state;
	assert_string_equal(run("a\na\nb\na\n", "uniq"), "a\nb\na\n");
	assert_string_equal(run("a\na\nb\na\n", "uniq -c"), "      2 a\n      1 b\n      1 a\n");
	assert_string_equal(run("a\na", "uniq -c"), "      2 a\n");
	assert_string_equal(run(NULL, "uniq /a"), "one\ntwo\nthree\n");
	assert_string_equal(run(NULL, "uniq /nope"), "uniq: /nope: No such file or directory\n");
	assert_string_equal(run(NULL, "uniq /a /b"), "uniq: usage: uniq [-c] [FILE]\n");
	assert_string_equal(run(NULL, "uniq -d"), "uniq: usage: uniq [-c] [FILE]\n");
}

static void test_seq(void **state)
{
	(void)state;
	assert_string_equal(run(NULL, "seq 3"), "1\n2\n3\n");
	assert_string_equal(run(NULL, "seq 2 4"), "2\n3\n4\n");
	assert_string_equal(run(NULL, "seq 10 -4 1"), "10\n6\n2\n");
	assert_string_equal(run(NULL, "seq -1 1"), "-1\n0\n1\n");
	assert_string_equal(run(NULL, "seq 5 1"), "");
	assert_string_equal(run(NULL, "seq 9223372036854775806 9223372036854775807"),
			    "9223372036854775806\n9223372036854775807\n");
	assert_string_equal(run(NULL, "seq 1 0 5"), "seq: invalid Zero increment value: '0'\n");
	assert_string_equal(run(NULL, "seq x"), "seq: invalid integer argument: 'x'\n");
	assert_string_equal(run(NULL, "seq 1.5"), "seq: invalid integer argument: '1.5'\n");
	assert_string_equal(run(NULL, "seq"), "seq: usage: seq [FIRST [INCREMENT]] LAST\n");
}

/* Error lines go to standard error, and only they: a pipe after the
 * tool would get the rest. */
static void test_standard_error(void **state)
{
	(void)state;
	assert_string_equal(run(NULL, "wc -l /a /nope"),
			    " 3 /a\nwc: /nope: No such file or directory\n 3 total\n");
	assert_string_equal(text_cmds_errors(), "wc: /nope: No such file or directory\n");
	run(NULL, "head -n 1 /a /nope");
	assert_string_equal(text_cmds_errors(),
			    "head: cannot open '/nope' for reading: No such file or directory\n");
	run(NULL, "grep");
	assert_string_equal(text_cmds_errors(),
			    "grep: usage: grep [-cEivw] [-e PATTERN | PATTERN] [FILE]...\n");
	run(NULL, "seq 3");
	assert_string_equal(text_cmds_errors(), "");
}

/* A file is read as it is used: head reads the start of it only, and a
 * line that two reads cut in two is one line. */
static void test_streamed(void **state)
{
	size_t before = text_cmds_bytes_read;

	(void)state;
	assert_string_equal(run(NULL, "head -n 1 /seq"), "1\n");
	assert_int_equal(text_cmds_bytes_read - before, TEXT_CMDS_READ_MAX);
	before = text_cmds_bytes_read;
	assert_string_equal(run(NULL, "wc -l /seq"), "12 /seq\n");
	assert_int_equal(text_cmds_bytes_read - before, strlen(SEQ_TEXT));
	/* "one\ntwo" is the first read, "\nthree\n" the second. */
	assert_string_equal(run(NULL, "grep t /a"), "two\nthree\n");
	assert_string_equal(run(NULL, "tail -n 1 /seq"), "12\n");
}

/* After a Ctrl-C, the tools stop reading and printing: no count, no
 * total, as GNU's, which the signal ends; their status says so. */
static void test_interrupted(void **state)
{
	static const char *const lines[] = { "seq 3", "grep -c .", "wc", "sort", "uniq",
					     "head -n 1", "tail -n 1" };

	(void)state;
	text_cmds_interrupted = true;
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		assert_string_equal(run("b\na\n", lines[i]), "");
		assert_int_equal(text_cmds_status, -EINTR);
	}
	text_cmds_interrupted = false;
}

/* The status of each run (kernel/command.h): 0, the errno a tool said,
 * or SHELL_FALSE for grep's no match, as GNU grep's 0, 2 and 1. */
static void test_status(void **state)
{
	static const struct {
		const char *input, *line;
		int status;
	} runs[] = {
		{ "a\n", "grep a", 0 },
		{ "a\n", "grep b", SHELL_FALSE },
		{ "a\n", "grep -c b", SHELL_FALSE },
		{ "a\n", "grep -v a", SHELL_FALSE },
		{ NULL, "grep t /a /nope", -ENOENT },	/* an error wins over a match */
		{ NULL, "grep x /etc", -EISDIR },
		{ "a\n", "grep 'a\\('", -EINVAL },
		{ "a\n", "grep", -EINVAL },
		{ NULL, "head -n 1 /a", 0 },
		{ NULL, "head -n 1 /nope /a", -ENOENT },
		{ NULL, "tail -n x /a", -EINVAL },
		{ NULL, "wc /a /nope", -ENOENT },
		{ NULL, "sort /nope", -ENOENT },
		{ NULL, "sort -x", -EINVAL },
		{ NULL, "uniq /a", 0 },
		{ NULL, "uniq /a /b", -EINVAL },
		{ NULL, "seq 3", 0 },
		{ NULL, "seq 1 0 3", -EINVAL },
		{ NULL, "seq x", -EINVAL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(runs); i++) {
		run(runs[i].input, runs[i].line);
		if (text_cmds_status != runs[i].status)
			fail_msg("`%s`: status %d, not %d", runs[i].line, text_cmds_status,
				 runs[i].status);
	}
	/* Output that is refused stops a tool with the output's error. */
	run(NULL, "seq 99999999999");
	assert_int_equal(text_cmds_status, -EFBIG);
}

static void test_getopt(void **state)
{
	char *argv[] = { "cmd", "x", "-ab", "-n5", "y", "-n", "7", "--", "-a", "-", NULL };
	struct getopt g;
	char *values[2];
	int nvalues = 0;
	char letters[8] = "";
	int c;

	(void)state;
	getopt_init(&g, 10, argv, "abn:");
	while ((c = getopt_next(&g)) != -1) {
		assert_true(c != '?' && c != ':');
		strncat(letters, (char[]){ (char)c, 0 }, sizeof(letters) - strlen(letters) - 1);
		if (c == 'n')
			values[nvalues++] = g.value;
	}
	assert_string_equal(letters, "abnn");
	assert_string_equal(values[0], "5");
	assert_string_equal(values[1], "7");
	assert_int_equal(g.operands, 4);
	assert_string_equal(argv[1], "x");
	assert_string_equal(argv[2], "y");
	assert_string_equal(argv[3], "-a");
	assert_string_equal(argv[4], "-");

	getopt_init(&g, 3, argv, "abn:");
	argv[2] = "-az";
	assert_int_equal(getopt_next(&g), 'a');
	assert_int_equal(getopt_next(&g), '?');
	assert_int_equal(g.bad, 'z');
	argv[2] = "-n";
	getopt_init(&g, 3, argv, "abn:");
	assert_int_equal(getopt_next(&g), ':');
	assert_int_equal(g.bad, 'n');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grep),
		cmocka_unit_test(test_grep_files),
		cmocka_unit_test(test_grep_refusals),
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_tail),
		cmocka_unit_test(test_wc),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_sort_many),
		cmocka_unit_test(test_uniq),
		cmocka_unit_test(test_seq),
		cmocka_unit_test(test_standard_error),
		cmocka_unit_test(test_streamed),
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_getopt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
