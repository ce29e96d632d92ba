/*
 * Host tests for kernel/module/elf_check.c on objects built here, in
 * memory: a small valid relocatable object, then copies of it broken in
 * one way each. Each broken copy must be refused with -ENOEXEC and the
 * expected reason, and without reading outside the buffer (ASan checks:
 * every buffer is allocated at exactly the file's size).
 *
 * Real compiler output is checked by test_module_reloc_types.py.
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
#include "kernel/module/elf_check.h"
#include "tests/host/elf_header.h"
#include "lib/errno.h"
#include "lib/string.h"

/* The sections of the test object, by index. */
enum {
	S_NULL, S_TEXT, S_RELA_TEXT, S_SYMTAB, S_STRTAB, S_SHSTRTAB, S_BSS, NSECT
};

/* The symbols. */
enum { SYM_NULL, SYM_TEXT_SECTION, SYM_INIT, SYM_PRINTK, NSYM };

#define TEXT_SIZE 16
#define NRELA 2

static const char strtab[] = "\0init_module\0printk";
static const char shstrtab[] =
	"\0.text\0.rela.text\0.symtab\0.strtab\0.shstrtab\0.bss";
/* Offsets of the names above. */
#define NAME_INIT	1
#define NAME_PRINTK	13
#define SHNAME_TEXT	1
#define SHNAME_RELA	7
#define SHNAME_SYMTAB	18
#define SHNAME_STRTAB	26
#define SHNAME_SHSTRTAB	34
#define SHNAME_BSS	44

/* Where each part lies in the file: header, .text, .symtab, .rela.text,
 * .strtab, .shstrtab, then the section header table (8-byte aligned). */
#define OFF_TEXT	sizeof(Elf64_Ehdr)
#define OFF_SYMTAB	(OFF_TEXT + TEXT_SIZE)
#define OFF_RELA	(OFF_SYMTAB + NSYM * sizeof(Elf64_Sym))
#define OFF_STRTAB	(OFF_RELA + NRELA * sizeof(Elf64_Rela))
#define OFF_SHSTRTAB	(OFF_STRTAB + sizeof(strtab))
#define OFF_SHDRS	((OFF_SHSTRTAB + sizeof(shstrtab) + 7) & ~(size_t)7)
#define OBJ_SIZE	(OFF_SHDRS + NSECT * sizeof(Elf64_Shdr))

/* An object under test, with pointers to its parts for breaking them. */
struct obj {
	uint8_t *buf;
	size_t size;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	Elf64_Sym *sym;
	Elf64_Rela *rela;
};

static void set_section(Elf64_Shdr *sh, uint32_t name, uint32_t type, uint64_t flags,
			uint64_t off, uint64_t size, uint32_t link, uint32_t info,
			uint64_t align, uint64_t entsize)
{
	sh->sh_name = name;
	sh->sh_type = type;
	sh->sh_flags = flags;
	sh->sh_offset = off;
	sh->sh_size = size;
	sh->sh_link = link;
	sh->sh_info = info;
	sh->sh_addralign = align;
	sh->sh_entsize = entsize;
}

static void set_symbol(Elf64_Sym *s, uint32_t name, int bind, int type,
		       uint16_t shndx, uint64_t value, uint64_t size)
{
	s->st_name = name;
	s->st_info = (uint8_t)(bind << 4 | type);
	s->st_shndx = shndx;
	s->st_value = value;
	s->st_size = size;
}

/* Build the valid object for machine: init_module in .text calls printk
 * (a PLT32-style relocation) and holds a pointer to .text itself. The
 * relocation types are not checked by elf_check, so one set serves both
 * machines. */
static struct obj make_obj(uint16_t machine)
{
	struct obj o;
	Elf64_Ehdr *eh;

	o.size = OBJ_SIZE;
	o.buf = calloc(1, o.size);
	assert_non_null(o.buf);
	o.eh = eh = (Elf64_Ehdr *)o.buf;
	o.sh = (Elf64_Shdr *)(o.buf + OFF_SHDRS);
	o.sym = (Elf64_Sym *)(o.buf + OFF_SYMTAB);
	o.rela = (Elf64_Rela *)(o.buf + OFF_RELA);

