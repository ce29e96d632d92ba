/* Fuzz target "shell": the shell's line editor and the splitting of a
 * finished line into commands and words.
 *
 * The input is what a user might type on the serial console: every byte
 * goes through line_editor_feed(), as line_editor_read() would pass it.
 * Each finished line is parsed with cmdline_parse() the way shell_execute()
 * does it (quotes, backslashes, > and >>, |, &&, || and ;), and every word of a
 * line with no quoting goes through parse_unsigned(), as the commands
 * that take numbers do. After each line the harness checks what must always
 * hold; a broken rule aborts, which libFuzzer reports as a crash.
 *
 * The echo goes through the real line_editor_echo_console() into the
 * console_write() below, which plays a terminal: what it shows must be
 * the line the editor holds. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- References from the host's C library, defined before rename.h ---- */

/* What parse_unsigned() must answer for word, worked out with strtoull():
 * 0 and the value, -EINVAL or -ERANGE. strtoull() itself accepts signs,
 * spaces and a 0x after the prefix, so the digits are checked first. */
static int ref_parse_unsigned(const char *word, unsigned long long *value)
{
	const char *digits = word;
	int base = 10;

	if (word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
		base = 16;
		digits += 2;
	}
	if (*digits == '\0')
		return -EINVAL;
	for (const char *p = digits; *p; p++) {
		if (base == 10 ? !isdigit((unsigned char)*p) : !isxdigit((unsigned char)*p))
			return -EINVAL;
	}
	errno = 0;
	*value = strtoull(digits, NULL, base);
	return errno == ERANGE ? -ERANGE : 0;
}

#include "tests/host/rename.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/printk.h"
#include "kernel/console.h"
#include "kernel/shell/cmdline.h"
#include "kernel/shell/line_editor.h"

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_shell.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

/* ---- The terminal, behind the console stubs ---- */

/* One screen line. The cursor can pass the stored columns (an overlong
 * line is echoed whole); it is still counted, and only lines that fit
 * are compared. */
#define SCREEN_COLS 4096

static struct {
	char cols[SCREEN_COLS];
	size_t cursor;
	size_t ended_at;	/* the cursor when the last "\n" came */
} screen;

/* The editor echoes printable characters (a TAB as a space), "\b" and
 * "\n" only: anything else would show differently on another terminal. */
void console_write(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = text[i];

		if (c == '\b') {
			CHECK(screen.cursor > 0);	/* never into the prompt */
			screen.cursor--;
		} else if (c == '\n') {
			screen.ended_at = screen.cursor;
			screen.cursor = 0;
		} else {
			CHECK(c >= 0x20 && c < 0x7f);
			if (screen.cursor < SCREEN_COLS)
				screen.cols[screen.cursor] = c;
			screen.cursor++;
		}
	}
}

/* line_editor_read() is not fuzzed: at the end of the input it would wait
 * for a byte forever. It is linked (it is in line_editor.c), never called. */
int console_getc(void)
{
	abort();
}

/* The screen shows the first len characters of line, a TAB as a space. */
static bool screen_shows(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char shown = line[i] == '\t' ? ' ' : line[i];

		if (screen.cols[i] != shown)
			return false;
	}
	return true;
}

/* ---- The checks ---- */

static bool is_line_char(char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\t';
}

static bool is_word_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Only typed characters, and not only blanks. */
static bool is_history_line(const char *s)
{
	bool blank = true;

	for (; *s; s++) {
		if (!is_line_char(*s))
			return false;
		if (!is_word_space(*s))
			blank = false;
	}
	return !blank;
}

/* The ring is within its bounds, every entry is a terminated, non-blank
 * typed line, and no entry repeats the one before it. */
