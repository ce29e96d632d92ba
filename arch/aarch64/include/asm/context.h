/* Saved context of a thread that is not running: only its stack pointer.
 * arch_context_switch (arch/aarch64/trap_entry.S) stores the callee-saved
 * registers x19-x30 on the old stack before storing sp here, and loads
 * them from the new one. */
#ifndef ASM_CONTEXT_H
#define ASM_CONTEXT_H

#include <stdint.h>

struct arch_context {
	uint64_t sp;
};

#endif
