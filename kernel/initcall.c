/* Running the initcalls (initcall.h). */
#include "kernel/initcall.h"
#include "kernel/printk.h"
#include "kernel/symtab.h"
#include "lib/errno.h"

void do_initcalls(void)
{
	for (const initcall_t *call = __start_initcalls; call < __stop_initcalls; call++) {
		int err = (*call)();
		struct symbol sym;

		if (!err)
			continue;
		if (sym_by_addr((uintptr_t)*call, &sym) < 0)
			sym.name = "?";
		kprintf("initcall %s failed: %d (%s)\n", sym.name, err, strerror(err));
	}
}