	elf_header_init(eh, machine, OFF_SHDRS, NSECT, S_SHSTRTAB);

	/* call printk; nop...; a .quad at 8 */
	memset(o.buf + OFF_TEXT, 0x90, TEXT_SIZE);
	o.buf[OFF_TEXT] = 0xe8;
	memcpy(o.buf + OFF_STRTAB, strtab, sizeof(strtab));
	memcpy(o.buf + OFF_SHSTRTAB, shstrtab, sizeof(shstrtab));

	set_symbol(&o.sym[SYM_TEXT_SECTION], 0, STB_LOCAL, STT_SECTION, S_TEXT, 0, 0);
	set_symbol(&o.sym[SYM_INIT], NAME_INIT, STB_GLOBAL, STT_FUNC, S_TEXT, 0, TEXT_SIZE);
	set_symbol(&o.sym[SYM_PRINTK], NAME_PRINTK, STB_GLOBAL, STT_NOTYPE, SHN_UNDEF, 0, 0);

	o.rela[0].r_offset = 1;
	o.rela[0].r_info = ELF64_R_INFO(SYM_PRINTK, 4);
	o.rela[0].r_addend = -4;
	o.rela[1].r_offset = 8;
	o.rela[1].r_info = ELF64_R_INFO(SYM_TEXT_SECTION, 1);
	o.rela[1].r_addend = 0;

	set_section(&o.sh[S_TEXT], SHNAME_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
		    OFF_TEXT, TEXT_SIZE, 0, 0, 16, 0);
	set_section(&o.sh[S_RELA_TEXT], SHNAME_RELA, SHT_RELA, 0, OFF_RELA,
		    NRELA * sizeof(Elf64_Rela), S_SYMTAB, S_TEXT, 8, sizeof(Elf64_Rela));
	set_section(&o.sh[S_SYMTAB], SHNAME_SYMTAB, SHT_SYMTAB, 0, OFF_SYMTAB,
		    NSYM * sizeof(Elf64_Sym), S_STRTAB, SYM_INIT, 8, sizeof(Elf64_Sym));
	set_section(&o.sh[S_STRTAB], SHNAME_STRTAB, SHT_STRTAB, 0, OFF_STRTAB,
		    sizeof(strtab), 0, 0, 1, 0);
	set_section(&o.sh[S_SHSTRTAB], SHNAME_SHSTRTAB, SHT_STRTAB, 0, OFF_SHSTRTAB,
		    sizeof(shstrtab), 0, 0, 1, 0);
	/* .bss has no bytes in the file: an offset past the end is fine. */
	set_section(&o.sh[S_BSS], SHNAME_BSS, SHT_NOBITS, SHF_ALLOC | SHF_WRITE,
		    OBJ_SIZE + 4096, 64, 0, 0, 8, 0);
	return o;
}

static char why[160];

/* Check o as an object for machine; returns module_elf_check's result,
 * with its reason in why. */
static int check_as(const struct obj *o, uint16_t machine)
{
	memset(why, 'x', sizeof(why));
	return module_elf_check(o->buf, o->size, machine, why, sizeof(why));
}

/* o, checked as a module for machine, must be refused with exactly the
 * reason want; frees o. */
static void expect_refused_as(struct obj *o, uint16_t machine, const char *want)
{
	int err = check_as(o, machine);

	if (err != -ENOEXEC || strcmp(why, want) != 0)
		fail_msg("got %d \"%s\", want -ENOEXEC \"%s\"", err, why, want);
	free(o->buf);
}

static void expect_refused(struct obj *o, const char *want)
{
	expect_refused_as(o, EM_X86_64, want);
}

static void test_valid(void **state)
{
	struct obj o = make_obj(EM_X86_64);
	struct obj a = make_obj(EM_AARCH64);

	(void)state;
	assert_int_equal(check_as(&o, EM_X86_64), 0);
	assert_string_equal(why, "");
	assert_int_equal(check_as(&a, EM_AARCH64), 0);
	assert_string_equal(why, "");
	/* No reason buffer at all is fine too. */
	assert_int_equal(module_elf_check(o.buf, o.size, EM_X86_64, NULL, 0), 0);
	free(o.buf);
	free(a.buf);
}

