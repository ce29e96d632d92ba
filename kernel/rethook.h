/* rethook: one service for every layer that wants to run code when a
 * function returns.
 *
 * A user (the kretprobes of kernel/probes/, a selftest, ...) registers
 * nothing. It fills in a struct rethook, statically, and makes a
 * trampoline of its own: one line of assembly, RETHOOK_TRAMPOLINE of
 * <asm/rethook_trampoline.h>, whose C half calls rethook_return. Each of
 * its records of a call (a kretprobe_instance, say) holds a struct
 * rethook_node. At a function's entry the user calls rethook_hook() with
 * a node: the service saves the real return address in it, replaces
 * that address with the user's trampoline's, and puts the node first in
 * the thread's list of hooked calls. When the function returns into the
 * trampoline, rethook_return takes the thread's newest node, calls the
 * user's handler with it, and resumes at the real return address.
 *
 * Why a trampoline per user rather than one for all: the return then
 * knows whose it is from where it lands, and calls the user's handler
 * directly (inlined, even) instead of through a pointer - on the one
 * path every hooked call takes. And why nodes inside the users' records:
 * a hook then allocates nothing and can never run out of room (a user
 * with no free record misses the call itself, as a kretprobe counts
 * nmissed), and a thread pays one pointer for the service.
 *
 * Any number of users may hook at once, even the same call. A thread
 * that ends inside hooked calls has their nodes handed back through each
 * user's reclaim callback; and stack unwinders ask rethook_real_return()
 * for the real address behind a trampoline's.
 *
 * Everything here runs on the current thread only, with interrupts off
 * (or, at an optimized probe's entry on aarch64, with this CPU busy
 * handling a probe, when an interrupt hooks nothing): no lock is needed,
 * since only the thread itself touches its list. */
#ifndef KERNEL_RETHOOK_H
#define KERNEL_RETHOOK_H

#include "lib/types.h"
#include <asm/ptrace.h>
#include <asm/rethook.h>

struct rethook_node;

/* A user of the service, in static storage (const, so that the compiler
 * sees its handler in rethook_return and its trampoline in
 * rethook_hook). Both callbacks run with interrupts off and must not
 * sleep. */
struct rethook {
	/* The hooked call returned: regs are the trampoline's, with the
	 * return value and the real return address as the instruction
	 * pointer. A handler may change the return value. */
	void (*handler)(struct rethook_node *node, struct pt_regs *regs);
	/* The call never returns: its thread is ending inside it. */
	void (*reclaim)(struct rethook_node *node);
	/* The user's own trampoline (RETHOOK_TRAMPOLINE), whose C half
	 * calls rethook_return(..., this, ...). */
	const char *trampoline;
};

/* One hooked call, inside a record of the user that hooks it. The user
 * sets rethook once, when it makes the record; the service fills in the
 * rest at each hook. */
struct rethook_node {
	const struct rethook *rethook;	/* the user */
	struct rethook_node *next;	/* the thread's next older hooked call */
	/* The call's real return address, or a trampoline's when the call
	 * was hooked a second time (then next, of the same call and so with
	 * the same slot, holds the real one). */
	uintptr_t ret;
	uintptr_t slot;	/* what identifies the call on its stack (the arch hooks) */
};

/* The end of every thread's list, a guard that no return matches (its
 * slot is 0): with no hooked call a return needs no separate test, and
 * the oldest call never looks hooked twice. Never written. */
extern struct rethook_node rethook_end;

/* Whether addr is a trampoline of the service's users: they all sit in
 * one section (.entry.text.rethook, linker/common.ld). */
static inline bool rethook_is_trampoline(uintptr_t addr)
{
	extern const char __rethook_text_start[], __rethook_text_end[];

	return addr >= (uintptr_t)__rethook_text_start && addr < (uintptr_t)__rethook_text_end;
}

/* A new thread's list of hooked calls (in struct thread, kernel/sched.h,
 * and given to every call below): empty. */
static inline void rethook_thread_init(struct rethook_node **list)
{
	*list = &rethook_end;
}

/* At the first instruction of a function (regs), with interrupts off,
 * list the current thread's: make the call return into rh's trampoline,
 * which will call rh->handler(node, ...). node is a record's made for
 * rh (node->rethook == rh; rh is passed again so that its trampoline's
 * address is a constant here), and is the user's again when its
 * handler or reclaim runs. Inline: it runs on every hooked call. */
static inline void rethook_hook(struct rethook_node **list, const struct rethook *rh,
				struct rethook_node *node, struct pt_regs *regs)
{
	node->ret = arch_rethook_prepare(regs, (uintptr_t)rh->trampoline, &node->slot);
	node->next = *list;
	*list = node;
}

/* rethook_return's two unlikely ways, out of line: the return is not the
 * thread's newest hooked call (this panics), or it is that of a call
 * hooked more than once. */
__noreturn void rethook_bug(void);
void rethook_return_shared(struct pt_regs *regs);

/* The C half of rh's trampoline (the whole of it, for most users): a call
 * that rh hooked returned, with regs, and list is the current thread's.
 * Set regs' instruction pointer to the real return address, take the
 * call's node off the list and run its handler - every one of the call's
 * nodes, newest first, for a call hooked more than once. The returning
 * call must be the thread's newest hooked one, or this panics. Inline,
 * so that rh->handler is called directly. */
static inline void rethook_return(struct rethook_node **list, const struct rethook *rh,
				  struct pt_regs *regs)
{
	struct rethook_node *node = *list;

	/* Returns come newest first (with no hooked call, the guard
	 * matches none; so node->next below is a node). */
	if (unlikely(!arch_rethook_matches(node->slot, regs)))
		rethook_bug();
	if (unlikely(node->next->slot == node->slot)) {
		rethook_return_shared(regs);
		return;
	}
	/* The handler sees the real return address, where the trampoline
	 * goes on. */
	instruction_pointer_set(regs, node->ret);
	*list = node->next;
	rh->handler(node, regs);
}

struct thread;
/* Thread t is ending (its exit hook, with t current or never run): give
 * each user the nodes of t's hooked calls back through its reclaim,
 * newest first, and leave t's list empty. */
void rethook_thread_reclaim(struct thread *t);

/* For stack unwinders: the real return address of the call whose return
 * address, ret, was read at stack_slot in the current thread - ret
 * itself unless it is a trampoline's. Takes no lock, never sleeps. */
uintptr_t rethook_real_return(uintptr_t ret, uintptr_t stack_slot);

/* The architecture's hooks, static inlines of <asm/rethook.h> (they run
 * on every hooked call):
 *
 *   uintptr_t arch_rethook_prepare(struct pt_regs *regs, uintptr_t trampoline,
 *                                  uintptr_t *slot)
 *       at a function's first instruction (regs): replace the return
 *       address of the call with trampoline, return the real one, and
 *       set *slot to what identifies the call on the stack (never 0);
 *   bool arch_rethook_matches(uintptr_t slot, const struct pt_regs *regs)
 *       whether the trampoline's regs are the return of the call hooked
 *       with slot;
 *   bool arch_rethook_slot_matches(uintptr_t slot, uintptr_t stack_slot)
 *       whether the trampoline's address a backtrace read at stack_slot
 *       is the saved return address of the call hooked with slot (asked
 *       newest call first; the first that matches is the one). */

#endif