static void check_history(const struct line_editor *ed)
{
	size_t count = line_editor_history_count(ed);

	CHECK(count <= LINE_HISTORY_SIZE);
	CHECK(ed->hist_oldest < LINE_HISTORY_SIZE);
	CHECK(ed->browse <= count);
	CHECK(line_editor_history(ed, count) == NULL);
	for (size_t i = 0; i < count; i++) {
		const char *entry = line_editor_history(ed, i);

		CHECK(strnlen(entry, SHELL_MAX_LINE + 1) <= SHELL_MAX_LINE);
		CHECK(is_history_line(entry));
		if (i > 0)
			CHECK(strcmp(entry, line_editor_history(ed, i - 1)) != 0);
	}
}

/* parse_unsigned() accepts exactly the numbers that fit, with their
 * value; a word that is both too big and not a number
 * ("99999999999999999999x") is not a number, since it reads to the end. */
static void check_number(const char *word)
{
	unsigned long long expected = 0;
	uint64_t value = 0;
	int err = parse_unsigned(word, UINT64_MAX, &value);
	int want = ref_parse_unsigned(word, &expected);

	CHECK(err == want);
	CHECK(err != 0 || value == expected);
}

/* Quotes, backslashes and >: the line's words are not just its runs of
 * non-blanks. */
static bool has_quoting(const char *line)
{
	return strpbrk(line, "'\"\\>") != NULL;
}

static bool is_separator(char c)
{
	return c == '|' || c == ';' || c == '&';
}

/* The separator at s, after a command: its length, and into *next what
 * it makes of the command; 0 for one that is refused even there (;;,
 * and a lone &: no background jobs). */
static size_t separator_token(const char *s, enum cmdline_next *next)
{
	if (s[0] != ';' && s[1] == s[0]) {
		*next = s[0] == '&' ? CMDLINE_AND : CMDLINE_OR;
		return 2;
	}
	*next = s[0] == '|' ? CMDLINE_PIPE : CMDLINE_END;
	return s[0] == '|' || (s[0] == ';' && s[1] != ';');
}

/* A line with no quoting, cut at its separators as sh cuts it: command
 * k is line[starts[k] .. ends[k]), and nexts[k] what follows it.
 * Returns the number of commands, or -1 where sh (or ProbeOS, for a &)
 * refuses the line: a blank command before a separator (or after a |,
 * && or ||, at the end). */
static int cut_commands(const char *line, size_t *starts, size_t *ends,
			enum cmdline_next *nexts)
{
	int count = 0;
	size_t start = 0, i = 0, len;
	bool blank = true;

	for (;;) {
		if (line[i] && !is_separator(line[i])) {
			blank = blank && is_word_space(line[i]);
			i++;
			continue;
		}
		if (blank) {
			/* Blank before a separator, or after a |, && or || at
			 * the end; blank after a ; at the end (or a blank line)
			 * is fine. */
			if (line[i] || (count > 0 && nexts[count - 1] != CMDLINE_END))
				return -1;
			return count;
		}
		starts[count] = start;
		ends[count] = i;
		nexts[count] = CMDLINE_END;
		count++;
		if (!line[i])
			return count;
		len = separator_token(line + i, &nexts[count - 1]);
		if (!len)
			return -1;
		i += len;
		start = i;
		blank = true;
	}
}

/* The words of a command with no quoting are its runs of non-blanks. */
static void check_plain_words(const char *text, size_t len, const struct cmdline *cl)
{
	int k = 0;

	CHECK(cl->redirect == NULL);
	for (size_t i = 0; i < len; i++) {
		size_t wlen;

		if (is_word_space(text[i]) || (i > 0 && !is_word_space(text[i - 1])))
			continue;
		CHECK(k < cl->argc);
		wlen = strlen(cl->argv[k]);
		CHECK(wlen > 0 && i + wlen <= len);
		CHECK(memcmp(cl->argv[k], text + i, wlen) == 0);
		CHECK(i + wlen == len || is_word_space(text[i + wlen]));
		check_number(cl->argv[k]);
		k++;
	}
	CHECK(k == cl->argc);
}

/* A line with no quoting parses to its commands, cut at its separators,
 * or is refused where sh refuses it. */
