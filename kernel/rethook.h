/* rethook: one service for every layer that wants to run code when a
 * function returns.
 *
 * A user (the kretprobes of kernel/probes/, a selftest, ...) registers
 * nothing: it fills in a struct rethook, statically, and at a function's
 * entry calls rethook_hook() with the thread's stack, the entry's
 * registers and a record of its own. The service saves the real return
 * address and replaces it with the address of rethook_trampoline, an
 * assembly stub of each architecture. When the function returns into the trampoline, the
 * service takes the thread's newest hooked call, calls the user's
 * handler with the record, and resumes at the real return address.
 *
 * Each thread keeps its hooked calls in a stack of fixed depth inside its
 * struct thread (so that hooking never allocates, and so never takes the
 * heap's lock from a probe hit). Any number of users may hook at once,
 * even the same call: the entries record whose each one is. A thread
 * that ends inside hooked calls has their records handed back through
 * each user's reclaim callback; and stack unwinders ask
 * rethook_real_return() for the real address behind the trampoline's.
 *
 * Everything here runs on the current thread only, with interrupts off
 * (or, at an optimized probe's entry on aarch64, with this CPU busy
 * handling a probe, when an interrupt hooks nothing): no lock is needed,
 * since only the thread itself touches its stack. */
#ifndef KERNEL_RETHOOK_H
#define KERNEL_RETHOOK_H

#include "lib/errno.h"
#include "lib/types.h"
#include <asm/ptrace.h>
#include <asm/rethook.h>

/* How many hooked calls one thread may have pending at once. Every
 * struct thread pays 32 bytes per entry whether it hooks anything or not
 * (1 KiB here), so the depth is kept small: hooked calls nest only as
 * deep as probed functions call each other or recurse, and a hook
 * beyond the depth fails (its user counts a miss) instead of
 * overflowing. */
#define RETHOOK_DEPTH 32

/* A user of the service, in static storage. Both callbacks run with
 * interrupts off and must not sleep. */
struct rethook {
	/* The hooked call returned: regs are the trampoline's, with the
	 * return value and the real return address as the instruction
	 * pointer. A handler may change the return value. */
	void (*handler)(void *record, struct pt_regs *regs);
	/* The call never returns: its thread is ending inside it. */
	void (*reclaim)(void *record);
};

/* One hooked call. slot identifies the call on its stack (what the
 * architecture's hooks compare); ret is the real return address, or the
 * trampoline's when the call was hooked a second time (then the entry
 * below, the same call's, holds the real one). */
struct rethook_frame {
	uintptr_t ret;
	uintptr_t slot;
	const struct rethook *hook;
	void *record;
};

/* A thread's hooked calls, oldest first (in struct thread, kernel/sched.h). */
struct rethook_stack {
	unsigned int depth;
	struct rethook_frame frames[RETHOOK_DEPTH];
};

/* Whether the thread whose stack st is has room to hook one more call:
 * for a user that must know before it commits to a call (kretprobes,
 * before their entry handler runs). */
static inline bool rethook_has_room(const struct rethook_stack *st)
{
	return st->depth < RETHOOK_DEPTH;
}

/* The trampoline (arch/ARCH/rethook_trampoline.S): builds a struct
 * pt_regs, calls rethook_trampoline_handler(regs), restores the
 * registers from regs and goes on at the address it returned. */
extern char rethook_trampoline[];

/* At the first instruction of a function (regs), with interrupts off,
 * st being the current thread's stack (&current_thread()->rethook): make
 * the call return into the trampoline, which will call
 * rh->handler(record, ...). Returns 0, or -ENOSPC if the thread has
 * RETHOOK_DEPTH calls hooked already (nothing is changed: the caller
 * counts the call as missed). Inline: it runs on every hooked call. */
static inline int rethook_hook(struct rethook_stack *st, const struct rethook *rh, void *record,
			       struct pt_regs *regs)
{
	struct rethook_frame *f;

	if (unlikely(!rethook_has_room(st)))
		return -ENOSPC;
	f = &st->frames[st->depth];
	f->ret = arch_rethook_prepare(regs, (uintptr_t)rethook_trampoline, &f->slot);
	f->hook = rh;
	f->record = record;
	st->depth++;	/* after the frame: a backtrace reads only whole frames */
	return 0;
}

/* The trampoline's C half: run the handlers of the returning call (the
 * thread's newest hooked one, which must match regs, or this panics) and
 * return the real return address. */
uintptr_t rethook_trampoline_handler(struct pt_regs *regs);

/* For stack unwinders: the real return address of the call whose return
 * address, ret, was read at stack_slot in the current thread - ret
 * itself unless it is the trampoline's. Takes no lock, never sleeps. */
uintptr_t rethook_real_return(uintptr_t ret, uintptr_t stack_slot);

/* The architecture's hooks, static inlines of <asm/rethook.h> (they run
 * on every hooked call):
 *
 *   uintptr_t arch_rethook_prepare(struct pt_regs *regs, uintptr_t trampoline,
 *                                  uintptr_t *slot)
 *       at a function's first instruction (regs): replace the return
 *       address of the call with trampoline, return the real one, and
 *       set *slot to what identifies the call on the stack;
 *   bool arch_rethook_matches(uintptr_t slot, const struct pt_regs *regs)
 *       whether the trampoline's regs are the return of the call hooked
 *       with slot;
 *   bool arch_rethook_slot_matches(uintptr_t slot, uintptr_t stack_slot)
 *       whether the trampoline's address a backtrace read at stack_slot
 *       is the saved return address of the call hooked with slot (asked
 *       newest call first; the first that matches is the one). */

#endif
