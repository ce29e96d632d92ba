/* Host tests for kernel/symtab.c, on synthetic tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/symtab.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/*
 * The main test table, sorted by address:
 *
 *	0x1000 +0x10  alpha	T
 *	0x1010 +0x20  beta	T	(right after alpha)
 *	               ...	gap 0x1030 - 0x10ff
 *	0x1100 +0     label	t	(size 0: reaches to the next symbol)
 *	0x1200 +0     alias	T	(same address as gamma, size 0)
 *	0x1200 +0x40  gamma	t
 *	0x2000 +0x8   object	D
 *	0x3000 +0x10  last	d
 *
 * Each name follows its type letter; the offsets are the names'.
 */
static const char names[] =
	"Talpha\0Tbeta\0tlabel\0Talias\0tgamma\0Dobject\0dlast";

enum { ALPHA = 1, BETA = 8, LABEL = 14, ALIAS = 21, GAMMA = 28, OBJECT = 35,
       LAST = 43 };

static const struct symtab_entry entries[] = {
	{ 0x1000, 0x10, ALPHA },
	{ 0x1010, 0x20, BETA },
	{ 0x1100, 0, LABEL },
	{ 0x1200, 0, ALIAS },
	{ 0x1200, 0x40, GAMMA },
	{ 0x2000, 0x8, OBJECT },
	{ 0x3000, 0x10, LAST },
};

static const struct symtab table = { entries, ARRAY_SIZE(entries), names };

/* sym_by_name() and friends read the kernel's table: give them ours. */
const struct symtab kernel_symtab = { entries, ARRAY_SIZE(entries), names };

/* Which symbol (by name) holds addr, or NULL. */
static const char *owner(const struct symtab *tab, uintptr_t addr)
{
	struct symbol sym;

	if (symtab_lookup_addr(tab, addr, &sym) < 0)
		return NULL;
	return sym.name;
}

static void assert_owner(uintptr_t addr, const char *want)
{
	const char *got = owner(&table, addr);

	if (!want && got)
		fail_msg("0x%lx: want no symbol, got %s", (unsigned long)addr, got);
	if (want && (!got || strcmp(got, want) != 0))
		fail_msg("0x%lx: want %s, got %s", (unsigned long)addr, want,
			 got ? got : "no symbol");
}

static void test_name_exact(void **state)
{
	struct symbol sym;

	(void)state;
	assert_int_equal(symtab_lookup_name(&table, "beta", &sym), 0);
	assert_string_equal(sym.name, "beta");
	assert_int_equal(sym.addr, 0x1010);
	assert_int_equal(sym.size, 0x20);
	assert_int_equal(sym.type, 'T');

	assert_int_equal(symtab_lookup_name(&table, "alpha", &sym), 0);
	assert_int_equal(sym.addr, 0x1000);
	assert_int_equal(symtab_lookup_name(&table, "last", &sym), 0);
	assert_int_equal(sym.addr, 0x3000);
	assert_int_equal(sym.type, 'd');
	assert_int_equal(symtab_lookup_name(&table, "label", &sym), 0);
	assert_int_equal(sym.size, 0);
}

static void test_name_not_found(void **state)
{
	static const char *const missing[] = {
		"", "alph", "alphax", "Alpha", "bet", "lastx", "gamma ",
	};
	struct symbol sym;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(missing); i++)
		assert_int_equal(symtab_lookup_name(&table, missing[i], &sym),
				 -ENOENT);
}

static void test_addr_in_symbols(void **state)
{
	(void)state;
	assert_owner(0x1000, "alpha");	/* start */
	assert_owner(0x1007, "alpha");	/* middle */
	assert_owner(0x100f, "alpha");	/* last byte */
	assert_owner(0x1010, "beta");	/* the next one starts right after */
	assert_owner(0x102f, "beta");
	assert_owner(0x2000, "object");
	assert_owner(0x2007, "object");
	assert_owner(0x3000, "last");
	assert_owner(0x300f, "last");
}

static void test_addr_outside(void **state)
{
	(void)state;
	assert_owner(0, NULL);
	assert_owner(0xfff, NULL);	/* before the first */
	assert_owner(0x1030, NULL);	/* just past beta, in the gap */
	assert_owner(0x10ff, NULL);	/* end of the gap */
	assert_owner(0x2008, NULL);	/* just past object */
	assert_owner(0x2fff, NULL);
	assert_owner(0x3010, NULL);	/* just past the last */
	assert_owner(UINTPTR_MAX, NULL);
}

/* A size-0 symbol covers everything up to the next symbol. */
static void test_addr_size_zero(void **state)
{
	struct symbol sym;

	(void)state;
	assert_owner(0x1100, "label");
	assert_owner(0x1150, "label");
	assert_owner(0x11ff, "label");
	assert_int_equal(symtab_lookup_addr(&table, 0x1150, &sym), 0);
	assert_int_equal(sym.addr, 0x1100);
	assert_int_equal(sym.size, 0);
}