/* Every proper prefix of the file is refused, read only within itself. */
static void test_truncated(void **state)
{
	struct obj o = make_obj(EM_X86_64);

	(void)state;
	for (size_t len = 0; len <= o.size; len++) {
		uint8_t *copy = malloc(len ? len : 1);
		int err;

		assert_non_null(copy);
		memcpy(copy, o.buf, len);
		memset(why, 0, sizeof(why));
		err = module_elf_check(copy, len, EM_X86_64, why, sizeof(why));
		if (len == o.size) {
			assert_int_equal(err, 0);
		} else {
			if (err != -ENOEXEC)
				fail_msg("length %zu: got %d", len, err);
			assert_true(why[0] != '\0');
			assert_null(strchr(why, '\n'));
		}
		free(copy);
	}
	free(o.buf);
}

static void test_truncated_messages(void **state)
{
	struct obj o = make_obj(EM_X86_64);

	(void)state;
	o.size = 37;
	assert_int_equal(check_as(&o, EM_X86_64), -ENOEXEC);
	assert_string_equal(why, "file truncated: 37 bytes, an ELF header needs 64");
	o.size = 3;	/* "\177EL": could still be an ELF file */
	assert_int_equal(check_as(&o, EM_X86_64), -ENOEXEC);
	assert_string_equal(why, "file truncated: 3 bytes, an ELF header needs 64");
	o.size = OBJ_SIZE - 1;	/* cuts into the section header table */
	assert_int_equal(check_as(&o, EM_X86_64), -ENOEXEC);
	assert_string_equal(why, "section header table lies past the end of the file");
	free(o.buf);
}

static void test_text_file(void **state)
{
	static const char text[] = "hello\n";
	char *buf = malloc(sizeof(text) - 1);

	(void)state;
	memcpy(buf, text, sizeof(text) - 1);
	assert_int_equal(module_elf_check(buf, sizeof(text) - 1, EM_X86_64,
					  why, sizeof(why)), -ENOEXEC);
	assert_string_equal(why, "not an ELF file");
	free(buf);
}

static void test_ident(void **state)
{
	struct obj o;

	(void)state;
	o = make_obj(EM_X86_64);
	o.eh->e_ident[EI_CLASS] = 1;
	expect_refused(&o, "ELF class 1, not 64-bit");

	o = make_obj(EM_X86_64);
	o.eh->e_ident[EI_DATA] = 2;
	expect_refused(&o, "ELF data encoding 2, not little-endian");

	o = make_obj(EM_X86_64);
	o.eh->e_version = 0;
	expect_refused(&o, "ELF version 0, not 1");

	o = make_obj(EM_X86_64);
	o.buf[1] = 'e';
	expect_refused(&o, "not an ELF file");
}

static void test_wrong_machine(void **state)
{
	struct obj o = make_obj(EM_AARCH64);

	(void)state;
	expect_refused(&o, "built for aarch64 (machine 183); this kernel loads x86_64 (62)");

	o = make_obj(EM_X86_64);
	assert_int_equal(check_as(&o, EM_AARCH64), -ENOEXEC);
	assert_string_equal(why, "built for x86_64 (machine 62); this kernel loads aarch64 (183)");
	free(o.buf);

	o = make_obj(40);
	expect_refused(&o, "built for machine 40; this kernel loads x86_64 (62)");
}

static void test_wrong_type(void **state)
{
	struct obj o = make_obj(EM_X86_64);

	(void)state;
	o.eh->e_type = 2;
	expect_refused(&o, "not a relocatable object (type 2, an executable)");
	o = make_obj(EM_X86_64);
	o.eh->e_type = 3;
	expect_refused(&o, "not a relocatable object (type 3, a shared object)");
	o = make_obj(EM_X86_64);
	o.eh->e_type = 4;
	expect_refused(&o, "not a relocatable object (type 4)");
}

