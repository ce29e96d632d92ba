/* Fuzz target "ftrace_pid": what is written to set_ftrace_pid, cut
 * into words (kernel/trace/tracefs_words.c) and gathered into thread ids
 * (kernel/trace/pid_list.c) in a sorted set (kernel/trace/sorted_set.c).
 *
 * The first byte says how many bytes each write holds (1 to 256); the
 * rest is written. The words handed over must be the input's words,
 * whatever the writes' size, and the list gathered must be sorted, each
 * id once, none above PID_LIST_MAX_ID, and the same as one write of the
 * whole input gathers; a write refused is -EINVAL, and refuses every
 * later one. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_ftrace_pid.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

#include "tests/host/rename.h"
#include "kernel/mm/heap.h"
#include "kernel/trace/pid_list.h"
#include "kernel/trace/tracefs_words.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

void *kmalloc(size_t size)
{
	return malloc(size ? size : 1);
}

void kfree(void *p)
{
	free(p);
}

struct gather {
	struct sorted_set list;
	const char *input;	/* the words must come in its order */
	size_t size, at;
};

/* The word must be the input's next one (cut at TRACEFS_WORD_MAX + 1
 * bytes). */
static int add(void *arg, const char *word, size_t len)
{
	struct gather *g = arg;
	size_t start, end;

	while (g->at < g->size && is_space(g->input[g->at]))
		g->at++;
	start = g->at;
	while (g->at < g->size && !is_space(g->input[g->at]))
		g->at++;
	end = g->at;
	CHECK(len == (end - start < TRACEFS_WORD_MAX + 1 ? end - start : TRACEFS_WORD_MAX + 1));
	CHECK(memcmp(word, g->input + start, len) == 0);
	return pid_list_add_word(&g->list, word, len);
}

/* Write the input in pieces of step bytes, then close: 0 or the error. */
static int write_all(struct gather *g, size_t step)
{
	struct tracefs_words w = { 0 };
	int err = 0, end;

	for (size_t at = 0; at < g->size; at += step) {
		size_t len = g->size - at < step ? g->size - at : step;
		ssize_t n = tracefs_words_write(&w, g->input + at, len, add, g);

		CHECK(n == (ssize_t)len || (n < 0 && (!err || n == err)));
		if (n < 0)
			err = (int)n;
	}
	end = tracefs_words_end(&w, add, g);

	CHECK(end == err || (!err && end == -EINVAL));
	return end;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gather pieces = { 0 }, whole = { 0 };
	size_t step;
	int err;

	if (size < 1)
		return 0;
	step = (size_t)data[0] + 1;
	pieces.input = whole.input = (const char *)data + 1;
	pieces.size = whole.size = size - 1;
	err = write_all(&pieces, step);
	CHECK(err == 0 || err == -EINVAL);
	CHECK(write_all(&whole, whole.size ? whole.size : 1) == err);
	CHECK(pieces.list.count == whole.list.count);
	for (size_t i = 0; i < pieces.list.count; i++) {
		CHECK(pieces.list.v[i] <= PID_LIST_MAX_ID);
		CHECK(i == 0 || pieces.list.v[i - 1] < pieces.list.v[i]);
		CHECK(pieces.list.v[i] == whole.list.v[i]);
	}
	kfree(pieces.list.v);
	kfree(whole.list.v);
	return 0;
}