static void check_plain_line(const char *line, int err, const struct cmdline_list *list)
{
	static size_t starts[SHELL_MAX_COMMANDS + 1], ends[SHELL_MAX_COMMANDS + 1];
	static enum cmdline_next nexts[SHELL_MAX_COMMANDS + 1];
	int count = cut_commands(line, starts, ends, nexts);

	CHECK((count < 0) == (err != 0));
	if (count < 0)
		return;
	CHECK(list->count == count);
	for (int k = 0; k < count; k++) {
		CHECK(list->cmds[k].next == nexts[k]);
		check_plain_words(line + starts[k], ends[k] - starts[k], &list->cmds[k]);
	}
}

/* Append word to out in single quotes, each ' in it written '\'' (close
 * the quote, a backslashed quote, open again). Returns the new end. */
static char *append_quoted(char *out, const char *word)
{
	*out++ = '\'';
	for (; *word; word++) {
		if (*word == '\'') {
			memcpy(out, "'\\''", 4);
			out += 4;
		} else {
			*out++ = *word;
		}
	}
	*out++ = '\'';
	*out++ = ' ';
	return out;
}

/* How check_round_trip writes each separator back. */
static const char *const separator_text[] = {
	[CMDLINE_END] = "; ", [CMDLINE_PIPE] = "| ", [CMDLINE_AND] = "&& ", [CMDLINE_OR] = "|| ",
};

/* Room for a parse of a line of len characters: exactly what cmdline.h
 * says such a line needs, so that a line that needs more is found. */
static void give_room(struct cmdline_list *list, char *store, size_t len, char **words,
		      struct cmdline *cmds)
{
	*list = (struct cmdline_list){
		.cmds = cmds, .max_cmds = (int)(len + 1) / 2,
		.words = words, .max_words = (int)len + 1,
		.store = store, .store_size = len + 1,
	};
}

/* Parsing is undone by quoting: each command's words and file, quoted,
 * with its separator after it, parse back to the same commands. */
static void check_round_trip(const struct cmdline_list *list)
{
	static char line[4 * SHELL_MAX_LINE + 16], store[sizeof(line)];
	static char *words[sizeof(line)];
	static struct cmdline cmds[sizeof(line) / 2 + 1];
	struct cmdline_list again;
	char *end = line;

	for (int i = 0; i < list->count; i++) {
		const struct cmdline *cl = &list->cmds[i];

		for (int k = 0; k < cl->argc; k++)
			end = append_quoted(end, cl->argv[k]);
		if (cl->redirect) {
			end = stpcpy(end, cl->append ? ">>" : ">");
			end = append_quoted(end, cl->redirect);
		}
		if (i + 1 < list->count)
			end = stpcpy(end, separator_text[cl->next]);
	}
	*end = '\0';
	give_room(&again, store, (size_t)(end - line), words, cmds);
	CHECK(cmdline_parse(line, &again) == 0);
	CHECK(again.count == list->count);
	for (int i = 0; i < list->count; i++) {
		const struct cmdline *cl = &list->cmds[i], *back = &again.cmds[i];

		CHECK(back->argc == cl->argc);
		for (int k = 0; k < cl->argc; k++)
			CHECK(strcmp(back->argv[k], cl->argv[k]) == 0);
		CHECK((back->redirect == NULL) == (cl->redirect == NULL));
		CHECK(!cl->redirect || (strcmp(back->redirect, cl->redirect) == 0 &&
					back->append == cl->append));
		CHECK(back->next == cl->next);
	}
}

/* Parse the line as shell_execute() does: it is refused with a reason,
 * or its commands, words and files are the line's, as the two checks
 * above say. */