static void test_section_table(void **state)
{
	struct obj o;

	(void)state;
	o = make_obj(EM_X86_64);
	o.eh->e_shoff = OFF_SHDRS + 8;
	expect_refused(&o, "section header table lies past the end of the file");

	/* An offset near 2^64: off + len would wrap around to a small
	 * number. */
	o = make_obj(EM_X86_64);
	o.eh->e_shoff = UINT64_MAX - 63;
	expect_refused(&o, "section header table lies past the end of the file");

	o = make_obj(EM_X86_64);
	o.eh->e_shoff = 4;
	expect_refused(&o, "section header table at offset 0x4 is not 8-byte aligned");

	o = make_obj(EM_X86_64);
	o.eh->e_shentsize = 40;
	expect_refused(&o, "section header size 40, not 64");

	o = make_obj(EM_X86_64);
	o.eh->e_shnum = 0;
	expect_refused(&o, "no section headers");

	o = make_obj(EM_X86_64);
	o.eh->e_shnum = 0xff00;
	expect_refused(&o, "65280 sections, more than this loader supports");
}

static void test_section_names(void **state)
{
	struct obj o;

	(void)state;
	o = make_obj(EM_X86_64);
	o.eh->e_shstrndx = NSECT;
	expect_refused(&o, "section name table is section 7, but there are 7 sections");

	o = make_obj(EM_X86_64);
	o.eh->e_shstrndx = 0;
	expect_refused(&o, "no section name table");

	o = make_obj(EM_X86_64);
	o.eh->e_shstrndx = S_TEXT;
	expect_refused(&o, "section name table (section 1) is not a string table (type 1)");

	o = make_obj(EM_X86_64);
	o.sh[S_SHSTRTAB].sh_size += 1;
	o.sh[S_SHSTRTAB].sh_offset = OBJ_SIZE - sizeof(shstrtab);
	expect_refused(&o, "section 5 (the section name table) lies past the end of the file");

	o = make_obj(EM_X86_64);
	o.sh[S_SHSTRTAB].sh_size -= 1;	/* drops the final NUL */
	expect_refused(&o, "string table (section 5, the section name table) is not NUL-terminated");

	o = make_obj(EM_X86_64);
	o.sh[S_SHSTRTAB].sh_size = 0;
	expect_refused(&o, "string table (section 5, the section name table) is not NUL-terminated");

	o = make_obj(EM_X86_64);
	o.sh[S_TEXT].sh_name = sizeof(shstrtab);
	expect_refused(&o, "section 1's name (offset 49) lies past the end of the section name table (49 bytes)");
}

static void test_section_past_end(void **state)
{
	struct obj o;

	(void)state;
	o = make_obj(EM_X86_64);
	o.sh[S_TEXT].sh_offset = OBJ_SIZE - 8;
	expect_refused(&o, "section 1 (.text) lies past the end of the file");

	o = make_obj(EM_X86_64);
	o.sh[S_TEXT].sh_offset = UINT64_MAX - 4;
	expect_refused(&o, "section 1 (.text) lies past the end of the file");

	o = make_obj(EM_X86_64);
	o.sh[S_TEXT].sh_size = UINT64_MAX;
	expect_refused(&o, "section 1 (.text) lies past the end of the file");

	/* Exactly up to the end is fine. */
	o = make_obj(EM_X86_64);
	o.sh[S_TEXT].sh_size = OBJ_SIZE - OFF_TEXT;
	assert_int_equal(check_as(&o, EM_X86_64), 0);
	free(o.buf);

	o = make_obj(EM_X86_64);
	o.sh[S_SYMTAB].sh_size = 1000 * sizeof(Elf64_Sym);
	expect_refused(&o, "section 3 (.symtab) lies past the end of the file");

	o = make_obj(EM_X86_64);
	o.sh[S_STRTAB].sh_offset = OBJ_SIZE;
	expect_refused(&o, "section 4 (.strtab) lies past the end of the file");

	o = make_obj(EM_X86_64);
	o.sh[S_RELA_TEXT].sh_offset = OBJ_SIZE - sizeof(Elf64_Rela);
	expect_refused(&o, "section 2 (.rela.text) lies past the end of the file");

	o = make_obj(EM_X86_64);
	o.sh[S_TEXT].sh_addralign = 24;
	expect_refused(&o, "section 1 (.text) has alignment 24, not a power of two");
}

