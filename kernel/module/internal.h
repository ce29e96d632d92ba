/* Shared by the files of the module loader (kernel/module/), not by its
 * users: the state of one load while it is in progress. */
#ifndef KERNEL_MODULE_INTERNAL_H
#define KERNEL_MODULE_INTERNAL_H

#include "kernel/module/module.h"
#include "kernel/module/moduleparam.h"
#include "lib/elf.h"

struct load_info {
	const uint8_t *image;
	size_t size;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;		/* the section headers */
	const char *secstrings;		/* section names */
	const Elf64_Sym *syms;
	size_t nsyms;
	const char *strtab;		/* symbol names */
	uintptr_t *sec_addr;		/* each section's run-time address; 0: not loaded */
	uint64_t *sym_value;		/* each symbol's resolved address */
	struct module *mod;
};

/* Section i's name. */
static inline const char *section_name(const struct load_info *li, unsigned int i)
{
	return li->secstrings + li->sh[i].sh_name;
}

/* The index of the section called name, or 0 if there is none. */
unsigned int find_section(const struct load_info *li, const char *name);

/* layout.c: place the allocated sections in a core and an init range
 * of executable memory and copy them there (writable for now). */
int layout_and_copy(struct load_info *li);
/* Make text read-only + executable and rodata read-only, in both ranges. */
int protect_module(struct module *mod);
/* Give one range's memory back. */
void free_module_layout(struct module_layout *layout);

/* symbols.c: give every symbol of the object its run-time value,
 * resolving the undefined ones against the kernel's exports and those
 * of loaded modules (recorded in mod->uses). */
int resolve_symbols(struct load_info *li);
/* Apply every relocation of every allocated section. */
int apply_relocations(const struct load_info *li);
/* Build mod->symbols from the object's function and object symbols. */
int build_module_symtab(struct load_info *li);
/* Find an exported symbol by name in the kernel or a live module; sets
 * *owner to the module (NULL: the kernel). */
const struct kernel_symbol *find_export(const char *name, struct module **owner);

/* params.c: set the module's parameters from "name=value" words. */
int set_module_params(struct module *mod, const struct kernel_param *params,
		      size_t nparams, int nargs, char **args);

/* loader.c: the list of loaded modules, oldest first (modules_mutex). */
extern struct list_node modules;

#endif
