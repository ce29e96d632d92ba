/*
 * Step 5 of a load (loader.c): what the relocated module declares.
 *
 * A module tells the loader about itself through symbols and sections
 * (module.h): init_module and cleanup_module, its exports (__ksymtab),
 * its parameters (__param), its never-probe code (.kprobes.text and
 * .nokprobe_list), and the compiler its function-tracer call sites
 * (ARCH_FTRACE_SITES_SECTION, asm/ftrace.h). All of them are the module's own data, written by
 * relocation from what the file said, so each table is checked to be a
 * whole, aligned, loaded section and each pointer in it to lie where it
 * must (pointers.c) before the loader, or anything after it, follows it.
 * Each refusal is one line naming what is wrong.
 */
#include "kernel/mm/heap.h"
#include "kernel/module/internal.h"
#include "kernel/printk.h"
#include "kernel/trace/ftrace.h"
#include "lib/errno.h"
#include "lib/sort.h"
#include "lib/string.h"
#include <asm/ftrace.h>

/* The index of a global symbol the object defines, or 0. */
static size_t defined_symbol(const struct load_info *li, const char *name)
{
	for (size_t i = 1; i < li->nsyms; i++) {
		const Elf64_Sym *sym = &li->syms[i];

		if (ELF64_ST_BIND(sym->st_info) != STB_LOCAL && sym->st_shndx != SHN_UNDEF &&
		    strcmp(li->strtab + sym->st_name, name) == 0)
			return i;
	}
	return 0;
}

/* The function a symbol names (init_module, cleanup_module) in *fn, or
 * NULL if the module defines none; refused if it is not the module's
 * code (in .modinfo, say, or an absolute address). */
static int read_function(const struct load_info *li, const char *name, uintptr_t *fn)
{
	size_t i = defined_symbol(li, name);

	*fn = i ? li->sym_value[i] : 0;
	if (i && !module_code_pointer(li, *fn)) {
		kprintf("insmod: %s is not in the module's code\n", name);
		return -ENOEXEC;
	}
	return 0;
}

/* A table the module declares in section name, of entsize-byte entries:
 * *table NULL and *count 0 if there is no such section. Refused unless
 * the section is loaded, holds whole entries and is aligned to align
 * (a table of structures to their alignment; 1 for one whose entries
 * are read with memcpy). */
static int read_table(const struct load_info *li, const char *name, size_t entsize,
		      size_t align, const void **table, size_t *count)
{
	unsigned int i = find_section(li, name);

	*table = NULL;
	*count = 0;
	if (!i || li->sh[i].sh_size == 0)
		return 0;
	if (!li->sec_addr[i]) {
		kprintf("insmod: section %s is not loaded (not SHF_ALLOC)\n", name);
		return -ENOEXEC;
	}
	if (li->sh[i].sh_size % entsize || li->sec_addr[i] % align) {
		kprintf("insmod: section %s is not an aligned table of %zu-byte entries\n",
			name, entsize);
		return -ENOEXEC;
	}
	*table = (const void *)li->sec_addr[i];
	*count = li->sh[i].sh_size / entsize;
	return 0;
}

/* Each export names itself with a string and points into the module;
 * and no module may export a name the kernel or another module exports. */
static int check_exports(const struct load_info *li, const struct module *mod)
{
	for (size_t i = 0; i < mod->num_exports; i++) {
		const struct kernel_symbol *ks = &mod->exports[i];
		struct module *owner;

		if (!module_string(li, (uintptr_t)ks->name)) {
			kprintf("insmod: export %zu's name is not a string in the module's data\n", i);
			return -ENOEXEC;
		}
		if (!module_pointer(li, ks->value)) {
			kprintf("insmod: export %s points outside the module\n", ks->name);
			return -ENOEXEC;
		}
		if (find_export(ks->name, &owner)) {
			kprintf("insmod: %s exports %s, which %s exports already\n", mod->name,
				ks->name, owner ? owner->name : "the kernel");
			return -EEXIST;
		}
	}
	return 0;
}

