/* The never-probe list (see nokprobe.h). */
#include "kernel/nokprobe.h"
#include "kernel/symtab.h"

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
