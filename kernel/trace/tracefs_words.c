/* Cutting a list file's writes into words: see tracefs_words.h. */
#include "kernel/trace/tracefs_words.h"
#include "lib/ctype.h"

static void end_word(struct tracefs_words *w, tracefs_word_fn fn, void *arg)
{
	if (w->len)
		w->err = fn(arg, w->word, w->len);
	w->len = 0;
}

ssize_t tracefs_words_write(struct tracefs_words *w, const char *buf, size_t count,
			    tracefs_word_fn fn, void *arg)
{
	for (size_t i = 0; i < count && !w->err; i++) {
		if (is_space(buf[i])) {
			end_word(w, fn, arg);
			continue;
		}
		/* A word too long keeps its first TRACEFS_WORD_MAX + 1 bytes:
		 * enough for the callback to see that it is too long. */
		if (w->len < sizeof(w->word))
			w->word[w->len++] = buf[i];
	}
	return w->err ? w->err : (ssize_t)count;
}

int tracefs_words_end(struct tracefs_words *w, tracefs_word_fn fn, void *arg)
{
	if (!w->err)
		end_word(w, fn, arg);
	return w->err;
}
