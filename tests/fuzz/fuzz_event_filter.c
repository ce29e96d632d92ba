/* Fuzz target "event_filter": the text written to an event's filter
 * file (kernel/trace/event_filter.c), compiled over the made-up event of
 * tests/host/filter_fields_host.h, and the program run over a record
 * made of the input's bytes.
 *
 * A text refused must say why, at a place inside it (or at its end); a
 * text taken must compile to at most FILTER_TERMS_MAX terms in a program
 * whose every operator has its operands, and must match a record the
 * same way twice. The record is allocated to its exact size, so that
 * ASan sees a read past it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_event_filter.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

#include "tests/host/rename.h"
#include "tests/host/filter_fields_host.h"
#include "lib/errno.h"
#include "lib/string.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct event_filter *f = NULL;
	enum filter_error err;
	size_t pos, len = size < 64 ? size : 64;
	uint8_t *body = malloc(len ? len : 1);
	struct filter_hit hit = { .body = body, .len = len, .comm = "fuzz", .cpu = 1, .pid = 3 };
	int ret, depth = 0;

	memcpy(text, data, size);
	text[size] = '\0';
	memcpy(body, data, len);
	ret = event_filter_parse(text, filter_host_lookup, NULL, &f, &err, &pos);
	if (ret) {
		CHECK(ret == -EINVAL && err != FILTER_ERR_NONE && pos <= strlen(text));
	} else {
		CHECK(f->nr_terms >= 1 && f->nr_terms <= FILTER_TERMS_MAX);
		for (unsigned int i = 0; i < f->nr_steps; i++) {
			uint16_t what = f->steps[i].what;

			if (what == FILTER_STEP_AND || what == FILTER_STEP_OR)
				depth--;
			else if (what != FILTER_STEP_NOT) {
				CHECK(what < f->nr_terms);
				depth++;
			}
			CHECK(depth >= 1);
		}
		CHECK(depth == 1);
		CHECK(event_filter_match(f, &hit) == event_filter_match(f, &hit));
		event_filter_free(f);
	}
	free(body);
	free(text);
	return 0;
}
