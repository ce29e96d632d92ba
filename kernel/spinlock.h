/* Spinlocks. On one CPU taking the lock also disables interrupts, so a
 * thread holding it cannot be preempted or interrupted by a handler that
 * wants the same lock; on several CPUs the atomic flag keeps the others
 * out. Both halves are here already so SMP needs no new locking code.
 *
 * A lock also records who holds it: the CPU, and the place in the code
 * that took it. A CPU that takes a lock it already holds would spin
 * forever, waiting for itself; instead it panics, naming the lock and
 * where it was first taken. The check costs nothing when the lock is
 * free: it runs only once the flag is found set. */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "lib/types.h"
#include <asm/irq.h>
#include <asm/percpu.h>

/* locked and owner are volatile: other CPUs change them, so every
 * access must really happen. */
struct spinlock {
	volatile uint32_t locked;
	struct cpu *volatile owner;	/* this_cpu() of the holder; NULL when free */
	uintptr_t taken_at;	/* code address where the holder took it */
	const char *name;
};

#define SPINLOCK_INIT(n) { .name = (n) }

/* The address of the code where this macro is used: a label's address,
 * in the function that expands it. spin_lock and spin_lock_irqsave are
 * macros so that this names their caller (say kmalloc), not a line of
 * this header. */
#define SPIN_HERE() ({ __label__ here; here: (uintptr_t)&&here; })

/* True if the calling CPU holds lock. Only this CPU ever stores its own
 * struct cpu in owner, so no other CPU can make the answer wrong; but it
 * is false in the few instructions between taking the flag and recording
 * the owner, and between clearing the owner and releasing the flag. */
static inline bool spin_is_held_here(const struct spinlock *lock)
{
	return lock->owner == this_cpu();
}

/* Stop the kernel: this CPU is taking lock, which it already holds. The
 * message names the lock and where it was first taken (spinlock.c). */
__noreturn void spin_lock_recursion(const struct spinlock *lock);

/* Take lock, recording this CPU and where as its holder. No lock is
 * taken before kmain's first act, cpu_init_this, so this_cpu() is always
 * valid here. */
static inline void spin_lock_at(struct spinlock *lock, uintptr_t where)
{
	while (unlikely(__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))) {
		if (spin_is_held_here(lock))
			spin_lock_recursion(lock);
		arch_cpu_relax();
	}
	lock->owner = this_cpu();
	lock->taken_at = where;
}

/* For callers that already run with interrupts disabled (trap handlers,
 * the scheduler). */
#define spin_lock(lock) spin_lock_at((lock), SPIN_HERE())

static inline void spin_unlock(struct spinlock *lock)
{
	lock->owner = NULL;
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

/* spin_lock_at with interrupts disabled first (see spin_lock_irqsave). */
static inline unsigned long spin_lock_irqsave_at(struct spinlock *lock, uintptr_t where)
{
	unsigned long flags = arch_irq_save();

	spin_lock_at(lock, where);
	return flags;
}

/* Disable interrupts, then spin until the lock is ours. Returns the
 * previous interrupt state for spin_unlock_irqrestore. */
#define spin_lock_irqsave(lock) spin_lock_irqsave_at((lock), SPIN_HERE())

static inline void spin_unlock_irqrestore(struct spinlock *lock, unsigned long flags)
{
	spin_unlock(lock);
	arch_irq_restore(flags);
}

#endif
