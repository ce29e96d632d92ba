/* rethook: the return service (see rethook.h).
 *
 * A thread's list of hooked calls is touched only by the thread itself:
 * a hook at a function's entry puts a node first, a return takes it off,
 * the thread's exit empties the list and its own backtraces read it.
 * Each runs with interrupts off (or, for an optimized probe's entry on
 * aarch64, with this CPU busy handling a probe, when an interrupt hooks
 * nothing), so one never interrupts another: no lock, no atomics. (The
 * hook and the common return are inlines of rethook.h; these are the
 * rest.)
 *
 * Every function here runs on a trampoline's path or beside it on a
 * probe hit, and is marked never to be probed nor traced: a hooked
 * return of one of them would change the list it is changing. */
#include "kernel/rethook.h"
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include <asm/irq.h>

struct rethook_node rethook_end;

/* A trampoline met a return that is not the newest hooked call of this
 * thread: the stack was unwound past a hooked call, or corrupted. */
void notrace rethook_bug(void)
{
	const struct thread *self = current_thread();

	if (self->rethooks == &rethook_end)
		panic("rethook BUG!: trampoline reached with no hooked call in thread %s",
		      self->name);
	panic("rethook BUG!: a return is not that of the newest hooked call (to %p)",
	      (void *)self->rethooks->ret);
}
NOKPROBE_SYMBOL(rethook_bug);

/* The oldest node of the call whose newest is node: the nodes of a call
 * hooked more than once lie together and share its slot, and only the
 * oldest holds the real return address (the others a trampoline's). The
 * guard's slot (0) stops the walk. */
static notrace struct rethook_node *first_node_of(struct rethook_node *node)
{
	while (node->next->slot == node->slot)
		node = node->next;
	return node;
}
NOKPROBE_SYMBOL(first_node_of);

/* The return of a call hooked more than once, into the trampoline of its
 * newest hook's user: the real address is in the call's oldest node, and
 * every node of the call is taken off, newest first, each handler called
 * through its node's user (the older hooks' trampolines are never
 * reached). A node is off the list before its handler runs: the handler
 * may hook calls of its own. */
void notrace rethook_return_shared(struct pt_regs *regs)
{
	struct rethook_node **list = &current_thread()->rethooks;
	struct rethook_node *last = first_node_of(*list), *node;

	instruction_pointer_set(regs, last->ret);
	do {
		node = *list;
		*list = node->next;
		node->rethook->handler(node, regs);
	} while (node != last);
}
NOKPROBE_SYMBOL(rethook_return_shared);

void notrace rethook_thread_reclaim(struct thread *t)
{
	/* Interrupts stay off: one that hit a hooked function meanwhile
	 * would hook onto this list. */
	unsigned long flags = arch_irq_save();

	while (t->rethooks != &rethook_end) {
		struct rethook_node *node = t->rethooks;

		t->rethooks = node->next;
		node->rethook->reclaim(node);
	}
	arch_irq_restore(flags);
}
NOKPROBE_SYMBOL(rethook_thread_reclaim);

/* A thread is ending inside its hooked calls, which will never return.
 * (A user whose records go with the thread calls rethook_thread_reclaim
 * from its own exit hook first: then this one finds nothing left.) */
static void notrace rethook_thread_exit(struct thread *t)
{
	rethook_thread_reclaim(t);
}
NOKPROBE_SYMBOL(rethook_thread_exit);
THREAD_EXIT_HOOK(rethook_thread_exit);

uintptr_t notrace rethook_real_return(uintptr_t ret, uintptr_t stack_slot)
{
	unsigned long flags;

	if (!rethook_is_trampoline(ret))
		return ret;
	flags = arch_irq_save();
	/* Newest first; a call hooked twice matches on its newer nodes
	 * too, which hold a trampoline: its oldest has the real one. */
	for (struct rethook_node *n = current_thread()->rethooks; n != &rethook_end; n = n->next) {
		if (arch_rethook_slot_matches(n->slot, stack_slot)) {
			ret = first_node_of(n)->ret;
			break;
		}
	}
	arch_irq_restore(flags);
	return ret;
}
NOKPROBE_SYMBOL(rethook_real_return);
