/* Binary search of a sorted array of words: the sets of call sites
 * (kernel/trace/ftrace.h), the tables of them, the lists of thread ids
 * (kernel/trace/pid_list.h). Inline, because a call from a call site or
 * a breakpoint searches them, and what that path runs must have neither
 * a site nor a probe: an inline has neither of its own. */
#ifndef LIB_SORTED_H
#define LIB_SORTED_H

#include "lib/types.h"

/* Where v is among the n ascending words at a, or would go to keep them
 * so: the first index whose word is not below v. */
static inline size_t sorted_place(const uintptr_t *a, size_t n, uintptr_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether the n ascending words at a hold v. */
static inline bool sorted_have(const uintptr_t *a, size_t n, uintptr_t v)
{
	size_t at = sorted_place(a, n, v);

	return at < n && a[at] == v;
}

#endif