/* At a shared address the symbol whose range holds addr wins over the
 * size-0 one; past its end, the size-0 one is the nearest before. */
static void test_addr_shared_start(void **state)
{
	(void)state;
	assert_owner(0x1200, "gamma");
	assert_owner(0x123f, "gamma");
	assert_owner(0x1240, "alias");
	assert_owner(0x1fff, "alias");
}

static void test_empty_table(void **state)
{
	const struct symtab empty = { NULL, 0, "" };
	struct symbol sym;

	(void)state;
	assert_int_equal(symtab_lookup_name(&empty, "alpha", &sym), -ENOENT);
	assert_int_equal(symtab_lookup_addr(&empty, 0, &sym), -ENOENT);
	assert_int_equal(symtab_lookup_addr(&empty, 0x1000, &sym), -ENOENT);
	assert_int_equal(symtab_lookup_addr(&empty, UINTPTR_MAX, &sym), -ENOENT);
}

static void test_single_entry(void **state)
{
	static const struct symtab_entry one[] = { { 0x500, 4, 1 } };
	const struct symtab tab = { one, 1, "donly" };

	(void)state;
	assert_null(owner(&tab, 0x4ff));
	assert_string_equal(owner(&tab, 0x500), "only");
	assert_string_equal(owner(&tab, 0x503), "only");
	assert_null(owner(&tab, 0x504));
}

/* Static functions in different files may share a name: the one with the
 * lowest address is found. */
static void test_duplicate_names(void **state)
{
	static const struct symtab_entry dup[] = {
		{ 0x100, 8, 1 },
		{ 0x200, 8, 6 },
		{ 0x300, 8, 1 },
	};
	const struct symtab tab = { dup, 3, "tdup\0tmid" };
	struct symbol sym;

	(void)state;
	assert_int_equal(symtab_lookup_name(&tab, "dup", &sym), 0);
	assert_int_equal(sym.addr, 0x100);
	assert_string_equal(owner(&tab, 0x304), "dup");
}

/* Many symbols: the binary search must agree with a linear scan for
 * every interesting address. */
static void test_large_table_matches_linear(void **state)
{
	enum { N = 1000 };
	struct symtab_entry *many = calloc(N, sizeof(*many));
	char *blob = calloc(N, 8);
	struct symtab tab = { many, N, blob };
	uintptr_t addr = 0x10000, probe;
	size_t i;

	(void)state;
	assert_non_null(many);
	assert_non_null(blob);
	for (i = 0; i < N; i++) {
		blob[i * 8] = 't';
		snprintf(blob + i * 8 + 1, 7, "s%zu", i);
		many[i].addr = addr;
		many[i].size = i % 5 == 0 ? 0 : (i % 7) * 4;	/* some 0 */
		many[i].name_off = i * 8 + 1;
		addr += 16 + (i % 3) * 8;	/* gaps after most */
	}
	for (probe = 0xfff0; probe < addr + 64; probe += 4) {
		const char *want = NULL;

		/* Reference: the last symbol at or below probe, if it holds
		 * probe or has size 0 (no two symbols share an address). */
		for (i = N; i-- > 0;) {
			if (many[i].addr <= probe) {
				if (many[i].size == 0 ||
				    probe - many[i].addr < many[i].size)
					want = blob + i * 8 + 1;
				break;
			}
		}
		if (want == NULL)
			assert_null(owner(&tab, probe));
		else
			assert_string_equal(owner(&tab, probe), want);
	}
	/* Every name is found and maps back to its entry. */
	for (i = 0; i < N; i++) {
		struct symbol sym;

		assert_int_equal(symtab_lookup_name(&tab, blob + i * 8 + 1, &sym), 0);
		assert_int_equal(sym.addr, many[i].addr);
	}
	free(many);
	free(blob);
}

static void test_kernel_table_wrappers(void **state)
{
	struct symbol sym;

	(void)state;
	assert_int_equal(sym_by_name("object", &sym), 0);
	assert_int_equal(sym.addr, 0x2000);
	assert_int_equal(sym.type, 'D');
	assert_int_equal(sym_by_name("nope", &sym), -ENOENT);
	assert_int_equal(sym_by_addr(0x1015, &sym), 0);
	assert_string_equal(sym.name, "beta");
	assert_int_equal(sym_by_addr(0x1030, &sym), -ENOENT);
}

/* The listing of /proc/kallsyms: the kernel's entries, then a module's,
 * less those of its init code once that is freed. */
