/* Host tests for the words of tracefs's list files (kernel/trace/
 * tracefs_words.c), however the writes split them, for the thread ids
 * set_ftrace_pid reads from them (kernel/trace/pid_list.c), and for the
 * sorted sets they gather into (kernel/trace/sorted_set.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/mm/heap.h"
#include "kernel/trace/pid_list.h"
#include "kernel/trace/tracefs_words.h"
#include "lib/errno.h"
#include "lib/sorted.h"
#include "lib/string.h"

void *kmalloc(size_t size)
{
	return malloc(size ? size : 1);
}

void kfree(void *p)
{
	free(p);
}

/* The words handed over, each followed by '|'. */
struct seen {
	char text[2048];
	size_t len;
	int fail_at;		/* fail the word of that number (from 1) with -EINVAL */
	int words;
};

static int see(void *arg, const char *word, size_t len)
{
	struct seen *s = arg;

	if (++s->words == s->fail_at)
		return -EINVAL;
	memcpy(s->text + s->len, word, len);
	s->len += len;
	s->text[s->len++] = '|';
	s->text[s->len] = '\0';
	return 0;
}

/* Write text in pieces of step bytes, then close. */
static const char *cut(const char *text, size_t step, struct seen *s)
{
	struct tracefs_words w = { 0 };
	size_t n = strlen(text);

	for (size_t at = 0; at < n; at += step) {
		size_t len = n - at < step ? n - at : step;

		assert_int_equal(tracefs_words_write(&w, text + at, len, see, s), (ssize_t)len);
	}
	assert_int_equal(tracefs_words_end(&w, see, s), 0);
	return s->text;
}

static void test_words_however_split(void **state)
{
	(void)state;
	for (size_t step = 1; step <= 24; step++) {
		struct seen s = { .len = 0 };

		assert_string_equal(cut("  vfs_read\tramfs_*\n\n!kfree \r\n12", step, &s),
				    "vfs_read|ramfs_*|!kfree|12|");
	}
	struct seen none = { .len = 0 };

	assert_string_equal(cut(" \n\t ", 1, &none), "");
	assert_int_equal(none.words, 0);
}

static void test_too_long_word(void **state)
{
	char text[TRACEFS_WORD_MAX + 40];
	struct seen s = { .len = 0 };

	(void)state;
	memset(text, 'a', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	/* Handed over as its first TRACEFS_WORD_MAX + 1 bytes. */
	cut(text, 7, &s);
	assert_int_equal(s.len, TRACEFS_WORD_MAX + 2);
}

static void test_error_stops_writes(void **state)
{
	struct tracefs_words w = { 0 };
	struct seen s = { .fail_at = 2 };

	(void)state;
	assert_int_equal(tracefs_words_write(&w, "a b c", 5, see, &s), -EINVAL);
	assert_int_equal(tracefs_words_write(&w, " d ", 3, see, &s), -EINVAL);
	assert_int_equal(tracefs_words_end(&w, see, &s), -EINVAL);
	assert_string_equal(s.text, "a|");
}

static int add(void *arg, const char *word, size_t len)
{
	return pid_list_add_word(arg, word, len);
}

static void test_pid_list(void **state)
{
	static const uintptr_t want[] = { 0, 1, 3, 16, 42, PID_LIST_MAX_ID };
	struct sorted_set l = { 0 };
	struct tracefs_words w = { 0 };
	const char *text = "42 3 0x10 1 3 0 42 1073741823";

	(void)state;
	assert_int_equal(tracefs_words_write(&w, text, strlen(text), add, &l), (ssize_t)strlen(text));
	assert_int_equal(tracefs_words_end(&w, add, &l), 0);
	assert_int_equal(l.count, sizeof(want) / sizeof(want[0]));
	assert_memory_equal(l.v, want, sizeof(want));
	assert_true(sorted_have(l.v, l.count, 16));
	assert_false(sorted_have(l.v, l.count, 2));
	assert_false(sorted_have(l.v, l.count, PID_LIST_MAX_ID + 1));
	kfree(l.v);
}

static void test_pid_refusals(void **state)
{
	static const char *const bad[] = {
		"-1", "1x", "x", "1073741824", "99999999999999999999999", "0x", "+5", "1.5",
	};
	struct sorted_set l = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(pid_list_add_word(&l, bad[i], strlen(bad[i])), -EINVAL);
	assert_int_equal(pid_list_add_word(&l, "1\0", 2), -EINVAL);
	assert_int_equal(l.count, 0);
	/* Many ids, in an order that moves every one on each insertion. */
	for (uintptr_t id = 1000; id > 0; id--)
		assert_int_equal(sorted_set_add(&l, id), 0);
	assert_int_equal(l.count, 1000);
	for (unsigned int i = 0; i < 1000; i++)
		assert_int_equal(l.v[i], i + 1);
	sorted_set_drop(&l, 1);
	sorted_set_drop(&l, 500);
	sorted_set_drop(&l, 1000);
	sorted_set_drop(&l, 1001);	/* not there */
	assert_int_equal(l.count, 997);
	assert_int_equal(l.v[0], 2);
	assert_int_equal(l.v[498], 501);
	assert_int_equal(l.v[996], 999);
	kfree(l.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words_however_split),
		cmocka_unit_test(test_too_long_word),
		cmocka_unit_test(test_error_stops_writes),
		cmocka_unit_test(test_pid_list),
		cmocka_unit_test(test_pid_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
