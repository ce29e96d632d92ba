/* Fuzz target "event_hist": the attributes of a hist trigger (what
 * follows "hist:" in an event's trigger file, kernel/trace/hist_parse.c)
 * over the made-up event of tests/host/filter_fields_host.h, and the
 * table (kernel/trace/hist_map.c) fed one hit made of the input's bytes.
 *
 * A text refused must say why, at a place inside it (or at its end). A
 * text taken must have one to three keys packed end to end, at most two
 * values besides hitcount, one or two sort keys that name what there
 * is, a size in Linux's range, and must read the same again from the
 * form the trigger file shows; a hit's key must pack the same way
 * twice, and land in the table as one entry. The record is allocated
 * to its exact size, so that ASan sees a read past it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_event_hist.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

#include "tests/host/rename.h"
#include "tests/host/filter_fields_host.h"
#include "kernel/mm/heap.h"
#include "kernel/trace/hist_map.h"
#include "kernel/trace/hist_parse.h"
#include "lib/errno.h"
#include "lib/string.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_def(const struct hist_def *def)
{
	unsigned int offset = 0;

	CHECK(def->nr_keys >= 1 && def->nr_keys <= HIST_KEYS_MAX);
	CHECK(def->nr_vals <= HIST_VALS_MAX);
	CHECK(def->nr_sort >= 1 && def->nr_sort <= HIST_SORT_MAX);
	CHECK(def->bits >= HIST_BITS_MIN && def->bits <= HIST_BITS_MAX);
	for (unsigned int i = 0; i < def->nr_keys; i++) {
		CHECK(def->keys[i].offset == offset);
		offset += def->keys[i].size;
	}
	CHECK(def->key_size == offset && offset <= HIST_KEYS_MAX * HIST_STRING_MAX);
	for (unsigned int i = 0; i < def->nr_sort; i++) {
		uint8_t what = def->sort[i].what;

		CHECK(what == HIST_SORT_HITCOUNT ||
		      (what >= HIST_SORT_VAL(0) && what < HIST_SORT_VAL(def->nr_vals)) ||
		      (what >= HIST_SORT_KEY(0) && what < HIST_SORT_KEY(def->nr_keys)));
	}
}

/* def written as the trigger file shows it, read again. */
static void check_round_trip(const struct hist_def *def)
{
	struct hist_def again;
	enum hist_error err;
	char text[1024];
	size_t pos;

	hist_def_show(def, text, sizeof(text));
	CHECK(!strncmp(text, "hist:", 5));
	CHECK(hist_parse(text + 5, strlen(text + 5), filter_host_lookup, NULL, &again, &err,
			 &pos) == 0);
	CHECK(hist_def_same(def, &again) && again.bits == def->bits);
}

/* One hit of a record of the input's bytes, packed twice and counted. */
static void check_hit(struct hist_def *def, const uint8_t *data, size_t size)
{
	uint8_t *rec = malloc(size ? size : 1), a[HIST_KEYS_MAX * HIST_STRING_MAX], b[sizeof(a)];
	struct filter_hit hit = { .body = rec, .len = size, .comm = "fuzz", .cpu = 1, .pid = 3 };
	uint64_t vals[HIST_VALS_MAX];
	struct hist_merged merged;
	struct hist_map *map;

	memcpy(rec, data, size);
	memset(a, 1, sizeof(a));
	memset(b, 2, sizeof(b));
	hist_pack_key(def, &hit, a);
	hist_pack_key(def, &hit, b);
	CHECK(!memcmp(a, b, def->key_size));
	for (unsigned int i = 0; i < def->nr_vals; i++)
		vals[i] = hist_val_of(def, i, &hit);
	def->bits = HIST_BITS_MIN;	/* the table's size is not what is tested */
	map = hist_map_new(def, 2);
	CHECK(map != NULL);
	hist_map_add(map, 1, a, vals, hit.comm);
	hist_map_add(map, 1, b, vals, hit.comm);
	CHECK(hist_map_merge(map, def, &merged) == 0);
	CHECK(merged.n == 1 && merged.hits == 2 && merged.drops == 0 && merged.entries[0].sums[0] == 2);
	kfree(merged.entries);
	hist_map_free(map);
	free(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hist_def def;
	enum hist_error err;
	size_t pos;

	if (hist_parse((const char *)data, size, filter_host_lookup, NULL, &def, &err, &pos)) {
		CHECK(err != HIST_ERR_NONE && pos <= size);
		return 0;
	}
	check_def(&def);
	check_round_trip(&def);
	check_hit(&def, data, size);
	return 0;
}
