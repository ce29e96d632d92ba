/* Host tests for lib/cpio.c.
 *
 * Most archives are built in the test by a small writer below, so each
 * test can say exactly which bytes it feeds the reader, including broken
 * ones. One test packs a real directory with tools/mkcpio.py instead, to
 * check that the tool and the reader agree.
 *
 * Every archive is handed to cpio_walk in a heap block of exactly its
 * size, so AddressSanitizer reports any read past the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

/* ---- Test helpers, using the host's C library ---- */

struct archive {
	unsigned char *data;
	size_t len;
};

static void append(struct archive *a, const void *data, size_t len)
{
	a->data = realloc(a->data, a->len + len + 1);
	assert_non_null(a->data);
	memcpy(a->data + a->len, data, len);
	a->len += len;
}

static void pad4(struct archive *a)
{
	while (a->len % 4)
		append(a, "", 1);
}

/* Append an entry; namesize is normally strlen(name) + 1. */
static void add_raw(struct archive *a, const char *name, size_t namesize,
		    unsigned int mode, const void *data, size_t size)
{
	char header[111];

	snprintf(header, sizeof(header),
		 "070701%08x%08x%08x%08x%08x%08x%08zx%08x%08x%08x%08x%08zx%08x",
		 1u, mode, 0u, 0u, 1u, 0u, size, 0u, 0u, 0u, 0u, namesize, 0u);
	append(a, header, 110);
	append(a, name, strlen(name) + 1);
	pad4(a);
	append(a, data, size);
	pad4(a);
}

static void add(struct archive *a, const char *name, unsigned int mode,
		const char *text)
{
	add_raw(a, name, strlen(name) + 1, mode, text, strlen(text));
}

static void add_trailer(struct archive *a)
{
	add_raw(a, "TRAILER!!!", 11, 0, "", 0);
}

/* A copy of the first len bytes in a block of exactly that size. */
static void *exact_copy(const void *data, size_t len)
{
	void *p = malloc(len ? len : 1);

	assert_non_null(p);
	memcpy(p, data, len);
	return p;
}

static char *host_strdup(const char *s)
{
	return strdup(s);
}

#include "tests/host/rename.h"
#include "lib/cpio.h"
#include "lib/format.h"
#include "lib/errno.h"
#include "lib/string.h"

/* ---- What the visitor saw ---- */

#define MAX_SEEN 16

struct seen {
	int count;
	int stop_after;		/* return -EIO after this many, if > 0 */
	char *name[MAX_SEEN];
	unsigned int mode[MAX_SEEN];
	char *data[MAX_SEEN];
	size_t size[MAX_SEEN];
};

static int record(void *ctx, const struct cpio_entry *e)
{
	struct seen *s = ctx;
	char *copy;

	assert_true(s->count < MAX_SEEN);
	s->name[s->count] = host_strdup(e->name);
	s->mode[s->count] = e->mode;
	s->size[s->count] = e->size;
	copy = calloc(1, e->size + 1);
	assert_non_null(copy);
	memcpy(copy, e->data, e->size);
	s->data[s->count] = copy;
	s->count++;
	if (s->stop_after > 0 && s->count == s->stop_after)
		return -EIO;
	return 0;
}

static void forget(struct seen *s)
{
	int i;

	for (i = 0; i < s->count; i++) {
		free(s->name[i]);
		free(s->data[i]);
	}
	memset(s, 0, sizeof(*s));
}

/* Read every byte the reader hands out, so that AddressSanitizer notices
 * if an entry's data reaches past the archive. */
static int touch(void *ctx, const struct cpio_entry *e)
{
	unsigned int *sum = ctx;
	size_t i;

	for (i = 0; i < e->size; i++)
		*sum += ((const unsigned char *)e->data)[i];
	return 0;
}

static int walk_touching(const unsigned char *data, size_t len)
{
	void *copy = exact_copy(data, len);
	unsigned int sum = 0;
	int ret = cpio_walk(copy, len, touch, &sum);

	free(copy);
	return ret;
}

static int walk(const struct archive *a, size_t len, struct seen *s)
{
	void *copy = exact_copy(a->data, len);
	int ret = cpio_walk(copy, len, s ? record : NULL, s);

	free(copy);
	return ret;
}

/* ---- Tests ---- */

static void test_basic(void **state)
{
	struct archive a = { 0 };
	struct seen s = { 0 };

	(void)state;
	add(&a, ".", 040755, "");
	add(&a, "./etc", 040755, "");
	add(&a, "./etc/motd", 0100644, "Welcome to ProbeOS\n");
	add(&a, "/abs", 0100600, "x");
	add(&a, "plain", 0100644, "");
	add(&a, "odd", 0100644, "123");	/* data needs padding */
	add_trailer(&a);

	assert_int_equal(walk(&a, a.len, &s), 5);
	assert_int_equal(s.count, 5);
	assert_string_equal(s.name[0], "etc");
	assert_int_equal(s.mode[0], 040755);
	assert_string_equal(s.name[1], "etc/motd");
	assert_int_equal(s.mode[1] & CPIO_MODE_TYPE, CPIO_MODE_FILE);
	assert_string_equal(s.data[1], "Welcome to ProbeOS\n");
	assert_int_equal(s.size[1], 19);
	assert_string_equal(s.name[2], "abs");
	assert_int_equal(s.mode[2], 0100600);
	assert_string_equal(s.name[3], "plain");
	assert_int_equal(s.size[3], 0);
	assert_string_equal(s.name[4], "odd");
	assert_string_equal(s.data[4], "123");
	forget(&s);
	free(a.data);
}