static void test_rel_refused(void **state)
{
	struct obj o = make_obj(EM_X86_64);

	(void)state;
	o.sh[S_RELA_TEXT].sh_type = SHT_REL;
	expect_refused(&o, "section 2 (.rela.text) holds REL relocations; this loader takes RELA only");
}

static void test_symtab(void **state)
{
	struct obj o;

	(void)state;
	o = make_obj(EM_X86_64);
	o.sh[S_SYMTAB].sh_type = SHT_PROGBITS;
	expect_refused(&o, "no symbol table");

	o = make_obj(EM_X86_64);
	o.sh[S_TEXT].sh_type = SHT_SYMTAB;
	o.sh[S_TEXT].sh_flags = 0;	/* an allocated symbol table is refused first */
	expect_refused(&o, "two symbol tables: sections 1 and 3");

	o = make_obj(EM_X86_64);
	o.sh[S_SYMTAB].sh_entsize = 16;
	expect_refused(&o, "section 3 (.symtab) has entries of 16 bytes, not 24");

	o = make_obj(EM_X86_64);
	o.sh[S_SYMTAB].sh_size -= 1;
	expect_refused(&o, "section 3 (.symtab) is 95 bytes, not a multiple of its 24-byte entries");

	o = make_obj(EM_X86_64);
	o.sh[S_SYMTAB].sh_link = S_TEXT;
	expect_refused(&o, "the symbol table's string table, section 1 (.text), is not a string table (type 1)");

	o = make_obj(EM_X86_64);
	o.sh[S_SYMTAB].sh_link = 99;
	expect_refused(&o, "the symbol table's string table, section 99, does not exist");

	o = make_obj(EM_X86_64);
	o.buf[OFF_STRTAB + sizeof(strtab) - 1] = 'x';
	expect_refused(&o, "string table .strtab (section 4) is not NUL-terminated");
}

static void test_symbols(void **state)
{
	struct obj o;

	(void)state;
	o = make_obj(EM_X86_64);
	o.sym[SYM_PRINTK].st_name = sizeof(strtab);
	expect_refused(&o, "symbol 3's name (offset 20) lies past the end of its string table (20 bytes)");

	/* The last byte (the final NUL) is a valid, empty name. */
	o = make_obj(EM_X86_64);
	o.sym[SYM_PRINTK].st_name = sizeof(strtab) - 1;
	assert_int_equal(check_as(&o, EM_X86_64), 0);
	free(o.buf);

	o = make_obj(EM_X86_64);
	o.sym[SYM_INIT].st_shndx = 40;
	expect_refused(&o, "symbol 2 names section 40, which does not exist");

	o = make_obj(EM_X86_64);
	o.sym[SYM_INIT].st_shndx = 0xfff3;
	expect_refused(&o, "symbol 2 has section index 0xfff3, which this loader does not support");

	o = make_obj(EM_X86_64);
	o.sym[SYM_INIT].st_value = TEXT_SIZE + 1;
	expect_refused(&o, "symbol 2 lies at offset 0x11, past the end of section 1 (.text)");

	/* The special indices, and a symbol just at the end of its section. */
	o = make_obj(EM_X86_64);
	o.sym[SYM_INIT].st_value = TEXT_SIZE;
	o.sym[SYM_PRINTK].st_shndx = SHN_ABS;
	o.sym[SYM_PRINTK].st_value = UINT64_MAX;
	o.sym[SYM_TEXT_SECTION].st_shndx = SHN_COMMON;
	assert_int_equal(check_as(&o, EM_X86_64), 0);
	free(o.buf);
}

