/* Cutting a filter word up: see ftrace_filter_word.h. */
#include "kernel/trace/ftrace_filter_word.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Whether the len bytes at s are all digits (a number, however big). */
static bool all_digits(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!is_digit(s[i]))
			return false;
	return len > 0;
}

/* The decimal number of len digits at s, or 0 if it is too big for an
 * unsigned long. */
static unsigned long number_of(const char *s, size_t len)
{
	unsigned long n = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned long digit = (unsigned long)(s[i] - '0');

		if (n > (~0ul - digit) / 10)
			return 0;
		n = n * 10 + digit;
	}
	return n;
}

int ftrace_filter_word_parse(const char *word, size_t len, struct ftrace_filter_word *w)
{
	const char *colon;
	size_t glob_len;

	*w = (struct ftrace_filter_word){ 0 };
	if (len > FTRACE_WORD_MAX || memchr(word, '\0', len))
		return -EINVAL;
	if (len > 0 && word[0] == '!') {
		w->negate = true;
		word++;
		len--;
	}
	colon = memchr(word, ':', len);
	glob_len = colon ? (size_t)(colon - word) : len;
	if (colon) {
		/* Linux's one command here: "mod", then the module's name. */
		const char *command = colon + 1, *end = word + len;
		const char *name = command + 4;

		if (end - command < 5 || memcmp(command, "mod:", 4) != 0 || name == end ||
		    (size_t)(end - name) > FTRACE_MODULE_NAME_MAX || memchr(name, ':', (size_t)(end - name)))
			return -EINVAL;
		memcpy(w->module, name, (size_t)(end - name));
	} else if (glob_len == 0) {
		return -EINVAL;
	}
	memcpy(w->glob, word, glob_len);
	w->glob[glob_len] = '\0';
	if (!colon && all_digits(word, glob_len)) {
		w->index = number_of(word, glob_len);
		if (w->index == 0)
			return -EINVAL;
	}
	return 0;
}
