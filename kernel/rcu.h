/*
 * Read-copy update: shared data that readers use without taking a lock.
 *
 * A writer publishes a new object with one release store
 * (rcu_assign_pointer), and unpublishes an old one the same way; readers
 * follow pointers with rcu_dereference and never wait. What the writer
 * must not do is free an unpublished object while a reader may still hold
 * a pointer to it. It waits for a *grace period* first: a stretch of time
 * in which every CPU has passed a quiescent state, a moment when it
 * cannot be inside a read-side section.
 *
 * Read-side sections here are the "sched" flavour: any code that runs
 * with interrupts off or with preemption disabled is one, so trap
 * handlers (every probe hit) are readers without doing anything.
 * rcu_read_lock() just disables preemption. A CPU is quiescent when the
 * timer interrupts a thread that had preemption on, and whenever a thread
 * context that may sleep asks for a grace period itself.
 *
 * Writers either wait (synchronize_rcu) or hand the free to a callback
 * that runs after a grace period (call_rcu): callbacks queued close
 * together share one grace period, and run in the "rcu" kernel thread.
 */
#ifndef KERNEL_RCU_H
#define KERNEL_RCU_H

#include "kernel/sched.h"
#include "lib/types.h"

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
	unsigned long gp_seq;	/* the grace-period count that makes it ready */
};

/* Enter and leave a read-side section (they nest). Code that already
 * runs with interrupts off, such as a trap handler, needs neither. */
static inline void rcu_read_lock(void)
{
	preempt_disable();
}

static inline void rcu_read_unlock(void)
{
	preempt_enable();
}

/* Load a pointer published with rcu_assign_pointer. One plain load is
 * enough: what the reader then loads through the pointer depends on its
 * value, and both architectures keep such dependent loads in order. It
 * is a volatile access, so the compiler makes exactly that one load (an
 * aligned word: never half of a store), where __atomic_load_n with
 * __ATOMIC_RELAXED would mean the same but costs one more instruction on
 * aarch64, where GCC first moves the address into a register of its own
 * (every probe hit reads its probe this way; cf. spinlock.h's owner). */
#define rcu_dereference(p) (*(volatile __typeof__(p) *)&(p))

/* Publish v in p: everything written to *v before is visible to a reader
 * that sees the new pointer. */
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

/* Start the "rcu" thread that runs callbacks (once, after sched_init),
 * and make the boot CPU take part in grace periods. */
void rcu_init(void);
/* This CPU runs threads from now on: grace periods wait for it too. A
 * CPU that runs none (one not started yet, kernel/smp.h) is never
 * waited for. */
void rcu_cpu_online(void);
/* Sleep until a full grace period has passed: every read-side section
 * that was running when this was called has ended. Thread context only. */
void synchronize_rcu(void);
/* Call func(head) from the "rcu" thread once a grace period has passed.
 * Never blocks and takes no lock: safe in any context, a probe hit
 * included. */
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));
/* Sleep until no callback is queued, counting those that callbacks queue
 * again (tests use it before checking that nothing leaked). */
void rcu_barrier(void);
/* Called on every timer tick, with interrupts off and the scheduler's
 * lock free. quiescent: the tick interrupted a thread that had preemption
 * on, and so no read-side section. */
void rcu_timer_tick(bool quiescent);

#endif
