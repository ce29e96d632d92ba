/* The shell's line editor.
 *
 * The editing rules live in a small state machine that is fed one byte
 * at a time and writes its echo through a callback. It does no I/O of its
 * own, so the selftests can type at it and check both the resulting line
 * and what a terminal would have shown. line_editor_read() connects it to
 * the console.
 *
 * Keys understood: printable ASCII (appended at the end of the line),
 * TAB (appended too, a word separator shown as a space),
 * Backspace (0x7f or 0x08), Ctrl-U (erase the line), Ctrl-C (abandon the
 * line), Enter (CR, LF, or CRLF counted once), and the Up/Down arrows
 * (walk the history). Other escape sequences are swallowed; other control
 * bytes and every byte >= 0x80 are ignored. */
#ifndef KERNEL_LINE_EDITOR_H
#define KERNEL_LINE_EDITOR_H

#include "lib/types.h"
#include "kernel/shell/shell.h"

#define LINE_HISTORY_SIZE 16

enum line_status {
	LINE_CONTINUE,		/* keep feeding bytes */
	LINE_DONE,		/* Enter: the line is ready */
	LINE_CANCELLED,		/* Ctrl-C: the line was abandoned */
	LINE_TOO_LONG,		/* Enter, but over SHELL_MAX_LINE chars */
};

/* Where the editor sends the bytes a terminal should display. */
typedef void (*line_echo_fn)(void *ctx, const char *text, size_t len);

/* How far into an escape sequence we are. Arrow keys arrive as ESC [ A
 * (or ESC O A when the terminal is in "application" mode). */
enum line_escape {
	ESC_NONE,
	ESC_START,		/* seen ESC */
	ESC_CSI,		/* seen ESC [ */
	ESC_CSI_PARAMS,		/* seen ESC [ 1 ; 5 ...: not an arrow */
	ESC_SS3,		/* seen ESC O */
};

struct line_editor {
	/* The line being typed. len counts every character typed, even
	 * those past SHELL_MAX_LINE that did not fit in buf: the line is
	 * refused at Enter, but Backspace must still erase what the user
	 * sees, and erasing back under the limit makes the line valid
	 * again. Only buf[0 .. MIN(len, SHELL_MAX_LINE) - 1] is stored. */
	char buf[SHELL_MAX_LINE + 1];
	size_t len;

	enum line_escape escape;
	/* The previous byte was a CR: a following LF is the same Enter.
	 * Kept across lines, because the LF arrives after the CR's line
	 * has already been handed to the shell. */
	bool after_cr;

	/* A ring of the last LINE_HISTORY_SIZE lines, oldest first when
	 * counted from hist_oldest. browse is the entry being shown while
	 * walking with the arrows; browse == hist_count means "the new,
	 * empty line below the newest entry". */
	char history[LINE_HISTORY_SIZE][SHELL_MAX_LINE + 1];
	size_t hist_oldest;
	size_t hist_count;
	size_t browse;

	line_echo_fn echo;
	void *echo_ctx;
};

/* Set up an editor with an empty history. */
void line_editor_init(struct line_editor *ed, line_echo_fn echo, void *ctx);

/* Begin a new, empty line (the history is kept). */
void line_editor_start(struct line_editor *ed);

/* Handle one input byte. After LINE_DONE the line is in
 * line_editor_line(); after any status other than LINE_CONTINUE call
 * line_editor_start() before feeding the next line. */
enum line_status line_editor_feed(struct line_editor *ed, uint8_t byte);

/* The finished line, NUL-terminated. The caller may modify it (the
 * shell splits it into words in place): history keeps its own copy. */
char *line_editor_line(struct line_editor *ed);

/* Number of history entries, and entry i (0 is the oldest). */
size_t line_editor_history_count(const struct line_editor *ed);
const char *line_editor_history(const struct line_editor *ed, size_t i);

/* An echo callback that writes to the console (ctx is unused). */
void line_editor_echo_console(void *ctx, const char *text, size_t len);

/* Read one line from the console: start a line and feed it console
 * bytes until the line is finished, cancelled or refused. */
enum line_status line_editor_read(struct line_editor *ed);

#endif
