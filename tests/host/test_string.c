/* Host tests for lib/string.c and lib/errno.c. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

/* The host's versions, for reference; captured before rename.h. */
static int host_memcmp(const void *a, const void *b, size_t n)
{
	return memcmp(a, b, n);
}

static int host_strcmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

static int host_strncmp(const char *a, const char *b, size_t n)
{
	return strncmp(a, b, n);
}

#include "tests/host/rename.h"
#include "lib/errno.h"
#include "lib/string.h"

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

static void test_memcpy(void **state)
{
	char dst[8] = "xxxxxxx";

	(void)state;
	assert_ptr_equal(memcpy(dst, "abc", 3), dst);
	assert_string_equal(dst, "abcxxxx");
	assert_ptr_equal(memcpy(dst, "zzz", 0), dst);
	assert_string_equal(dst, "abcxxxx");
}

static void test_memmove_overlap(void **state)
{
	char buf[16];

	(void)state;
	/* Destination after source: must copy backwards. */
	memcpy(buf, "abcdefgh", 9);
	memmove(buf + 2, buf, 6);
	assert_memory_equal(buf, "ababcdef", 8);

	/* Destination before source: must copy forwards. */
	memcpy(buf, "abcdefgh", 9);
	memmove(buf, buf + 2, 6);
	assert_memory_equal(buf, "cdefghgh", 8);

	/* Same place, and nothing at all. */
	memcpy(buf, "abcdefgh", 9);
	memmove(buf, buf, 8);
	memmove(buf + 1, buf, 0);
	assert_string_equal(buf, "abcdefgh");
}

static void test_memset(void **state)
{
	unsigned char buf[6] = { 1, 2, 3, 4, 5, 6 };

	(void)state;
	assert_ptr_equal(memset(buf + 1, 0x1ab, 4), buf + 1);
	assert_int_equal(buf[0], 1);
	assert_int_equal(buf[1], 0xab);	/* only the low byte of c */
	assert_int_equal(buf[4], 0xab);
	assert_int_equal(buf[5], 6);
}

/* Every length from 0 to 40 at every start in a word: the word stores and
 * the byte tail fill exactly [start, start + n), and nothing beside. */
static void test_memset_lengths(void **state)
{
	unsigned char buf[64];

	(void)state;
	for (size_t start = 0; start < 8; start++) {
		for (size_t n = 0; n <= 40; n++) {
			for (size_t i = 0; i < sizeof(buf); i++)
				buf[i] = (unsigned char)i;
			memset(buf + start, 0xc3, n);
			for (size_t i = 0; i < sizeof(buf); i++) {
				bool inside = i >= start && i < start + n;

				assert_int_equal(buf[i], inside ? 0xc3 : (unsigned char)i);
			}
		}
	}
}

