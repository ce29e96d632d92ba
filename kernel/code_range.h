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
 * symbols (the kernel's, and future module text) is not listed. */
#ifndef KERNEL_CODE_RANGE_H
#define KERNEL_CODE_RANGE_H

#include "lib/types.h"

struct code_range {
	const char *what;	/* for backtraces: "an optimized probe's detour buffer" */
	bool (*contains)(uintptr_t addr);
};

#define CODE_RANGE(code_what, fn)                                              \
	static const struct code_range code_range_##fn                        \
		__used __section(".code_ranges") __aligned(8) = {             \
		.what = code_what, .contains = fn,                            \
	}

/* The entry whose code holds addr, or NULL. A return address found there
 * has a saved register frame below its call (see arch_call_regs). */
const struct code_range *code_range_find(uintptr_t addr);

#endif
