/* A histogram's table: for each packed key (hist_parse.h), a hit count
 * and the sums of the values, kept per CPU so that a hit takes no lock
 * and shares no cache line with another CPU's, and merged when the
 * table is read.
 *
 * Each CPU's table is an open-addressed hash of twice as many slots as
 * the entries it may hold (1 << bits), probed linearly. Only its own
 * CPU writes it, with interrupts off: a new entry's key (and thread
 * name) is written before its slot is marked used, with a release, so
 * a reader on any CPU that sees the mark sees the key; the sums are
 * whole aligned words, read and written whole. A hit whose key is new
 * to a full table is dropped, and counted. Kept free of the kernel
 * (the heap aside): the host tests and the fuzzer run it. */
#ifndef KERNEL_TRACE_HIST_MAP_H
#define KERNEL_TRACE_HIST_MAP_H

#include "kernel/trace/hist_parse.h"
#include "lib/types.h"

#define HIST_COMM_LEN 16	/* the thread's name an execname key keeps */

struct hist_table;

struct hist_map {
	unsigned int bits;		/* entries a CPU's table holds: 1 << bits */
	unsigned int nr_cpus;
	unsigned int key_size;		/* bytes, 8-aligned */
	unsigned int nr_sums;		/* hitcount and the values */
	unsigned int slot_size;		/* bytes of one slot */
	bool comm;			/* whether a slot keeps the thread's name */
	struct hist_table *cpu[];	/* nr_cpus of them */
};

/* A table for def on nr_cpus CPUs, all empty; NULL with no memory. */
struct hist_map *hist_map_new(const struct hist_def *def, unsigned int nr_cpus);
void hist_map_free(struct hist_map *map);

/* Count a hit on CPU cpu (the caller's, with interrupts off): key
 * (map->key_size bytes), the values' sums increased by vals
 * (map->nr_sums - 1 of them), comm the thread's name (used when the
 * map keeps names). */
void hist_map_add(struct hist_map *map, unsigned int cpu, const uint8_t *key,
		  const uint64_t *vals, const char *comm);

/* One key of the merged table. */
struct hist_entry {
	const struct hist_def *def;	/* for the sort */
	const uint8_t *key;		/* inside a CPU's table */
	const char *comm;		/* the name its first CPU kept, or NULL */
	uint64_t sums[1 + HIST_VALS_MAX];	/* hitcount first */
};

struct hist_merged {
	struct hist_entry *entries;	/* kmalloc'ed */
	size_t n;
	uint64_t hits, drops;		/* every CPU's */
};

/* Merge every CPU's table into out, one entry per key, sorted as def
 * says (then by key, so that the order is always the same). The keys
 * stay in map: free out->entries before map. 0 or -ENOMEM. */
int hist_map_merge(const struct hist_map *map, const struct hist_def *def,
		   struct hist_merged *out);

#endif
