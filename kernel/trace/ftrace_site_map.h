/* The sites that one ops alone wants, and which ops that is: a hash map
 * from a site's address to its ops, that ftrace_dispatch looks a call up
 * in before it walks the list of every registered ops (kernel/trace/
 * ftrace.c). A call from such a site then costs one lookup instead of a
 * filter search per registered ops: the common case of the function
 * tracer filtered to a few functions, or of a kprobe on a function's
 * entry.
 *
 * A map is built whole and never changed: the patcher builds a new one
 * each time what the ops want changes, publishes it, and frees the old
 * one after a grace period. Open addressing with linear probing, at
 * most half full, so that a lookup reads one or two entries. */
#ifndef KERNEL_TRACE_FTRACE_SITE_MAP_H
#define KERNEL_TRACE_FTRACE_SITE_MAP_H

#include "kernel/rcu.h"
#include "lib/types.h"

struct ftrace_ops;

struct ftrace_site_map_entry {
	uintptr_t ip;		/* 0: empty */
	struct ftrace_ops *ops;
};

struct ftrace_site_map {
	struct rcu_head rcu;
	unsigned int shift;	/* 64 - log2 of the entries */
	size_t mask;		/* the entries, less one */
	size_t count;		/* the entries in use */
	struct ftrace_site_map_entry entries[];
};

/* An empty map with room for n sites, or NULL if the memory cannot
 * hold it. */
struct ftrace_site_map *ftrace_site_map_create(size_t n);

/* Map ip (not 0, not in the map yet) to ops; at most the n sites the map
 * was made for. */
void ftrace_site_map_add(struct ftrace_site_map *map, uintptr_t ip, struct ftrace_ops *ops);

/* Where ip's search starts. Fibonacci hashing: the address times 2^64
 * over the golden ratio, its top bits. Sites are a few bytes to a few
 * hundred apart, and this spreads such runs evenly over the entries. */
static inline size_t ftrace_site_map_slot(const struct ftrace_site_map *map, uintptr_t ip)
{
	return (size_t)(((uint64_t)ip * 0x9e3779b97f4a7c15ull) >> map->shift);
}

/* The ops ip maps to, or NULL (map may be NULL: no site has one ops
 * alone). Inline: every call from a site looks it up, inside
 * ftrace_dispatch, which is never probed. */
static inline struct ftrace_ops *ftrace_site_map_find(const struct ftrace_site_map *map,
						      uintptr_t ip)
{
	if (!map)
		return NULL;
	for (size_t i = ftrace_site_map_slot(map, ip);; i = (i + 1) & map->mask) {
		const struct ftrace_site_map_entry *e = &map->entries[i];

		if (e->ip == ip)
			return e->ops;
		if (!e->ip)
			return NULL;
	}
}

/* Free a map (NULL: nothing) once no call can still be reading it. */
void ftrace_site_map_free_rcu(struct ftrace_site_map *map);

#endif
