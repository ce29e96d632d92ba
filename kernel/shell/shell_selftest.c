/* Self tests of the shell: the line editor's state machine, driven
 * byte by byte as a terminal would, and the command table.
 *
 * The editor is fed from strings and its echo is captured in a buffer,
 * so no console is involved. */
#include "kernel/selftest.h"
#include "kernel/shell/line_editor.h"
#include "kernel/shell/shell.h"
#include "lib/string.h"

/* Static, not on the stack: an editor holds about 4 KiB of history. */
static struct line_editor ed;
static char echoed[1024];
static size_t echoed_len;
static int lines_ended;		/* statuses other than LINE_CONTINUE */

static void capture_echo(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	while (len-- > 0 && echoed_len < sizeof(echoed) - 1)
		echoed[echoed_len++] = *text++;
	echoed[echoed_len] = '\0';
}

static void clear_echo(void)
{
	echoed_len = 0;
	echoed[0] = '\0';
}

static void setup(void)
{
	line_editor_init(&ed, capture_echo, NULL);
	clear_echo();
	lines_ended = 0;
}

/* Feed one byte as the shell's loop would: a new line starts after
 * each finished, cancelled or refused one. */
static enum line_status feed(uint8_t byte)
{
	static enum line_status last = LINE_CONTINUE;

	if (last != LINE_CONTINUE)
		line_editor_start(&ed);
	last = line_editor_feed(&ed, byte);
	if (last != LINE_CONTINUE)
		lines_ended++;
	return last;
}

/* Type a string; returns the status after its last byte. */
static enum line_status type(const char *keys)
{
	enum line_status status = LINE_CONTINUE;

	while (*keys)
		status = feed((uint8_t)*keys++);
	return status;
}

static enum line_status type_repeated(char c, int count)
{
	enum line_status status = LINE_CONTINUE;

	while (count-- > 0)
		status = feed((uint8_t)c);
	return status;
}

