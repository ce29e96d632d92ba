/* A heapsort (sort.h). The array is first made a max-heap, where every
 * element is at least as large as its two children (at 2i+1 and 2i+2);
 * then the largest, at the root, is swapped to the end, the heap shrinks
 * by one and the new root sinks to its place, until the heap is empty. */
#include "lib/sort.h"

static void swap_bytes(void *a, void *b, int size)
{
	char *x = a, *y = b;

	for (int i = 0; i < size; i++) {
		char t = x[i];

		x[i] = y[i];
		y[i] = t;
	}
}

/* Let the element at root sink below its larger child while it is
 * smaller, in the heap of the first n elements. */
static void sift_down(char *base, size_t root, size_t n, size_t size, cmp_func_t cmp,
		      swap_func_t swap)
{
	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			return;
		if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0)
			child++;
		if (cmp(base + root * size, base + child * size) >= 0)
			return;
		swap(base + root * size, base + child * size, (int)size);
		root = child;
	}
}

void sort(void *base, size_t num, size_t size, cmp_func_t cmp, swap_func_t swap)
{
	char *b = base;

	if (!swap)
		swap = swap_bytes;
	for (size_t i = num / 2; i-- > 0;)
		sift_down(b, i, num, size, cmp, swap);
	for (size_t end = num; end-- > 1;) {
		swap(b, b + end * size, (int)size);
		sift_down(b, 0, end, size, cmp, swap);
	}
}