static void check_parse(const char *line)
{
	static char store[SHELL_MAX_LINE + 1];
	static char *words[SHELL_MAX_LINE + 1];
	static struct cmdline cmds[SHELL_MAX_COMMANDS + 1];
	struct cmdline_list list;
	int err;

	give_room(&list, store, strlen(line), words, cmds);
	err = cmdline_parse(line, &list);
	CHECK(list.count >= 0 && list.count <= list.max_cmds);
	for (int i = 0; i < list.count; i++)
		CHECK(list.cmds[i].argv[list.cmds[i].argc] == NULL);
	if (err) {
		/* Every line that fits has room for its commands and
		 * words: only its syntax can be refused. */
		CHECK(err == -EINVAL && list.error != NULL);
		CHECK(has_quoting(line) || strpbrk(line, "|;&"));
		if (!has_quoting(line))
			check_plain_line(line, err, &list);
		return;
	}
	CHECK(list.error == NULL);
	CHECK(list.count == 0 || list.cmds[list.count - 1].next == CMDLINE_END);
	if (!has_quoting(line))
		check_plain_line(line, err, &list);
	check_round_trip(&list);
}

/* Enter on a line that fits: the line is what the screen showed, made of
 * typed characters; a non-blank one is now the newest history entry. */
static void check_done(struct line_editor *ed)
{
	char *line = line_editor_line(ed);
	size_t len = strnlen(line, SHELL_MAX_LINE + 1);
	size_t count = line_editor_history_count(ed);

	CHECK(len <= SHELL_MAX_LINE);
	CHECK(len == ed->len);
	CHECK(screen.ended_at == len && screen_shows(line, len));
	for (size_t i = 0; i < len; i++)
		CHECK(is_line_char(line[i]));
	if (is_history_line(line))
		CHECK(count > 0 && strcmp(line_editor_history(ed, count - 1), line) == 0);
	check_parse(line);
}

/* Enter on a line that does not fit: it was shown whole, and the stored
 * part is still terminated within the buffer. */
static void check_too_long(struct line_editor *ed)
{
	const char *line = line_editor_line(ed);

	CHECK(ed->len > SHELL_MAX_LINE);
	CHECK(strnlen(line, SHELL_MAX_LINE + 1) == SHELL_MAX_LINE);
	CHECK(screen.ended_at == ed->len);
	CHECK(screen_shows(line, SHELL_MAX_LINE));
}

/* Ctrl-C: the terminal was told, on the line being typed. */
static void check_cancelled(void)
{
	CHECK(screen.ended_at >= 2);
	CHECK(screen.ended_at > SCREEN_COLS ||
	      memcmp(screen.cols + screen.ended_at - 2, "^C", 2) == 0);
}

/* Where the history ring stood when it was last checked. */
static struct {
	size_t count;
	size_t oldest;
} history_seen;

/* The whole history is checked again only when a line was added to it:
 * a blank or repeated line leaves it as it was, and checking all its
 * entries after each of a thousand Enters in one input would make the
 * fuzzer several times slower. */
static void check_history_if_added(const struct line_editor *ed)
{
	if (ed->hist_count == history_seen.count && ed->hist_oldest == history_seen.oldest)
		return;
	check_history(ed);
	history_seen.count = ed->hist_count;
	history_seen.oldest = ed->hist_oldest;
}

static void check_line_end(struct line_editor *ed, enum line_status status)
{
	switch (status) {
	case LINE_DONE:
		check_done(ed);
		break;
	case LINE_TOO_LONG:
		check_too_long(ed);
		break;
	case LINE_CANCELLED:
		check_cancelled();
		break;
	case LINE_CONTINUE:
		break;
	}
	check_history_if_added(ed);
}

/* Kept out of the stack, as the shell keeps its own: about 4 KiB. */
static struct line_editor editor;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	memset(&screen, 0, sizeof(screen));
	memset(&history_seen, 0, sizeof(history_seen));
	line_editor_init(&editor, line_editor_echo_console, NULL);
	for (size_t i = 0; i < size; i++) {
		enum line_status status = line_editor_feed(&editor, data[i]);

		if (status == LINE_CONTINUE)
			continue;
		check_line_end(&editor, status);
		line_editor_start(&editor);
	}
	check_history(&editor);
	return 0;
}
