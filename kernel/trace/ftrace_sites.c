/* The function tracer's call sites: see ftrace_sites.h. */
#include "kernel/trace/ftrace_sites.h"
#include "kernel/rcu.h"
#include "kernel/mutex.h"
#include "kernel/nokprobe.h"
#include "lib/errno.h"
#include "lib/sorted.h"

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

/* Held while the list changes, and by whoever walks it to patch. */
static struct mutex tables_lock = MUTEX_INIT(tables_lock, "ftrace_sites");

void ftrace_sites_lock(void)
{
	mutex_lock(&tables_lock);
}

void ftrace_sites_unlock(void)
{
	mutex_unlock(&tables_lock);
}

void ftrace_sites_add(struct ftrace_sites *sites)
{
	ftrace_sites_lock();
	list_add_tail_rcu(&sites->node, &tables);
	ftrace_sites_unlock();
}

void ftrace_sites_remove(struct ftrace_sites *sites)
{
	ftrace_sites_lock();
	list_del_rcu(&sites->node);
	ftrace_sites_unlock();
}

struct list_node *ftrace_sites_tables(void)
{
	return &tables;
}

bool notrace ftrace_site_at(uintptr_t ip)
{
	const struct ftrace_sites *t;

	list_for_each_entry_rcu(t, &tables, node)
		if (sorted_have(t->start, (size_t)(t->end - t->start), ip))
			return true;
	return false;
}
NOKPROBE_SYMBOL(ftrace_site_at);

bool ftrace_is_site(uintptr_t ip)
{
	bool site;

	rcu_read_lock();
	site = ftrace_site_at(ip);
	rcu_read_unlock();
	return site;
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
