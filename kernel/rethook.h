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
 * (about 1 KiB here), so the depth is kept small: hooked calls nest only as
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

/* A thread's hooked calls (in struct thread, kernel/sched.h), one frame
 * per call: frame i is ret[i], slot[i], hook[i] and record[i], frame 1
 * the oldest, frame depth the newest. Parallel arrays rather than an
 * array of structures, so that a frame's word is found by an index
 * scaled by 8, which the load itself does, on every hooked call.
 *
 *   slot    identifies the call on its stack (what the architecture's
 *           hooks compare);
 *   ret     its real return address, or the trampoline's when the call
 *           was hooked a second time (then frame i - 1, the same call's,
 *           holds the real one);
 *   hook    the user that hooked it, and record that user's record.
 *
 * Frame 0 is a guard that no return matches (slot 0, as in a thread
 * just made), so the trampoline needs no separate test for "no hooked
 * call at all". */
struct rethook_stack {
	unsigned int depth;
	uintptr_t ret[1 + RETHOOK_DEPTH];
	uintptr_t slot[1 + RETHOOK_DEPTH];
	const struct rethook *hook[1 + RETHOOK_DEPTH];
	void *record[1 + RETHOOK_DEPTH];
};

/* The trampoline (arch/ARCH/rethook_trampoline.S): builds a struct
 * pt_regs, calls rethook_trampoline_handler(regs), restores the
 * registers from regs and goes on at regs' instruction pointer, which
 * the handler set to the real return address. */
extern char rethook_trampoline[];

/* A hook in two steps, for a user that must know there is room before
 * it commits to a call (kretprobes, before their entry handler runs).
 * rethook_has_room: whether the current thread (st being
 * &current_thread()->rethook) may hook one more call; false when it has
 * RETHOOK_DEPTH hooked already (the caller counts the call as missed).
 * Nothing may hook a call of this thread between the two steps. */
static inline bool rethook_has_room(const struct rethook_stack *st)
{
	return likely(st->depth < RETHOOK_DEPTH);
}

/* At the first instruction of a function (regs), with interrupts off and
 * room in st: fill the next frame and make the call return into the
 * trampoline, which will call rh->handler(record, ...). */
static inline void rethook_commit(struct rethook_stack *st, const struct rethook *rh,
				  void *record, struct pt_regs *regs)
{
	unsigned int i = st->depth + 1;

	st->ret[i] = arch_rethook_prepare(regs, (uintptr_t)rethook_trampoline, &st->slot[i]);
	st->hook[i] = rh;
	st->record[i] = record;
	st->depth = i;	/* after the frame: a backtrace reads only whole frames */
}

/* Both steps at once: 0, or -ENOSPC (nothing changed) if the thread has
 * no room. Inline, as the two steps are: they run on every hooked call. */
static inline int rethook_hook(struct rethook_stack *st, const struct rethook *rh, void *record,
			       struct pt_regs *regs)
{
	if (!rethook_has_room(st))
		return -ENOSPC;
	rethook_commit(st, rh, record, regs);
	return 0;
}

/* The trampoline's C half: set regs' instruction pointer to the real
 * return address and run the handlers of the returning call (the
 * thread's newest hooked one, which must match regs, or this panics). */
void rethook_trampoline_handler(struct pt_regs *regs);

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
