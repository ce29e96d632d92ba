/* Splitting a command line into commands, words and redirections, the
 * way a Linux user's shell does (a small part of POSIX sh):
 *
 *	cat /proc/kallsyms | grep -w vfs_read > /tmp/f && echo found ; ls
 *	`---- command ----'   `------ command ------'     `-command-'  `'
 *	                  pipe                        and         list
 *
 * - Words are separated by spaces and tabs.
 * - '...' keeps everything inside as it is, spaces, >, |, & and ;
 *   included.
 * - "..." does too, except that \" and \\ stand for " and \.
 * - Outside quotes, \ keeps the next character as it is.
 * - Quoted and unquoted parts next to each other make one word:
 *   a'b c'"d" is the word "ab cd".
 * - > FILE sends the command's output to FILE, made empty first; >> FILE
 *   adds it to the end. Either makes FILE if it does not exist. The
 *   redirection may stand anywhere after the words or between them, with
 *   or without spaces around it (echo 1>x writes "1" to x: there are no
 *   file descriptor numbers). One per command.
 * - A | B: A's output is B's input (a pipeline). Each command of a
 *   pipeline may have its own redirection; one sent to a file sends
 *   nothing down the pipe.
 * - A && B: run B only if A succeeded (its status is 0: command.h);
 *   A || B: run B only if A failed. A and B are pipelines: | binds
 *   tighter, so `a | b && c` tests b's status, the pipeline's.
 * - A ; B: run A, then B, whatever A's status. A ; ends a whole
 *   pipeline, and a whole chain of && and ||. One ; at the end of the
 *   line is allowed, as in sh.
 * - && and || are of equal precedence and go left to right, as in sh:
 *   `a || b && c` runs c if a or b succeeded (each skipped pipeline
 *   leaves the status as it was).
 * - Refused, as sh refuses them: a |, &&, || or ; with no command
 *   before it (at the start, after another separator), a |, && or ||
 *   with no command after it (at the end, before a ;), and ;; (sh's
 *   end of a case, which has no case here).
 * - Refused where sh would take it: & after a command (run it in the
 *   background), since there is no job control to run it under.
 *
 * The parser is plain code over a string, with no kernel calls, so that
 * the host tests and the fuzzer run it as it is. */
#ifndef KERNEL_SHELL_CMDLINE_H
#define KERNEL_SHELL_CMDLINE_H

#include "lib/types.h"

/* What follows a command on its line: how it joins the next one. */
enum cmdline_next {
	CMDLINE_END,		/* the line's end, or a ;: the next runs anyway */
	CMDLINE_PIPE,		/* |: the output is the next command's input */
	CMDLINE_AND,		/* &&: the next pipeline runs if this one succeeded */
	CMDLINE_OR,		/* ||: the next pipeline runs if this one failed */
};

/* One command of a line. */
struct cmdline {
	int argc;
	char **argv;		/* argc words, then NULL */
	const char *redirect;	/* the file after > or >>; NULL if none */
	bool append;		/* >>: add to the file, do not empty it */
	enum cmdline_next next;	/* the separator after it; the last's is CMDLINE_END */
};

/* A parsed line, and the caller's room for it. A line of n characters
 * needs n + 1 bytes of store and n + 1 words (each command's words and
 * a NULL after them), and has at most (n + 1) / 2 commands. */
struct cmdline_list {
	struct cmdline *cmds;	/* room for max_cmds commands */
	int max_cmds;
	char **words;		/* room for max_words pointers */
	int max_words;
	char *store;		/* the words' text, each with its NUL */
	size_t store_size;
	int count;		/* out: the commands, in the order typed */
	const char *error;	/* out: why the line was refused, in a few words */
};

/* Split line into commands, their words and redirections, into the room
 * list names. A blank line has no command. Returns 0; -E2BIG if the
 * line does not fit in that room; or -EINVAL for a quote left open, a >
 * with no file name after it, a second redirection in one command, a
 * separator where sh would find a syntax error, or a & (see above).
 * list->error then says which ("syntax error near unexpected token
 * '|'"), and list->count is the commands parsed so far, the last
 * perhaps cut short; each argv still ends with NULL. */
int cmdline_parse(const char *line, struct cmdline_list *list);

#endif