static void test_only_trailer(void **state)
{
	struct archive a = { 0 };

	(void)state;
	add_trailer(&a);
	assert_int_equal(walk(&a, a.len, NULL), 0);
	free(a.data);
}

/* Data after the trailer (tools pad archives to 512 bytes) is ignored. */
static void test_padding_after_trailer(void **state)
{
	struct archive a = { 0 };

	(void)state;
	add(&a, "f", 0100644, "data");
	add_trailer(&a);
	append(&a, "\0\0\0\0\0\0\0\0", 8);
	assert_int_equal(walk(&a, a.len, NULL), 1);
	free(a.data);
}

static void test_visit_null_counts(void **state)
{
	struct archive a = { 0 };

	(void)state;
	add(&a, "a", 0100644, "1");
	add(&a, "b", 0100644, "22");
	add_trailer(&a);
	assert_int_equal(walk(&a, a.len, NULL), 2);
	free(a.data);
}

static void test_visit_stops_early(void **state)
{
	struct archive a = { 0 };
	struct seen s = { .stop_after = 2 };

	(void)state;
	add(&a, "a", 0100644, "1");
	add(&a, "b", 0100644, "2");
	add(&a, "c", 0100644, "3");
	add_trailer(&a);
	assert_int_equal(walk(&a, a.len, &s), -EIO);
	assert_int_equal(s.count, 2);
	forget(&s);
	free(a.data);
}

static void test_empty_input(void **state)
{
	(void)state;
	assert_int_equal(cpio_walk("", 0, NULL, NULL), -EINVAL);
}

/* Every prefix of a good archive is a truncated archive. */
static void test_every_truncation(void **state)
{
	struct archive a = { 0 };
	size_t len;

	(void)state;
	add(&a, "dir", 040755, "");
	add(&a, "dir/file", 0100644, "some file contents");
	add_trailer(&a);
	for (len = 0; len < a.len; len++)
		assert_int_equal(walk_touching(a.data, len), -EINVAL);
	assert_int_equal(walk(&a, a.len, NULL), 2);
	free(a.data);
}

static void test_missing_trailer(void **state)
{
	struct archive a = { 0 };

	(void)state;
	add(&a, "f", 0100644, "abc");
	assert_int_equal(walk(&a, a.len, NULL), -EINVAL);
	free(a.data);
}

static void test_bad_magic(void **state)
{
	struct archive a = { 0 };

	(void)state;
	add(&a, "f", 0100644, "abc");
	add_trailer(&a);
	a.data[5] = '7';	/* 070707 is the old binary-ish format */
	assert_int_equal(walk(&a, a.len, NULL), -EINVAL);
	free(a.data);
}

static void test_bad_hex(void **state)
{
	struct archive a = { 0 };

	(void)state;
	add(&a, "f", 0100644, "abc");
	add_trailer(&a);
	a.data[6 + 6 * 8 + 3] = 'g';	/* inside the filesize field */
	assert_int_equal(walk(&a, a.len, NULL), -EINVAL);
	free(a.data);
}

/* Hex digits may be upper case: "0000000A" is a size of ten. */
static void test_upper_case_hex(void **state)
{
	struct archive a = { 0 };
	struct seen s = { 0 };

	(void)state;
	add(&a, "f", 0100644, "0123456789");
	add_trailer(&a);
	memcpy(a.data + 6 + 6 * 8, "0000000A", 8);
	assert_int_equal(walk(&a, a.len, &s), 1);
	assert_int_equal(s.size[0], 10);
	forget(&s);
	free(a.data);
}

static void test_bad_namesize(void **state)
{
	struct archive a = { 0 };

	(void)state;
	/* namesize 0: no room even for the NUL. */
	add_raw(&a, "f", 0, 0100644, "", 0);
	add_trailer(&a);
	assert_int_equal(walk(&a, a.len, NULL), -EINVAL);
	free(a.data);

	/* namesize says the NUL comes earlier than it does. */
	a = (struct archive){ 0 };
	add_raw(&a, "file", 3, 0100644, "", 0);
	add_trailer(&a);
	assert_int_equal(walk(&a, a.len, NULL), -EINVAL);
	free(a.data);

	/* namesize larger than the whole archive. */
	a = (struct archive){ 0 };
	add_raw(&a, "f", 0x7fffffff, 0100644, "", 0);
	add_trailer(&a);
	assert_int_equal(walk(&a, a.len, NULL), -EINVAL);
	free(a.data);
}

