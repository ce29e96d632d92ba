/* A set of words being made: ascending, each once, in an array from the
 * heap that grows as it must. The lists that tracefs's files gather
 * before they publish them: the call sites of set_ftrace_filter
 * (kernel/trace/tracefs_filter.c), the thread ids of set_ftrace_pid
 * (kernel/trace/pid_list.h). Searched with lib/sorted.h.
 *
 * Plain code with no kernel calls but the heap's, so that the host's
 * tests and fuzzer run it as it is. */
#ifndef KERNEL_TRACE_SORTED_SET_H
#define KERNEL_TRACE_SORTED_SET_H

#include "lib/types.h"

/* Zeroed to start; free v with kfree when done. */
struct sorted_set {
	uintptr_t *v;
	size_t count, room;
};

/* Add v, unless the set holds it already. 0 or -ENOMEM. */
int sorted_set_add(struct sorted_set *s, uintptr_t v);

/* Take v out, if the set holds it. */
void sorted_set_drop(struct sorted_set *s, uintptr_t v);

#endif