static void test_listing_by_position(void **state)
{
	static const char mod_names[] = "tcore_fn\0tinit_fn\0Texported";
	static const struct symtab_entry mod_entries[] = {
		{ 0x9000, 0x10, 1 },	/* core_fn, core */
		{ 0x9010, 0x10, 19 },	/* exported, core */
		{ 0xa000, 0x10, 10 },	/* init_fn, init */
	};
	struct symtab_module mod = {
		.table = { mod_entries, ARRAY_SIZE(mod_entries), mod_names },
		.module = "mod", .start = 0x9000, .end = 0x9100,
		.init_start = 0xa000, .init_end = 0xa100,
	};
	const size_t k = ARRAY_SIZE(entries);
	struct symbol sym;

	(void)state;
	assert_int_equal(sym_at(0, &sym), 0);
	assert_string_equal(sym.name, "alpha");
	assert_null(sym.module);
	assert_int_equal(sym_at(k - 1, &sym), 0);
	assert_string_equal(sym.name, "last");
	assert_int_equal(sym_at(k, &sym), -ENOENT);

	symtab_add_module(&mod);
	assert_int_equal(sym_at(k, &sym), 0);
	assert_string_equal(sym.name, "core_fn");
	assert_string_equal(sym.module, "mod");
	assert_int_equal(sym_at(k + 1, &sym), 0);
	assert_string_equal(sym.name, "exported");
	assert_int_equal(sym.type, 'T');
	assert_int_equal(sym_at(k + 2, &sym), 0);
	assert_string_equal(sym.name, "init_fn");
	assert_int_equal(sym_at(k + 3, &sym), -ENOENT);

	symtab_drop_module_init(&mod);
	assert_int_equal(sym_at(k + 2, &sym), -ENOENT);
	symtab_remove_module(&mod);
	assert_int_equal(sym_at(k, &sym), -ENOENT);
}

/* What symtab_for_each_function visited: "name@start-end " each. */
struct visits {
	char text[256];
	int stop_after;		/* 0: never stop */
	int count;
};

static int record_visit(const struct symbol *sym, void *arg)
{
	struct visits *v = arg;
	size_t len = strlen(v->text);

	snprintf(v->text + len, sizeof(v->text) - len, "%s@%lx-%lx ", sym->name,
		 (unsigned long)sym->addr, (unsigned long)(sym->addr + sym->size));
	return ++v->count == v->stop_after ? 42 : 0;
}

static void test_for_each_function(void **state)
{
	struct visits v = { "", 0, 0 };

	(void)state;
	/* Each function once, by the name lookups give it (gamma, not its
	 * alias); label reaches to the next symbol; data is no function. */
	assert_int_equal(symtab_for_each_function(&table, 0x1000, 0x3100, record_visit, &v), 0);
	assert_string_equal(v.text, "alpha@1000-1010 beta@1010-1030 label@1100-1200 "
			    "gamma@1200-1240 ");
	/* Only functions that start in the range, cut at its end. */
	v = (struct visits){ "", 0, 0 };
	assert_int_equal(symtab_for_each_function(&table, 0x1005, 0x1150, record_visit, &v), 0);
	assert_string_equal(v.text, "beta@1010-1030 label@1100-1150 ");
	/* A non-zero answer stops the walk and is returned. */
	v = (struct visits){ "", 2, 0 };
	assert_int_equal(symtab_for_each_function(&table, 0, 0x3100, record_visit, &v), 42);
	assert_string_equal(v.text, "alpha@1000-1010 beta@1010-1030 ");
}

static void test_sym_format(void **state)
{
	char buf[64];

	(void)state;
	sym_format(0x1015, buf, sizeof(buf));
	assert_string_equal(buf, "beta+0x5/0x20");
	sym_format(0x1000, buf, sizeof(buf));
	assert_string_equal(buf, "alpha+0x0/0x10");
	sym_format(0x1150, buf, sizeof(buf));
	assert_string_equal(buf, "label+0x50/0x0");
	sym_format(0x1030, buf, sizeof(buf));
	assert_string_equal(buf, "0x0000000000001030");
	sym_format(0xffffffff80101234ul, buf, sizeof(buf));
	assert_string_equal(buf, "0xffffffff80101234");
	/* A small buffer truncates, and is still terminated. */
	sym_format(0x1015, buf, 6);
	assert_string_equal(buf, "beta+");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_exact),
		cmocka_unit_test(test_name_not_found),
		cmocka_unit_test(test_addr_in_symbols),
		cmocka_unit_test(test_addr_outside),
		cmocka_unit_test(test_addr_size_zero),
		cmocka_unit_test(test_addr_shared_start),
		cmocka_unit_test(test_empty_table),
		cmocka_unit_test(test_single_entry),
		cmocka_unit_test(test_duplicate_names),
		cmocka_unit_test(test_large_table_matches_linear),
		cmocka_unit_test(test_kernel_table_wrappers),
		cmocka_unit_test(test_listing_by_position),
		cmocka_unit_test(test_for_each_function),
		cmocka_unit_test(test_sym_format),
	};

	return cmocka_run_group_tests_name("symtab", tests, NULL, NULL);
}
