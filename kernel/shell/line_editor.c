/* The shell's line editor: see line_editor.h.
 *
 * Everything above line_editor_echo_console() is pure logic: bytes come
 * in through line_editor_feed() and the echo goes out through a callback.
 * Only the last two functions touch the console.
 *
 * Erasing uses "\b \b" (back, overwrite with a space, back again), which
 * every terminal understands. It cannot climb back over a line the
 * terminal has wrapped, so very long lines erase untidily on screen; the
 * line in the buffer is still right. */
#include "kernel/shell/line_editor.h"
#include "kernel/console.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define CTRL(c) ((c) & 0x1f)
#define KEY_ESC 0x1b
#define KEY_DEL 0x7f

static void echo(struct line_editor *ed, const char *text, size_t len)
{
	ed->echo(ed->echo_ctx, text, len);
}

static void echo_str(struct line_editor *ed, const char *text)
{
	echo(ed, text, strlen(text));
}

/* Show characters of the line, a TAB as one space: every character then
 * takes one column on the screen, which is what Backspace ("\b \b")
 * erases. */
static void echo_line(struct line_editor *ed, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char shown = text[i] == '\t' ? ' ' : text[i];

		echo(ed, &shown, 1);
	}
}

/* Append a typed character. Characters past SHELL_MAX_LINE are shown and
 * counted but not stored: see the comment on struct line_editor. */
static void insert_char(struct line_editor *ed, char c)
{
	if (ed->len < SHELL_MAX_LINE)
		ed->buf[ed->len] = c;
	ed->len++;
	echo_line(ed, &c, 1);
}

static void backspace(struct line_editor *ed)
{
	if (ed->len == 0)
		return;
	ed->len--;
	echo_str(ed, "\b \b");
}

static void erase_line(struct line_editor *ed)
{
	while (ed->len > 0)
		backspace(ed);
}

/* Replace what is on the line with text (a history entry, or ""). */
static void replace_line(struct line_editor *ed, const char *text)
{
	erase_line(ed);
	ed->len = strlcpy(ed->buf, text, sizeof(ed->buf));
	echo_line(ed, ed->buf, ed->len);
}

/* History entry i, counting from the oldest. */
static char *history_entry(struct line_editor *ed, size_t i)
{
	return ed->history[(ed->hist_oldest + i) % LINE_HISTORY_SIZE];
}

static bool is_blank(const char *s)
{
	for (; *s; s++) {
		if (*s != ' ' && *s != '\t')
			return false;
	}
	return true;
}

/* Remember a finished line, unless it is blank or repeats the newest
 * entry (pressing Up should not show the same line several times). */
static void history_add(struct line_editor *ed, const char *line)
{
	if (is_blank(line))
		return;
	if (ed->hist_count > 0 &&
	    strcmp(history_entry(ed, ed->hist_count - 1), line) == 0)
		return;
	if (ed->hist_count == LINE_HISTORY_SIZE) {
		/* Full: the oldest slot becomes the newest. */
		ed->hist_oldest = (ed->hist_oldest + 1) % LINE_HISTORY_SIZE;
		ed->hist_count--;
	}
	strlcpy(history_entry(ed, ed->hist_count), line, SHELL_MAX_LINE + 1);
	ed->hist_count++;
}

static void history_up(struct line_editor *ed)
{
	if (ed->browse == 0)
		return;
	ed->browse--;
	replace_line(ed, history_entry(ed, ed->browse));
}

/* Down past the newest entry returns to an empty line. */
static void history_down(struct line_editor *ed)
{
	if (ed->browse == ed->hist_count)
		return;
	ed->browse++;
	if (ed->browse == ed->hist_count)
		replace_line(ed, "");
	else
		replace_line(ed, history_entry(ed, ed->browse));
}

/* Enter was pressed. */
static enum line_status finish_line(struct line_editor *ed)
{
	echo_str(ed, "\n");
	ed->buf[MIN(ed->len, (size_t)SHELL_MAX_LINE)] = '\0';
	if (ed->len > SHELL_MAX_LINE)
		return LINE_TOO_LONG;
	history_add(ed, ed->buf);
	return LINE_DONE;
}

