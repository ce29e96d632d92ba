/* Host tests for kernel/trace/ring.c, one thread: records come back as written,
 * across the end of the memory (padding) and after the writer has
 * overwritten the oldest, with the counts to match. The writer and a
 * reader at once are tests/host/test_ring_threads.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/trace/ring.h"

/* The smallest ring ring_init takes: room for two of the longest records. */
#define RING_BYTES (2 * (16 + RING_DATA_MAX))

static uint64_t mem[RING_BYTES / 8];
static struct ring ring;

static void fresh(void)
{
	ring_init(&ring, mem, sizeof(mem));
}

/* Record n: type 1 + n % 3, time 1000 + n, n % 40 bytes of data, byte i
 * being n + i. */
static void write_nth(uint32_t n)
{
	unsigned char data[64];
	size_t len = n % 40;

	for (size_t i = 0; i < len; i++)
		data[i] = (unsigned char)(n + i);
	assert_int_equal(ring_write(&ring, (uint16_t)(1 + n % 3), 1000 + n, data, len), 0);
}

static void expect_nth(const struct ring_entry *e, uint32_t n)
{
	const unsigned char *data = (const unsigned char *)e->data;

	assert_int_equal(e->type, 1 + n % 3);
	assert_int_equal(e->time, 1000 + n);
	assert_int_equal(e->len, n % 40);
	for (size_t i = 0; i < e->len; i++)
		assert_int_equal(data[i], (unsigned char)(n + i));
}

static void test_an_empty_ring_has_nothing(void **state)
{
	struct ring_entry e;
	uint64_t pos = 0;

	(void)state;
	fresh();
	assert_int_equal(ring_read(&ring, &pos, &e), 0);
	assert_int_equal(pos, 0);
	assert_int_equal(ring_written(&ring), 0);
}

static void test_records_come_back_in_order(void **state)
{
	struct ring_entry e;
	uint64_t pos = 0;

	(void)state;
	fresh();
	for (uint32_t n = 0; n < 10; n++)
		write_nth(n);
	for (uint32_t n = 0; n < 10; n++) {
		assert_int_equal(ring_read(&ring, &pos, &e), 1);
		expect_nth(&e, n);
	}
	assert_int_equal(ring_read(&ring, &pos, &e), 0);
	assert_int_equal(pos, ring_end(&ring));
	/* A reader that kept its place sees only what came after. */
	write_nth(10);
	assert_int_equal(ring_read(&ring, &pos, &e), 1);
	expect_nth(&e, 10);
	assert_int_equal(ring_written(&ring), 11);
	assert_int_equal(ring_overrun(&ring), 0);
}

/* Many times round the ring: a reader from the start gets the oldest
 * whole record, then every later one, and the counts add up. */
static void test_a_full_ring_overwrites_the_oldest(void **state)
{
	const uint32_t total = 1000;
	struct ring_entry e;
	uint64_t pos = 0;
	uint32_t first = 0, kept = 0;

	(void)state;
	fresh();
	for (uint32_t n = 0; n < total; n++)
		write_nth(n);
	assert_int_equal(ring_read(&ring, &pos, &e), 1);
	first = (uint32_t)(e.time - 1000);
	assert_true(first > 0);
	for (uint32_t n = first; ; n++) {
		expect_nth(&e, n);
		kept++;
		if (ring_read(&ring, &pos, &e) == 0)
			break;
	}
	assert_int_equal(first + kept, total);
	assert_int_equal(ring_written(&ring), total);
	assert_int_equal(ring_overrun(&ring), first);
	assert_true(ring_end(&ring) - ring_oldest(&ring) <= RING_BYTES);
}

/* A reader left behind (its position overwritten) goes on from the
 * oldest record still whole, never from inside one. */
static void test_a_reader_left_behind_skips_ahead(void **state)
{
	struct ring_entry e;
	uint64_t pos = 0;

	(void)state;
	fresh();
	write_nth(0);
	assert_int_equal(ring_read(&ring, &pos, &e), 1);
	for (uint32_t n = 1; n < 500; n++)
		write_nth(n);
	assert_int_equal(ring_read(&ring, &pos, &e), 1);
	assert_int_equal(e.pos, ring_oldest(&ring));
	expect_nth(&e, (uint32_t)(e.time - 1000));
}

/* Records of every length meet the end of the memory at every offset:
 * each wraps whole, behind a padding record (even one word of it). */
static void test_records_never_wrap_torn(void **state)
{
	unsigned char data[RING_DATA_MAX];
	struct ring_entry e;

	(void)state;
	for (size_t len = 0; len <= 200; len += 7) {
		uint64_t pos = 0;

		fresh();
		for (uint32_t n = 0; n < 300; n++) {
			memset(data, (int)n, len);
			assert_int_equal(ring_write(&ring, 1, n, data, len), 0);
			assert_int_equal(ring_read(&ring, &pos, &e), 1);
			assert_int_equal(e.time, n);
			assert_int_equal(e.len, len);
			for (size_t i = 0; i < len; i++)
				assert_int_equal(((unsigned char *)e.data)[i], (unsigned char)n);
		}
	}
}

static void test_a_record_too_long_is_refused(void **state)
{
	static unsigned char data[RING_DATA_MAX + 1];
	struct ring_entry e;
	uint64_t pos = 0;

	(void)state;
	fresh();
	assert_int_equal(ring_write(&ring, 1, 0, data, sizeof(data)), -E2BIG);
	assert_int_equal(ring_written(&ring), 0);
	assert_int_equal(ring_write(&ring, 1, 0, data, RING_DATA_MAX), 0);
	assert_int_equal(ring_read(&ring, &pos, &e), 1);
	assert_int_equal(e.len, RING_DATA_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_an_empty_ring_has_nothing),
		cmocka_unit_test(test_records_come_back_in_order),
		cmocka_unit_test(test_a_full_ring_overwrites_the_oldest),
		cmocka_unit_test(test_a_reader_left_behind_skips_ahead),
		cmocka_unit_test(test_records_never_wrap_torn),
		cmocka_unit_test(test_a_record_too_long_is_refused),
	};

	return cmocka_run_group_tests_name("test_ring", tests, NULL, NULL);
}
