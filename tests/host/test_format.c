/* Host tests for lib/format.c: most cases are checked against the host's
 * own snprintf, at every buffer size from 0 up to the full length, so
 * truncation and the return value are checked along with the text. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

/* The host's C library, captured before rename.h hides the names. */
static int host_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	return vsnprintf(buf, size, fmt, ap);
}

#include "tests/host/rename.h"
#include "lib/format.h"
#include "lib/string.h"

#define BIG 512

/* How many formats were compared, to show the tests really ran. */
static int compared;

/*
 * Format with both implementations and require the same result: the same
 * return value, and the same buffer contents at every buffer size (bytes
 * past the terminator must be left alone, too).
 */
static void __printf(3, 4) check_same(const char *file, int line,
				      const char *fmt, ...)
{
	char want[BIG], got[BIG];
	int want_len, got_len;
	size_t size;
	va_list ap, ap2;

	/* ap itself is never consumed: each call gets its own copy. */
	va_start(ap, fmt);
	va_copy(ap2, ap);
	want_len = host_vsnprintf(want, sizeof(want), fmt, ap2);
	va_end(ap2);
	va_copy(ap2, ap);
	got_len = vsnprintf(got, sizeof(got), fmt, ap2);
	va_end(ap2);
	if (want_len != got_len || strcmp(want, got) != 0)
		fail_msg("%s:%d: format \"%s\": want \"%s\" (%d), got \"%s\" (%d)",
			 file, line, fmt, want, want_len, got, got_len);

	for (size = 0; size <= (size_t)want_len + 1 && size < BIG; size++) {
		char want_t[BIG], got_t[BIG];

		memset(want_t, '#', sizeof(want_t));
		memset(got_t, '#', sizeof(got_t));
		va_copy(ap2, ap);
		want_len = host_vsnprintf(want_t, size, fmt, ap2);
		va_end(ap2);
		va_copy(ap2, ap);
		got_len = vsnprintf(got_t, size, fmt, ap2);
		va_end(ap2);
		if (want_len != got_len || memcmp(want_t, got_t, BIG) != 0)
			fail_msg("%s:%d: format \"%s\" with size %zu differs",
				 file, line, fmt, size);
	}
	va_end(ap);
	compared++;
}

#define SAME(...) check_same(__FILE__, __LINE__, __VA_ARGS__)

/* Formats built at run time cannot be checked by -Wformat; these tests
 * loop over many of them on purpose. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-zero-length"

static const char *const int_formats[] = {
	"%d", "%i", "%5d", "%-5d", "%05d", "%.3d", "%+d", "% d", "%8.3d",
	"%-8.3d", "%08.3d", "%.0d", "%+.0d", "%-+6d", "%- 6d", "%+05d",
	"%1d", "%20d", "%-020d", "[%3d]",
};

static const char *const unsigned_formats[] = {
	"%u", "%x", "%X", "%o", "%8x", "%-8x", "%08x", "%.4x", "%#x", "%#X",
	"%#o", "%#10x", "%#010x", "%-#10x", "%#.0x", "%#.0o", "%.0o", "%.0x",
	"%#.3o", "%#5o", "%012o", "%.10u", "%-3u|",
};

static void test_int(void **state)
{
	static const int values[] = {
		0, 1, -1, 7, -7, 42, -42, 99, 100, 123456, -123456,
		INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1,
	};
	size_t f, v;

	(void)state;
	for (f = 0; f < ARRAY_SIZE(int_formats); f++)
		for (v = 0; v < ARRAY_SIZE(values); v++)
			SAME(int_formats[f], values[v]);
}

static void test_unsigned(void **state)
{
	static const unsigned int values[] = {
		0, 1, 7, 8, 15, 16, 255, 256, 0xdeadbeef, 01234567,
		UINT_MAX, UINT_MAX - 1, 0x80000000u,
	};
	size_t f, v;

	(void)state;
	for (f = 0; f < ARRAY_SIZE(unsigned_formats); f++)
		for (v = 0; v < ARRAY_SIZE(values); v++)
			SAME(unsigned_formats[f], values[v]);
}

/* Each length modifier reads an argument of its own size, and the short
 * ones cut the int they are passed down to their size. */
