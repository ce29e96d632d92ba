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

#include "kernel/cpu.h"
#include "lib/types.h"

#define NOKPROBE_SYMBOL(fn)                                                    \
	static const uintptr_t __nokprobe_##fn __used                          \
		__section(".nokprobe_list") = (uintptr_t)&fn

/* True if addr lies in code that must never be probed. */
bool within_nokprobe_text(uintptr_t addr);

/*
 * Code that may be probed in general but must not be *now*, on this CPU:
 * between nokprobe_begin() and nokprobe_end() (they nest), every probe
 * hit on this CPU is a missed hit - counted in the probe's nmissed, no
 * handler run. The console uses it while it prints what probe handlers
 * printed, so that a printing probe on the console's own path cannot
 * feed itself. Call both with interrupts off, on the same CPU.
 *
 * The nesting count is the nokprobe_depth half of this CPU's
 * handler_context word (kernel/cpu.h), beside the state of whatever
 * handles breakpoint traps here, so that a hit tests both at once.
 */
static inline void nokprobe_begin(void)
{
	this_cpu_field(handler_context.nokprobe_depth)++;
}

static inline void nokprobe_end(void)
{
	this_cpu_field(handler_context.nokprobe_depth)--;
}

/* True inside nokprobe_begin() on this CPU. (Probe hits do not call it:
 * they test the count together with their status, as said above.) */
static inline bool nokprobe_active(void)
{
	return this_cpu_field(handler_context.nokprobe_depth) != 0;
}

#endif
