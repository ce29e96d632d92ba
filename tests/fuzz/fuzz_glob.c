/* Fuzz target "glob": the glob matcher (lib/glob.c) against the host C
 * library's fnmatch(3) with no flags, whose answers it must give.
 *
 * The input's bytes up to the first newline are the pattern, the rest
 * the string (each ends at a NUL, if one comes first, as a C string
 * does). The string is at most STRING_MAX bytes: a pattern of unclosed
 * [s against a string of [s costs both matchers about len(pattern) *
 * len(str)^2 steps (lib/glob.c), which a few kilobytes of each would
 * stretch past the fuzzer's timeout, and the tracer's strings are
 * function names. A pattern without a *, ?, [ or \ must match exactly
 * the string equal to it (glob_has_magic). The program runs in the C
 * locale, which the matcher's classes are. */
#include <fnmatch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRING_MAX 64

/* The host's answer, worked out before rename.h renames strlen & co. */
static bool host_match(const char *pattern, const char *str)
{
	return fnmatch(pattern, str, 0) == 0;
}

#include "tests/host/rename.h"
#include "lib/glob.h"
#include "lib/string.h"

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_glob.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[1 << 16];
	char *pattern = text, *str, *newline;
	bool mine;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	newline = memchr(text, '\n', size);
	str = newline ? newline + 1 : text + size;
	if (newline)
		*newline = '\0';
	if (strlen(str) > STRING_MAX)
		return 0;
	/* glibc takes [^...] for a negation only without POSIXLY_CORRECT. */
	CHECK(!getenv("POSIXLY_CORRECT"));
	mine = glob_match(pattern, str);
	CHECK(mine == host_match(pattern, str));
	if (!glob_has_magic(pattern))
		CHECK(mine == (strcmp(pattern, str) == 0));
	return 0;
}
