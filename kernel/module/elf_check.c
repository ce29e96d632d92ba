/*
 * Checking a module file (kernel/module/elf_check.h): one pass over the
 * headers, sections, symbols and relocations before the loader trusts
 * any of them.
 *
 * Every offset, size and index in the file may be anything at all, so
 * ranges are tested as "off <= size && len <= size - off", which cannot
 * overflow, never as "off + len <= size". The checks run in the order
 * the loader will rely on them: the file header before the section
 * headers it locates, the section name table before names are printed,
 * the symbol table before the relocations that index it.
 *
 * Tables of structures (section headers, symbols, relocations) must be
 * 8-byte aligned in the file, as every assembler and linker writes them,
 * so that they can be read in place through struct pointers.
 */
#include "kernel/module/elf_check.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

struct check {
	const uint8_t *image;
	size_t size;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;		/* the section header table */
	unsigned int shnum;
	const char *shstr;		/* the section name table */
	uint64_t shstr_size;
	unsigned int symtab;		/* the symbol table's index */
	size_t nsyms;
	char *why;
	size_t why_size;
};

/* Record why the file is refused; returns -ENOEXEC. */
static __printf(2, 3) int refuse(struct check *c, const char *fmt, ...)
{
	va_list ap;

	if (c->why && c->why_size > 0) {
		va_start(ap, fmt);
		vsnprintf(c->why, c->why_size, fmt, ap);
		va_end(ap);
	}
	return -ENOEXEC;
}

/* Whether [off, off + len) lies within the file. */
static bool in_file(const struct check *c, uint64_t off, uint64_t len)
{
	return off <= c->size && len <= c->size - off;
}

/* A machine for messages, by name when it is one of ours (its number
 * alone would mean little to the user): "aarch64 (machine 183)" with the
 * label "machine ", "aarch64 (183)" without; "machine 40" if unknown. */
static void machine_text(char *buf, size_t size, unsigned int machine,
			 const char *label)
{
	if (machine == EM_X86_64)
		snprintf(buf, size, "x86_64 (%s%u)", label, machine);
	else if (machine == EM_AARCH64)
		snprintf(buf, size, "aarch64 (%s%u)", label, machine);
	else
		snprintf(buf, size, "machine %u", machine);
}

/* The name of section i; valid once check_section_names() has passed. */
static const char *name_of(const struct check *c, unsigned int i)
{
	return c->shstr + c->sh[i].sh_name;
}

/* e_ident, e_type, e_machine: is this a file for this loader at all? */
static int check_ident(struct check *c, uint16_t machine)
{
	const Elf64_Ehdr *eh = c->eh;
	char have[32], want[32];

	/* The magic first, on as many bytes as there are: a short text
	 * file is "not an ELF file" rather than a truncated one. */
	if (memcmp(c->image, "\177ELF", MIN(c->size, (size_t)4)) != 0)
		return refuse(c, "not an ELF file");
	if (c->size < sizeof(Elf64_Ehdr))
		return refuse(c, "file truncated: %zu bytes, an ELF header needs %zu",
			      c->size, sizeof(Elf64_Ehdr));
	if (eh->e_ident[EI_CLASS] != ELFCLASS64)
		return refuse(c, "ELF class %u, not 64-bit", eh->e_ident[EI_CLASS]);
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return refuse(c, "ELF data encoding %u, not little-endian",
			      eh->e_ident[EI_DATA]);
	if (eh->e_ident[EI_VERSION] != EV_CURRENT || eh->e_version != EV_CURRENT)
		return refuse(c, "ELF version %u, not %u",
			      eh->e_ident[EI_VERSION] != EV_CURRENT ?
			      eh->e_ident[EI_VERSION] : (unsigned int)eh->e_version,
			      EV_CURRENT);
	if (eh->e_machine != machine) {
		machine_text(have, sizeof(have), eh->e_machine, "machine ");
		machine_text(want, sizeof(want), machine, "");
		return refuse(c, "built for %s; this kernel loads %s", have, want);
	}
	if (eh->e_type != ET_REL)
		return refuse(c, "not a relocatable object (type %u%s)", eh->e_type,
			      eh->e_type == 2 ? ", an executable" :
			      eh->e_type == 3 ? ", a shared object" : "");
	return 0;
}

