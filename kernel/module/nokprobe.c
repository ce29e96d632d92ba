/* The code a module marks never to be probed, function by function
 * (module.h): what /sys/kernel/debug/kprobes/blacklist lists of it. */
#include "kernel/module/module.h"

/* A walk of one module's functions: the caller's visitor, told which
 * module each function is in. */
struct module_walk {
	sym_visit_t fn;
	void *arg;
	const char *module;
};

static int visit_in_module(const struct symbol *sym, void *arg)
{
	const struct module_walk *walk = arg;
	struct symbol named = *sym;

	named.module = walk->module;
	return walk->fn(&named, walk->arg);
}

int module_for_each_nokprobe(const struct module *mod, sym_visit_t fn, void *arg)
{
	struct module_walk walk = { .fn = fn, .arg = arg, .module = mod->name };
	const struct symtab *tab = &mod->symbols.table;
	struct symbol sym;
	int ret = 0;

	for (size_t i = 0; i < mod->num_kprobe_blacklist && !ret; i++) {
		uintptr_t addr = mod->kprobe_blacklist[i];

		/* Not code of its init once that is freed: nothing there. */
		if ((within_module_core(addr, mod) || within_module_init(addr, mod)) &&
		    symtab_lookup_addr(tab, addr, &sym) == 0)
			ret = visit_in_module(&sym, &walk);
	}
	if (!ret)
		ret = symtab_for_each_function(tab, mod->kprobes_text_start,
					       mod->kprobes_text_start + mod->kprobes_text_size,
					       visit_in_module, &walk);
	return ret;
}
