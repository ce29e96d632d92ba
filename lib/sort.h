/* Sorting an array in place, with Linux's call (lib/sort.c there):
 * sort(base, num, size, cmp, swap).
 *
 * A heapsort: O(n log n) comparisons whatever the input, no memory
 * beyond the array, no recursion, so it suits a kernel stack. It is not
 * stable: elements that compare equal may come out in any order. (The
 * shell's `sort` has a merge sort of its own, kernel/shell/sort_cmd.c,
 * which looks for a Ctrl-C as it goes.) */
#ifndef LIB_SORT_H
#define LIB_SORT_H

#include "lib/types.h"

/* Negative, 0 or positive as a sorts before, with or after b. */
typedef int (*cmp_func_t)(const void *a, const void *b);
/* Exchange the size-byte elements a and b. */
typedef void (*swap_func_t)(void *a, void *b, int size);

/* Sort the num elements of size bytes at base into the order cmp says.
 * swap may be NULL: elements are then exchanged byte by byte. */
void sort(void *base, size_t num, size_t size, cmp_func_t cmp, swap_func_t swap);

#endif