/* Feed a byte to an escape sequence in progress. Returns false if the
 * byte does not belong to it: a control or non-ASCII byte never appears
 * inside a sequence, so the sequence was broken off (a lone Esc key
 * press followed by Enter, say) and the byte is handled normally. */
static bool escape_feed(struct line_editor *ed, uint8_t byte)
{
	if (byte < 0x20 || byte >= KEY_DEL) {
		ed->escape = ESC_NONE;
		return false;
	}

	switch (ed->escape) {
	case ESC_START:
		if (byte == '[')
			ed->escape = ESC_CSI;
		else if (byte == 'O')
			ed->escape = ESC_SS3;
		else
			ed->escape = ESC_NONE;	/* 2 bytes, e.g. Alt-x */
		break;
	case ESC_CSI:
	case ESC_SS3:
		if (byte == 'A' || byte == 'B') {
			ed->escape = ESC_NONE;
			if (byte == 'A')
				history_up(ed);
			else
				history_down(ed);
		} else if (ed->escape == ESC_CSI && byte < 0x40) {
			/* A parameter such as the "1;5" of Ctrl-Up. */
			ed->escape = ESC_CSI_PARAMS;
		} else {
			ed->escape = ESC_NONE;	/* some other key */
		}
		break;
	case ESC_CSI_PARAMS:
		/* Bytes 0x40..0x7e end a CSI sequence; below are parameters. */
		if (byte >= 0x40)
			ed->escape = ESC_NONE;
		break;
	case ESC_NONE:
		break;
	}
	return true;
}

void line_editor_init(struct line_editor *ed, line_echo_fn echo_fn, void *ctx)
{
	memset(ed, 0, sizeof(*ed));
	ed->echo = echo_fn;
	ed->echo_ctx = ctx;
	line_editor_start(ed);
}

void line_editor_start(struct line_editor *ed)
{
	ed->len = 0;
	ed->buf[0] = '\0';
	ed->escape = ESC_NONE;
	ed->browse = ed->hist_count;
	/* after_cr is kept on purpose: see struct line_editor. */
}

enum line_status line_editor_feed(struct line_editor *ed, uint8_t byte)
{
	bool after_cr = ed->after_cr;

	ed->after_cr = false;
	if (ed->escape != ESC_NONE && escape_feed(ed, byte))
		return LINE_CONTINUE;

	switch (byte) {
	case '\r':
		ed->after_cr = true;
		return finish_line(ed);
	case '\n':
		if (after_cr)
			return LINE_CONTINUE;	/* the LF of a CRLF */
		return finish_line(ed);
	case CTRL('C'):
		echo_str(ed, "^C\n");
		return LINE_CANCELLED;
	case CTRL('U'):
		erase_line(ed);
		break;
	case KEY_DEL:
	case '\b':
		backspace(ed);
		break;
	case KEY_ESC:
		ed->escape = ESC_START;
		break;
	case '\t':
		/* No completion: a TAB separates words, as a space does
		 * (shell_execute splits on both). */
		insert_char(ed, '\t');
		break;
	default:
		if (byte >= 0x20 && byte < KEY_DEL)
			insert_char(ed, (char)byte);
		break;	/* other control bytes and non-ASCII: ignored */
	}
	return LINE_CONTINUE;
}

char *line_editor_line(struct line_editor *ed)
{
	ed->buf[MIN(ed->len, (size_t)SHELL_MAX_LINE)] = '\0';
	return ed->buf;
}

size_t line_editor_history_count(const struct line_editor *ed)
{
	return ed->hist_count;
}

const char *line_editor_history(const struct line_editor *ed, size_t i)
{
	if (i >= ed->hist_count)
		return NULL;
	return ed->history[(ed->hist_oldest + i) % LINE_HISTORY_SIZE];
}

void line_editor_echo_console(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	console_write(text, len);
}

enum line_status line_editor_read(struct line_editor *ed)
{
	enum line_status status = LINE_CONTINUE;

	line_editor_start(ed);
	while (status == LINE_CONTINUE) {
		int c = console_getc();

		if (c < 0)
			continue;
		status = line_editor_feed(ed, (uint8_t)c);
	}
	return status;
}
