/* Marking code that must never be probed.
 *
 * A probe works by trapping; code that runs while a trap is handled (the
 * trap entry, the breakpoint and single-step hooks, text patching, the
 * probes layer itself) would trap again inside its own handling and
 * recurse. Such code is marked where it is written, so that moving a
 * function to another file never makes it probeable:
 *
 *   __kprobes            on a definition, puts the function in the
 *                        .kprobes.text section, which the linker script
 *                        gathers between __kprobes_text_start and
 *                        __kprobes_text_end. Every function of the probes
 *                        core, its arch back end and text patching has it.
 *                        It is notrace (lib/types.h) as well: a kprobe on
 *                        a function tracer's call site runs the probes
 *                        core from the tracer's trampoline, and text
 *                        patching rewrites the sites themselves.
 *   NOKPROBE_SYMBOL(fn)  on the line right after fn's closing brace,
 *                        records fn's address in the .nokprobe_list
 *                        section; the symbol table supplies its size. For
 *                        single functions in files that are otherwise
 *                        probeable (trap dispatch, printk...). Only a
 *                        function defined elsewhere (in assembly, or in a
 *                        file that cannot include this header) is marked
 *                        away from its definition.
 *   .entry.text          the section of the assembly trap entry,
 *                        trampolines and context switch.
 *
 * GCC keeps a function's section for the clones it makes of it
 * (fn.part.0, fn.constprop.0); nokprobe.c covers the clones of a listed
 * function by name. tests/host/check_nokprobe.py checks the marks in the
 * linked kernel, tests/host/test_nokprobe_marks.py where NOKPROBE_SYMBOL
 * is written in the sources. */
#ifndef KERNEL_NOKPROBE_H
#define KERNEL_NOKPROBE_H

#include "kernel/cpu.h"
#include "kernel/symtab.h"
#include "lib/types.h"

#define __kprobes __section(".kprobes.text") notrace

#define NOKPROBE_SYMBOL(fn)                                                    \
	static const uintptr_t __nokprobe_##fn __used                          \
		__section(".nokprobe_list") = (uintptr_t)&fn

/* True if addr lies in code that must never be probed. */
bool within_nokprobe_text(uintptr_t addr);

/* Call fn for each function of the kernel that must never be probed,
 * one call per function, in the order Linux lists them: those that
 * NOKPROBE_SYMBOL names (and their clones), then those of .kprobes.text,
 * then those of the entry text. Returns the first non-zero value fn
 * returned, or 0. (Modules' are module_for_each_nokprobe's.) */
int nokprobe_for_each(sym_visit_t fn, void *arg);

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