/* Where the section header table is, and that it lies in the file. */
static int check_section_table(struct check *c)
{
	const Elf64_Ehdr *eh = c->eh;

	if (eh->e_shentsize != sizeof(Elf64_Shdr))
		return refuse(c, "section header size %u, not %zu",
			      eh->e_shentsize, sizeof(Elf64_Shdr));
	/* 0 would mean more than SHN_LORESERVE sections (the count is then
	 * in section 0), which no module needs. */
	if (eh->e_shnum == 0)
		return refuse(c, "no section headers");
	if (eh->e_shnum >= SHN_LORESERVE)
		return refuse(c, "%u sections, more than this loader supports",
			      eh->e_shnum);
	if (!in_file(c, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))
		return refuse(c, "section header table lies past the end of the file");
	if (eh->e_shoff % 8 != 0)
		return refuse(c, "section header table at offset 0x%llx is not 8-byte aligned",
			      (unsigned long long)eh->e_shoff);
	c->sh = (const Elf64_Shdr *)(c->image + eh->e_shoff);
	c->shnum = eh->e_shnum;
	return 0;
}

/* A string table whose last byte is NUL: then every offset below its
 * size starts a terminated string. */
static bool terminated(const struct check *c, const Elf64_Shdr *sh)
{
	return sh->sh_size > 0 && c->image[sh->sh_offset + sh->sh_size - 1] == '\0';
}

/* The section name table, then every section's name in it. */
static int check_section_names(struct check *c)
{
	unsigned int n = c->eh->e_shstrndx;
	const Elf64_Shdr *sh;

	if (n == SHN_UNDEF)
		return refuse(c, "no section name table");
	if (n >= c->shnum)
		return refuse(c, "section name table is section %u, but there are %u sections",
			      n, c->shnum);
	sh = &c->sh[n];
	if (sh->sh_type != SHT_STRTAB)
		return refuse(c, "section name table (section %u) is not a string table (type %u)",
			      n, sh->sh_type);
	if (!in_file(c, sh->sh_offset, sh->sh_size))
		return refuse(c, "section %u (the section name table) lies past the end of the file",
			      n);
	if (!terminated(c, sh))
		return refuse(c, "string table (section %u, the section name table) is not NUL-terminated",
			      n);
	c->shstr = (const char *)c->image + sh->sh_offset;
	c->shstr_size = sh->sh_size;
	for (unsigned int i = 0; i < c->shnum; i++)
		if (c->sh[i].sh_name >= c->shstr_size)
			return refuse(c, "section %u's name (offset %u) lies past the end of the section name table (%llu bytes)",
				      i, c->sh[i].sh_name,
				      (unsigned long long)c->shstr_size);
	return 0;
}

/* Whether the loader can place a section of this type in memory: code
 * and data (PROGBITS), bss (NOBITS), notes, constructor and destructor
 * tables and, on x86_64, the unwind tables GCC emits there. Processor-
 * specific types mean something only with their own e_machine. */
static bool loadable_type(uint32_t type, uint16_t machine)
{
	switch (type) {
	case SHT_PROGBITS:
	case SHT_NOBITS:
	case SHT_NOTE:
	case SHT_INIT_ARRAY:
	case SHT_FINI_ARRAY:
		return true;
	case SHT_X86_64_UNWIND:
		return machine == EM_X86_64;
	default:
		return false;
	}
}

/* What the loader will do with section i, checked against its type: an
 * allocated section is loaded, so its type must be one the loader can
 * load; a section named like relocations (.rel*, .rela*) is applied, so
 * it must be RELA (another type would leave the module silently
 * unrelocated); .modinfo is read from the file, so it must have bytes
 * there. */
static int check_section_use(struct check *c, unsigned int i)
{
	const Elf64_Shdr *sh = &c->sh[i];
	const char *name = name_of(c, i);

	if ((sh->sh_flags & SHF_ALLOC) && !loadable_type(sh->sh_type, c->eh->e_machine))
		return refuse(c, "section %u (%s) is allocated, but its type 0x%x is not one this loader loads",
			      i, name, sh->sh_type);
	if (strncmp(name, ".rel", 4) == 0 && sh->sh_type != SHT_RELA)
		return refuse(c, "section %u (%s) is named as relocations, but its type is 0x%x, not RELA (4)",
			      i, name, sh->sh_type);
	if (strcmp(name, ".modinfo") == 0 && sh->sh_type != SHT_PROGBITS)
		return refuse(c, "section %u (.modinfo) has type 0x%x, not PROGBITS (1): no contents to read",
			      i, sh->sh_type);
	return 0;
}

/* Each section: its bytes in the file, a usable alignment, a type that
 * fits its use, no REL. */
