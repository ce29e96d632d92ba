/* Splitting a command line into words and a redirection, the way a
 * Linux user's shell does (a small part of POSIX sh):
 *
 *	echo 'p:ev vfs_read' > /sys/kernel/tracing/kprobe_events
 *	     `------ one word -----'  `------------ the file --------'
 *
 * - Words are separated by spaces and tabs.
 * - '...' keeps everything inside as it is, spaces and > included.
 * - "..." does too, except that \" and \\ stand for " and \.
 * - Outside quotes, \ keeps the next character as it is.
 * - Quoted and unquoted parts next to each other make one word:
 *   a'b c'"d" is the word "ab cd".
 * - > FILE sends the command's output to FILE, made empty first; >> FILE
 *   adds it to the end. Either makes FILE if it does not exist. The
 *   redirection may stand anywhere after the words or between them, with
 *   or without spaces around it (echo 1>x writes "1" to x: there are no
 *   file descriptor numbers).
 *
 * The parser is plain code over a string, with no kernel calls, so that
 * the host tests and the fuzzer run it as it is. */
#ifndef KERNEL_SHELL_CMDLINE_H
#define KERNEL_SHELL_CMDLINE_H

#include "lib/types.h"

struct cmdline {
	int argc;
	char **argv;		/* argc words, then NULL */
	const char *redirect;	/* the file after > or >>; NULL if none */
	bool append;		/* >>: add to the file, do not empty it */
	const char *error;	/* why the line was refused, for one line */
};

/* Split line into words, at most max_words of them, and a redirection.
 * The words are copied into store, which needs strlen(line) + 1 bytes
 * (quotes and separators removed, each word gets a NUL); words needs
 * room for max_words + 1 pointers. Returns 0, -E2BIG if the line has
 * more than max_words words or does not fit in store, or -EINVAL for a
 * quote left open, a > with no file name after it, or a second
 * redirection; out->error then says which in a few words. */
int cmdline_parse(const char *line, char *store, size_t store_size,
		  char **words, int max_words, struct cmdline *out);

#endif
