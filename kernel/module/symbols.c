/*
 * A module's symbols: resolving what it uses, relocating its code and
 * data, and the table that names its addresses once it is loaded.
 */
#include "kernel/module/arch_module.h"
#include "kernel/module/elf_check.h"
#include "kernel/module/internal.h"
#include "kernel/mm/heap.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

static const struct kernel_symbol *search(const struct kernel_symbol *start,
					  const struct kernel_symbol *end, const char *name)
{
	for (const struct kernel_symbol *ks = start; ks < end; ks++)
		if (strcmp(ks->name, name) == 0)
			return ks;
	return NULL;
}

const struct kernel_symbol *find_export(const char *name, struct module **owner)
{
	const struct kernel_symbol *ks = search(__start___ksymtab, __stop___ksymtab, name);
	struct module *m;

	*owner = NULL;
	if (ks)
		return ks;
	list_for_each_entry(m, &modules, node) {
		if (m->state != MODULE_STATE_LIVE)
			continue;
		ks = search(m->exports, m->exports + m->num_exports, name);
		if (ks) {
			*owner = m;
			return ks;
		}
	}
	return NULL;
}

/* Record that the module being loaded uses owner's exports (once), which
 * keeps owner from being removed; free_module undoes it. */
static int add_use(struct module *mod, struct module *owner)
{
	struct module **uses;

	for (size_t i = 0; i < mod->num_uses; i++)
		if (mod->uses[i] == owner)
			return 0;
	uses = kmalloc((mod->num_uses + 1) * sizeof(*uses));
	if (!uses)
		return -ENOMEM;
	memcpy(uses, mod->uses, mod->num_uses * sizeof(*uses));
	kfree(mod->uses);
	uses[mod->num_uses++] = owner;
	mod->uses = uses;
	owner->users++;
	return 0;
}

static int resolve_undefined(struct load_info *li, size_t i)
{
	const Elf64_Sym *sym = &li->syms[i];
	const char *name = li->strtab + sym->st_name;
	struct module *owner;
	const struct kernel_symbol *ks = find_export(name, &owner);

	if (!ks) {
		if (ELF64_ST_BIND(sym->st_info) == STB_WEAK) {
			li->sym_value[i] = 0;
			return 0;
		}
		kprintf("insmod: unknown symbol %s\n", name);
		return -ENOENT;
	}
	li->sym_value[i] = ks->value;
	return owner ? add_use(li->mod, owner) : 0;
}

int resolve_symbols(struct load_info *li)
{
	for (size_t i = 1; i < li->nsyms; i++) {
		const Elf64_Sym *sym = &li->syms[i];
		int err;

		switch (sym->st_shndx) {
		case SHN_UNDEF:
			err = resolve_undefined(li, i);
			if (err)
				return err;
			break;
		case SHN_ABS:
			li->sym_value[i] = sym->st_value;
			break;
		case SHN_COMMON:
			/* Modules are built with -fno-common. */
			kprintf("insmod: common symbol %s (build with -fno-common)\n",
				li->strtab + sym->st_name);
			return -ENOEXEC;
		default:
			/* A symbol in a section that is not loaded (debug
			 * information) is only used by relocations that are
			 * not applied either. */
			li->sym_value[i] = li->sec_addr[sym->st_shndx]
				? li->sec_addr[sym->st_shndx] + sym->st_value : 0;
		}
	}
	return 0;
}

static int report_relocation_error(const struct load_info *li, unsigned int target,
				   const Elf64_Rela *r, int err)
{
	uint32_t type = ELF64_R_TYPE(r->r_info);
	const char *type_name = arch_module_reloc_name(type);
	const char *sym_name = li->strtab + li->syms[ELF64_R_SYM(r->r_info)].st_name;

	if (err == -ENOEXEC)
		kprintf("insmod: unknown relocation type %u in %s\n", type,
			section_name(li, target));
	else
		kprintf("insmod: relocation %s at %s+0x%lx to %s out of range\n",
			type_name ? type_name : "?", section_name(li, target),
			(unsigned long)r->r_offset, *sym_name ? sym_name : "a section");
	return err;
}

/* The relocations of section rela_index, which apply to its sh_info. */
static int relocate_section(const struct load_info *li, unsigned int rela_index)
{
	const Elf64_Shdr *rs = &li->sh[rela_index];
	unsigned int target = rs->sh_info;
	size_t n;
	const Elf64_Rela *rela = elf_relocations(li->eh, rs, &n);

	/* Relocations of what is not loaded (debug information) are for a
	 * debugger, which applies them itself. */
	if (!li->sec_addr[target])
		return 0;
	for (size_t i = 0; i < n; i++) {
		const Elf64_Rela *r = &rela[i];
		uint64_t place = li->sec_addr[target] + r->r_offset;
		uint64_t value = li->sym_value[ELF64_R_SYM(r->r_info)] + (uint64_t)r->r_addend;
		uint32_t type = ELF64_R_TYPE(r->r_info);
		int err = 0;

		/* The ELF check put r_offset inside the section; the field
		 * must end there too. */
		if (arch_module_reloc_width(type) > li->sh[target].sh_size - r->r_offset)
			err = -ERANGE;
		else
			err = arch_module_relocate(type, (void *)place, place, value);
		if (err)
			return report_relocation_error(li, target, r, err);
	}
	return 0;
}

