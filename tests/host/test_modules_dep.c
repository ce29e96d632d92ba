/*
 * Host tests for kernel/module/modules_dep.c: module names from paths,
 * and the load order planned from modules.dep, from the file depmod
 * writes and from hand-written ones, good and bad. Each text is copied
 * into a buffer of exactly its length, without a NUL, so that ASan
 * catches a read past its end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/module/modules_dep.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* Plan name from text; the result, with the plan's paths joined by
 * spaces in *order, or the culprit's path. */
static int plan(const char *text, const char *name, char *order, size_t size)
{
	size_t len = strlen(text);
	char *copy = malloc(len ? len : 1);
	struct modprobe_plan p;
	struct dep_ref culprit;
	size_t at = 0;
	int err;

	assert_non_null(copy);
	memcpy(copy, text, len);
	err = modules_dep_plan(copy, len, name, &p, &culprit);
	order[0] = '\0';
	if (err)
		snprintf(order, size, "%.*s", (int)culprit.len, culprit.path);
	for (size_t i = 0; !err && i < p.count; i++)
		at += snprintf(order + at, size - at, "%s%.*s", i ? " " : "", (int)p.modules[i].len,
			       p.modules[i].path);
	free(copy);
	return err;
}

/* plan() must give err, and want: the order, or the culprit (NULL: any). */
static void expect(const char *text, const char *name, int err, const char *want)
{
	char order[512];

	assert_int_equal(plan(text, name, order, sizeof(order)), err);
	if (want)
		assert_string_equal(order, want);
}

static void test_names(void **state)
{
	char name[8];

	(void)state;
	assert_true(module_name_of_path("kernel/x/mod-a.ko", 17, name, sizeof(name)));
	assert_string_equal(name, "mod_a");
	assert_true(module_name_of_path("mod_a", 5, name, sizeof(name)));
	assert_string_equal(name, "mod_a");
	/* Only the given length counts. */
	assert_true(module_name_of_path("mod_a.ko: more", 8, name, sizeof(name)));
	assert_string_equal(name, "mod_a");
	assert_true(module_name_of_path("abcdefg.ko", 10, name, sizeof(name)));
	assert_string_equal(name, "abcdefg");
	assert_false(module_name_of_path("abcdefgh.ko", 11, name, sizeof(name)));
	assert_string_equal(name, "");
	assert_false(module_name_of_path("dir/", 4, name, sizeof(name)));
	assert_false(module_name_of_path("", 0, name, sizeof(name)));
	assert_false(module_name_of_path("a", 1, name, 0));
}

/* Depmod's lines list everything, to be loaded from the last; lines
 * with only the direct dependencies give the same order. */
static void test_order(void **state)
{
	static const char depmod[] = "mod_user.ko: mod_exporter.ko\nmod_exporter.ko:\n";

	(void)state;
	expect(depmod, "mod_user", 0, "mod_exporter.ko mod_user.ko");
	expect(depmod, "mod_exporter", 0, "mod_exporter.ko");
	expect("a.ko: b.ko c.ko\nb.ko: c.ko\nc.ko:\n", "a", 0, "c.ko b.ko a.ko");
	expect("a.ko: b.ko\nb.ko: c.ko\nc.ko:", "a", 0, "c.ko b.ko a.ko");
	/* Each once, whatever the lines repeat. */
	expect("a.ko: d.ko b.ko c.ko b.ko\nb.ko: c.ko d.ko\nc.ko: d.ko\nd.ko:", "a", 0,
	       "d.ko c.ko b.ko a.ko");
}

/* A name, a file name or one with '-' for '_'; paths in directories;
 * blanks, CR-LF and lines that are not module lines. */
static void test_forms(void **state)
{
	static const char text[] =
		"# made by hand\n\n  kernel/mod-user.ko :\tkernel/lib/a.ko \r\n"
		"nothing here\nkernel/lib/a.ko:\r\n";
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		static const char *const names[] = { "mod_user", "mod-user", "mod_user.ko" };

		expect(text, names[i], 0, "kernel/lib/a.ko kernel/mod-user.ko");
	}
}

static void test_missing(void **state)
{
	(void)state;
	expect("a.ko: b.ko\nb.ko:\n", "nosuch", -ENOENT, "nosuch");
	expect("a.ko: gone.ko b.ko\nb.ko:\n", "a", -ENOENT, "gone.ko");
	expect("", "a", -ENOENT, NULL);
	/* A name too long to be a module's is none. */
	expect("a.ko:\n", "a_name_longer_than_any_module_may_have_in_this_kernel_at_all",
	       -ENOENT, NULL);
}

static void test_cycles(void **state)
{
	(void)state;
	expect("a.ko: b.ko\nb.ko: a.ko\n", "a", -EINVAL, "a.ko");
	expect("a.ko: a.ko\n", "a", -EINVAL, NULL);
	expect("x.ko: a.ko\na.ko: b.ko\nb.ko: c.ko\nc.ko: a.ko\n", "x", -EINVAL, "a.ko");
}

/* Append to text[0..size), at *at. */
static __attribute__((format(printf, 4, 5))) void add(char *text, size_t size, size_t *at,
						      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*at += vsnprintf(text + *at, size - *at, fmt, ap);
	va_end(ap);
	assert_true(*at < size);
}

/* MODPROBE_MAX_MODULES in a chain fit; one more does not. */
static void test_too_many(void **state)
{
	char chain[1024], wide[1024];
	size_t c = 0, w = 0;

	(void)state;
	add(wide, sizeof(wide), &w, "top.ko:");
	for (int i = 0; i < MODPROBE_MAX_MODULES; i++) {
		add(chain, sizeof(chain), &c, "m%d.ko: m%d.ko\n", i, i + 1);
		add(wide, sizeof(wide), &w, " w%d.ko", i);
	}
	add(chain, sizeof(chain), &c, "m%d.ko:\n", MODPROBE_MAX_MODULES);
	add(wide, sizeof(wide), &w, "\n");
	for (int i = 0; i < MODPROBE_MAX_MODULES; i++)
		add(wide, sizeof(wide), &w, "w%d.ko:\n", i);
	expect(chain, "m1", 0, NULL);
	expect(chain, "m0", -E2BIG, NULL);
	/* Wide rather than deep. */
	expect(wide, "top", -E2BIG, "top.ko");
	expect(wide, "w3", 0, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_cycles),
		cmocka_unit_test(test_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
