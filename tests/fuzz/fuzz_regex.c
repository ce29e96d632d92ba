/* Fuzz target "regex": grep's regular expressions (lib/regex.c).
 *
 * The input's first byte chooses the flags (bit 0: ERE, bit 1: ignore
 * case, bit 2: whole words); the bytes up to the first newline are the
 * pattern, and each line after it is searched. A pattern is compiled or
 * refused with a reason; a compiled one ends in a MATCH within
 * REGEX_MAX_INSNS instructions, and every jump stays inside it.
 *
 * Then the answer is checked against the host C library's regcomp and
 * regexec (glibc's, which follow POSIX with GNU's extensions) wherever
 * both take the pattern and it holds none of the forms where GNU grep,
 * which ProbeOS follows, reads a pattern otherwise than glibc's regcomp:
 * an anchor or an operator with nothing before it, an operator after an
 * anchor (GNU grep repeats the anchor, glibc's regcomp takes the
 * operator for a literal or drops it), a { that starts no count, a )
 * with no (, a backslash before an ordinary character, and with -i a
 * [...] set. Lines with bytes >= 0x80 are left to the first
 * checks (glibc's answer for them depends on the locale). */
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The host's answer, worked out before rename.h renames strlen & co. */
static int host_search(const char *pattern, int flags, const char *line, bool *matched)
{
	regex_t re;
	int err = regcomp(&re, pattern, flags | REG_NOSUB);

	if (err)
		return err;
	*matched = regexec(&re, line, 0, NULL, 0) == 0;
	regfree(&re);
	return 0;
}

#include "tests/host/rename.h"
#include "lib/errno.h"
#include "lib/regex.h"
#include "lib/string.h"

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_regex.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

static struct regex re;

/* Every instruction's jumps land inside the program, and it ends in a
 * MATCH (whose number the header does not name: it is the last). */
static void check_program(void)
{
	CHECK(re.len > 0 && re.len <= REGEX_MAX_INSNS);
	for (int pc = 0; pc < re.len; pc++) {
		const struct regex_insn *insn = &re.prog[pc];

		CHECK(pc + insn->x >= 0 && pc + insn->x < re.len);
		CHECK(pc + insn->y >= 0 && pc + insn->y < re.len);
		CHECK(insn->set < REGEX_MAX_SETS);
	}
}

/* An anchor (^, $, \b, \B, \<, \>, \`, \') with an operator after it
 * (*, +, ?, {, or the same after a backslash), looked for loosely. */
static bool anchor_repeated(const char *pattern)
{
	for (const char *p = pattern; *p; p++) {
		bool anchor = *p == '^' || *p == '$';

		if (*p == '\\' && p[1]) {
			anchor = strchr("bB<>`'", p[1]) != NULL;
			p++;	/* an escaped character is no operator */
		}
		if (!anchor)
			continue;
		if (p[1] && strchr("*+?{", p[1]))
			return true;
		if (p[1] == '\\' && p[2] && strchr("+?{", p[2]))
			return true;
	}
	return false;
}

/* The forms GNU grep reads otherwise than glibc's regcomp (above),
 * looked for loosely: a pattern that merely might hold one is skipped.
 * So is a backslash before an ordinary character (\f), which GNU reads
 * as the character and glibc, with REG_ICASE, matches with nothing. */
static bool glibc_reads_otherwise(const char *pattern, bool ere)
{
	for (const char *p = strchr(pattern, '\\'); p; p = strchr(p + 2, '\\')) {
		if (!p[1] || !strchr(".[]*^$\\wWsSbB<>`'", p[1]))
			return true;
	}
	if (strpbrk(pattern, "{}()|") || anchor_repeated(pattern))
		return true;
	if (pattern[0] == '*' || strstr(pattern, "^*") || strstr(pattern, "\\(*") ||
	    strstr(pattern, "\\|") || strstr(pattern, "$*"))
		return true;
	return ere && (strpbrk(pattern, "^$+?") || strstr(pattern, "\\<") || strstr(pattern, "\\b"));
}

static bool plain_ascii(const char *s)
{
	for (; *s; s++) {
		if ((unsigned char)*s >= 0x80)
			return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[1 << 16];
	unsigned int flags;
	bool words, compare;
	const char *error = NULL;
	char *pattern, *line, *end;
	int err;

	if (size < 1 || size >= sizeof(text))
		return 0;
	flags = (data[0] & 1 ? REGEX_EXTENDED : 0) | (data[0] & 2 ? REGEX_ICASE : 0);
	words = data[0] & 4;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	pattern = text;
	end = strchr(text, '\n');
	line = end ? end + 1 : text + size - 1;
	if (end)
		*end = '\0';
	if (strlen(pattern) != (size_t)(line - pattern) - (end != NULL))
		return 0;	/* a NUL in the pattern: grep could not be given it */
	err = regex_compile(&re, pattern, flags, &error);
	CHECK(err == 0 ? error == NULL : err == -EINVAL && error && *error);
	if (err)
		return 0;
	check_program();
	/* With -i, a range that mixes cases ([M-n]) is read in as many
	 * ways as there are implementations: sets are compared without. */
	compare = !words && plain_ascii(pattern) &&
		  !glibc_reads_otherwise(pattern, flags & REGEX_EXTENDED) &&
		  !(flags & REGEX_ICASE && strchr(pattern, '['));
	while (*line || line < text + size - 1) {
		size_t len;
		bool mine, host;

		end = memchr(line, '\n', (size_t)(text + size - 1 - line));
		len = end ? (size_t)(end - line) : (size_t)(text + size - 1 - line);
		mine = regex_search(&re, line, len, words);
		if (end)
			*end = '\0';
		if (compare && strlen(line) == len && plain_ascii(line) &&
		    host_search(pattern, (flags & REGEX_EXTENDED ? REG_EXTENDED : 0) |
				(flags & REGEX_ICASE ? REG_ICASE : 0), line, &host) == 0)
			CHECK(mine == host);
		if (!end)
			break;
		line = end + 1;
	}
	return 0;
}