static void test_relocations(void **state)
{
	struct obj o;

	(void)state;
	o = make_obj(EM_X86_64);
	o.rela[1].r_info = ELF64_R_INFO(99, 1);
	expect_refused(&o, "relocation 1 of section .rela.text uses symbol 99 of 4");

	o = make_obj(EM_X86_64);
	o.rela[0].r_info = ELF64_R_INFO(NSYM, 4);
	expect_refused(&o, "relocation 0 of section .rela.text uses symbol 4 of 4");

	o = make_obj(EM_X86_64);
	o.rela[1].r_offset = TEXT_SIZE;
	expect_refused(&o, "relocation 1 of section .rela.text patches offset 0x10, past the end of .text (16 bytes)");

	o = make_obj(EM_X86_64);
	o.rela[1].r_offset = UINT64_MAX;
	expect_refused(&o, "relocation 1 of section .rela.text patches offset 0xffffffffffffffff, past the end of .text (16 bytes)");

	o = make_obj(EM_X86_64);
	o.sh[S_RELA_TEXT].sh_entsize = 16;
	expect_refused(&o, "section 2 (.rela.text) has entries of 16 bytes, not 24");

	o = make_obj(EM_X86_64);
	o.sh[S_RELA_TEXT].sh_link = S_STRTAB;
	expect_refused(&o, "relocation section .rela.text links to section 4, not the symbol table (section 3)");

	o = make_obj(EM_X86_64);
	o.sh[S_RELA_TEXT].sh_info = 99;
	expect_refused(&o, "relocation section .rela.text applies to section 99, which does not exist");

	o = make_obj(EM_X86_64);
	o.sh[S_RELA_TEXT].sh_info = 0;
	expect_refused(&o, "relocation section .rela.text applies to section 0, which does not exist");

	o = make_obj(EM_X86_64);
	o.sh[S_RELA_TEXT].sh_info = S_BSS;
	expect_refused(&o, "relocation section .rela.text applies to section 6 (.bss), which has no contents");
}

static void test_alignment(void **state)
{
	struct obj o = make_obj(EM_X86_64);
	uint8_t *shifted = malloc(o.size + 8);

	(void)state;
	/* A symbol table at an odd offset could not be read in place. */
	o.sh[S_SYMTAB].sh_offset += 4;
	expect_refused(&o, "section 3 (.symtab) at offset 0x54 is not 8-byte aligned");

	/* The image itself must be aligned: that is the caller's doing. */
	o = make_obj(EM_X86_64);
	memcpy(shifted + 4, o.buf, o.size);
	assert_int_equal(module_elf_check(shifted + 4, o.size, EM_X86_64, why, sizeof(why)),
			 -EINVAL);
	free(shifted);
	free(o.buf);
}

static void test_why_buffer(void **state)
{
	struct obj o = make_obj(EM_X86_64);
	char small[8];

	(void)state;
	o.eh->e_ident[EI_CLASS] = 1;
	memset(small, 'x', sizeof(small));
	assert_int_equal(module_elf_check(o.buf, o.size, EM_X86_64, small, sizeof(small)),
			 -ENOEXEC);
	assert_string_equal(small, "ELF cla");
	assert_int_equal(module_elf_check(o.buf, o.size, EM_X86_64, NULL, 0), -ENOEXEC);
	free(o.buf);
}

