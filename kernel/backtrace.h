/* Stack backtraces through frame pointers.
 *
 * The kernel is compiled with -fno-omit-frame-pointer, so every function
 * starts by saving its caller's frame pointer and setting its own: the
 * frames form a linked list on the stack. At a frame pointer fp, the word
 * at fp is the caller's frame pointer and the word after it is the return
 * address into the caller (the same on x86_64 and aarch64). */
#ifndef KERNEL_BACKTRACE_H
#define KERNEL_BACKTRACE_H

#include "lib/types.h"

#define BACKTRACE_MAX 32

/* Collect up to max return addresses, walking from frame. Memory is read
 * with fault recovery, so a corrupt chain ends the walk, not the kernel. */
int backtrace_collect(uintptr_t frame, uintptr_t *addrs, int max);
/* Print "Call trace:" and one symbolized line per return address. */
void backtrace_print(uintptr_t frame);
/* The same for a trap: first the trapping instruction ip, then the frames. */
void backtrace_print_from(uintptr_t ip, uintptr_t frame);

#endif
