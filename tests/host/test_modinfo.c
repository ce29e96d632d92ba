/*
 * Host tests for kernel/module/modinfo.c: walking a .modinfo section's
 * strings, finding one, printing them as Linux's modinfo does, and
 * finding the section in a module file (with the loader's ELF check).
 * Every buffer is allocated at exactly its size, so that ASan catches a
 * read past its end.
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
#include "kernel/module/modinfo.h"
#include "tests/host/elf_header.h"
#include "lib/elf.h"
#include "lib/errno.h"
#include "lib/string.h"

/* A copy of the first n bytes of s in a buffer of exactly n bytes. */
static char *exact(const char *s, size_t n)
{
	char *p = malloc(n);

	assert_non_null(p);
	memcpy(p, s, n);
	return p;
}

/* What modinfo_print prints, gathered. */
struct text {
	char buf[2048];
	size_t len;
};

static void gather(void *ctx, const char *s, size_t len)
{
	struct text *t = ctx;

	assert_true(t->len + len < sizeof(t->buf));
	memcpy(t->buf + t->len, s, len);
	t->len += len;
	t->buf[t->len] = '\0';
}

/* Strings without '=' or with an empty key, padding, and a last string
 * cut by the section's end, are skipped. */
static void test_iter(void **state)
{
	static const char section[] = "license=GPL\0\0noequals\0=nokey\0name=x\0cut=";
	char *data = exact(section, sizeof(section) - 1);
	struct modinfo_iter it;
	const char *key, *value;
	size_t len;

	(void)state;
	modinfo_iter_init(&it, data, sizeof(section) - 1);
	assert_true(modinfo_next(&it, &key, &len, &value));
	assert_int_equal(len, 7);
	assert_memory_equal(key, "license", 7);
	assert_string_equal(value, "GPL");
	assert_true(modinfo_next(&it, &key, &len, &value));
	assert_int_equal(len, 4);
	assert_string_equal(value, "x");
	assert_false(modinfo_next(&it, &key, &len, &value));
	assert_false(modinfo_next(&it, &key, &len, &value));
	modinfo_iter_init(&it, data, 0);
	assert_false(modinfo_next(&it, &key, &len, &value));
	free(data);
}

static void test_get(void **state)
{
	static const char section[] = "name=first\0nam=no\0names=no\0name=second\0vermagic=v";
	char *data = exact(section, sizeof(section));

	(void)state;
	assert_string_equal(modinfo_get(data, sizeof(section), "name"), "first");
	assert_string_equal(modinfo_get(data, sizeof(section), "nam"), "no");
	assert_string_equal(modinfo_get(data, sizeof(section), "vermagic"), "v");
	assert_null(modinfo_get(data, sizeof(section), "license"));
	/* Cut before its NUL: not a string of the section. */
	assert_null(modinfo_get(data, sizeof(section) - 1, "vermagic"));
	free(data);
}

/* Linux's layout: names padded to 16 columns; the parameters last, one
 * line each at its first string, NAME:DESC (TYPE), NAME:TYPE or
 * NAME:DESC; a parm= without ':' is no parameter's. */
static void test_print(void **state)
{
	static const char section[] =
		"license=GPL\0parm=p:desc: one\0parmtype=q:int\0parmtype=p:charp\0"
		"depends=\0name=m\0parm=r:only desc\0averyveryverylongkey=v\0parm=bad\0"
		"parm=p:a second one\0parmtype=q:long";
	static const char want[] =
		"filename:       /lib/modules/m.ko\n"
		"size:           1234\n"
		"license:        GPL\n"
		"depends:        \n"
		"name:           m\n"
		"averyveryverylongkey:v\n"
		"parm:           bad\n"
		"parm:           p:desc: one (charp)\n"
		"parm:           q:int\n"
		"parm:           r:only desc\n";
	char *data = exact(section, sizeof(section));
	struct text out = { .len = 0 };

	(void)state;
	modinfo_print("/lib/modules/m.ko", 1234, data, sizeof(section), gather, &out);
	assert_string_equal(out.buf, want);
	free(data);
}

/* A module file with the given .modinfo: the ELF header, the section,
 * an empty symbol table and its names, then the section headers. */
enum { S_NULL, S_MODINFO, S_SYMTAB, S_STRTAB, S_SHSTRTAB, NSECT };
static const char shstrtab[] = "\0.modinfo\0.symtab\0.strtab\0.shstrtab";

