/* Host tests for the shell's command-line parser (kernel/shell/cmdline.c):
 * words, quotes, backslashes, redirections, pipes, && and ||, lists,
 * and every refusal. */
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
#define MAX_CMDS 4

struct parsed {
	char store[256];
	char *words[MAX_WORDS + 1];
	struct cmdline cmds[MAX_CMDS];
	struct cmdline_list list;
	struct cmdline cl;	/* the first command, or an empty one */
	int err;
};

/* One static result: cl.argv points into it, so it must not be copied. */
static struct parsed *parse(const char *line)
{
	static struct parsed p;
	static char *none[] = { NULL };

	p.list = (struct cmdline_list){
		.cmds = p.cmds, .max_cmds = MAX_CMDS,
		.words = p.words, .max_words = MAX_WORDS + 1,
		.store = p.store, .store_size = strlen(line) + 1,
	};
	p.err = cmdline_parse(line, &p.list);
	p.cl = p.list.count ? p.cmds[0] : (struct cmdline){ .argv = none };
	return &p;
}

/* The line parses, into exactly the words given (NULL-ended). */
static void expect_words(const struct parsed *p, const char *const *want)
{
	int n = 0;

	assert_int_equal(p->err, 0);
	assert_null(p->list.error);
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
	assert_string_equal(p->list.error, why);
	for (int i = 0; i < p->list.count; i++)
		assert_null(p->cmds[i].argv[p->cmds[i].argc]);
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
	struct cmdline cmds[MAX_CMDS];
	struct cmdline_list list = {
		.cmds = cmds, .max_cmds = MAX_CMDS, .words = words, .max_words = MAX_WORDS + 1,
		.store = store, .store_size = sizeof(store),
	};

	(void)state;
	assert_int_equal(cmdline_parse("abcd", &list), -E2BIG);
	assert_string_equal(list.error, "line too long to split");
	assert_int_equal(cmdline_parse("abc", &list), 0);
	assert_string_equal(words[0], "abc");
}

/* The words of command i of the last parse (NULL-ended), its file and
 * the separator that follows it. */
static void expect_command(const struct parsed *p, int i, const char *const *want,
			   const char *redirect, enum cmdline_next next)
{
	const struct cmdline *cmd = &p->cmds[i];
	int n = 0;

	assert_true(i < p->list.count);
	for (; want[n]; n++)
		assert_string_equal(cmd->argv[n], want[n]);
	assert_int_equal(cmd->argc, n);
	assert_null(cmd->argv[n]);
	if (redirect)
		assert_string_equal(cmd->redirect, redirect);
	else
		assert_null(cmd->redirect);
	assert_int_equal(cmd->next, next);
}

static void test_pipeline(void **state)
{
	/* 6 words and 3 NULLs: all the room there is. */
	struct parsed *p = parse("cat /proc/kallsyms | grep -w vfs_read|wc");

	(void)state;
	assert_int_equal(p->err, 0);
	assert_int_equal(p->list.count, 3);
	expect_command(p, 0, (const char *const[]){ "cat", "/proc/kallsyms", NULL }, NULL,
		       CMDLINE_PIPE);
	expect_command(p, 1, (const char *const[]){ "grep", "-w", "vfs_read", NULL }, NULL,
		       CMDLINE_PIPE);
	expect_command(p, 2, (const char *const[]){ "wc", NULL }, NULL, CMDLINE_END);
}

static void test_list_and_redirections(void **state)
{
	struct parsed *p = parse("echo a>f | wc;echo b >> g ; ");

	(void)state;
	assert_int_equal(p->err, 0);
	assert_int_equal(p->list.count, 3);
	expect_command(p, 0, (const char *const[]){ "echo", "a", NULL }, "f", CMDLINE_PIPE);
	expect_command(p, 1, (const char *const[]){ "wc", NULL }, NULL, CMDLINE_END);
	expect_command(p, 2, (const char *const[]){ "echo", "b", NULL }, "g", CMDLINE_END);
	assert_true(p->cmds[2].append);
	/* A redirection alone is a command, in a pipe too. */
	p = parse(">x | wc");
	assert_int_equal(p->list.count, 2);
	expect_command(p, 0, (const char *const[]){ NULL }, "x", CMDLINE_PIPE);
	/* ; alone at the end, as in sh. */
	p = parse("uptime;");
	assert_int_equal(p->list.count, 1);
	expect_command(p, 0, (const char *const[]){ "uptime", NULL }, NULL, CMDLINE_END);
}