static void test_memcmp(void **state)
{
	static const struct {
		const char *a, *b;
		size_t n;
	} cases[] = {
		{ "abc", "abc", 3 }, { "abc", "abd", 3 }, { "abd", "abc", 3 },
		{ "abc", "abd", 2 }, { "a", "b", 0 },
		{ "\x80", "\x01", 1 },	/* bytes compare unsigned */
		{ "\x01", "\xff", 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(sign(memcmp(cases[i].a, cases[i].b, cases[i].n)),
				 sign(host_memcmp(cases[i].a, cases[i].b, cases[i].n)));
}

static void test_strlen_strnlen(void **state)
{
	(void)state;
	assert_int_equal(strlen(""), 0);
	assert_int_equal(strlen("hello"), 5);
	assert_int_equal(strnlen("hello", 10), 5);
	assert_int_equal(strnlen("hello", 5), 5);
	assert_int_equal(strnlen("hello", 3), 3);
	assert_int_equal(strnlen("hello", 0), 0);
	/* strnlen must not read past max: this buffer has no NUL. */
	assert_int_equal(strnlen((const char[3]){ 'a', 'b', 'c' }, 3), 3);
}

static void test_strcmp_strncmp(void **state)
{
	static const char *const words[] = {
		"", "a", "ab", "abc", "abd", "b", "\x80", "\xff", "a\x80",
	};
	size_t i, j, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		for (j = 0; j < ARRAY_SIZE(words); j++) {
			assert_int_equal(sign(strcmp(words[i], words[j])),
					 sign(host_strcmp(words[i], words[j])));
			for (n = 0; n < 5; n++)
				assert_int_equal(
					sign(strncmp(words[i], words[j], n)),
					sign(host_strncmp(words[i], words[j], n)));
		}
	}
}

static void test_strchr_strrchr(void **state)
{
	const char *s = "a/b/c";
	const char *e = "\xe9t\xe9";

	(void)state;
	assert_ptr_equal(strchr(s, '/'), s + 1);
	assert_ptr_equal(strrchr(s, '/'), s + 3);
	assert_ptr_equal(strchr(s, 'a'), s);
	assert_ptr_equal(strrchr(s, 'a'), s);
	assert_null(strchr(s, 'x'));
	assert_null(strrchr(s, 'x'));
	/* The terminator is part of the string. */
	assert_ptr_equal(strchr(s, '\0'), s + 5);
	assert_ptr_equal(strrchr(s, '\0'), s + 5);
	assert_null(strchr("", 'a'));
	/* c is converted to char, so 0xe9 finds a byte 0xe9. */
	assert_ptr_equal(strchr(e, 0xe9), e);
	assert_ptr_equal(strrchr(e, 0xe9), e + 2);
}

static void test_strlcpy(void **state)
{
	char buf[6];

	(void)state;
	assert_int_equal(strlcpy(buf, "abc", sizeof(buf)), 3);
	assert_string_equal(buf, "abc");
	assert_int_equal(strlcpy(buf, "abcdef", sizeof(buf)), 6);
	assert_string_equal(buf, "abcde");	/* truncated, terminated */
	assert_int_equal(strlcpy(buf, "", sizeof(buf)), 0);
	assert_string_equal(buf, "");
	memcpy(buf, "zzzzz", 6);
	assert_int_equal(strlcpy(buf, "abc", 1), 3);
	assert_string_equal(buf, "");
	memcpy(buf, "zzzzz", 6);
	assert_int_equal(strlcpy(buf, "abc", 0), 3);
	assert_string_equal(buf, "zzzzz");	/* size 0: nothing written */
}

static void test_parse_unsigned_valid(void **state)
{
	static const struct {
		const char *text;
		uint64_t value;
	} cases[] = {
		{ "0", 0 }, { "7", 7 }, { "42", 42 }, { "000123", 123 },
		{ "0x0", 0 }, { "0x1f", 0x1f }, { "0X1F", 0x1f },
		{ "0xDeadBeef", 0xdeadbeef },
		{ "0xffffffff80101234", 0xffffffff80101234ull },
		{ "18446744073709551615", UINT64_MAX },
		{ "0xffffffffffffffff", UINT64_MAX },
		{ "0x0000000000000000000001", 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v = 12345;

		assert_int_equal(parse_unsigned(cases[i].text, UINT64_MAX, &v), 0);
		assert_true(v == cases[i].value);
	}
}

static void test_parse_unsigned_invalid(void **state)
{
	static const char *const bad[] = {
		"", "0x", "x1", "-1", "+1", " 1", "1 ", "12a", "0x1g", "1.5",
		"0b101", "0x-1", "ff", "-",
		/* junk after digits that overflow is still junk */
		"99999999999999999999z", "0x1ffffffffffffffffg",
	};
	static const char *const too_big[] = {
		"18446744073709551616", "99999999999999999999",
		"0x10000000000000000", "0x1ffffffffffffffff",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		uint64_t v = 777;

		assert_int_equal(parse_unsigned(bad[i], UINT64_MAX, &v), -EINVAL);
		assert_true(v == 777);	/* untouched on error */
	}
	for (i = 0; i < ARRAY_SIZE(too_big); i++) {
		uint64_t v = 777;

		assert_int_equal(parse_unsigned(too_big[i], UINT64_MAX, &v), -ERANGE);
		assert_true(v == 777);
	}
}

/* A maximum below UINT64_MAX: exactly the maximum fits, one more does
 * not, in either base, and a one-digit maximum too. */
static void test_parse_unsigned_max(void **state)
{
	static const struct {
		const char *text;
		uint64_t max;
		int err;
	} cases[] = {
		{ "4294967295", UINT32_MAX, 0 }, { "0xffffffff", UINT32_MAX, 0 },
		{ "4294967296", UINT32_MAX, -ERANGE }, { "0x100000000", UINT32_MAX, -ERANGE },
		{ "0", 0, 0 }, { "1", 0, -ERANGE }, { "0x0", 0, 0 },
		{ "9", 9, 0 }, { "10", 9, -ERANGE }, { "0xa", 9, -ERANGE },
		{ "0xf", 15, 0 }, { "0x10", 15, -ERANGE }, { "16", 15, -ERANGE },
		{ "1024", 1024, 0 }, { "1025", 1024, -ERANGE }, { "0000001024", 1024, 0 },
		{ "", 9, -EINVAL }, { "0x", 9, -EINVAL }, { "1x", 9, -EINVAL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v = 777;

		assert_int_equal(parse_unsigned(cases[i].text, cases[i].max, &v), cases[i].err);
		if (cases[i].err)
			assert_true(v == 777);
		else
			assert_true(v <= cases[i].max);
	}
}

static void test_parse_signed(void **state)
{
	static const struct {
		const char *text;
		int64_t max;
		int err;
		int64_t value;
	} cases[] = {
		{ "0", INT64_MAX, 0, 0 }, { "-0", INT64_MAX, 0, 0 },
		{ "-5", INT64_MAX, 0, -5 }, { "42", INT64_MAX, 0, 42 },
		{ "-0x10", INT64_MAX, 0, -16 }, { "0x10", INT64_MAX, 0, 16 },
		{ "9223372036854775807", INT64_MAX, 0, INT64_MAX },
		{ "-9223372036854775808", INT64_MAX, 0, INT64_MIN },
		{ "9223372036854775808", INT64_MAX, -ERANGE, 0 },
		{ "-9223372036854775809", INT64_MAX, -ERANGE, 0 },
		{ "-0x8000000000000000", INT64_MAX, 0, INT64_MIN },
		{ "0x8000000000000000", INT64_MAX, -ERANGE, 0 },
		{ "-18446744073709551616", INT64_MAX, -ERANGE, 0 },
		{ "2147483647", INT32_MAX, 0, INT32_MAX },
		{ "-2147483648", INT32_MAX, 0, INT32_MIN },
		{ "2147483648", INT32_MAX, -ERANGE, 0 },
		{ "-2147483649", INT32_MAX, -ERANGE, 0 },
		{ "4294967296", INT32_MAX, -ERANGE, 0 },
		{ "", INT64_MAX, -EINVAL, 0 }, { "-", INT64_MAX, -EINVAL, 0 },
		{ "--1", INT64_MAX, -EINVAL, 0 }, { "+1", INT64_MAX, -EINVAL, 0 },
		{ "-0x", INT64_MAX, -EINVAL, 0 }, { "1-", INT64_MAX, -EINVAL, 0 },
		{ "-abc", INT64_MAX, -EINVAL, 0 }, { "- 1", INT64_MAX, -EINVAL, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int64_t v = 777;

		assert_int_equal(parse_signed(cases[i].text, cases[i].max, &v), cases[i].err);
		assert_true(v == (cases[i].err ? 777 : cases[i].value));
	}
}

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(strerror(ENOENT), "No such file or directory");
	assert_string_equal(strerror(-ENOENT), "No such file or directory");
	assert_string_equal(strerror(-ENXIO), "No such device or address");
	assert_string_equal(strerror(-EINVAL), "Invalid argument");
	assert_string_equal(strerror(ENOMEM), "Cannot allocate memory");
	assert_string_equal(strerror(0), "Success");
	assert_string_equal(strerror(3), "Unknown error");	/* a gap */
	assert_string_equal(strerror(-1000), "Unknown error");
	assert_string_equal(strerror(INT_MIN), "Unknown error");
	assert_string_equal(strerror(INT_MAX), "Unknown error");
}

/* Every error number the header defines has its own description. */
static void test_strerror_all_defined(void **state)
{
	static const int errs[] = {
		EPERM, ENOENT, EIO, E2BIG, EBADF, EAGAIN, ENOMEM, EFAULT,
		EBUSY, EEXIST, ENOTDIR, EISDIR, EINVAL, ENOSPC, ERANGE,
		ENAMETOOLONG, ENOSYS, EILSEQ,
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		assert_string_not_equal(strerror(-errs[i]), "Unknown error");
		for (j = 0; j < i; j++)
			assert_string_not_equal(strerror(errs[i]),
						strerror(errs[j]));
	}
}

/* Linux's kstrtobool: the first character, or the first two for on/off. */
static void test_kstrtobool(void **state)
{
	static const char *const yes[] = { "1", "y", "Y", "t", "T", "on", "ON", "oN",
					   "1\n", "1x", "yes please", "true", "Yes" };
	static const char *const no[] = { "0", "n", "N", "f", "F", "of", "off", "OFF",
					  "0\n", "no way", "false" };
	static const char *const bad[] = { "", "\n", "2", "-1", " 1", "o", "o\n", "ox", "x",
					   "enable" };
	bool res;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		res = false;
		assert_int_equal(kstrtobool(yes[i], &res), 0);
		assert_true(res);
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		res = true;
		assert_int_equal(kstrtobool(no[i], &res), 0);
		assert_false(res);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		res = true;
		assert_int_equal(kstrtobool(bad[i], &res), -EINVAL);
		assert_true(res);	/* untouched */
	}
}

/* A number written to a setting: blanks around it, nothing else. */
static void test_parse_setting(void **state)
{
	static const char *const bad[] = { "", "\n", " ", "2", "-1", "1x", "x1", "1 1", "one",
					   "99999999999999999999999" };
	int64_t v;

	(void)state;
	assert_int_equal(parse_setting("0", 1, 0, 1, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_setting("1\n", 2, 0, 1, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(parse_setting(" \t1 \n", 5, 0, 1, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(parse_setting("0x1", 3, 0, 1, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(parse_setting("-5", 2, -10, 10, &v), 0);
	assert_int_equal(v, -5);
	/* Only len bytes count: "12" cut to one byte is 1. */
	assert_int_equal(parse_setting("12", 1, 0, 1, &v), 0);
	assert_int_equal(v, 1);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		v = 7;
		assert_int_equal(parse_setting(bad[i], strlen(bad[i]), 0, 1, &v), -EINVAL);
		assert_int_equal(v, 7);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcpy),
		cmocka_unit_test(test_memmove_overlap),
		cmocka_unit_test(test_memset),
		cmocka_unit_test(test_memset_lengths),
		cmocka_unit_test(test_memcmp),
		cmocka_unit_test(test_strlen_strnlen),
		cmocka_unit_test(test_strcmp_strncmp),
		cmocka_unit_test(test_strchr_strrchr),
		cmocka_unit_test(test_strlcpy),
		cmocka_unit_test(test_parse_unsigned_valid),
		cmocka_unit_test(test_parse_unsigned_invalid),
		cmocka_unit_test(test_parse_unsigned_max),
		cmocka_unit_test(test_parse_signed),
		cmocka_unit_test(test_kstrtobool),
		cmocka_unit_test(test_parse_setting),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_strerror_all_defined),
	};

	return cmocka_run_group_tests_name("string", tests, NULL, NULL);
}
