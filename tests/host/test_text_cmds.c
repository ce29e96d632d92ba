/* Host tests for the shell's text tools: grep, head, tail, wc, sort,
 * uniq and seq (kernel/shell/grep_cmd.c and the others), with their options read by
 * kernel/shell/getopt.c and their input by kernel/shell/input.c.
 *
 * The command functions are static, so their files are included here
 * whole. Below them, the kernel calls they make are played by stubs:
 * kprintf and kwrite record the output, the VFS is a table of files,
 * the heap is malloc, and console_interrupted says what the test says.
 * Each test runs a command line over a given piped text (or none) and
 * compares everything printed with what GNU's tool prints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/shell/grep_cmd.c"
#include "kernel/shell/head_tail_cmd.c"
#include "kernel/shell/seq_cmd.c"
#include "kernel/shell/sort_cmd.c"
#include "kernel/shell/uniq_cmd.c"
#include "kernel/shell/wc_cmd.c"
#include "kernel/shell/cmdline.h"
#include "lib/format.h"

/* ---- The kernel, played ---- */

static char output[1 << 18];
static size_t output_len;

ssize_t kwrite(const char *buf, size_t len)
{
	assert_true(output_len + len < sizeof(output));
	memcpy(output + output_len, buf, len);
	output_len += len;
	output[output_len] = '\0';
	return (ssize_t)len;
}

int kprintf(const char *fmt, ...)
{
	char text[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	assert_true(n < (int)sizeof(text));
	kwrite(text, (size_t)n);
	return n;
}

static const struct {
	const char *path, *text;
} files[] = {
	{ "/a", "one\ntwo\nthree\n" },
	{ "/b", "x y\n" },
	{ "/nl", "no newline" },
	{ "/seq", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n" },
};

static int find_file(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		if (strcmp(files[i].path, path) == 0)
			return (int)i;
	}
	return -1;
}

int vfs_read_all(const char *path, void **buf, size_t *size)
{
	int i = find_file(path);

	if (strcmp(path, "/etc") == 0)
		return -EISDIR;
	if (i < 0)
		return -ENOENT;
	*size = strlen(files[i].text);
	*buf = malloc(*size + 1);
	memcpy(*buf, files[i].text, *size);
	return 0;
}

int vfs_stat(const char *path, struct kstat *st)
{
	int i = find_file(path);

	if (i < 0)
		return -ENOENT;
	st->type = INODE_FILE;
	st->size = strlen(files[i].text);
	return 0;
}

void *kmalloc(size_t size)
{
	return malloc(size);
}

void kfree(void *p)
{
	free(p);
}

static bool interrupted;

bool console_interrupted(void)
{
	return interrupted;
}

/* ---- Running a command ---- */

static const struct {
	const char *name;
	void (*run)(int argc, char **argv);
} commands[] = {
	{ "grep", cmd_grep }, { "head", cmd_head }, { "tail", cmd_tail }, { "wc", cmd_wc },
	{ "sort", cmd_sort }, { "uniq", cmd_uniq }, { "seq", cmd_seq },
};

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

	assert_int_equal(cmdline_parse(line, &list), 0);
	assert_int_equal(list.count, 1);
	output_len = 0;
	output[0] = '\0';
	input_set_pipe(input, input ? strlen(input) : 0);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(commands[i].name, cmd.argv[0]) == 0)
			commands[i].run(cmd.argc, cmd.argv);
	}
	input_set_pipe(NULL, 0);
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
	const char *usage = "grep: usage: grep " GREP_USAGE "\n";

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
	assert_string_equal(run(files[3].text, "head -n 2"), "1\n2\n");
	assert_string_equal(run(files[3].text, "head -n2"), "1\n2\n");
	assert_string_equal(run(files[3].text, "head -2"), "1\n2\n");
	assert_string_equal(run(files[3].text, "head -n 0"), "");
	assert_string_equal(run(NULL, "head /seq -n 1"), "1\n");
	assert_string_equal(run(NULL, "head -n 1 /a /b"), "==> /a <==\none\n\n==> /b <==\nx y\n");
	assert_string_equal(run(NULL, "head -n 1 /nope /b"),
			    "head: cannot open '/nope' for reading: No such file or directory\n"
			    "==> /b <==\nx y\n");
	/* A last line with no newline gets one, as from GNU's. */
	assert_string_equal(run(NULL, "head /nl"), "no newline\n");
	assert_string_equal(run("a\n", "head -n x"), "head: invalid number of lines: 'x'\n");
	assert_string_equal(run("a\n", "head -c 3"), "head: usage: head " HEAD_USAGE "\n");
	assert_string_equal(run("a\n", "head -n"), "head: usage: head " HEAD_USAGE "\n");
}

static void test_tail(void **state)
{
	(void)state;
	assert_string_equal(run(NULL, "tail /seq"), "3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n");
	assert_string_equal(run(files[3].text, "tail -n 2"), "11\n12\n");
	assert_string_equal(run(files[3].text, "tail -2"), "11\n12\n");
	assert_string_equal(run(files[3].text, "tail -n +11"), "11\n12\n");
	assert_string_equal(run(files[3].text, "tail -n +0"), files[3].text);
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
	assert_string_equal(run("a\n", "wc -m"), "wc: usage: wc " WC_USAGE "\n");
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
	assert_string_equal(run("a\n", "sort -k 2"), "sort: usage: sort " SORT_USAGE "\n");
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
	assert_string_equal(run(NULL, "uniq /a /b"), "uniq: usage: uniq " UNIQ_USAGE "\n");
	assert_string_equal(run(NULL, "uniq -d"), "uniq: usage: uniq " UNIQ_USAGE "\n");
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
	assert_string_equal(run(NULL, "seq"), "seq: usage: seq " SEQ_USAGE "\n");
}

/* After a Ctrl-C, the tools stop reading and printing. */
static void test_interrupted(void **state)
{
	(void)state;
	interrupted = true;
	assert_string_equal(run(NULL, "seq 3"), "");
	assert_string_equal(run("a\nb\n", "grep -c ."), "0\n");
	assert_string_equal(run("b\na\n", "sort"), "");
	assert_string_equal(run("a\n", "uniq"), "");
	interrupted = false;
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
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_getopt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
