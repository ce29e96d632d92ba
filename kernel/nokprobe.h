/* Marking code that must never be probed.
 *
 * A probe works by trapping; code that runs while a trap is handled (the
 * trap entry, the breakpoint and single-step hooks, text patching, the
 * probes layer itself) would trap again inside its own handling and
 * recurse. NOKPROBE_SYMBOL(fn) records fn's address in the .nokprobe_list
 * section. Whole files are excluded by the linker script, which gathers
 * them between __kprobes_text_start and __kprobes_text_end (the probes
 * core and back end, text patching), and the .entry.text section (trap
 * entry). The symbol table supplies each listed function's size. */
#ifndef KERNEL_NOKPROBE_H
#define KERNEL_NOKPROBE_H

#include "lib/types.h"

#define NOKPROBE_SYMBOL(fn)                                                    \
	static const uintptr_t __nokprobe_##fn __used                          \
		__section(".nokprobe_list") = (uintptr_t)&fn

/* True if addr lies in code that must never be probed. */
bool within_nokprobe_text(uintptr_t addr);

#endif
