/* A histogram's per-CPU tables, and their merge (hist_map.h). */
#include "kernel/trace/hist_map.h"
#include "kernel/mm/heap.h"
#include "lib/errno.h"
#include "lib/sort.h"
#include "lib/string.h"

struct hist_table {
	uint64_t hits, drops;		/* written by its CPU alone */
	unsigned int used;		/* slots taken, at most 1 << bits */
	uint64_t slots[];		/* 2 << bits of them, slot_size bytes each */
};

/* A slot: a word that says it is taken, the sums (hitcount first), the
 * thread's name if the map keeps names, then the key. */
#define SLOT_USED 0
#define SLOT_SUMS 8

static uint8_t *notrace slot_at(const struct hist_map *map, const struct hist_table *t, size_t i)
{
	return (uint8_t *)t->slots + i * map->slot_size;
}

static char *notrace slot_comm(const struct hist_map *map, uint8_t *slot)
{
	return (char *)slot + SLOT_SUMS + 8 * map->nr_sums;
}

static uint8_t *notrace slot_key(const struct hist_map *map, uint8_t *slot)
{
	return (uint8_t *)slot_comm(map, slot) + (map->comm ? HIST_COMM_LEN : 0);
}

struct hist_map *hist_map_new(const struct hist_def *def, unsigned int nr_cpus)
{
	struct hist_map *map = kzalloc(sizeof(*map) + nr_cpus * sizeof(map->cpu[0]));

	if (!map)
		return NULL;
	map->bits = def->bits;
	map->nr_cpus = nr_cpus;
	map->key_size = def->key_size;
	map->nr_sums = 1 + def->nr_vals;
	for (unsigned int i = 0; i < def->nr_keys; i++)
		map->comm |= def->keys[i].mod == HIST_MOD_EXECNAME;
	map->slot_size = SLOT_SUMS + 8 * map->nr_sums + (map->comm ? HIST_COMM_LEN : 0) +
			 map->key_size;
	for (unsigned int c = 0; c < nr_cpus; c++) {
		map->cpu[c] = kzalloc(sizeof(struct hist_table) +
				      ((size_t)2 << map->bits) * map->slot_size);
		if (!map->cpu[c]) {
			hist_map_free(map);
			return NULL;
		}
	}
	return map;
}

void hist_map_free(struct hist_map *map)
{
	if (!map)
		return;
	for (unsigned int c = 0; c < map->nr_cpus; c++)
		kfree(map->cpu[c]);
	kfree(map);
}

