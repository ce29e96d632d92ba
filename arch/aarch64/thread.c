/* The aarch64 side of threads: the first stack frame of a new thread. */
#include "kernel/arch.h"

#define SWITCH_FRAME_WORDS 12	/* x19-x30, as arch_context_switch saves them */
#define SAVED_X30 11

extern char context_first_entry[];

/*
 * arch_context_switch (trap_entry.S) resumes a thread by loading twelve
 * registers (x19-x30) from its stack and returning to x30. A new thread
 * has never been switched away from, so we build the frame it would have
 * left: zeros, except x30 = context_first_entry. The frame is 96 bytes,
 * so sp stays 16-byte aligned as the architecture requires.
 */
void arch_context_init(struct arch_context *ctx, void *stack_top)
{
	uint64_t *sp = (uint64_t *)ALIGN_DOWN((uintptr_t)stack_top, 16);

	sp -= SWITCH_FRAME_WORDS;
	for (int i = 0; i < SWITCH_FRAME_WORDS; i++)
		sp[i] = 0;
	sp[SAVED_X30] = (uint64_t)context_first_entry;
	ctx->sp = (uint64_t)sp;
}
