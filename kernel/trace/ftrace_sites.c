/* The function tracer's call sites: see ftrace_sites.h. */
#include "kernel/trace/ftrace_sites.h"
#include "lib/errno.h"

extern const uintptr_t __start_ftrace_sites[], __stop_ftrace_sites[];

/* Every table, the kernel's first, then the modules' oldest first: a
 * list read under RCU (lib/list.h). It starts with the kernel's table
 * already in it, linked by the two initializers (the first line only
 * declares the head, so that the table can point at it). */
static struct list_node tables;
static struct ftrace_sites kernel_sites = {
	.start = __start_ftrace_sites, .end = __stop_ftrace_sites,
	.node = { &tables, &tables },
};
static struct list_node tables = { &kernel_sites.node, &kernel_sites.node };

void ftrace_sites_add(struct ftrace_sites *sites)
{
	list_add_tail_rcu(&sites->node, &tables);
}

void ftrace_sites_remove(struct ftrace_sites *sites)
{
	list_del_rcu(&sites->node);
}

/* Whether the sorted table t holds ip: a binary search. */
static bool table_has(const struct ftrace_sites *t, uintptr_t ip)
{
	const uintptr_t *lo = t->start, *hi = t->end;

	while (lo < hi) {
		const uintptr_t *mid = lo + (hi - lo) / 2;

		if (*mid == ip)
			return true;
		if (*mid < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool ftrace_site_at(uintptr_t ip)
{
	const struct ftrace_sites *t;

	list_for_each_entry_rcu(t, &tables, node)
		if (table_has(t, ip))
			return true;
	return false;
}

int ftrace_site_nth(uint64_t pos, uintptr_t *ip, const char **module)
{
	const struct ftrace_sites *t;

	list_for_each_entry_rcu(t, &tables, node) {
		uint64_t count = (uint64_t)(t->end - t->start);

		if (pos < count) {
			*ip = t->start[pos];
			*module = t->module;
			return 0;
		}
		pos -= count;
	}
	return -ENOENT;
}
