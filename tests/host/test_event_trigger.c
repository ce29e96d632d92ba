/* Host tests for the text of event triggers (kernel/trace/event_trigger.c):
 * each command with and without a count and a filter, removal, and the
 * texts Linux refuses too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/trace/event_trigger.h"
#include "lib/errno.h"
#include "lib/string.h"

static void test_taken(void **state)
{
	struct trigger_spec s;

	(void)state;
	assert_int_equal(trigger_parse("traceoff", &s), 0);
	assert_int_equal(s.cmd, TRIGGER_TRACEOFF);
	assert_int_equal(s.count, -1);
	assert_false(s.remove);
	assert_null(s.filter);
	assert_int_equal(trigger_parse("traceon:5", &s), 0);
	assert_int_equal(s.cmd, TRIGGER_TRACEON);
	assert_int_equal(s.count, 5);
	assert_int_equal(trigger_parse("stacktrace:2 if count > 100 && comm == \"sh\"", &s), 0);
	assert_int_equal(s.cmd, TRIGGER_STACKTRACE);
	assert_int_equal(s.count, 2);
	assert_string_equal(s.filter, "count > 100 && comm == \"sh\"");
	assert_int_equal(trigger_parse("!traceoff:5", &s), 0);
	assert_true(s.remove);
	assert_int_equal(trigger_parse("enable_event:kprobes:myret:1 if ret < 0", &s), 0);
	assert_int_equal(s.cmd, TRIGGER_ENABLE_EVENT);
	assert_string_equal(s.system, "kprobes");
	assert_string_equal(s.event, "myret");
	assert_int_equal(s.count, 1);
	assert_string_equal(s.filter, "ret < 0");
	assert_int_equal(trigger_parse("  disable_event:g:e", &s), 0);
	assert_int_equal(s.cmd, TRIGGER_DISABLE_EVENT);
	assert_int_equal(s.count, -1);
	assert_string_equal(trigger_cmd_name(TRIGGER_ENABLE_EVENT), "enable_event");
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"", "!", "snapshot", "traceof", "traceoff:", "traceoff:x", "traceoff:-1",
		"traceoff if", "traceoff if ", "traceoff iff count > 1", "traceoff junk",
		"enable_event", "enable_event:kprobes", "enable_event:kprobes:", "enable_event::e",
		"traceoff:1:2",
	};
	struct trigger_spec s;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		if (trigger_parse(bad[i], &s) != -EINVAL)
			print_error("taken: %s\n", bad[i]);
		assert_int_equal(trigger_parse(bad[i], &s), -EINVAL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_taken),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
