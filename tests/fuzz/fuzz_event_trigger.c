/* Fuzz target "event_trigger": the text written to an event's trigger
 * file (kernel/trace/event_trigger.c), and the filter after its "if"
 * compiled over the made-up event of tests/host/filter_fields_host.h,
 * as the trigger file compiles it.
 *
 * A text taken must name a known command, a count of -1 (unlimited) or
 * 0..INT32_MAX, a GROUP:EVENT exactly when the command needs one, a
 * hist's attributes as one word inside the text, and a filter that
 * starts inside the text on a non-blank; written back in
 * the form the trigger file shows, it must read the same again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_event_trigger.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

#include "tests/host/rename.h"
#include "tests/host/filter_fields_host.h"
#include "kernel/trace/event_trigger.h"
#include "lib/errno.h"
#include "lib/string.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool names_event(enum trigger_cmd cmd)
{
	return cmd == TRIGGER_ENABLE_EVENT || cmd == TRIGGER_DISABLE_EVENT;
}

/* Append str to the string in out. */
static void put(char *out, const char *str)
{
	memcpy(out + strlen(out), str, strlen(str) + 1);
}

/* The spec written back as the trigger file would show it; out holds
 * the input's size and 64 bytes more. */
static void write_back(const struct trigger_spec *s, char *out)
{
	char count[24];

	out[0] = '\0';
	if (s->remove)
		put(out, "!");
	put(out, trigger_cmd_name(s->cmd));
	if (s->cmd == TRIGGER_HIST) {
		size_t n = strlen(out);

		out[n] = ':';
		memcpy(out + n + 1, s->param, s->param_len);
		out[n + 1 + s->param_len] = '\0';
	}
	if (names_event(s->cmd)) {
		put(out, ":");
		put(out, s->system);
		put(out, ":");
		put(out, s->event);
	}
	if (s->count >= 0) {
		int n = sizeof(count) - 1;

		count[n] = '\0';
		for (long c = s->count; n == sizeof(count) - 1 || c; c /= 10)
			count[--n] = (char)('0' + c % 10);
		put(out, ":");
		put(out, count + n);
	}
	if (s->filter) {
		put(out, " if ");
		put(out, s->filter);
	}
}

static void check_filter(const char *text)
{
	struct event_filter *f = NULL;
	enum filter_error err;
	size_t pos;

	if (event_filter_parse(text, filter_host_lookup, NULL, &f, &err, &pos) == 0)
		event_filter_free(f);
	else
		CHECK(err != FILTER_ERR_NONE && pos <= strlen(text));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *again;
	struct trigger_spec spec, spec2;

	memcpy(text, data, size);
	text[size] = '\0';
	if (trigger_parse(text, &spec)) {
		free(text);
		return 0;
	}
	CHECK(*trigger_cmd_name(spec.cmd));
	CHECK(spec.count >= -1 && spec.count <= INT32_MAX);
	CHECK(names_event(spec.cmd) == (spec.system[0] && spec.event[0]));
	CHECK(strlen(spec.system) < sizeof(spec.system) && strlen(spec.event) < sizeof(spec.event));
	CHECK((spec.cmd == TRIGGER_HIST) == (spec.param != NULL));
	if (spec.param) {
		CHECK(spec.param > text && spec.param + spec.param_len <= text + size);
		CHECK(spec.param_len > 0 && !memchr(spec.param, ' ', spec.param_len));
		CHECK(spec.count == -1);
	}
	if (spec.filter) {
		CHECK(spec.filter > text && spec.filter < text + size);
		CHECK(*spec.filter && *spec.filter != ' ');
		check_filter(spec.filter);
	}
	again = malloc(size + 64);
	write_back(&spec, again);
	CHECK(trigger_parse(again, &spec2) == 0);
	CHECK(spec2.cmd == spec.cmd && spec2.remove == spec.remove && spec2.count == spec.count);
	CHECK(!strcmp(spec2.system, spec.system) && !strcmp(spec2.event, spec.event));
	CHECK(spec2.param_len == spec.param_len &&
	      (!spec.param || !memcmp(spec2.param, spec.param, spec.param_len)));
	CHECK(!spec.filter == !spec2.filter);
	CHECK(!spec.filter || !strcmp(spec.filter, spec2.filter));
	free(again);
	free(text);
	return 0;
}