/* Offsets in shstrtab. */
#define NAME_MODINFO 1
#define NAME_SYMTAB 10
#define NAME_STRTAB 18
#define NAME_SHSTRTAB 26

/* name: the offset of the name section S_MODINFO has in shstrtab. */
static uint8_t *make_module(const char *modinfo, size_t modinfo_size, uint32_t name,
			    uint16_t machine, size_t *size)
{
	size_t off_modinfo = sizeof(Elf64_Ehdr);
	size_t off_symtab = (off_modinfo + modinfo_size + 7) & ~(size_t)7;
	size_t off_strtab = off_symtab + sizeof(Elf64_Sym);
	size_t off_shstrtab = off_strtab + 1;
	size_t off_shdrs = (off_shstrtab + sizeof(shstrtab) + 7) & ~(size_t)7;
	uint8_t *buf;
	Elf64_Shdr *sh;

	*size = off_shdrs + NSECT * sizeof(Elf64_Shdr);
	buf = calloc(1, *size);
	assert_non_null(buf);
	elf_header_init((Elf64_Ehdr *)buf, machine, off_shdrs, NSECT, S_SHSTRTAB);
	memcpy(buf + off_modinfo, modinfo, modinfo_size);
	memcpy(buf + off_shstrtab, shstrtab, sizeof(shstrtab));
	sh = (Elf64_Shdr *)(buf + off_shdrs);
	sh[S_MODINFO] = (Elf64_Shdr){ .sh_name = name,
				      .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
				      .sh_offset = off_modinfo, .sh_size = modinfo_size,
				      .sh_addralign = 1 };
	sh[S_SYMTAB] = (Elf64_Shdr){ .sh_name = NAME_SYMTAB, .sh_type = SHT_SYMTAB,
				     .sh_offset = off_symtab, .sh_size = sizeof(Elf64_Sym),
				     .sh_link = S_STRTAB, .sh_addralign = 8,
				     .sh_entsize = sizeof(Elf64_Sym) };
	sh[S_STRTAB] = (Elf64_Shdr){ .sh_name = NAME_STRTAB, .sh_type = SHT_STRTAB,
				     .sh_offset = off_strtab, .sh_size = 1, .sh_addralign = 1 };
	sh[S_SHSTRTAB] = (Elf64_Shdr){ .sh_name = NAME_SHSTRTAB, .sh_type = SHT_STRTAB,
				       .sh_offset = off_shstrtab, .sh_size = sizeof(shstrtab),
				       .sh_addralign = 1 };
	return buf;
}

static void test_section(void **state)
{
	static const char modinfo[] = "license=GPL\0name=m";
	static const uint16_t machines[] = { 40, EM_X86_64, EM_AARCH64 };
	const void *data;
	size_t size, len;
	char why[128];
	uint8_t *mod;

	(void)state;
	/* Any machine's module, this one's or another's. */
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		mod = make_module(modinfo, sizeof(modinfo), NAME_MODINFO, machines[i], &size);
		assert_int_equal(modinfo_section(mod, size, &data, &len, why, sizeof(why)), 0);
		assert_int_equal(len, sizeof(modinfo));
		assert_string_equal(modinfo_get(data, len, "name"), "m");
		free(mod);
	}
	/* No .modinfo: the section is called otherwise. */
	mod = make_module(modinfo, sizeof(modinfo), NAME_STRTAB, EM_X86_64, &size);
	assert_int_equal(modinfo_section(mod, size, &data, &len, why, sizeof(why)), -ENOEXEC);
	assert_string_equal(why, "no .modinfo section");
	/* Cut short, and not a module at all. */
	assert_int_equal(modinfo_section(mod, 40, &data, &len, why, sizeof(why)), -ENOEXEC);
	assert_string_equal(why, "file truncated: 40 bytes, an ELF header needs 64");
	assert_int_equal(modinfo_section(mod, 1, &data, &len, why, sizeof(why)), -ENOEXEC);
	free(mod);
	mod = (uint8_t *)exact("hello", 5);
	assert_int_equal(modinfo_section(mod, 5, &data, &len, why, sizeof(why)), -ENOEXEC);
	assert_string_equal(why, "not an ELF file");
	free(mod);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iter),
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_section),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
