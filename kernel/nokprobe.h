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

#include "kernel/percpu.h"
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
 * The nesting count shares a per-CPU word with the state of whatever
 * handles breakpoint traps on this CPU (the probes layer, which keeps its
 * status there: zero when idle). Every hit must know whether this CPU is
 * busy with another hit or inside nokprobe_begin(), and with both halves
 * in one word one load and one test answer both. The scheduler reads the
 * handler half too: a CPU inside a handler must not switch away (sched.c).
 * Each half is only ever written on its own, as a 32-bit store, never
 * through busy: a hit that lands between the load and the store of
 * nokprobe_begin's increment changes the handler half, and must not undo
 * the count.
 */
union handler_context {
	struct {
		uint32_t handler_state;		/* 0: no handler runs here */
		uint32_t nokprobe_depth;	/* nesting of nokprobe_begin() */
	};
	uint64_t busy;				/* nonzero if either is */
};
DECLARE_PER_CPU(union handler_context, handler_context);

static inline void nokprobe_begin(void)
{
	this_cpu_ptr(&handler_context)->nokprobe_depth++;
}

static inline void nokprobe_end(void)
{
	this_cpu_ptr(&handler_context)->nokprobe_depth--;
}

/* True inside nokprobe_begin() on this CPU. (Probe hits do not call it:
 * they test the count together with their status, as said above.) */
static inline bool nokprobe_active(void)
{
	return this_cpu_ptr(&handler_context)->nokprobe_depth != 0;
}

#endif
