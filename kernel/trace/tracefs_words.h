/* The words written to a tracefs file that takes a list (set_ftrace_filter,
 * set_ftrace_pid): parted by spaces, tabs or newlines, however the
 * writes happen to split them. A word cut by the end of one write goes
 * on in the next, and the last one is handed over when the file closes.
 *
 * Plain code over the bytes, with no kernel calls, so that the host's
 * tests and fuzzer run it as it is. */
#ifndef KERNEL_TRACE_TRACEFS_WORDS_H
#define KERNEL_TRACE_TRACEFS_WORDS_H

#include "lib/types.h"

/* The longest word kept whole: a longer one is handed over as
 * TRACEFS_WORD_MAX + 1 bytes, for the caller to refuse. */
#define TRACEFS_WORD_MAX 255

/* What a file was open for writing has been given so far. Zeroed to
 * start. */
struct tracefs_words {
	char word[TRACEFS_WORD_MAX + 1];	/* the word not yet ended (no NUL) */
	size_t len;			/* its bytes kept */
	int err;			/* what a word's callback failed with */
};

/* Called for each word: its len bytes, at most TRACEFS_WORD_MAX + 1 (no
 * NUL after them). 0, or a negative errno value that fails this write and
 * every later one. */
typedef int (*tracefs_word_fn)(void *arg, const char *word, size_t len);

/* Hand each word that buf's count bytes end to fn. count, or the first
 * error (the one before it, if a write failed already). */
ssize_t tracefs_words_write(struct tracefs_words *w, const char *buf, size_t count,
			    tracefs_word_fn fn, void *arg);

/* At close: hand over the word the last write left, if any. 0, or the
 * error of this word or of an earlier one. */
int tracefs_words_end(struct tracefs_words *w, tracefs_word_fn fn, void *arg);

#endif
