/* Code the kernel writes at run time that a stack unwinder must know.
 *
 * Some code outside the kernel image calls into the kernel with the
 * registers of the code it interrupted saved just below its call - an
 * optimized probe's detour buffer, for one. A backtrace through such a
 * call should go on from those registers, not from the frame chain, and
 * should name the code, which has no symbol. The subsystem that writes
 * such code declares it with CODE_RANGE(); the linker gathers the entries
 * into one table (see linker/), so the unwinder (kernel/backtrace.c) asks
 * this table and not the subsystem.
 *
 * Each entry is a function that says whether an address lies in that
 * code. It must answer without taking a lock and without sleeping: the
 * unwinder runs in panic and inside probe handlers. Ordinary code with
 * symbols (the kernel's, and module text) is not listed; code with a
 * symbol that passes registers as a trap's entry does (the call sites'
 * regs trampoline, kernel/trace/ftrace.c) is, and keeps its name. */
#ifndef KERNEL_CODE_RANGE_H
#define KERNEL_CODE_RANGE_H

#include "lib/types.h"

struct pt_regs;

struct code_range {
	const char *what;	/* for backtraces: "an optimized probe's detour buffer" */
	bool (*contains)(uintptr_t addr);
	/* Where the code the saved registers (regs, copied from regs_addr)
	 * describe stopped, or 0 if that cannot be read; NULL: as a trap
	 * reports it (arch_trap_address). */
	uintptr_t (*stopped_at)(const struct pt_regs *regs, uintptr_t regs_addr);
};

/* For code whose saved registers do not say where it stopped as a
 * trap's would: stopped_fn says. */
#define CODE_RANGE_STOPPED(code_what, fn, stopped_fn)                          \
	static const struct code_range code_range_##fn                        \
		__used __section(".code_ranges") __aligned(8) = {             \
		.what = code_what, .contains = fn, .stopped_at = stopped_fn,  \
	}

#define CODE_RANGE(code_what, fn) CODE_RANGE_STOPPED(code_what, fn, NULL)

/* The entry whose code holds addr, or NULL. A return address found there
 * has a saved register frame below its call (see arch_call_regs). */
const struct code_range *code_range_find(uintptr_t addr);

#endif
