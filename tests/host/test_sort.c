/* Host tests for lib/sort.c: every order of small arrays, and larger
 * ones (random, sorted, reversed, all equal) checked against the C
 * library's qsort, with and without a swap function of the caller's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* lib/types.h defines loff_t, as glibc does but with another type. */
#define loff_t probeos_loff_t
#include "lib/sort.h"
#undef loff_t

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void expect_sorted_like_qsort(int *a, size_t n)
{
	int *want = malloc((n ? n : 1) * sizeof(int));

	assert_non_null(want);
	memcpy(want, a, n * sizeof(int));
	qsort(want, n, sizeof(int), cmp_int);
	sort(a, n, sizeof(int), cmp_int, NULL);
	assert_memory_equal(a, want, n * sizeof(int));
	free(want);
}

/* Every permutation of 0..n-1 for n up to 6, by counting in base n. */
static void test_every_order_of_small_arrays(void **state)
{
	(void)state;
	for (size_t n = 0; n <= 6; n++) {
		size_t total = 1;

		for (size_t i = 0; i < n; i++)
			total *= n;
		for (size_t code = 0; code < total; code++) {
			int a[6];
			size_t c = code;

			for (size_t i = 0; i < n; i++, c /= n)
				a[i] = (int)(c % n);	/* repeats included */
			expect_sorted_like_qsort(a, n);
		}
	}
}

static void test_large_arrays(void **state)
{
	enum { N = 10007 };
	static int a[N];

	(void)state;
	srand(29);
	for (size_t i = 0; i < N; i++)
		a[i] = rand() % 1000 - 500;
	expect_sorted_like_qsort(a, N);
	expect_sorted_like_qsort(a, N);		/* already sorted */
	for (size_t i = 0; i < N; i++)
		a[i] = (int)(N - i);
	expect_sorted_like_qsort(a, N);		/* reversed */
	for (size_t i = 0; i < N; i++)
		a[i] = 7;
	expect_sorted_like_qsort(a, N);		/* all equal */
}

struct pair {
	char name[12];
	int rank;
};

static int swaps;

static void swap_pair(void *a, void *b, int size)
{
	struct pair t = *(struct pair *)a;

	assert_int_equal(size, sizeof(struct pair));
	*(struct pair *)a = *(struct pair *)b;
	*(struct pair *)b = t;
	swaps++;
}

static int cmp_pair(const void *a, const void *b)
{
	return strcmp(((const struct pair *)a)->name, ((const struct pair *)b)->name);
}

static void test_structs_with_own_swap(void **state)
{
	struct pair p[] = { { "sub", 1 }, { "Makefile", 2 }, { "a.txt", 3 }, { "build", 4 },
			    { ".git", 5 } };
	const char *want[] = { ".git", "Makefile", "a.txt", "build", "sub" };

	(void)state;
	swaps = 0;
	sort(p, 5, sizeof(p[0]), cmp_pair, swap_pair);
	assert_true(swaps > 0);
	for (int i = 0; i < 5; i++)
		assert_string_equal(p[i].name, want[i]);
	assert_int_equal(p[0].rank, 5);		/* each name kept its rank */
	assert_int_equal(p[4].rank, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_order_of_small_arrays),
		cmocka_unit_test(test_large_arrays),
		cmocka_unit_test(test_structs_with_own_swap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
