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

/* loader.c: steps 1 to 5 of a load and the sealing of code and rodata
 * (loader.c's comment): the file checked, the module laid out,
 * relocated and its declarations read and checked, its parameters set.
 * Runs none of the module's code. Returns 0 with li->mod ready to
 * start, or a negative errno with li->mod freed and a one-line reason
 * printed; li's own tables are freed either way. */
int prepare_module(struct load_info *li, int nargs, char **args);
/* Free a module that is not, or no longer, published. */
void free_module(struct module *mod);

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
/* Build mod->symbols from the object's function and object symbols,
 * each with its type letter (after read_declarations: an exported
 * symbol's letter is a capital). */
int build_module_symtab(struct load_info *li);
/* Find an exported symbol by name in the kernel or a live module; sets
 * *owner to the module (NULL: the kernel). */
const struct kernel_symbol *find_export(const char *name, struct module **owner);

/* pointers.c: whether a pointer taken from the relocated module lies in
 * its loaded sections, of the kind it must (see the file's comment). */
/* addr is in a loaded code section. */
bool module_code_pointer(const struct load_info *li, uintptr_t addr);
/* [addr, addr + len) lies in one loaded code section. */
bool module_code_range(const struct load_info *li, uintptr_t addr, size_t len);
/* addr is in any loaded section. */
bool module_pointer(const struct load_info *li, uintptr_t addr);
/* addr starts a string in a loaded section that is not code, with its
 * NUL inside that section: returns it, or NULL. */
const char *module_string(const struct load_info *li, uintptr_t addr);
/* [addr, addr + size) lies in one loaded writable data section, and addr
 * is a multiple of align: a variable the loader may store to. */
bool module_variable(const struct load_info *li, uintptr_t addr, size_t size, size_t align);

/* declarations.c: step 5, what the relocated module declares (init and
 * exit, exports, parameters, never-probe code, call sites), each pointer checked
 * before it is used; then its parameters are set from "name=value"
 * words. */
int read_declarations(struct load_info *li, int nargs, char **args);

/* params.c: check each of the module's parameter entries (its name, its
 * type, and that its variable is the module's writable data with room
 * for the type); then set them from "name=value" words. */
int check_params(const struct load_info *li, const struct kernel_param *params,
		 size_t nparams);
int set_module_params(struct module *mod, const struct kernel_param *params,
		      size_t nparams, int nargs, char **args);

/* loader.c: the list of loaded modules, newest first (modules_mutex). */
extern struct list_node modules;
/* Take and give back modules_mutex, for a walk of the list that spans
 * calls (/proc/modules' start and stop). */
void modules_lock(void);
void modules_unlock(void);

#endif