/* .kprobes.text, if any, must be code; each .nokprobe_list entry too. */
static int read_never_probe(const struct load_info *li, struct module *mod)
{
	unsigned int kt = find_section(li, ".kprobes.text");
	const void *list;
	int err;

	if (kt && li->sec_addr[kt]) {
		if (!module_code_pointer(li, li->sec_addr[kt])) {
			kprintf("insmod: section .kprobes.text is not code\n");
			return -ENOEXEC;
		}
		mod->kprobes_text_start = li->sec_addr[kt];
		mod->kprobes_text_size = li->sh[kt].sh_size;
	}
	err = read_table(li, ".nokprobe_list", sizeof(uintptr_t), sizeof(uintptr_t), &list,
			 &mod->num_kprobe_blacklist);
	mod->kprobe_blacklist = list;
	for (size_t i = 0; !err && i < mod->num_kprobe_blacklist; i++) {
		if (!module_code_pointer(li, mod->kprobe_blacklist[i])) {
			kprintf("insmod: .nokprobe_list entry %zu (0x%lx) is not in the module's code\n",
				i, (unsigned long)mod->kprobe_blacklist[i]);
			err = -ENOEXEC;
		}
	}
	return err;
}

static int compare_address(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* The function tracer's call sites (kernel/trace/ftrace_sites.h): each
 * must be the NOP at a function's entry in the module's code, as the
 * tracer will patch a call there. Those in init code are left out, as
 * that code is freed once init returns (a module's init is not
 * traced); the others are copied, sorted and turned off
 * (ftrace_init_sites: nothing runs the module's code yet) for the
 * tracer's table, which the loader publishes with the module's symbols. The compiler
 * aligns x86_64's record section to 1 only, so the entries are copied
 * out before they are read. */
static int read_ftrace_sites(const struct load_info *li, struct module *mod)
{
	const void *table;
	uintptr_t *kept;
	size_t count, n = 0;
	int err = read_table(li, ARCH_FTRACE_SITES_SECTION, sizeof(uintptr_t), 1, &table, &count);

	if (err || count == 0)
		return err;
	kept = kmalloc(count * sizeof(*kept));
	if (!kept)
		return -ENOMEM;
	memcpy(kept, table, count * sizeof(*kept));
	for (size_t i = 0; i < count; i++) {
		if (!module_code_range(li, kept[i], ARCH_FTRACE_SITE_SIZE) ||
		    !arch_ftrace_site_is_nop(kept[i])) {
			kprintf("insmod: %s entry %zu (0x%lx) is not a call site in the module's code\n",
				ARCH_FTRACE_SITES_SECTION, i, (unsigned long)kept[i]);
			kfree(kept);
			return -ENOEXEC;
		}
		if (!within_module_init(kept[i], mod))
			kept[n++] = kept[i];
	}
	sort(kept, n, sizeof(*kept), compare_address, NULL);
	err = ftrace_init_sites(kept, n);
	if (err) {
		kfree(kept);
		return err;
	}
	mod->ftrace_sites = (struct ftrace_sites){
		.start = kept, .end = kept + n, .module = mod->name,
	};
	return 0;
}

/* init_module and cleanup_module. */
static int read_init_exit(const struct load_info *li, struct module *mod)
{
	uintptr_t init, exit;
	int err = read_function(li, "init_module", &init);

	if (!err)
		err = read_function(li, "cleanup_module", &exit);
	if (err)
		return err;
	mod->init = (int (*)(void))init;
	mod->exit = (void (*)(void))exit;
	return 0;
}

int read_declarations(struct load_info *li, int nargs, char **args)
{
	struct module *mod = li->mod;
	const void *table;
	size_t nparams;
	int err = read_init_exit(li, mod);

	if (!err)
		err = read_table(li, "__ksymtab", sizeof(struct kernel_symbol), sizeof(uintptr_t), &table,
				 &mod->num_exports);
	if (err)
		return err;
	mod->exports = table;
	err = check_exports(li, mod);
	if (!err)
		err = read_never_probe(li, mod);
	if (!err)
		err = read_ftrace_sites(li, mod);
	if (!err)
		err = read_table(li, "__param", sizeof(struct kernel_param), sizeof(uintptr_t), &table,
				 &nparams);
	if (!err)
		err = check_params(li, table, nparams);
	if (!err)
		err = set_module_params(mod, table, nparams, nargs, args);
	if (!err) {
		mod->params = table;
		mod->num_params = nparams;
	}
	return err;
}
