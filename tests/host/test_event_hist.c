/* Host tests for histogram triggers: their text (kernel/trace/hist_parse.c)
 * over the made-up event of filter_fields_host.h, taken and refused with
 * Linux's errors and positions; log2 buckets; key packing; and the
 * per-CPU tables (kernel/trace/hist_map.c) merged, sorted and full. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "tests/host/filter_fields_host.h"
#include "kernel/mm/heap.h"
#include "kernel/trace/hist_map.h"
#include "kernel/trace/hist_parse.h"
#include "kernel/trace/probe_types.h"
#include "lib/errno.h"
#include "lib/string.h"

static uint8_t body[64];

static struct filter_hit hit_of(uint64_t count, int32_t ret, const char *path, unsigned int cpu)
{
	uint32_t loc = probe_data_loc(strlen(path) + 1, 24);

	memset(body, 0, sizeof(body));
	memcpy(body, &count, 8);
	memcpy(body + 8, &ret, 4);
	memcpy(body + 16, &loc, 4);
	memcpy(body + 24, path, strlen(path) + 1);
	return (struct filter_hit){ .body = body, .len = sizeof(body), .comm = "shell", .cpu = cpu,
				    .pid = 7 };
}

static void parse_ok(const char *text, struct hist_def *def)
{
	enum hist_error err;
	size_t pos;

	if (hist_parse(text, strlen(text), filter_host_lookup, NULL, def, &err, &pos))
		print_error("refused: %s (%s at %zu)\n", text, hist_error_text(err), pos);
	assert_int_equal(hist_parse(text, strlen(text), filter_host_lookup, NULL, def, &err, &pos), 0);
}

static void shows(const char *text, const char *want)
{
	struct hist_def def;
	char buf[256];

	parse_ok(text, &def);
	hist_def_show(&def, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_taken(void **state)
{
	struct hist_def def;

	(void)state;
	parse_ok("keys=count.log2", &def);
	assert_int_equal(def.nr_keys, 1);
	assert_int_equal(def.keys[0].mod, HIST_MOD_LOG2);
	assert_int_equal(def.nr_vals, 0);
	assert_int_equal(def.nr_sort, 1);
	assert_int_equal(def.sort[0].what, HIST_SORT_HITCOUNT);
	assert_int_equal(def.bits, HIST_BITS_DEFAULT);
	assert_int_equal(def.key_size, 8);
	parse_ok("keys=path,cpu:pause", &def);
	assert_int_equal(def.key_size, HIST_STRING_MAX + 8);
	assert_int_equal(def.keys[1].offset, HIST_STRING_MAX);
	assert_true(def.pause);
	parse_ok("keys=count:size=100:cont:clear", &def);
	assert_int_equal(def.bits, 7);
	assert_true(def.cont && def.clear);
	shows("keys=count.log2", "hist:keys=count.log2:vals=hitcount:sort=hitcount:size=2048");
	shows("key=common_pid.execname,ret:vals=count.hex,hitcount:sort=count.descending,ret:size=200",
	      "hist:keys=common_pid.execname,ret:vals=hitcount,count.hex"
	      ":sort=count.hex.descending,ret:size=256");
	shows("keys=count.log2:sort=count.log2.descending",
	      "hist:keys=count.log2:vals=hitcount:sort=count.log2.descending:size=2048");
	shows("keys=count.buckets=32:sort=count.buckets=32",
	      "hist:keys=count.buckets=32:vals=hitcount:sort=count.buckets=32:size=2048");
	shows("values=hitcount:keys=count.buckets=32:sort=hitcount.ascending",
	      "hist:keys=count.buckets=32:vals=hitcount:sort=hitcount:size=2048");
	shows("keys=common_cpu.hex,ret.sym-offset,flags.sym:size=131072",
	      "hist:keys=common_cpu.hex,ret.sym-offset,flags.sym:vals=hitcount:sort=hitcount"
	      ":size=131072");
}

static void test_refused(void **state)
{
	static const struct {
		const char *text;
		enum hist_error err;
		size_t pos;
	} bad[] = {
		{ "keys=nosuch", HIST_ERR_FIELD_NOT_FOUND, 5 },
		{ "keys=comm", HIST_ERR_FIELD_NOT_FOUND, 5 },
		{ "keys=count,", HIST_ERR_FIELD_NOT_FOUND, 11 },
		{ "keys=.hex", HIST_ERR_FIELD_NOT_FOUND, 5 },
		{ "keys=count.foo", HIST_ERR_BAD_FIELD_MODIFIER, 11 },
		{ "keys=ret.execname", HIST_ERR_BAD_FIELD_MODIFIER, 9 },
		{ "keys=path.hex", HIST_ERR_BAD_FIELD_MODIFIER, 10 },
		{ "keys=count.buckets=0", HIST_ERR_BAD_FIELD_MODIFIER, 11 },
		{ "keys=count.buckets", HIST_ERR_BAD_FIELD_MODIFIER, 11 },
		{ "keys=count.hex=2", HIST_ERR_BAD_FIELD_MODIFIER, 11 },
		{ "keys=", HIST_ERR_EMPTY_ASSIGNMENT, 0 },
		{ "keys=count:vals=", HIST_ERR_EMPTY_ASSIGNMENT, 11 },
		{ "vals=count", HIST_ERR_NO_KEYS, 0 },
		{ "keys=count:vals=path", HIST_ERR_INVALID_STR_OPERAND, 16 },
		{ "keys=count:vals=count.log2", HIST_ERR_BAD_FIELD_MODIFIER, 22 },
		{ "keys=count,ret,flags,cpu", HIST_ERR_TOO_MANY_KEYS, 21 },
		{ "keys=count:vals=ret,flags,cpu", HIST_ERR_TOO_MANY_VALS, 26 },
		{ "keys=count:sort=nosuch", HIST_ERR_INVALID_SORT_FIELD, 16 },
		{ "keys=count:sort=count.up", HIST_ERR_INVALID_SORT_MODIFIER, 22 },
		{ "keys=count:sort=count,hitcount,ret", HIST_ERR_TOO_MANY_SORT_FIELDS, 11 },
		{ "keys=count:sort=,count", HIST_ERR_EMPTY_SORT_FIELD, 11 },
		{ "keys=count:sort=.descending", HIST_ERR_EMPTY_SORT_FIELD, 11 },
		{ "keys=count:size=64", HIST_ERR_BAD_SIZE, 16 },
		{ "keys=count:size=200000", HIST_ERR_BAD_SIZE, 16 },
		{ "keys=count:size=x", HIST_ERR_BAD_SIZE, 16 },
		{ "keys=count:name=foo", HIST_ERR_NOT_AVAILABLE, 11 },
		{ "keys=count:x=count", HIST_ERR_NOT_AVAILABLE, 11 },
		{ "keys=count:onmax($x).save(count)", HIST_ERR_NOT_AVAILABLE, 11 },
		{ "keys=count:", HIST_ERR_NOT_AVAILABLE, 11 },
	};
	struct hist_def def;
	enum hist_error err;
	size_t pos;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = hist_parse(bad[i].text, strlen(bad[i].text), filter_host_lookup, NULL, &def,
				     &err, &pos);

		if (ret != -EINVAL || err != bad[i].err || pos != bad[i].pos)
			print_error("%s: %d, %s at %zu\n", bad[i].text, ret, hist_error_text(err), pos);
		assert_int_equal(ret, -EINVAL);
		assert_int_equal(err, bad[i].err);
		assert_int_equal(pos, bad[i].pos);
	}
	assert_string_equal(hist_error_text(HIST_ERR_FIELD_NOT_FOUND), "Couldn't find field");
}

static void test_same(void **state)
{
	struct hist_def a, b;

	(void)state;
	parse_ok("keys=count.log2:size=128", &a);
	parse_ok("key=count.log2:pause", &b);
	assert_true(hist_def_same(&a, &b));
	parse_ok("keys=count", &b);
	assert_false(hist_def_same(&a, &b));
	parse_ok("keys=count.log2:sort=hitcount.descending", &b);
	assert_false(hist_def_same(&a, &b));
}

static void test_log2(void **state)
{
	static const struct {
		uint64_t v;
		unsigned int bits;
	} cases[] = {
		{ 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 2 }, { 4, 2 }, { 5, 3 }, { 512, 9 }, { 513, 10 },
		{ 1ull << 63, 63 }, { (1ull << 63) + 1, 64 }, { UINT64_MAX, 64 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(hist_log2(cases[i].v), cases[i].bits);
}

static void test_pack_key(void **state)
{
	struct hist_def def;
	uint8_t a[HIST_KEYS_MAX * HIST_STRING_MAX], b[sizeof(a)];
	struct filter_hit h;
	uint64_t v;

	(void)state;
	parse_ok("keys=count.log2,path,ret", &def);
	h = hit_of(512, -5, "/etc/hostname", 0);
	memset(a, 0xaa, sizeof(a));
	hist_pack_key(&def, &h, a);
	memcpy(&v, a, 8);
	assert_int_equal(v, 9);
	assert_string_equal((const char *)a + 8, "/etc/hostname");
	for (size_t i = 8 + strlen("/etc/hostname"); i < 8 + HIST_STRING_MAX; i++)
		assert_int_equal(a[i], 0);
	memcpy(&v, a + 8 + HIST_STRING_MAX, 8);
	assert_int_equal((int64_t)v, -5);
	h = hit_of(300, -5, "/etc/hostname", 0);	/* also 2^9 */
	memset(b, 0x55, sizeof(b));
	hist_pack_key(&def, &h, b);
	assert_memory_equal(a, b, def.key_size);
	h = hit_of(512, -5, "/etc/passwd", 0);
	hist_pack_key(&def, &h, b);
	assert_memory_not_equal(a, b, def.key_size);
	parse_ok("keys=count.buckets=100:vals=ret", &def);
	h = hit_of(250, -3, "", 0);
	hist_pack_key(&def, &h, a);
	memcpy(&v, a, 8);
	assert_int_equal(v, 200);
	assert_int_equal((int64_t)hist_val_of(&def, 0, &h), -3);
}