static int check_sections(struct check *c)
{
	unsigned int nsymtab = 0;

	for (unsigned int i = 0; i < c->shnum; i++) {
		const Elf64_Shdr *sh = &c->sh[i];
		int err;

		if (sh->sh_type == SHT_REL)
			return refuse(c, "section %u (%s) holds REL relocations; this loader takes RELA only",
				      i, name_of(c, i));
		if (elf_section_has_data(sh) && !in_file(c, sh->sh_offset, sh->sh_size))
			return refuse(c, "section %u (%s) lies past the end of the file",
				      i, name_of(c, i));
		if (sh->sh_addralign & (sh->sh_addralign - 1))
			return refuse(c, "section %u (%s) has alignment %llu, not a power of two",
				      i, name_of(c, i),
				      (unsigned long long)sh->sh_addralign);
		err = check_section_use(c, i);
		if (err)
			return err;
		if (sh->sh_type == SHT_SYMTAB) {
			if (nsymtab++ > 0)
				return refuse(c, "two symbol tables: sections %u and %u",
					      c->symtab, i);
			c->symtab = i;
		}
	}
	if (nsymtab == 0)
		return refuse(c, "no symbol table");
	return 0;
}

/* A table of entsize-byte entries (symbols, relocations) in section i. */
static int check_table(struct check *c, unsigned int i, size_t entsize)
{
	const Elf64_Shdr *sh = &c->sh[i];

	if (sh->sh_entsize != entsize)
		return refuse(c, "section %u (%s) has entries of %llu bytes, not %zu",
			      i, name_of(c, i), (unsigned long long)sh->sh_entsize, entsize);
	if (sh->sh_size % entsize != 0)
		return refuse(c, "section %u (%s) is %llu bytes, not a multiple of its %zu-byte entries",
			      i, name_of(c, i), (unsigned long long)sh->sh_size, entsize);
	if (sh->sh_offset % 8 != 0)
		return refuse(c, "section %u (%s) at offset 0x%llx is not 8-byte aligned",
			      i, name_of(c, i), (unsigned long long)sh->sh_offset);
	return 0;
}

/* One symbol: its name in the string table, its section existing, and
 * its value within that section (the loader adds the two). */
static int check_symbol(struct check *c, size_t i, const Elf64_Sym *sym,
			const Elf64_Shdr *strtab)
{
	unsigned int shndx = sym->st_shndx;

	if (sym->st_name >= strtab->sh_size)
		return refuse(c, "symbol %zu's name (offset %u) lies past the end of its string table (%llu bytes)",
			      i, sym->st_name, (unsigned long long)strtab->sh_size);
	if (shndx == SHN_UNDEF || shndx == SHN_ABS || shndx == SHN_COMMON)
		return 0;
	if (shndx >= SHN_LORESERVE)
		return refuse(c, "symbol %zu has section index 0x%x, which this loader does not support",
			      i, shndx);
	if (shndx >= c->shnum)
		return refuse(c, "symbol %zu names section %u, which does not exist", i, shndx);
	if (sym->st_value > c->sh[shndx].sh_size)
		return refuse(c, "symbol %zu lies at offset 0x%llx, past the end of section %u (%s)",
			      i, (unsigned long long)sym->st_value, shndx, name_of(c, shndx));
	return 0;
}

/* The symbol table, its string table and every symbol. */
static int check_symbols(struct check *c)
{
	const Elf64_Shdr *symtab = &c->sh[c->symtab];
	const Elf64_Shdr *strtab;
	const Elf64_Sym *syms;
	int err;

	err = check_table(c, c->symtab, sizeof(Elf64_Sym));
	if (err)
		return err;
	if (symtab->sh_link == SHN_UNDEF || symtab->sh_link >= c->shnum)
		return refuse(c, "the symbol table's string table, section %u, does not exist",
			      symtab->sh_link);
	strtab = &c->sh[symtab->sh_link];
	if (strtab->sh_type != SHT_STRTAB)
		return refuse(c, "the symbol table's string table, section %u (%s), is not a string table (type %u)",
			      symtab->sh_link, name_of(c, symtab->sh_link), strtab->sh_type);
	if (!terminated(c, strtab))
		return refuse(c, "string table %s (section %u) is not NUL-terminated",
			      name_of(c, symtab->sh_link), symtab->sh_link);

	syms = (const Elf64_Sym *)(c->image + symtab->sh_offset);
	c->nsyms = symtab->sh_size / sizeof(Elf64_Sym);
	for (size_t i = 0; i < c->nsyms; i++) {
		err = check_symbol(c, i, &syms[i], strtab);
		if (err)
			return err;
	}
	return 0;
}

/* One RELA section: what it links to and applies to, then each entry's
 * symbol and offset. Whether the field at the offset fits in the section
 * depends on the type, which the architecture knows. */
