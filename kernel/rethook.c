/* rethook: the return service (see rethook.h).
 *
 * A thread's stack of hooked calls is touched only by the thread itself:
 * a hook at a function's entry pushes, the trampoline pops, the thread's
 * exit empties it and its own backtraces read it. Each runs with
 * interrupts off (or, for an optimized probe's entry on aarch64, with
 * this CPU busy handling a probe, when an interrupt hooks nothing), so a
 * push or a pop is never interrupted by another: no lock, no atomics.
 * (The push, rethook_hook, is an inline of rethook.h.)
 *
 * Every function here runs on the trampoline's path or beside it on a
 * probe hit, and is marked never to be probed. */
#include "kernel/rethook.h"
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include <asm/irq.h>

/* The trampoline met a return that is not the newest hooked call of this
 * thread: the stack was unwound past a hooked call, or corrupted. */
static __noreturn __noinline void rethook_bug(const struct rethook_stack *st)
{
	if (!st->depth)
		panic("rethook BUG!: trampoline reached with no hooked call in thread %s",
		      current_thread()->name);
	panic("rethook BUG!: a return is not that of the newest hooked call (to %p)",
	      (void *)st->ret[st->depth]);
}
NOKPROBE_SYMBOL(rethook_bug);

/* The oldest frame, at or below top, of the call hooked at top: a call
 * hooked twice has the trampoline as the saved return address of all
 * but its first frame. The guard's (0) stops the walk. */
static unsigned int first_frame_of(const struct rethook_stack *st, unsigned int top)
{
	while (st->ret[top] == (uintptr_t)rethook_trampoline)
		top--;
	return top;
}
NOKPROBE_SYMBOL(first_frame_of);

/* Pop the newest frame, i, and call its user's handler. Its hook and
 * record are read before the call: the handler may hook calls of its
 * own, which reuse the popped place. */
static inline void pop_and_call(struct rethook_stack *st, unsigned int i, struct pt_regs *regs)
{
	st->depth = i - 1;
	st->hook[i]->handler(st->record[i], regs);
}

/* The return of a call hooked more than once: the real address is in its
 * first frame, and every frame of the call is popped, newest first. */
static __noinline void return_of_shared_call(struct rethook_stack *st, struct pt_regs *regs)
{
	unsigned int first = first_frame_of(st, st->depth);

	instruction_pointer_set(regs, st->ret[first]);
	while (st->depth >= first)
		pop_and_call(st, st->depth, regs);
}
NOKPROBE_SYMBOL(return_of_shared_call);

void rethook_trampoline_handler(struct pt_regs *regs)
{
	struct rethook_stack *st = &current_thread()->rethook;
	unsigned int i = st->depth;

	/* Returns come newest first (with no hooked call, frame 0 is the
	 * guard, which matches none). */
	if (unlikely(!arch_rethook_matches(st->slot[i], regs)))
		rethook_bug(st);
	if (unlikely(st->ret[i] == (uintptr_t)rethook_trampoline)) {
		return_of_shared_call(st, regs);
		return;
	}
	/* The handler sees the real return address, where the trampoline
	 * goes on. */
	instruction_pointer_set(regs, st->ret[i]);
	pop_and_call(st, i, regs);
}
NOKPROBE_SYMBOL(rethook_trampoline_handler);

/* A thread is ending inside its hooked calls, which will never return:
 * give each user its record back, newest first. */
static void rethook_thread_exit(struct thread *t)
{
	/* Interrupts stay off: one that hit a hooked function meanwhile
	 * would push onto this stack. */
	unsigned long flags = arch_irq_save();
	struct rethook_stack *st = &t->rethook;

	for (; st->depth; st->depth--)
		st->hook[st->depth]->reclaim(st->record[st->depth]);
	arch_irq_restore(flags);
}
NOKPROBE_SYMBOL(rethook_thread_exit);
THREAD_EXIT_HOOK(rethook_thread_exit);

uintptr_t rethook_real_return(uintptr_t ret, uintptr_t stack_slot)
{
	const struct rethook_stack *st;
	unsigned long flags;

	if (ret != (uintptr_t)rethook_trampoline)
		return ret;
	flags = arch_irq_save();
	st = &current_thread()->rethook;
	/* Newest first; a call hooked twice matches on its newer frames
	 * too, which hold the trampoline: its first frame has the real one. */
	for (unsigned int i = st->depth; i > 0; i--) {
		if (arch_rethook_slot_matches(st->slot[i], stack_slot)) {
			ret = st->ret[first_frame_of(st, i)];
			break;
		}
	}
	arch_irq_restore(flags);
	return ret;
}
NOKPROBE_SYMBOL(rethook_real_return);
