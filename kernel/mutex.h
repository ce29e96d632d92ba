/*
 * Sleeping locks. A thread that finds the mutex taken sleeps on its wait
 * queue instead of spinning, with interrupts on, so it may be held across
 * anything that sleeps or takes long: allocating, waiting for other
 * threads, patching text. Only threads may take one (never an interrupt
 * or a probe handler), and the holder may not take it again.
 */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include "kernel/sched.h"
#include "kernel/spinlock.h"

struct mutex {
	struct spinlock lock;		/* guards owner and waiters */
	struct thread *owner;		/* NULL when free */
	struct wait_queue waiters;
};

#define MUTEX_INIT(m, name) { SPINLOCK_INIT(name), NULL, WAIT_QUEUE_INIT((m).waiters) }

/* Take m, sleeping while another thread holds it. Panics if the calling
 * thread already holds it (it would sleep for ever). */
void mutex_lock(struct mutex *m);
/* Give m back and wake the threads waiting for it. */
void mutex_unlock(struct mutex *m);
/* True if the calling thread holds m (for checks of a caller's duty). */
bool mutex_is_held(const struct mutex *m);

#endif