/* Hit def's map on cpu with count and ret. */
static void add(struct hist_map *map, const struct hist_def *def, unsigned int cpu,
		uint64_t count, int32_t ret)
{
	struct filter_hit h = hit_of(count, ret, "x", cpu);
	uint8_t key[HIST_KEYS_MAX * HIST_STRING_MAX];
	uint64_t vals[HIST_VALS_MAX];

	hist_pack_key(def, &h, key);
	for (unsigned int i = 0; i < def->nr_vals; i++)
		vals[i] = hist_val_of(def, i, &h);
	hist_map_add(map, cpu, key, vals, h.comm);
}

static uint64_t key_of(const struct hist_entry *e)
{
	uint64_t v;

	memcpy(&v, e->key, 8);
	return v;
}

static void test_map_merge(void **state)
{
	struct hist_merged m;
	struct hist_def def;
	struct hist_map *map;

	(void)state;
	parse_ok("keys=count.log2:vals=ret", &def);
	map = hist_map_new(&def, 3);
	assert_non_null(map);
	add(map, &def, 0, 512, 1);	/* 2^9 on three CPUs */
	add(map, &def, 1, 400, 2);
	add(map, &def, 2, 300, 3);
	add(map, &def, 2, 260, 4);
	add(map, &def, 1, 8, 10);	/* 2^3 once */
	add(map, &def, 0, 4096, 20);	/* 2^12 twice */
	add(map, &def, 2, 4000, 30);
	assert_int_equal(hist_map_merge(map, &def, &m), 0);
	assert_int_equal(m.n, 3);
	assert_int_equal(m.hits, 7);
	assert_int_equal(m.drops, 0);
	/* By hitcount, ascending. */
	assert_int_equal(key_of(&m.entries[0]), 3);
	assert_int_equal(m.entries[0].sums[0], 1);
	assert_int_equal(m.entries[0].sums[1], 10);
	assert_int_equal(key_of(&m.entries[1]), 12);
	assert_int_equal(m.entries[1].sums[0], 2);
	assert_int_equal(m.entries[1].sums[1], 50);
	assert_int_equal(key_of(&m.entries[2]), 9);
	assert_int_equal(m.entries[2].sums[0], 4);
	assert_int_equal(m.entries[2].sums[1], 10);
	assert_null(m.entries[0].comm);
	kfree(m.entries);
	hist_map_free(map);

	/* By the key, descending, with the thread's name kept. */
	parse_ok("keys=count,common_pid.execname:sort=count.descending", &def);
	map = hist_map_new(&def, 2);
	add(map, &def, 0, 5, 0);
	add(map, &def, 1, 70, 0);
	add(map, &def, 1, 5, 0);
	assert_int_equal(hist_map_merge(map, &def, &m), 0);
	assert_int_equal(m.n, 2);
	assert_int_equal(key_of(&m.entries[0]), 70);
	assert_int_equal(key_of(&m.entries[1]), 5);
	assert_int_equal(m.entries[1].sums[0], 2);
	assert_string_equal(m.entries[0].comm, "shell");
	kfree(m.entries);
	hist_map_free(map);
}

static void test_map_full(void **state)
{
	struct hist_merged m;
	struct hist_def def;
	struct hist_map *map;

	(void)state;
	parse_ok("keys=count:size=128", &def);
	map = hist_map_new(&def, 2);
	for (uint64_t k = 0; k < 200; k++)
		add(map, &def, 0, k, 0);
	for (uint64_t k = 0; k < 10; k++)	/* known keys still count */
		add(map, &def, 0, k, 0);
	add(map, &def, 1, 1000, 0);		/* another CPU has room */
	assert_int_equal(hist_map_merge(map, &def, &m), 0);
	assert_int_equal(m.n, 129);
	assert_int_equal(m.hits, 211);
	assert_int_equal(m.drops, 72);
	kfree(m.entries);
	hist_map_free(map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_taken),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_log2),
		cmocka_unit_test(test_pack_key),
		cmocka_unit_test(test_map_merge),
		cmocka_unit_test(test_map_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