static int check_rela(struct check *c, unsigned int i)
{
	const Elf64_Shdr *sh = &c->sh[i];
	const Elf64_Shdr *target;
	const Elf64_Rela *rela;
	size_t n;
	int err;

	err = check_table(c, i, sizeof(Elf64_Rela));
	if (err)
		return err;
	if (sh->sh_link != c->symtab)
		return refuse(c, "relocation section %s links to section %u, not the symbol table (section %u)",
			      name_of(c, i), sh->sh_link, c->symtab);
	if (sh->sh_info == SHN_UNDEF || sh->sh_info >= c->shnum)
		return refuse(c, "relocation section %s applies to section %u, which does not exist",
			      name_of(c, i), sh->sh_info);
	target = &c->sh[sh->sh_info];
	if (!elf_section_has_data(target))
		return refuse(c, "relocation section %s applies to section %u (%s), which has no contents",
			      name_of(c, i), sh->sh_info, name_of(c, sh->sh_info));

	rela = (const Elf64_Rela *)(c->image + sh->sh_offset);
	n = sh->sh_size / sizeof(Elf64_Rela);
	for (size_t r = 0; r < n; r++) {
		uint32_t sym = ELF64_R_SYM(rela[r].r_info);

		if (sym >= c->nsyms)
			return refuse(c, "relocation %zu of section %s uses symbol %u of %zu",
				      r, name_of(c, i), sym, c->nsyms);
		if (rela[r].r_offset >= target->sh_size)
			return refuse(c, "relocation %zu of section %s patches offset 0x%llx, past the end of %s (%llu bytes)",
				      r, name_of(c, i), (unsigned long long)rela[r].r_offset,
				      name_of(c, sh->sh_info),
				      (unsigned long long)target->sh_size);
	}
	return 0;
}

int module_elf_check(const void *image, size_t size, uint16_t machine,
		     char *why, size_t why_size)
{
	struct check c = {
		.image = image, .size = size, .eh = image,
		.why = why, .why_size = why_size,
	};
	int err;

	if ((uintptr_t)image % 8 != 0) {
		refuse(&c, "module image at %p is not 8-byte aligned in memory", image);
		return -EINVAL;
	}
	if (why && why_size > 0)
		why[0] = '\0';
	err = check_ident(&c, machine);
	if (!err)
		err = check_section_table(&c);
	if (!err)
		err = check_section_names(&c);
	if (!err)
		err = check_sections(&c);
	if (!err)
		err = check_symbols(&c);
	for (unsigned int i = 0; !err && i < c.shnum; i++)
		if (c.sh[i].sh_type == SHT_RELA)
			err = check_rela(&c, i);
	return err;
}

const Elf64_Shdr *elf_section(const Elf64_Ehdr *eh, unsigned int i)
{
	if (i >= eh->e_shnum)
		return NULL;
	return (const Elf64_Shdr *)((const uint8_t *)eh + eh->e_shoff) + i;
}

const char *elf_section_name(const Elf64_Ehdr *eh, const Elf64_Shdr *sh)
{
	const Elf64_Shdr *names = elf_section(eh, eh->e_shstrndx);

	return (const char *)eh + names->sh_offset + sh->sh_name;
}

bool elf_section_has_data(const Elf64_Shdr *sh)
{
	return sh->sh_type != SHT_NULL && sh->sh_type != SHT_NOBITS;
}

bool module_section_loaded(const Elf64_Ehdr *eh, const Elf64_Shdr *sh)
{
	return (sh->sh_flags & SHF_ALLOC) && sh->sh_size != 0 &&
	       strcmp(elf_section_name(eh, sh), ".modinfo") != 0;
}

const void *elf_section_data(const Elf64_Ehdr *eh, const Elf64_Shdr *sh)
{
	if (!elf_section_has_data(sh))
		return NULL;
	return (const uint8_t *)eh + sh->sh_offset;
}

const Elf64_Shdr *elf_symtab_section(const Elf64_Ehdr *eh)
{
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = elf_section(eh, i);

		if (sh->sh_type == SHT_SYMTAB)
			return sh;
	}
	return NULL;
}

const Elf64_Sym *elf_symbols(const Elf64_Ehdr *eh, size_t *count)
{
	const Elf64_Shdr *sh = elf_symtab_section(eh);

	*count = sh->sh_size / sizeof(Elf64_Sym);
	return elf_section_data(eh, sh);
}

const char *elf_symbol_name(const Elf64_Ehdr *eh, const Elf64_Sym *sym)
{
	const Elf64_Shdr *strtab = elf_section(eh, elf_symtab_section(eh)->sh_link);

	return (const char *)elf_section_data(eh, strtab) + sym->st_name;
}

const Elf64_Rela *elf_relocations(const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
				  size_t *count)
{
	*count = sh->sh_size / sizeof(Elf64_Rela);
	return elf_section_data(eh, sh);
}
