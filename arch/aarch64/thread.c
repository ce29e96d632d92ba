/* The aarch64 side of threads: the first stack frame of a new thread. */
#include "kernel/arch.h"
#include <asm/sysreg.h>

/* The frame arch_context_switch (trap_entry.S) saves: x19-x30, DAIF and
 * a pad word, 112 bytes, so sp stays 16-byte aligned. */
#define SWITCH_FRAME_WORDS 14
#define SAVED_X30  11
#define SAVED_DAIF 12

extern char context_first_entry[];

/*
 * arch_context_switch resumes a thread by loading its saved registers
 * from its stack and returning to x30. A new thread has never been
 * switched away from, so we build the frame it would have left: zeros,
 * x30 = context_first_entry, and interrupts (and FIQs) masked but debug
 * exceptions and SErrors not, until thread_start enables interrupts.
 */
void arch_context_init(struct arch_context *ctx, void *stack_top)
{
	uint64_t *sp = (uint64_t *)ALIGN_DOWN((uintptr_t)stack_top, 16);

	sp -= SWITCH_FRAME_WORDS;
	for (int i = 0; i < SWITCH_FRAME_WORDS; i++)
		sp[i] = 0;
	sp[SAVED_X30] = (uint64_t)context_first_entry;
	sp[SAVED_DAIF] = PSR_I | PSR_F;
	ctx->sp = (uint64_t)sp;
}
