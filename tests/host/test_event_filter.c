/* Host tests for event filters (kernel/trace/event_filter.c): what a
 * filter matches, and Linux's refusals with their places, over the
 * made-up event of tests/host/filter_fields_host.h, whose path string's
 * bytes are at 24. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/trace/event_filter.h"
#include "tests/host/filter_fields_host.h"
#include "kernel/trace/probe_types.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

static uint8_t body[64];

static struct filter_hit hit_of(uint64_t count, int32_t ret, uint8_t flags, const char *path)
{
	uint32_t loc = probe_data_loc(strlen(path) + 1, 24);

	memset(body, 0, sizeof(body));
	memcpy(body, &count, 8);
	memcpy(body + 8, &ret, 4);
	body[12] = flags;
	memcpy(body + 16, &loc, 4);
	memcpy(body + 24, path, strlen(path) + 1);
	return (struct filter_hit){ .body = body, .len = sizeof(body), .comm = "shell", .cpu = 2,
				    .pid = 7 };
}

static bool matches(const char *text, const struct filter_hit *hit)
{
	struct event_filter *f;
	enum filter_error err;
	size_t pos;
	bool m;

	int ret = event_filter_parse(text, filter_host_lookup, NULL, &f, &err, &pos);

	if (ret)
		print_error("%s: %s at %zu\n", text, filter_error_text(err), pos);
	assert_int_equal(ret, 0);
	m = event_filter_match(f, hit);
	event_filter_free(f);
	return m;
}

static void test_matching(void **state)
{
	struct filter_hit h = hit_of(4096, -22, 0x5, "/etc/hostname");

	(void)state;
	assert_true(matches("count > 100", &h));
	assert_false(matches("count < 100", &h));
	assert_true(matches("count == 4096 && comm == \"shell\"", &h));
	assert_false(matches("count == 4096 && comm == \"init\"", &h));
	assert_true(matches("count == 1 || comm != 'init'", &h));
	assert_true(matches("ret < 0", &h));
	assert_true(matches("ret == -22", &h));
	assert_false(matches("ret >= 0", &h));
	assert_true(matches("ret <= -22 && ret > -23", &h));
	assert_true(matches("flags & 4", &h));
	assert_false(matches("flags & 2", &h));
	assert_true(matches("path ~ \"/etc/*\"", &h));
	assert_false(matches("path ~ \"/proc/*\"", &h));
	assert_true(matches("path == \"/etc/hostname\"", &h));
	assert_true(matches("!(path ~ \"*passwd\")", &h));
	assert_true(matches("(ret < 0 || count == 1) && !(cpu != 2)", &h));
	assert_true(matches("common_pid == 7", &h));
	assert_true(matches("count == 0x1000", &h));
	/* && before ||, as in C: a || (b && c). */
	assert_true(matches("count == 4096 || count == 1 && ret == 0", &h));
	assert_false(matches("(count == 4096 || count == 1) && ret == 0", &h));
	assert_true(matches("!!(count == 4096)", &h));
	/* A string field whose bytes are not all in the record is "". */
	h.len = 26;
	assert_true(matches("path == \"\"", &h));
}

static const struct {
	const char *text;	/* a '^' where the error is */
	enum filter_error err;
} refusals[] = {
	{ "nosuch^ == 1", FILTER_ERR_FIELD_NOT_FOUND },
	{ "count ^=> 1", FILTER_ERR_INVALID_OP },
	{ "count == ^abc", FILTER_ERR_INVALID_VALUE },
	{ "path == ^12", FILTER_ERR_EXPECT_STRING },
	{ "count == ^\"12\"", FILTER_ERR_EXPECT_DIGIT },
	{ "path < ^\"a\"", FILTER_ERR_ILLEGAL_FIELD_OP },
	{ "count ~ ^12", FILTER_ERR_ILLEGAL_FIELD_OP },
	{ "path == \"abc^", FILTER_ERR_MISSING_QUOTE },
	{ "count == ^12x", FILTER_ERR_ILLEGAL_INTVAL },
	{ "^(count == 1", FILTER_ERR_TOO_MANY_OPEN },
	{ "count == 1^)", FILTER_ERR_TOO_MANY_CLOSE },
	{ "count == 1 ^count == 2", FILTER_ERR_INVALID_FILTER },
	{ "count == 1 && ^", FILTER_ERR_INVALID_FILTER },
	{ "^", FILTER_ERR_NO_FILTER },
};

static void test_refusals(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(refusals); i++) {
		const char *caret = strchr(refusals[i].text, '^');
		size_t at = (size_t)(caret - refusals[i].text), pos;
		char text[128];
		struct event_filter *f = NULL;
		enum filter_error err;
		int ret;

		snprintf(text, sizeof(text), "%.*s%s", (int)at, refusals[i].text, caret + 1);
		ret = event_filter_parse(text, filter_host_lookup, NULL, &f, &err, &pos);
		if (ret != -EINVAL || err != refusals[i].err || pos != at)
			print_error("%s: %d, %s at %zu\n", refusals[i].text, ret, filter_error_text(err),
				    pos);
		assert_int_equal(ret, -EINVAL);
		assert_int_equal(err, refusals[i].err);
		assert_int_equal(pos, at);
	}
}

static void test_limits(void **state)
{
	char text[8192];
	struct event_filter *f;
	enum filter_error err;
	size_t n = 0, pos;

	(void)state;
	/* FILTER_TERMS_MAX terms are taken, one more is not. */
	for (int i = 0; i < FILTER_TERMS_MAX; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%scount == %d", i ? " || " : "", i);
	assert_int_equal(event_filter_parse(text, filter_host_lookup, NULL, &f, &err, &pos), 0);
	event_filter_free(f);
	snprintf(text + n, sizeof(text) - n, " || count == 1");
	assert_int_equal(event_filter_parse(text, filter_host_lookup, NULL, &f, &err, &pos), -EINVAL);
	assert_int_equal(err, FILTER_ERR_TOO_MANY_PREDS);
	/* Nesting is bounded, so the parser's recursion is. */
	memset(text, '(', 4000);
	snprintf(text + 4000, sizeof(text) - 4000, "count == 1");
	assert_int_equal(event_filter_parse(text, filter_host_lookup, NULL, &f, &err, &pos), -EINVAL);
	assert_int_equal(err, FILTER_ERR_TOO_MANY_OPEN);
	memset(text, '!', 4000);
	assert_int_equal(event_filter_parse(text, filter_host_lookup, NULL, &f, &err, &pos), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matching),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
