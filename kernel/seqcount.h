/*
 * Sequence counts: data that many CPUs read and few write, read without
 * a lock and without writing to anything shared.
 *
 * The writer makes the count odd before it changes the data and even
 * again after; writers exclude each other with a lock of their own. A
 * reader notes the count (waiting while it is odd), reads, and then
 * checks that the count has not moved: if it has, a write overlapped
 * the read, and the reader throws away what it read and tries again. So
 * a reader never sees half of a write, yet writes nothing itself: two
 * CPUs reading the same data do not pass a cache line back and forth,
 * as they would through a lock's word.
 *
 * What the count cannot do is keep memory alive: a reader may be
 * copying from a buffer that a writer replaces meanwhile. Free such
 * buffers after an RCU grace period (kernel/rcu.h), and bound every
 * copy by values read in the same pass, since they may be inconsistent
 * until the retry check says otherwise.
 */
#ifndef KERNEL_SEQCOUNT_H
#define KERNEL_SEQCOUNT_H

#include "lib/types.h"
#include <asm/irq.h>

struct seqcount {
	unsigned int sequence;	/* odd while a write is in progress */
};

#define SEQCOUNT_INIT { 0 }

/* Start a read: the count to hand to seqcount_read_retry. Waits while a
 * write is in progress (the writer holds a spinlock with interrupts off,
 * so it cannot be stopped half-way and the wait is short). */
static inline unsigned int seqcount_read_begin(const struct seqcount *s)
{
	unsigned int seq;

	while ((seq = __atomic_load_n(&s->sequence, __ATOMIC_ACQUIRE)) & 1)
		arch_cpu_relax();
	return seq;
}

/* End a read: true if a write overlapped it, so what was read must be
 * thrown away and read again. The fence keeps the reads of the data
 * before the second load of the count. */
static inline bool seqcount_read_retry(const struct seqcount *s, unsigned int seq)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->sequence, __ATOMIC_RELAXED) != seq;
}

/* Start a write (the caller holds the writers' lock): the odd count is
 * stored before any store to the data. */
static inline void seqcount_write_begin(struct seqcount *s)
{
	__atomic_store_n(&s->sequence, s->sequence + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/* End a write: every store to the data is visible before the even count. */
static inline void seqcount_write_end(struct seqcount *s)
{
	__atomic_store_n(&s->sequence, s->sequence + 1, __ATOMIC_RELEASE);
}

#endif
