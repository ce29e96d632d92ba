/* The thread ids written to set_ftrace_pid or set_ftrace_notrace_pid
 * (kernel/trace/tracefs_pid.c), gathered into a sorted array, each id
 * once, so that a traced call finds the running thread's with a binary
 * search.
 *
 * Plain code over the words, with no kernel calls but the heap's, so
 * that the host's tests and fuzzer run it as it is. */
#ifndef KERNEL_TRACE_PID_LIST_H
#define KERNEL_TRACE_PID_LIST_H

#include "lib/types.h"

/* The largest id taken, Linux's too (its pid lists hold 30 bits). */
#define PID_LIST_MAX_ID ((1u << 30) - 1)

/* A list being written. Zeroed to start; ids is from kmalloc. */
struct pid_list {
	unsigned int *ids;
	size_t count, room;
};

/* Add id (at most PID_LIST_MAX_ID) to the list, unless it is there
 * already. 0 or -ENOMEM. */
int pid_list_add(struct pid_list *l, unsigned int id);

/* Add the id that the len bytes at word spell, in decimal or in hex
 * after 0x (a word of tracefs_words.h). 0 (an id there already is not
 * added twice), -EINVAL for a word that is no such number or one above
 * PID_LIST_MAX_ID (Linux: -EPERM for that one), or -ENOMEM. */
int pid_list_add_word(struct pid_list *l, const char *word, size_t len);

/* Where id is, or would go, among the n sorted ids: the first index
 * whose id is not below it. */
static inline size_t pid_ids_place(const unsigned int *ids, size_t n, unsigned int id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether id is among the n sorted ids. */
static inline bool pid_ids_have(const unsigned int *ids, size_t n, unsigned int id)
{
	size_t at = pid_ids_place(ids, n, id);

	return at < n && ids[at] == id;
}

#endif
