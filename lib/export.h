/* Symbols the kernel offers to loadable modules.
 *
 * A module may call only what the kernel exports on purpose: the module
 * API is a deliberate list, written next to each definition with
 * EXPORT_SYMBOL(name), as in Linux. The linker gathers the entries into
 * one table (__start___ksymtab ... __stop___ksymtab, see linker/), which
 * the module loader (kernel/module/) searches when it resolves a
 * module's undefined symbols. A module exports its own symbols to
 * modules loaded after it the same way: its __ksymtab section.
 *
 * It lives in lib/, the lowest layer, because lib/'s own functions
 * (memcpy, snprintf, ...) are exported too, and lib/ includes nothing of
 * kernel/. */
#ifndef LIB_EXPORT_H
#define LIB_EXPORT_H

#include "lib/types.h"

struct kernel_symbol {
	uintptr_t value;	/* the symbol's address */
	const char *name;
};

#define EXPORT_SYMBOL(sym)                                                     \
	static const char __kstrtab_##sym[] = #sym;                            \
	static const struct kernel_symbol __ksymtab_##sym                      \
		__used __section("__ksymtab") __aligned(8) = {                 \
		.value = (uintptr_t)&sym, .name = __kstrtab_##sym,             \
	}
/* Linux restricts these to GPL modules; every module here may use them. */
#define EXPORT_SYMBOL_GPL(sym) EXPORT_SYMBOL(sym)

/* The kernel's table, set by the linker script. */
extern const struct kernel_symbol __start___ksymtab[], __stop___ksymtab[];

#endif