static void test_and_or(void **state)
{
	struct parsed *p = parse("false&&echo x||echo y");

	(void)state;
	assert_int_equal(p->err, 0);
	assert_int_equal(p->list.count, 3);
	expect_command(p, 0, (const char *const[]){ "false", NULL }, NULL, CMDLINE_AND);
	expect_command(p, 1, (const char *const[]){ "echo", "x", NULL }, NULL, CMDLINE_OR);
	expect_command(p, 2, (const char *const[]){ "echo", "y", NULL }, NULL, CMDLINE_END);
	/* | inside, ; after: each command says what follows it. */
	p = parse("a | b && c > f ; d");
	assert_int_equal(p->err, 0);
	assert_int_equal(p->list.count, 4);
	expect_command(p, 0, (const char *const[]){ "a", NULL }, NULL, CMDLINE_PIPE);
	expect_command(p, 1, (const char *const[]){ "b", NULL }, NULL, CMDLINE_AND);
	expect_command(p, 2, (const char *const[]){ "c", NULL }, "f", CMDLINE_END);
	expect_command(p, 3, (const char *const[]){ "d", NULL }, NULL, CMDLINE_END);
	/* A ; after && or || is not the command it needs... */
	expect_refused("a && ; b", -EINVAL, "syntax error near unexpected token ';'");
	/* ...but one may end the line after a whole chain. */
	p = parse("a || b;");
	assert_int_equal(p->err, 0);
	assert_int_equal(p->list.count, 2);
	expect_command(p, 1, (const char *const[]){ "b", NULL }, NULL, CMDLINE_END);
}

static void test_quoted_and_or_are_words(void **state)
{
	struct parsed *p = parse("echo '&&' \\|\\| \"a||b\" x\\&y '&'");

	(void)state;
	expect_words(p, (const char *const[]){ "echo", "&&", "||", "a||b", "x&y", "&", NULL });
	assert_int_equal(p->list.count, 1);
}

static void test_quotes_keep_separators(void **state)
{
	struct parsed *p = parse("grep 'a|b' \\; \"c;d\" x\\|y");

	(void)state;
	expect_words(p, (const char *const[]){ "grep", "a|b", ";", "c;d", "x|y", NULL });
	assert_int_equal(p->list.count, 1);
}

static void test_syntax_errors(void **state)
{
	static const char pipe[] = "syntax error near unexpected token '|'";
	static const char semi[] = "syntax error near unexpected token ';'";
	static const char semis[] = "syntax error near unexpected token ';;'";

	(void)state;
	expect_refused("| wc", -EINVAL, pipe);
	expect_refused("echo a |", -EINVAL, pipe);
	expect_refused("echo a | ", -EINVAL, pipe);
	expect_refused("echo a | | wc", -EINVAL, pipe);
	expect_refused("echo a ||| wc", -EINVAL, pipe);
	expect_refused("echo a |; wc", -EINVAL, semi);
	expect_refused("; echo a", -EINVAL, semi);
	expect_refused("echo a ; ; echo b", -EINVAL, semi);
	expect_refused("echo a ;; echo b", -EINVAL, semis);
	expect_refused(";;", -EINVAL, semis);
	expect_refused(";", -EINVAL, semi);
	expect_refused("echo a >| f", -EINVAL, "> needs a file name");
	expect_refused("echo a > ; b", -EINVAL, "> needs a file name");
	expect_refused("a|b|c|d|e", -E2BIG, "too many commands");
	expect_refused("echo 'a | b", -EINVAL, "missing closing '");
}

/* && and || are refused where | is, with their own names, as sh does;
 * & alone is refused everywhere, for want of job control. */
static void test_and_or_refusals(void **state)
{
	static const char and[] = "syntax error near unexpected token '&&'";
	static const char or[] = "syntax error near unexpected token '||'";
	static const char amp[] = "syntax error near unexpected token '&'";
	static const char background[] = "background jobs (&) are not supported";

	(void)state;
	expect_refused("&& echo a", -EINVAL, and);
	expect_refused("|| echo a", -EINVAL, or);
	expect_refused("echo a &&", -EINVAL, and);
	expect_refused("echo a || ", -EINVAL, or);
	expect_refused("echo a && && b", -EINVAL, and);
	expect_refused("echo a | || b", -EINVAL, or);
	expect_refused("echo a || | b", -EINVAL, "syntax error near unexpected token '|'");
	expect_refused("echo a ; && b", -EINVAL, and);
	expect_refused("echo a &&& b", -EINVAL, amp);
	expect_refused("& echo a", -EINVAL, amp);
	expect_refused("echo a & echo b", -EINVAL, background);
	expect_refused("echo a&", -EINVAL, background);
	expect_refused("echo a & ", -EINVAL, background);
	expect_refused("echo a &; b", -EINVAL, background);
	expect_refused("a&&b&&c&&d&&e", -E2BIG, "too many commands");
}

/* The words and the NULL after each command fill words[] exactly. */
static void test_words_room_counts_the_nulls(void **state)
{
	struct parsed *p = parse("a b c | d e f g");

	(void)state;
	assert_int_equal(p->err, 0);	/* 7 words and 2 NULLs: 9 */
	p = parse("a b c | d e f g h");
	assert_int_equal(p->err, -E2BIG);
	assert_string_equal(p->list.error, "too many words");
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
		cmocka_unit_test(test_pipeline),
		cmocka_unit_test(test_list_and_redirections),
		cmocka_unit_test(test_and_or),
		cmocka_unit_test(test_quoted_and_or_are_words),
		cmocka_unit_test(test_quotes_keep_separators),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_and_or_refusals),
		cmocka_unit_test(test_words_room_counts_the_nulls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