/* Each section's type must fit what the loader does with it. */
static void test_section_use(void **state)
{
	struct obj o;

	(void)state;
	/* An allocated SHT_NULL section: not loaded, and its bytes never
	 * read, wherever its offset and size point. */
	o = make_obj(EM_X86_64);
	o.sh[S_BSS].sh_type = SHT_NULL;
	o.sh[S_BSS].sh_offset = 1ULL << 40;
	expect_refused(&o, "section 6 (.bss) is allocated, but its type 0x0 is not one this loader loads");

	o = make_obj(EM_X86_64);
	o.sh[S_TEXT].sh_type = SHT_NULL;
	o.sh[S_TEXT].sh_size = OBJ_SIZE * 2;
	expect_refused(&o, "section 1 (.text) is allocated, but its type 0x0 is not one this loader loads");

	/* x86_64's unwind tables load there, and only there. */
	o = make_obj(EM_X86_64);
	o.sh[S_TEXT].sh_type = SHT_X86_64_UNWIND;
	assert_int_equal(check_as(&o, EM_X86_64), 0);
	free(o.buf);
	o = make_obj(EM_AARCH64);
	o.sh[S_TEXT].sh_type = SHT_X86_64_UNWIND;
	o.eh->e_machine = EM_AARCH64;
	expect_refused_as(&o, EM_AARCH64,
			  "section 1 (.text) is allocated, but its type 0x70000001 is not one this loader loads");

	/* Relocations of another type would leave the module unrelocated. */
	o = make_obj(EM_X86_64);
	o.sh[S_RELA_TEXT].sh_type = SHT_PROGBITS;
	expect_refused(&o, "section 2 (.rela.text) is named as relocations, but its type is 0x1, not RELA (4)");

	/* An SHT_NULL section has no bytes: none are handed out. */
	o = make_obj(EM_X86_64);
	o.sh[S_BSS].sh_flags = 0;
	o.sh[S_BSS].sh_type = SHT_NULL;
	o.sh[S_BSS].sh_offset = 1ULL << 40;
	assert_int_equal(check_as(&o, EM_X86_64), 0);
	assert_false(elf_section_has_data(&o.sh[S_BSS]));
	assert_null(elf_section_data(o.eh, &o.sh[S_BSS]));
	assert_true(elf_section_has_data(&o.sh[S_TEXT]));
	assert_true(module_section_loaded(o.eh, &o.sh[S_TEXT]));
	assert_false(module_section_loaded(o.eh, &o.sh[S_BSS]));
	assert_false(module_section_loaded(o.eh, &o.sh[S_SYMTAB]));
	free(o.buf);
}

static void test_helpers(void **state)
{
	struct obj o = make_obj(EM_X86_64);
	const Elf64_Sym *syms;
	const Elf64_Rela *rela;
	size_t n;

	(void)state;
	assert_int_equal(check_as(&o, EM_X86_64), 0);
	assert_ptr_equal(elf_section(o.eh, S_TEXT), &o.sh[S_TEXT]);
	assert_null(elf_section(o.eh, NSECT));
	assert_string_equal(elf_section_name(o.eh, &o.sh[S_TEXT]), ".text");
	assert_string_equal(elf_section_name(o.eh, &o.sh[S_BSS]), ".bss");
	assert_string_equal(elf_section_name(o.eh, &o.sh[S_NULL]), "");
	assert_ptr_equal(elf_section_data(o.eh, &o.sh[S_TEXT]), o.buf + OFF_TEXT);
	assert_null(elf_section_data(o.eh, &o.sh[S_BSS]));
	assert_ptr_equal(elf_symtab_section(o.eh), &o.sh[S_SYMTAB]);

	syms = elf_symbols(o.eh, &n);
	assert_int_equal(n, NSYM);
	assert_ptr_equal(syms, o.sym);
	assert_string_equal(elf_symbol_name(o.eh, &syms[SYM_INIT]), "init_module");
	assert_string_equal(elf_symbol_name(o.eh, &syms[SYM_PRINTK]), "printk");
	assert_string_equal(elf_symbol_name(o.eh, &syms[SYM_NULL]), "");

	rela = elf_relocations(o.eh, &o.sh[S_RELA_TEXT], &n);
	assert_int_equal(n, NRELA);
	assert_int_equal(rela[0].r_offset, 1);
	assert_int_equal(ELF64_R_SYM(rela[0].r_info), SYM_PRINTK);
	free(o.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_truncated_messages),
		cmocka_unit_test(test_text_file),
		cmocka_unit_test(test_ident),
		cmocka_unit_test(test_wrong_machine),
		cmocka_unit_test(test_wrong_type),
		cmocka_unit_test(test_section_table),
		cmocka_unit_test(test_section_names),
		cmocka_unit_test(test_section_past_end),
		cmocka_unit_test(test_rel_refused),
		cmocka_unit_test(test_symtab),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_relocations),
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_why_buffer),
		cmocka_unit_test(test_section_use),
		cmocka_unit_test(test_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