static void test_length_modifiers(void **state)
{
	(void)state;
	SAME("%hhd %hhu %hhx", 300, 300, 0x1ff);
	SAME("%hhd %hhd", -129, 128);
	SAME("%hd %hu %hx", 70000, 70000, 0x12345);
	SAME("%hd", -32769);
	SAME("%ld %lu %lx", LONG_MIN, ULONG_MAX, 0x123456789abcdefUL);
	SAME("%lld %llu %llx %llo", LLONG_MIN, ULLONG_MAX, 0xfedcba9876543210ULL,
	     ULLONG_MAX);
	SAME("%lld|%+lld|% lld", LLONG_MAX, 0LL, 5LL);
	SAME("%zu %zx %zd", (size_t)-1, (size_t)0x1234, (ssize_t)-5);
	SAME("%td %tx", (ptrdiff_t)-12345, (ptrdiff_t)0xabc);
	SAME("%jd %ju %jx", INTMAX_MIN, UINTMAX_MAX, (uintmax_t)0x77);
	SAME("%-20lld|%020lld|%.20llu", -1LL, -1LL, 1ULL);
	SAME("%#llx %#llo %#lX", 1ULL << 63, 1ULL << 63, 0xabcUL);
	/* Arguments of different sizes in one call stay in step. */
	SAME("%hhd %lld %hd %ld %d %zu %c %s", 1, 2LL, 3, 4L, 5, (size_t)6,
	     '7', "8");
}

static void test_strings_and_chars(void **state)
{
	static const char *const formats[] = {
		"%s", "%10s", "%-10s", "%.2s", "%10.2s", "%-10.2s", "%.0s",
		"%.10s", "<%s>", "%1s", "%3s|",
	};
	static const char *const strings[] = { "", "a", "hello", "hello world" };
	size_t f, s;

	(void)state;
	for (f = 0; f < ARRAY_SIZE(formats); f++)
		for (s = 0; s < ARRAY_SIZE(strings); s++)
			SAME(formats[f], strings[s]);

	SAME("%c", 'x');
	SAME("%c%c%c", 'a', 'b', 'c');
	SAME("%5c|%-5c|", 'x', 'y');
	SAME("%c", 0xe9);
	SAME("%s and %s", "this", "that");
	/* A precision means the string need not be terminated. */
	SAME("%.3s", (const char[3]){ 'a', 'b', 'c' });
}

static void test_star(void **state)
{
	(void)state;
	SAME("%*d", 5, 42);
	SAME("%-*d", 5, 42);
	SAME("%*d", -5, 42);	/* negative width: left-justify */
	SAME("%.*d", 4, 42);
	SAME("%.*d", -1, 42);	/* negative precision: none */
	SAME("%*.*s", 8, 3, "abcdef");
	SAME("%*.*s", -8, 3, "abcdef");
	SAME("%.*s", 0, "abc");
	SAME("%0*x", 10, 0xbeef);
	SAME("%*s|%*s", 3, "a", 0, "b");
}

static void test_text_and_percent(void **state)
{
	(void)state;
	SAME("");
	SAME("plain text");
	SAME("100%%");
	SAME("%%d %d %%", 3);
	SAME("%%%%");
	SAME("tab\there\nnewline");
	SAME("%d%d%d%s", 1, 2, 3, "end");
}

/* %p is not compared with the host: ProbeOS always prints 16 digits
 * so that addresses line up, and prints NULL as a number too. */
static void test_pointer(void **state)
{
	char buf[64];

	(void)state;
	snprintf(buf, sizeof(buf), "%p", (void *)0xffffffff80101234ul);
	assert_string_equal(buf, "0xffffffff80101234");
	snprintf(buf, sizeof(buf), "%p", (void *)0x1234);
	assert_string_equal(buf, "0x0000000000001234");
	snprintf(buf, sizeof(buf), "%p", NULL);
	assert_string_equal(buf, "0x0000000000000000");
	snprintf(buf, sizeof(buf), "[%20p]", (void *)0xab);
	assert_string_equal(buf, "[  0x00000000000000ab]");
	snprintf(buf, sizeof(buf), "[%-20p]", (void *)0xab);
	assert_string_equal(buf, "[0x00000000000000ab  ]");
	assert_int_equal(snprintf(NULL, 0, "%p", (void *)1), 18);
}

