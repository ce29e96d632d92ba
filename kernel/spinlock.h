/* Spinlocks. On one CPU taking the lock also disables interrupts, so a
 * thread holding it cannot be preempted or interrupted by a handler that
 * wants the same lock; on several CPUs the atomic flag keeps the others
 * out. Both halves are here already so SMP needs no new locking code. */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "lib/types.h"
#include <asm/irq.h>

struct spinlock {
	volatile uint32_t locked;
	const char *name;
};

#define SPINLOCK_INIT(n) { 0, n }

/* For callers that already run with interrupts disabled (trap handlers,
 * the scheduler). */
static inline void spin_lock(struct spinlock *lock)
{
	while (unlikely(__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE)))
		arch_cpu_relax();
}

static inline void spin_unlock(struct spinlock *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

/* Disable interrupts, then spin until the lock is ours. Returns the
 * previous interrupt state for spin_unlock_irqrestore. */
static inline unsigned long spin_lock_irqsave(struct spinlock *lock)
{
	unsigned long flags = arch_irq_save();

	spin_lock(lock);
	return flags;
}

static inline void spin_unlock_irqrestore(struct spinlock *lock, unsigned long flags)
{
	spin_unlock(lock);
	arch_irq_restore(flags);
}

#endif
