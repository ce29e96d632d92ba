/* Marking code that must never be probed.
 *
 * A probe works by trapping; code that runs while a trap is handled (the
 * trap entry, the breakpoint and single-step hooks, text patching, the
 * probes layer itself) would trap again inside its own handling and
 * recurse. NOKPROBE_SYMBOL(fn) records fn's address in the .nokprobe_list
 * section; the whole .entry.text section is excluded too. The symbol
 * table supplies each listed function's size. */
#ifndef KERNEL_NOKPROBE_H
#define KERNEL_NOKPROBE_H

#include "lib/types.h"

#define NOKPROBE_SYMBOL(fn)                                                    \
	static const uintptr_t __nokprobe_##fn __used                          \
		__section(".nokprobe_list") = (uintptr_t)&fn

/* True if addr lies in code that must never be probed. */
bool within_nokprobe_text(uintptr_t addr);

#endif
