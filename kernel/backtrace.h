/* Stack backtraces through frame pointers.
 *
 * The kernel is compiled with -fno-omit-frame-pointer, so every function
 * starts by saving its caller's frame pointer and setting its own: the
 * frames form a linked list on the stack. At a frame pointer fp, the word
 * at fp is the caller's frame pointer and the word after it is the return
 * address into the caller (the same on x86_64 and aarch64).
 *
 * A trap breaks that chain in two places: the instruction the trap
 * stopped is in no frame record, and neither is the return address of a
 * function stopped at its first instruction, before it saved anything.
 * Both are in the trap's struct pt_regs, which the walk finds when it
 * meets the return address of a call that passed one (the trap entry's,
 * or an optimized probe's detour buffer's): so a backtrace from a probe
 * handler names the probed function and its caller. */
#ifndef KERNEL_BACKTRACE_H
#define KERNEL_BACKTRACE_H

#include "lib/types.h"

#define BACKTRACE_MAX 32

struct pt_regs;

/* One line of a backtrace: a return address (which names the call just
 * before it), or where a trap stopped the code (the instruction itself). */
struct backtrace_entry {
	uintptr_t addr;
	bool stopped;
};

/* Collect up to max entries, walking from frame. Memory is read with
 * fault recovery, so a corrupt chain ends the walk, not the kernel. */
int backtrace_collect(uintptr_t frame, struct backtrace_entry *out, int max);
/* Print "Call trace:" and one symbolized line per entry. */
void backtrace_print(uintptr_t frame);
/* The same for a trap: first where regs stopped the code, then the frames. */
void backtrace_print_regs(const struct pt_regs *regs);
/* Linux's dump_stack, for modules and the kernel alike: print which CPU
 * and thread this is, then the backtrace from the caller (its first line
 * is the caller's call of dump_stack). From a probe handler the trace
 * goes on through the trap into the probed function and its callers. */
void dump_stack(void);

#endif
