/* Saved context of a thread that is not running: only its stack pointer.
 * arch_context_switch pushes the callee-saved registers on the old stack
 * before storing %rsp here, and pops them from the new one. */
#ifndef ASM_CONTEXT_H
#define ASM_CONTEXT_H

#include <stdint.h>

struct arch_context {
	uint64_t rsp;
};

#endif