static void test_null_string(void **state)
{
	const char *volatile null = NULL;
	char buf[32];

	(void)state;
	snprintf(buf, sizeof(buf), "[%s]", null);
	assert_string_equal(buf, "[(null)]");
	snprintf(buf, sizeof(buf), "[%8s]", null);
	assert_string_equal(buf, "[  (null)]");
}

/* Mistakes in a format are printed, not silently dropped. */
static void test_unknown_conversion(void **state)
{
	const char *volatile bad1 = "a%qb", *volatile bad2 = "x%5.2yz";
	const char *volatile trailing = "end%", *volatile trailing2 = "end%-5";
	char buf[32];

	(void)state;
	assert_int_equal(snprintf(buf, sizeof(buf), bad1), 4);
	assert_string_equal(buf, "a%qb");
	snprintf(buf, sizeof(buf), bad2);
	assert_string_equal(buf, "x%5.2yz");
	snprintf(buf, sizeof(buf), trailing);
	assert_string_equal(buf, "end%");
	snprintf(buf, sizeof(buf), trailing2);
	assert_string_equal(buf, "end%-5");
}

static void test_snprintf_return_and_size(void **state)
{
	char buf[8];

	(void)state;
	memset(buf, 'z', sizeof(buf));
	assert_int_equal(snprintf(NULL, 0, "%d", 12345), 5);
	assert_int_equal(snprintf(buf, 0, "abc"), 3);
	assert_int_equal(buf[0], 'z');		/* size 0: untouched */
	assert_int_equal(snprintf(buf, 1, "abc"), 3);
	assert_string_equal(buf, "");
	assert_int_equal(snprintf(buf, sizeof(buf), "%s", "abcdefghij"), 10);
	assert_string_equal(buf, "abcdefg");
}

/* vformat hands the output to a sink in pieces; gather them. */
struct gather {
	char text[256];
	size_t len;
	int calls;
};

static void gather_emit(void *ctx, const char *text, size_t len)
{
	struct gather *g = ctx;

	assert_true(len > 0);	/* no empty chunks */
	assert_true(g->len + len < sizeof(g->text));
	memcpy(g->text + g->len, text, len);
	g->len += len;
	g->text[g->len] = '\0';
	g->calls++;
}

static int __printf(2, 3) gather_format(struct gather *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vformat(gather_emit, g, fmt, ap);
	va_end(ap);
	return n;
}

static void test_vformat_sink(void **state)
{
	struct gather g = { .len = 0 };
	char big[200];

	(void)state;
	assert_int_equal(gather_format(&g, "x=%d, s=%-6s|%05x", -12, "ab", 0xa), 21);
	assert_string_equal(g.text, "x=-12, s=ab    |0000a");
	assert_int_equal(g.len, 21);

	/* Wide padding arrives in several chunks but adds up. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(gather_format(&g, "%100s", "end"), 100);
	memset(big, ' ', 97);
	memcpy(big + 97, "end", 4);
	assert_string_equal(g.text, big);

	memset(&g, 0, sizeof(g));
	assert_int_equal(gather_format(&g, "%s", ""), 0);
	assert_int_equal(g.calls, 0);
}

/* Absurd widths are clamped rather than overflowing. */
static void test_huge_width(void **state)
{
	const char *volatile huge = "%99999999999d";
	volatile int min = INT_MIN;

	(void)state;
	assert_int_equal(snprintf(NULL, 0, huge, 1), 100000);
	assert_int_equal(snprintf(NULL, 0, "%*d", min, 1), 100000);
}

static void test_compared_many(void **state)
{
	(void)state;
	/* Runs last: the loops above must have compared a lot of cases. */
	assert_true(compared > 500);
	print_message("compared %d formats with the host's snprintf\n", compared);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_unsigned),
		cmocka_unit_test(test_length_modifiers),
		cmocka_unit_test(test_strings_and_chars),
		cmocka_unit_test(test_star),
		cmocka_unit_test(test_text_and_percent),
		cmocka_unit_test(test_pointer),
		cmocka_unit_test(test_null_string),
		cmocka_unit_test(test_unknown_conversion),
		cmocka_unit_test(test_snprintf_return_and_size),
		cmocka_unit_test(test_vformat_sink),
		cmocka_unit_test(test_huge_width),
		cmocka_unit_test(test_compared_many),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
