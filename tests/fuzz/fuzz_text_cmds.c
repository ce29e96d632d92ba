/* Fuzz target "text_cmds": the shell's text tools (grep, head, tail, wc,
 * sort, uniq, seq) with their options, numbers and regular expressions,
 * run by tests/host/text_cmds_host.c over host stand-ins for the kernel.
 *
 * The input's first line is a command line, split as the shell splits
 * it (its first command is run); the rest is the text piped into it.
 * Whatever the words, the tool must return, within the output bound,
 * without a stray read or write, and having freed all it took (the
 * fuzzer's leak check). Two answers are checked against a reference:
 * `wc -l` counts the input's newlines, and `sort` prints the input's
 * lines, each once, in byte order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/rename.h"
#include "tests/host/text_cmds_host.h"
#include "kernel/shell/cmdline.h"
#include "lib/format.h"
#include "lib/string.h"

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_text_cmds.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

static size_t count_char(const char *text, size_t len, char c)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += text[i] == c;
	return n;
}

/* `wc -l`: the number of newlines, alone on its line. */
static void check_wc_lines(const char *input, size_t len, const char *output)
{
	char want[32];

	snprintf(want, sizeof(want), "%zu\n", count_char(input, len, '\n'));
	CHECK(strcmp(output, want) == 0);
}

/* The line at *p of a text ending in '\n', moving *p past it. */
static size_t next_line(const char **p, const char **line)
{
	const char *end = memchr(*p, '\n', strlen(*p));
	size_t len = (size_t)(end - *p);

	*line = *p;
	*p = end + 1;
	return len;
}

static int compare_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	int order = memcmp(a, b, alen < blen ? alen : blen);

	return order ? order : (alen > blen) - (alen < blen);
}

/* `sort`: as many lines as the input, in byte order, each an input line
 * (as many newlines as lines in the input, a last one without counting). */
static void check_sort(const char *input, size_t len, const char *output)
{
	size_t lines = count_char(input, len, '\n') + (len && input[len - 1] != '\n');
	const char *p = output, *prev = NULL, *line;
	size_t prev_len = 0;

	CHECK(count_char(output, strlen(output), '\n') == lines);
	CHECK(strlen(output) == len + (len && input[len - 1] != '\n'));
	for (size_t i = 0; i < lines; i++) {
		size_t n = next_line(&p, &line);

		CHECK(!prev || compare_bytes(prev, prev_len, line, n) <= 0);
		prev = line;
		prev_len = n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[1 << 16], store[1 << 16];
	static char *words[1 << 16];
	static struct cmdline cmds[1 << 15];
	struct cmdline_list list = {
		.cmds = cmds, .max_cmds = ARRAY_SIZE(cmds), .words = words,
		.max_words = ARRAY_SIZE(words), .store = store, .store_size = sizeof(store),
	};
	const char *input, *output;
	size_t len;
	char *end;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	end = memchr(text, '\n', size);
	if (!end || memchr(text, '\0', (size_t)(end - text)))
		return 0;
	*end = '\0';
	input = end + 1;
	len = size - (size_t)(input - text);
	if (cmdline_parse(text, &list) < 0 || list.count == 0 || cmds[0].argc == 0)
		return 0;
	if (!text_cmds_run(input, len, cmds[0].argc, cmds[0].argv, &output))
		return 0;
	CHECK(strlen(output) <= TEXT_CMDS_OUTPUT_MAX);
	/* The references read the input as C text: no NUL in it. */
	if (memchr(input, '\0', len))
		return 0;
	if (cmds[0].argc == 2 && strcmp(cmds[0].argv[0], "wc") == 0 &&
	    strcmp(cmds[0].argv[1], "-l") == 0)
		check_wc_lines(input, len, output);
	if (cmds[0].argc == 1 && strcmp(cmds[0].argv[0], "sort") == 0)
		check_sort(input, len, output);
	return 0;
}
