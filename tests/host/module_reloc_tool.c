/*
 * A host program for test_module_reloc_types.py, built once per
 * architecture with that architecture's module_reloc.c, elf_check.c and
 * lib/:
 *
 *   module_reloc_tool names      print "NUMBER NAME" for every relocation
 *                                type arch_module_reloc_name() knows
 *   module_reloc_tool link FILE  check FILE with module_elf_check(), lay
 *                                its allocated sections out from the
 *                                module region's start, resolve each
 *                                undefined symbol to an address in kernel
 *                                text, and apply every relocation of an
 *                                allocated section; print one line per
 *                                failure, then "link: N relocations
 *                                applied, M failed"
 *
 * So real compiler output is checked end to end: that the checker
 * accepts it, that every type in it is known, and that every field fits
 * at addresses like the kernel's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/rename.h"
#include "kernel/module/arch_module.h"
#include "kernel/module/elf_check.h"
#include "lib/errno.h"
#include "lib/string.h"

#ifndef MODULE_BASE
#error "MODULE_BASE and KERNEL_BASE must be defined"
#endif

static int names(void)
{
	for (uint32_t type = 0; type < 4096; type++) {
		const char *name = arch_module_reloc_name(type);

		if (name)
			printf("%u %s\n", type, name);
	}
	return 0;
}

/* The whole file, in an 8-byte aligned buffer. */
static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long len;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0)
		return NULL;
	rewind(f);
	buf = aligned_alloc(8, ((size_t)len + 8) & ~(size_t)7);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = (size_t)len;
	return buf;
}

/* Lay out the allocated sections in a copy, as the loader would: each
 * at its alignment from MODULE_BASE. addr[i] is section i's address (0
 * if not allocated), copy[i] its bytes. */
static void layout(const Elf64_Ehdr *eh, uint64_t *addr, uint8_t **copy)
{
	uint64_t next = MODULE_BASE;

	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = elf_section(eh, i);
		uint64_t align = sh->sh_addralign ? sh->sh_addralign : 1;
		const void *data = elf_section_data(eh, sh);

		addr[i] = 0;
		copy[i] = NULL;
		if (!(sh->sh_flags & SHF_ALLOC))
			continue;
		next = (next + align - 1) & ~(align - 1);
		addr[i] = next;
		copy[i] = calloc(1, sh->sh_size + 1);
		if (data)
			memcpy(copy[i], data, sh->sh_size);
		next += sh->sh_size;
	}
}

/* S: a defined symbol's address, or an address in kernel text for an
 * undefined one (each its own, 64 bytes apart). */
static uint64_t symbol_value(const Elf64_Sym *sym, size_t index, const uint64_t *addr)
{
	if (sym->st_shndx == SHN_UNDEF)
		return KERNEL_BASE + 64 * index;
	if (sym->st_shndx == SHN_ABS)
		return sym->st_value;
	return addr[sym->st_shndx] + sym->st_value;
}

static int link_file(const char *path)
{
	char why[200];
	size_t size, nsyms, applied = 0, failed = 0;
	void *image = read_file(path, &size);
	const Elf64_Ehdr *eh = image;
	const Elf64_Sym *syms;
	uint64_t *addr;
	uint8_t **copy;

	if (!image) {
		printf("%s: cannot read\n", path);
		return 1;
	}
	if (module_elf_check(image, size, arch_module_machine, why, sizeof(why)) != 0) {
		printf("%s: refused: %s\n", path, why);
		printf("link: 0 relocations applied, 1 failed\n");
		return 1;
	}
	addr = calloc(eh->e_shnum, sizeof(*addr));
	copy = calloc(eh->e_shnum, sizeof(*copy));
	layout(eh, addr, copy);
	syms = elf_symbols(eh, &nsyms);

	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = elf_section(eh, i);
		const Elf64_Rela *rela;
		size_t n;

		if (sh->sh_type != SHT_RELA || !addr[sh->sh_info])
			continue;
		rela = elf_relocations(eh, sh, &n);
		for (size_t r = 0; r < n; r++) {
			uint32_t type = ELF64_R_TYPE(rela[r].r_info);
			size_t s = ELF64_R_SYM(rela[r].r_info);
			const Elf64_Sym *sym = &syms[s];
			uint64_t value = symbol_value(sym, s, addr) + (uint64_t)rela[r].r_addend;
			uint64_t place = addr[sh->sh_info] + rela[r].r_offset;
			int err = arch_module_relocate(type, copy[sh->sh_info] + rela[r].r_offset,
						       place, value);

			if (err) {
				const char *name = arch_module_reloc_name(type);

				failed++;
				printf("%s: %s+0x%llx: type %u (%s) against %s: error %d\n",
				       path, elf_section_name(eh, elf_section(eh, sh->sh_info)),
				       (unsigned long long)rela[r].r_offset, type,
				       name ? name : "unknown", elf_symbol_name(eh, sym), err);
			} else {
				applied++;
			}
		}
	}
	printf("link: %zu relocations applied, %zu failed\n", applied, failed);
	for (unsigned int i = 0; i < eh->e_shnum; i++)
		free(copy[i]);
	free(copy);
	free(addr);
	free(image);
	return failed != 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "names") == 0)
		return names();
	if (argc == 3 && strcmp(argv[1], "link") == 0)
		return link_file(argv[2]);
	fprintf(stderr, "usage: %s names | link FILE.o\n", argv[0]);
	return 2;
}