int apply_relocations(const struct load_info *li)
{
	for (unsigned int i = 1; i < li->eh->e_shnum; i++) {
		int err;

		if (li->sh[i].sh_type != SHT_RELA)
			continue;
		err = relocate_section(li, i);
		if (err)
			return err;
	}
	return 0;
}

/* Functions and objects with a name, in a loaded section. ($x and $d,
 * aarch64's mapping symbols, are neither.) */
static bool wanted(const struct load_info *li, const Elf64_Sym *sym)
{
	unsigned int type = ELF64_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_OBJECT) && sym->st_name &&
	       li->strtab[sym->st_name] && sym->st_shndx != SHN_UNDEF &&
	       sym->st_shndx < SHN_LORESERVE && li->sec_addr[sym->st_shndx];
}

/* Whether the module exports the symbol name at addr. */
static bool exported(const struct module *mod, const char *name, uint64_t addr)
{
	for (size_t i = 0; i < mod->num_exports; i++)
		if (mod->exports[i].value == addr && strcmp(mod->exports[i].name, name) == 0)
			return true;
	return false;
}

/* The type letter of symbol i (kernel/symtab.h), as Linux's /proc/kallsyms
 * gives a module's: from the flags of its section (t code, r read-only
 * data, b bss, d other data), w or v if weak; a capital if the module
 * exports it. (A capital in the kernel's own table means global; a
 * module's global that it does not export is as private as a static.) */
static char type_letter(const struct load_info *li, size_t i)
{
	const Elf64_Sym *sym = &li->syms[i];
	const Elf64_Shdr *sec = &li->sh[sym->st_shndx];
	char letter;

	if (ELF64_ST_BIND(sym->st_info) == STB_WEAK)
		letter = ELF64_ST_TYPE(sym->st_info) == STT_OBJECT ? 'v' : 'w';
	else if (sec->sh_flags & SHF_EXECINSTR)
		letter = 't';
	else if (sec->sh_type == SHT_NOBITS)
		letter = 'b';
	else if (!(sec->sh_flags & SHF_WRITE))
		letter = 'r';
	else
		letter = 'd';
	if (exported(li->mod, li->strtab + sym->st_name, li->sym_value[i]))
		letter = (char)(letter - 'a' + 'A');
	return letter;
}

/* By address, keeping the order of entries at one address (a stable
 * insertion sort). */
static void sort_entries(struct symtab_entry *e, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct symtab_entry x = e[i];
		size_t j = i;

		for (; j > 0 && x.addr < e[j - 1].addr; j--)
			e[j] = e[j - 1];
		e[j] = x;
	}
}

int build_module_symtab(struct load_info *li)
{
	struct symtab_module *st = &li->mod->symbols;
	struct symtab_entry *entries;
	size_t count = 0, names_size = 0;
	char *names;

	for (size_t i = 1; i < li->nsyms; i++)
		if (wanted(li, &li->syms[i])) {
			count++;
			names_size += 1 + strlen(li->strtab + li->syms[i].st_name) + 1;
		}
	entries = kzalloc(count * sizeof(*entries) + 1);
	names = kmalloc(names_size + 1);
	if (!entries || !names) {
		kfree(entries);
		kfree(names);
		return -ENOMEM;
	}
	count = names_size = 0;
	/*
	 * Last symbol first. ELF puts every local symbol before the global
	 * ones, so at any address the global names come first and stay so
	 * through the stable sort; a lookup by address takes the last of
	 * the entries at an address that holds it, so a function is named
	 * by its own (local) name rather than by a global alias such as
	 * init_module.
	 */
	for (size_t i = li->nsyms; i-- > 1;) {
		const char *name = li->strtab + li->syms[i].st_name;
		size_t len = strlen(name);

		if (!wanted(li, &li->syms[i]))
			continue;
		names[names_size] = type_letter(li, i);
		memcpy(names + names_size + 1, name, len + 1);
		entries[count].addr = li->sym_value[i];
		entries[count].size = (uint32_t)li->syms[i].st_size;
		entries[count].name_off = (uint32_t)names_size + 1;
		names_size += 1 + len + 1;
		count++;
	}
	sort_entries(entries, count);
	st->table.entries = entries;
	st->table.count = count;
	st->table.names = names;
	st->module = li->mod->name;
	return 0;
}
