/* One word written to set_ftrace_filter or set_ftrace_notrace, read as
 * Linux reads it (docs/ftrace.md):
 *
 *   GLOB            the functions whose names match (lib/glob.h)
 *   N               the N-th function of available_filter_functions,
 *                   counting from 1
 *   GLOB:mod:NAME   the functions of module NAME that match; an empty
 *                   GLOB (":mod:NAME") is every one of them
 *   !WORD           drop what WORD picks instead of adding it
 *
 * The parser only cuts the word up; what it picks is the caller's
 * matching (kernel/trace/tracefs_filter.c). Kept apart and free of the
 * kernel, so that the host's fuzzer runs it (tests/fuzz/). */
#ifndef KERNEL_TRACE_FTRACE_FILTER_WORD_H
#define KERNEL_TRACE_FTRACE_FILTER_WORD_H

#include "lib/types.h"

/* The longest word taken, and the longest module name. */
#define FTRACE_WORD_MAX 255
#define FTRACE_MODULE_NAME_MAX 55

struct ftrace_filter_word {
	bool negate;			/* it began with "!" */
	char glob[FTRACE_WORD_MAX + 1];	/* a C string; "" only with a module */
	char module[FTRACE_MODULE_NAME_MAX + 1];	/* "" if none named */
	unsigned long index;		/* 1 and up; 0 if the word is no number */
};

/* Read the len bytes at word (no spaces in them) into *w. 0, or -EINVAL
 * for a word Linux refuses too: empty, longer than FTRACE_WORD_MAX, with
 * a NUL in it (which would end the glob), a
 * "!" alone, the number 0 or one past an unsigned long, a command other
 * than "mod", or "mod" without a module name or with one too long. */
int ftrace_filter_word_parse(const char *word, size_t len, struct ftrace_filter_word *w);

#endif
