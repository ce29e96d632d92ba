/* The x86_64 side of threads: the first stack frame of a new thread. */
#include "kernel/arch.h"

extern char context_first_entry[];

/*
 * arch_context_switch (trap_entry.S) resumes a thread by popping six
 * callee-saved registers and returning. A new thread has never been
 * switched away from, so we build the frame it would have left: six zero
 * registers, then the address of context_first_entry as the return
 * address. The layout leaves %rsp 16-byte aligned after that return, as
 * the calling convention expects before context_first_entry's call.
 */
void arch_context_init(struct arch_context *ctx, void *stack_top)
{
	uint64_t *sp = (uint64_t *)ALIGN_DOWN((uintptr_t)stack_top, 16);

	*--sp = (uint64_t)context_first_entry;
	for (int i = 0; i < 6; i++)
		*--sp = 0;
	ctx->rsp = (uint64_t)sp;
}
