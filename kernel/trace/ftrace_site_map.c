/* The map of sites that one ops alone wants: see ftrace_site_map.h. */
#include "kernel/trace/ftrace_site_map.h"
#include "kernel/mm/heap.h"

struct ftrace_site_map *ftrace_site_map_create(size_t n)
{
	unsigned int bits = 1;
	struct ftrace_site_map *map;

	while (((size_t)1 << bits) < 2 * n)
		bits++;
	map = kzalloc(sizeof(*map) + (sizeof(map->entries[0]) << bits));
	if (!map)
		return NULL;
	map->shift = 64 - bits;
	map->mask = ((size_t)1 << bits) - 1;
	return map;
}

void ftrace_site_map_add(struct ftrace_site_map *map, uintptr_t ip, struct ftrace_ops *ops)
{
	size_t i = ftrace_site_map_slot(map, ip);

	while (map->entries[i].ip)
		i = (i + 1) & map->mask;
	map->entries[i] = (struct ftrace_site_map_entry){ ip, ops };
	map->count++;
}

static void map_free(struct rcu_head *head)
{
	kfree(container_of(head, struct ftrace_site_map, rcu));
}

void ftrace_site_map_free_rcu(struct ftrace_site_map *map)
{
	if (map)
		call_rcu(&map->rcu, map_free);
}