/* Where a key's probe starts: its words mixed. */
static size_t notrace hash_of(const uint8_t *key, unsigned int size)
{
	uint64_t h = 0;

	for (unsigned int i = 0; i < size; i += 8) {
		uint64_t w;

		memcpy(&w, key + i, sizeof(w));
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	return (size_t)h;
}

/* A sum only this CPU writes, which others read whole. */
static void notrace add_to(uint64_t *sum, uint64_t v)
{
	__atomic_store_n(sum, *sum + v, __ATOMIC_RELAXED);
}

void notrace hist_map_add(struct hist_map *map, unsigned int cpu, const uint8_t *key,
			  const uint64_t *vals, const char *comm)
{
	struct hist_table *t = map->cpu[cpu];
	size_t mask = ((size_t)2 << map->bits) - 1;

	add_to(&t->hits, 1);
	/* At most half the slots are taken: an empty one ends every probe. */
	for (size_t i = hash_of(key, map->key_size) & mask;; i = (i + 1) & mask) {
		uint8_t *slot = slot_at(map, t, i);
		uint64_t *sums = (uint64_t *)(slot + SLOT_SUMS);

		if (!*(uint32_t *)(slot + SLOT_USED)) {
			if (t->used == 1u << map->bits)
				break;
			memcpy(slot_key(map, slot), key, map->key_size);
			if (map->comm)
				strlcpy(slot_comm(map, slot), comm, HIST_COMM_LEN);
			sums[0] = 1;
			for (unsigned int v = 1; v < map->nr_sums; v++)
				sums[v] = vals[v - 1];
			__atomic_store_n((uint32_t *)(slot + SLOT_USED), 1, __ATOMIC_RELEASE);
			__atomic_store_n(&t->used, t->used + 1, __ATOMIC_RELEASE);
			return;
		}
		if (!memcmp(slot_key(map, slot), key, map->key_size)) {
			add_to(&sums[0], 1);
			for (unsigned int v = 1; v < map->nr_sums; v++)
				add_to(&sums[v], vals[v - 1]);
			return;
		}
	}
	add_to(&t->drops, 1);
}

/* ---- Reading ---- */

static int by_key(const void *a, const void *b)
{
	const struct hist_entry *x = a, *y = b;

	return memcmp(x->key, y->key, x->def->key_size);
}

/* Two keys compared on their field f: a string's text, or a number. */
static int compare_key(const struct hist_field *f, const uint8_t *a, const uint8_t *b)
{
	uint64_t x, y;

	if (f->field.kind == FILTER_FIELD_STRING)
		return strcmp((const char *)a + f->offset, (const char *)b + f->offset);
	memcpy(&x, a + f->offset, sizeof(x));
	memcpy(&y, b + f->offset, sizeof(y));
	if (f->field.is_signed && f->mod != HIST_MOD_LOG2 && f->mod != HIST_MOD_BUCKETS)
		return (int64_t)x < (int64_t)y ? -1 : (int64_t)x > (int64_t)y;
	return x < y ? -1 : x > y;
}

static int by_order(const void *a, const void *b)
{
	const struct hist_entry *x = a, *y = b;
	const struct hist_def *def = x->def;

	for (unsigned int i = 0; i < def->nr_sort; i++) {
		uint8_t what = def->sort[i].what;
		int c;

		if (what >= HIST_SORT_KEY(0))
			c = compare_key(&def->keys[what - HIST_SORT_KEY(0)], x->key, y->key);
		else
			c = x->sums[what] < y->sums[what] ? -1 : x->sums[what] > y->sums[what];
		if (c)
			return def->sort[i].descending ? -c : c;
	}
	return by_key(a, b);
}

static void swap_entries(void *a, void *b, int size)
{
	struct hist_entry t = *(struct hist_entry *)a;

	(void)size;
	*(struct hist_entry *)a = *(struct hist_entry *)b;
	*(struct hist_entry *)b = t;
}

/* Every taken slot of every CPU, up to cap of them, into out->entries. */
static void gather(const struct hist_map *map, const struct hist_def *def, size_t cap,
		   struct hist_merged *out)
{
	for (unsigned int c = 0; c < map->nr_cpus; c++) {
		const struct hist_table *t = map->cpu[c];

		out->hits += __atomic_load_n(&t->hits, __ATOMIC_RELAXED);
		out->drops += __atomic_load_n(&t->drops, __ATOMIC_RELAXED);
		for (size_t i = 0; i < ((size_t)2 << map->bits) && out->n < cap; i++) {
			uint8_t *slot = slot_at(map, t, i);
			struct hist_entry *e = &out->entries[out->n];

			if (!__atomic_load_n((uint32_t *)(slot + SLOT_USED), __ATOMIC_ACQUIRE))
				continue;
			*e = (struct hist_entry){ .def = def, .key = slot_key(map, slot),
						  .comm = map->comm ? slot_comm(map, slot) : NULL };
			for (unsigned int v = 0; v < map->nr_sums; v++)
				e->sums[v] = __atomic_load_n((uint64_t *)(slot + SLOT_SUMS) + v,
							     __ATOMIC_RELAXED);
			out->n++;
		}
	}
}

int hist_map_merge(const struct hist_map *map, const struct hist_def *def,
		   struct hist_merged *out)
{
	size_t cap = 0, n = 0;

	/* Entries a CPU adds from here on may be left out: cap is now's. */
	for (unsigned int c = 0; c < map->nr_cpus; c++)
		cap += __atomic_load_n(&map->cpu[c]->used, __ATOMIC_ACQUIRE);
	*out = (struct hist_merged){ .entries = kmalloc((cap ? cap : 1) * sizeof(*out->entries)) };
	if (!out->entries)
		return -ENOMEM;
	gather(map, def, cap, out);
	sort(out->entries, out->n, sizeof(*out->entries), by_key, swap_entries);
	for (size_t i = 0; i < out->n; i++) {
		struct hist_entry *e = &out->entries[i];

		if (n && !by_key(&out->entries[n - 1], e)) {
			for (unsigned int v = 0; v < map->nr_sums; v++)
				out->entries[n - 1].sums[v] += e->sums[v];
			continue;
		}
		out->entries[n++] = *e;
	}
	out->n = n;
	sort(out->entries, out->n, sizeof(*out->entries), by_order, swap_entries);
	return 0;
}
