/* The never-probe list (see nokprobe.h). */
#include "kernel/nokprobe.h"
#include "kernel/symtab.h"
#include "lib/string.h"

extern const uintptr_t __start_nokprobe_list[], __stop_nokprobe_list[];
extern const char __entry_text_start[], __entry_text_end[];
extern const char __kprobes_text_start[], __kprobes_text_end[];

static bool listed(uintptr_t fn)
{
	for (const uintptr_t *p = __start_nokprobe_list; p < __stop_nokprobe_list; p++)
		if (*p == fn)
			return true;
	return false;
}

/* GCC may move part of a function into a clone named after it:
 * fn.part.0 (the rest of fn after an inlined fast path), fn.constprop.0,
 * fn.isra.0, fn.cold. A clone's code is fn's code, so it is never probed
 * if fn is listed. (console_lock_take.part.0 is the lock's slow path,
 * between taking the flag and recording the owner: probed, a printing
 * handler would spin there on a lock its own CPU holds.) */
static bool clone_of_listed(const char *name)
{
	struct symbol orig;

	return sym_clone_origin(name, &orig) == 0 && listed(orig.addr);
}

/* fn for each function NOKPROBE_SYMBOL names, then for each clone of
 * one, which the table names after it. */
static int for_each_listed(sym_visit_t fn, void *arg)
{
	const struct symtab *tab = &kernel_symtab;
	struct symbol sym;
	int ret = 0;

	for (const uintptr_t *p = __start_nokprobe_list; p < __stop_nokprobe_list && !ret; p++)
		if (symtab_lookup_addr(tab, *p, &sym) == 0)
			ret = fn(&sym, arg);
	for (size_t i = 0; i < tab->count && !ret; i++) {
		const char *name = symtab_name(tab, i);

		if (strchr(name, '.') && clone_of_listed(name) &&
		    symtab_lookup_addr(tab, tab->entries[i].addr, &sym) == 0)
			ret = fn(&sym, arg);
	}
	return ret;
}

int nokprobe_for_each(sym_visit_t fn, void *arg)
{
	int ret = for_each_listed(fn, arg);

	if (!ret)
		ret = symtab_for_each_function(&kernel_symtab, (uintptr_t)__kprobes_text_start,
					       (uintptr_t)__kprobes_text_end, fn, arg);
	if (!ret)
		ret = symtab_for_each_function(&kernel_symtab, (uintptr_t)__entry_text_start,
					       (uintptr_t)__entry_text_end, fn, arg);
	return ret;
}

bool within_nokprobe_text(uintptr_t addr)
{
	struct symbol sym;

	if (addr >= (uintptr_t)__entry_text_start && addr < (uintptr_t)__entry_text_end)
		return true;
	if (addr >= (uintptr_t)__kprobes_text_start && addr < (uintptr_t)__kprobes_text_end)
		return true;
	if (sym_by_addr(addr, &sym) < 0)
		return false;
	return listed(sym.addr) || clone_of_listed(sym.name);
}
