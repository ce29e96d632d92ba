/* Sleeping locks (see mutex.h). */
#include "kernel/mutex.h"
#include "kernel/panic.h"

void mutex_lock(struct mutex *m)
{
	unsigned long flags = spin_lock_irqsave(&m->lock);
	struct thread *self = current_thread();

	if (m->owner == self)
		panic("mutex: thread %s takes '%s' again; it already holds it", self->name,
		      m->lock.name);
	/* Woken threads race for it again: one wins, the others sleep on. */
	while (m->owner)
		wait_queue_wait(&m->waiters, &m->lock);
	m->owner = self;
	spin_unlock_irqrestore(&m->lock, flags);
}

void mutex_unlock(struct mutex *m)
{
	unsigned long flags = spin_lock_irqsave(&m->lock);

	if (m->owner != current_thread())
		panic("mutex: thread %s gives back '%s', which it does not hold",
		      current_thread()->name, m->lock.name);
	m->owner = NULL;
	spin_unlock_irqrestore(&m->lock, flags);
	wait_queue_wake_all(&m->waiters);
}

bool mutex_is_held(const struct mutex *m)
{
	return __atomic_load_n(&m->owner, __ATOMIC_RELAXED) == current_thread();
}
