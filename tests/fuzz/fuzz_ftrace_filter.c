/* Fuzz target "ftrace_filter": a word written to set_ftrace_filter
 * (kernel/trace/ftrace_filter_word.c), and the glob it yields matched
 * against a few function names (lib/glob.c).
 *
 * The input is the word. A word taken must give back exactly what was
 * written when put together again ("!", the glob, ":mod:" and the
 * module), with a module name free of ':', a glob that is empty only
 * beside a module, and an index only for a word of digits; a word
 * refused is -EINVAL. The glob is then matched, which must not read
 * past it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_ftrace_filter.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

#include "tests/host/rename.h"
#include "kernel/trace/ftrace_filter_word.h"
#include "lib/errno.h"
#include "lib/glob.h"
#include "lib/string.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "vfs_read", "ramfs_read", "kprobe_trap", "a", "" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Exactly the word's bytes, so that ASan sees a read past them. */
	char *word = malloc(size ? size : 1);
	struct ftrace_filter_word w;
	char again[2 * FTRACE_WORD_MAX + 16];
	size_t n = 0, glob_len, module_len;
	int err;

	memcpy(word, data, size);
	err = ftrace_filter_word_parse(word, size, &w);
	if (err) {
		CHECK(err == -EINVAL);
		free(word);
		return 0;
	}
	glob_len = strlen(w.glob);
	module_len = strlen(w.module);
	CHECK(glob_len <= FTRACE_WORD_MAX && module_len <= FTRACE_MODULE_NAME_MAX);
	CHECK(glob_len > 0 || module_len > 0);
	CHECK(memchr(w.module, ':', module_len) == NULL);
	CHECK(!w.index || (!module_len && strspn(w.glob, "0123456789") == glob_len));
	if (w.negate)
		again[n++] = '!';
	memcpy(again + n, w.glob, glob_len);
	n += glob_len;
	if (module_len) {
		memcpy(again + n, ":mod:", 5);
		memcpy(again + n + 5, w.module, module_len);
		n += 5 + module_len;
	}
	CHECK(n == size && memcmp(again, word, size) == 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		(void)glob_match(w.glob, names[i]);
	(void)glob_has_magic(w.glob);
	free(word);
	return 0;
}
