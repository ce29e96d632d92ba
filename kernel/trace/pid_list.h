/* The thread ids written to set_ftrace_pid or set_ftrace_notrace_pid
 * (kernel/trace/tracefs_pid.c), read as Linux reads them, into a
 * sorted set (kernel/trace/sorted_set.h), so that a traced call finds
 * the running thread's with a binary search.
 *
 * Plain code over the words, with no kernel calls but the heap's, so
 * that the host's tests and fuzzer run it as it is. */
#ifndef KERNEL_TRACE_PID_LIST_H
#define KERNEL_TRACE_PID_LIST_H

#include "kernel/trace/sorted_set.h"
#include "lib/types.h"

/* The largest id taken, Linux's too (its pid lists hold 30 bits). */
#define PID_LIST_MAX_ID ((1u << 30) - 1)

/* Add the id that the len bytes at word spell, in decimal or in hex
 * after 0x (a word of tracefs_words.h), to ids. 0 (an id there already
 * is not added twice), -EINVAL for a word that is no such number or one
 * above PID_LIST_MAX_ID (Linux: -EPERM for that one), or -ENOMEM. */
int pid_list_add_word(struct sorted_set *ids, const char *word, size_t len);

#endif
