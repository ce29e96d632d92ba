/* kallsyms_lookup_name, for modules (include/linux/kallsyms.h): the
 * address of a symbol of the kernel or of a loaded module, by name, as
 * `sym NAME` finds it (kernel/symtab.h). Linux stopped exporting it in
 * 5.7, so that modules could not reach what the kernel does not export;
 * ProbeOS exports it because modules written before then (and teaching
 * code) call it, and every symbol here may be probed and read anyway. */
#include "kernel/module/kallsyms.h"
#include "kernel/rcu.h"
#include "kernel/symtab.h"
#include "lib/export.h"

unsigned long kallsyms_lookup_name(const char *name)
{
	struct symbol sym;
	unsigned long addr = 0;

	/* A module's table is freed a grace period after it is removed. */
	rcu_read_lock();
	if (sym_by_name(name, &sym) == 0)
		addr = sym.addr;
	rcu_read_unlock();
	return addr;
}
EXPORT_SYMBOL(kallsyms_lookup_name);