static void typing_builds_the_line(void)
{
	setup();
	EXPECT_EQ(type("ls /"), LINE_CONTINUE);
	EXPECT_EQ(type("\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "ls /");
	EXPECT_STREQ(echoed, "ls /\n");
}

static void backspace_erases_one_char(void)
{
	setup();
	EXPECT_EQ(type("ab\x7f" "c\b" "d\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "ad");
	EXPECT_STREQ(echoed, "ab\b \bc\b \bd\n");
}

static void backspace_at_empty_line(void)
{
	setup();
	EXPECT_EQ(type("\x7f\b\x7f\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "");
	EXPECT_STREQ(echoed, "\n");
}

static void ctrl_u_erases_the_line(void)
{
	setup();
	EXPECT_EQ(type("hey\x15"), LINE_CONTINUE);
	EXPECT_STREQ(echoed, "hey\b \b\b \b\b \b");
	EXPECT_EQ(type("ok\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "ok");
}

static void ctrl_c_cancels_the_line(void)
{
	setup();
	EXPECT_EQ(type("abc\x03"), LINE_CANCELLED);
	EXPECT_STREQ(echoed, "abc^C\n");
	EXPECT_EQ(line_editor_history_count(&ed), 0);
	/* The next line starts empty. */
	EXPECT_EQ(type("x\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "x");
}

static void cr_or_lf_ends_the_line(void)
{
	setup();
	EXPECT_EQ(type("a\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "a");
	EXPECT_EQ(type("b\n"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "b");
	EXPECT_EQ(lines_ended, 2);
}

static void crlf_is_one_enter(void)
{
	setup();
	type("a\r\nb\r");
	EXPECT_STREQ(line_editor_line(&ed), "b");
	EXPECT_EQ(type("\n"), LINE_CONTINUE);
	EXPECT_EQ(lines_ended, 2);
	/* But CR CR, LF LF and LF CR are two Enters each. */
	type("\r\r");
	EXPECT_EQ(lines_ended, 4);
	type("x\n\n");
	EXPECT_EQ(lines_ended, 6);
	type("\n\r");
	EXPECT_EQ(lines_ended, 8);
}

static void history_walks_up_and_down(void)
{
	setup();
	type("one\r" "two\r" "two\r" "  \r" "\r");
	/* The repeated "two" and the blank lines are not kept. */
	EXPECT_EQ(line_editor_history_count(&ed), 2);
	EXPECT_STREQ(line_editor_history(&ed, 0), "one");
	EXPECT_STREQ(line_editor_history(&ed, 1), "two");

	type("\x1b[A");
	EXPECT_STREQ(line_editor_line(&ed), "two");
	type("\x1b[A" "\x1b[A");	/* stops at the oldest */
	EXPECT_STREQ(line_editor_line(&ed), "one");
	type("\x1b[B");
	EXPECT_STREQ(line_editor_line(&ed), "two");
	type("\x1b[B" "\x1b[B");	/* below the newest: empty line */
	EXPECT_STREQ(line_editor_line(&ed), "");

	EXPECT_EQ(type("\x1bOA" "\x1bOA" "\r"), LINE_DONE);	/* ESC O A */
	EXPECT_STREQ(line_editor_line(&ed), "one");
	EXPECT_EQ(line_editor_history_count(&ed), 3);
	EXPECT_STREQ(line_editor_history(&ed, 2), "one");
}

static void history_redraws_the_line(void)
{
	setup();
	type("abc\r" "xy");
	clear_echo();
	type("\x1b[A");
	EXPECT_STREQ(echoed, "\b \b\b \babc");
	clear_echo();
	type("\x1b[B");
	EXPECT_STREQ(echoed, "\b \b\b \b\b \b");
}

static void history_keeps_the_last_16(void)
{
	int i;

	setup();
	for (i = 0; i < 20; i++) {
		type("cmd");
		feed((uint8_t)('a' + i));
		feed('\r');
	}
	EXPECT_EQ(line_editor_history_count(&ed), LINE_HISTORY_SIZE);
	EXPECT_STREQ(line_editor_history(&ed, 0), "cmde");
	EXPECT_STREQ(line_editor_history(&ed, LINE_HISTORY_SIZE - 1), "cmdt");
	EXPECT(line_editor_history(&ed, LINE_HISTORY_SIZE) == NULL);
}

static void tab_separates_words(void)
{
	setup();
	/* Kept in the line, shown as a space. */
	EXPECT_EQ(type("ls\t/\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "ls\t/");
	EXPECT_STREQ(echoed, "ls /\n");
	/* Backspace erases it like any character. */
	clear_echo();
	EXPECT_EQ(type("a\t\x7f" "b\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "ab");
	EXPECT_STREQ(echoed, "a \b \bb\n");
	/* A line from the history shows it as a space too. */
	type("x\ty\r");
	clear_echo();
	type("\x1b[A");
	EXPECT_STREQ(line_editor_line(&ed), "x\ty");
	EXPECT_STREQ(echoed, "x y");
}

static void ignores_control_and_non_ascii(void)
{
	setup();
	/* Ctrl-A, Ctrl-Z, and the UTF-8 bytes of an e with acute. */
	EXPECT_EQ(type("a\x01\x1a\x80\xff\xc3\xa9" "b\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "ab");
	EXPECT_STREQ(echoed, "ab\n");
}

static void ignores_other_escape_sequences(void)
{
	setup();
	/* Right arrow, Ctrl-Up, Delete, SS3 Left, Alt-x. */
	type("a\x1b[C" "b\x1b[1;5A" "c\x1b[3~" "d\x1bOD" "e\x1bx" "f");
	EXPECT_STREQ(line_editor_line(&ed), "abcdef");
	EXPECT_STREQ(echoed, "abcdef");
	/* An Esc key press followed by Enter still ends the line. */
	EXPECT_EQ(type("\x1b\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "abcdef");
}

static void overlong_line_is_refused(void)
{
	setup();
	type_repeated('x', SHELL_MAX_LINE + 45);
	EXPECT_EQ(type("\r"), LINE_TOO_LONG);
	EXPECT_EQ(strlen(line_editor_line(&ed)), SHELL_MAX_LINE);
	EXPECT_EQ(line_editor_history_count(&ed), 0);

	/* Erasing back under the limit makes the line acceptable. */
	type_repeated('y', SHELL_MAX_LINE + 1);
	EXPECT_EQ(type("\x7f\r"), LINE_DONE);
	EXPECT_EQ(strlen(line_editor_line(&ed)), SHELL_MAX_LINE);

	/* Ctrl-C still cancels a long line; the next one is fresh. */
	type_repeated('z', SHELL_MAX_LINE + 5);
	EXPECT_EQ(type("\x03"), LINE_CANCELLED);
	EXPECT_EQ(type("ok\r"), LINE_DONE);
	EXPECT_STREQ(line_editor_line(&ed), "ok");
}

static void finds_commands(void)
{
	const struct shell_command *help = shell_find_command("help");

	EXPECT(help != NULL);
	if (help) {
		EXPECT_STREQ(help->name, "help");
		EXPECT(help->run != NULL);
		EXPECT(help->help != NULL);
	}
	EXPECT(shell_find_command("selftest") != NULL);
	EXPECT(shell_find_command("no-such-command") == NULL);
	EXPECT(shell_find_command("") == NULL);
}

/* The statuses the shell's && and || test (command.h), from the two
 * commands that do nothing else. */
static void true_and_false_statuses(void)
{
	const struct shell_command *yes = shell_find_command("true");
	const struct shell_command *no = shell_find_command("false");
	char *argv[] = { "true", NULL };

	EXPECT(yes != NULL && no != NULL);
	if (yes && no) {
		EXPECT_EQ(yes->run(1, argv), 0);
		EXPECT_EQ(no->run(1, argv), SHELL_FALSE);
	}
}

static const struct selftest_case shell_cases[] = {
	SELFTEST_CASE(typing_builds_the_line),
	SELFTEST_CASE(backspace_erases_one_char),
	SELFTEST_CASE(backspace_at_empty_line),
	SELFTEST_CASE(ctrl_u_erases_the_line),
	SELFTEST_CASE(ctrl_c_cancels_the_line),
	SELFTEST_CASE(cr_or_lf_ends_the_line),
	SELFTEST_CASE(crlf_is_one_enter),
	SELFTEST_CASE(history_walks_up_and_down),
	SELFTEST_CASE(history_redraws_the_line),
	SELFTEST_CASE(history_keeps_the_last_16),
	SELFTEST_CASE(tab_separates_words),
	SELFTEST_CASE(ignores_control_and_non_ascii),
	SELFTEST_CASE(ignores_other_escape_sequences),
	SELFTEST_CASE(overlong_line_is_refused),
	SELFTEST_CASE(finds_commands),
	SELFTEST_CASE(true_and_false_statuses),
};
SELFTEST_SUITE("shell", shell_cases);