static void test_filesize_past_end(void **state)
{
	struct archive a = { 0 };

	(void)state;
	add(&a, "f", 0100644, "abc");
	add_trailer(&a);
	memcpy(a.data + 6 + 6 * 8, "ffffffff", 8);
	assert_int_equal(walk_touching(a.data, a.len), -EINVAL);
	memcpy(a.data + 6 + 6 * 8, "00000100", 8);
	assert_int_equal(walk_touching(a.data, a.len), -EINVAL);
	free(a.data);
}

/* A name reaches the visitor whole, whatever its length (the VFS, not
 * the archive reader, limits names and paths), and without its "./". */
static void test_long_names_whole(void **state)
{
	struct archive a = { 0 };
	struct seen s = { 0 };
	char name[5000];

	(void)state;
	memcpy(name, "./", 2);
	memset(name + 2, 'n', sizeof(name) - 3);
	name[sizeof(name) - 1] = '\0';
	add(&a, name, 0100644, "");
	add_trailer(&a);
	assert_int_equal(walk(&a, a.len, &s), 1);
	assert_int_equal(strlen(s.name[0]), sizeof(name) - 3);
	forget(&s);
	free(a.data);
}

/* Random damage must give a result or -EINVAL, never a crash or a read
 * out of bounds (AddressSanitizer watches). */
static void test_random_damage(void **state)
{
	struct archive a = { 0 };
	unsigned int seed = 12345;
	int round;

	(void)state;
	add(&a, ".", 040755, "");
	add(&a, "bin", 040755, "");
	add(&a, "bin/sh", 0100755, "#!/bin/sh\necho hi\n");
	add(&a, "etc/motd", 0100644, "hello");
	add_trailer(&a);
	for (round = 0; round < 5000; round++) {
		unsigned char *copy = exact_copy(a.data, a.len);
		int hits = 1 + round % 4, ret;

		while (hits--) {
			seed = seed * 1103515245u + 12345u;
			copy[(seed >> 8) % a.len] = (unsigned char)(seed >> 20);
		}
		ret = walk_touching(copy, a.len);
		assert_true(ret == -EINVAL || (ret >= 0 && ret <= 4));
		free(copy);
	}
	free(a.data);
}

/* ---- tools/mkcpio.py and the reader agree ---- */

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static struct archive read_archive(const char *path)
{
	struct archive a = { 0 };
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		append(&a, buf, n);
	fclose(f);
	return a;
}

static void run_mkcpio(const char *dir, const char *out)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s %s", MKCPIO, dir, out);
	assert_int_equal(system(cmd), 0);
}

static void test_mkcpio_tool(void **state)
{
	char dir[] = "/tmp/probeos-cpio-XXXXXX";
	char path[512], out1[512], out2[512];
	struct archive a, b;
	struct seen s = { 0 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/root", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/root/etc", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/root/home", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/root", dir);
	write_file(path, "etc/motd", "Welcome\n");
	write_file(path, "etc/hostname", "probe");	/* size not a multiple of 4 */
	write_file(path, "home/empty", "");
	write_file(path, "README", "read me\n");
	snprintf(path, sizeof(path), "%s/root/README", dir);
	chmod(path, 0700);

	snprintf(path, sizeof(path), "%s/root", dir);
	snprintf(out1, sizeof(out1), "%s/one.cpio", dir);
	snprintf(out2, sizeof(out2), "%s/two.cpio", dir);
	run_mkcpio(path, out1);
	run_mkcpio(path, out2);
	a = read_archive(out1);
	b = read_archive(out2);

	/* Deterministic: the same tree gives the same bytes. */
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	assert_int_equal(a.len % 4, 0);

	/* Sorted, each directory before its contents, modes normalised. */
	assert_int_equal(walk(&a, a.len, &s), 6);
	assert_string_equal(s.name[0], "README");
	assert_int_equal(s.mode[0], 0100755);
	assert_string_equal(s.data[0], "read me\n");
	assert_string_equal(s.name[1], "etc");
	assert_int_equal(s.mode[1], 040755);
	assert_string_equal(s.name[2], "etc/hostname");
	assert_int_equal(s.mode[2], 0100644);
	assert_string_equal(s.data[2], "probe");
	assert_int_equal(s.size[2], 5);
	assert_string_equal(s.name[3], "etc/motd");
	assert_string_equal(s.data[3], "Welcome\n");
	assert_string_equal(s.name[4], "home");
	assert_string_equal(s.name[5], "home/empty");
	assert_int_equal(s.size[5], 0);

	forget(&s);
	free(a.data);
	free(b.data);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_only_trailer),
		cmocka_unit_test(test_padding_after_trailer),
		cmocka_unit_test(test_visit_null_counts),
		cmocka_unit_test(test_visit_stops_early),
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_missing_trailer),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_bad_hex),
		cmocka_unit_test(test_upper_case_hex),
		cmocka_unit_test(test_bad_namesize),
		cmocka_unit_test(test_filesize_past_end),
		cmocka_unit_test(test_long_names_whole),
		cmocka_unit_test(test_random_damage),
		cmocka_unit_test(test_mkcpio_tool),
	};

	return cmocka_run_group_tests_name("cpio", tests, NULL, NULL);
}
