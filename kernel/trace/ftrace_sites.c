/* The function tracer's call sites: see ftrace_sites.h. */
#include "kernel/trace/ftrace_sites.h"
#include "lib/errno.h"

extern const uintptr_t __start_ftrace_sites[], __stop_ftrace_sites[];

/* The tables: the kernel's first, then the modules' oldest first. */
static struct ftrace_sites kernel_sites = {
	.start = __start_ftrace_sites, .end = __stop_ftrace_sites,
};

static struct ftrace_sites *next_table(const struct ftrace_sites *t)
{
	return __atomic_load_n(&t->next, __ATOMIC_ACQUIRE);
}

void ftrace_sites_add(struct ftrace_sites *sites)
{
	struct ftrace_sites **link = &kernel_sites.next;

	while (*link)
		link = &(*link)->next;
	sites->next = NULL;
	__atomic_store_n(link, sites, __ATOMIC_RELEASE);
}

void ftrace_sites_remove(struct ftrace_sites *sites)
{
	struct ftrace_sites **link = &kernel_sites.next;

	while (*link && *link != sites)
		link = &(*link)->next;
	if (*link)
		__atomic_store_n(link, sites->next, __ATOMIC_RELEASE);
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
	for (const struct ftrace_sites *t = &kernel_sites; t; t = next_table(t))
		if (table_has(t, ip))
			return true;
	return false;
}

int ftrace_site_nth(uint64_t pos, uintptr_t *ip, const char **module)
{
	for (const struct ftrace_sites *t = &kernel_sites; t; t = next_table(t)) {
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
