/*
 * A small RCU (see rcu.h): grace periods counted by the scheduler's timer
 * tick, and callbacks run by a kernel thread.
 *
 * The count. rcu.gp_seq is twice the number of grace periods completed,
 * plus one while a grace period is running. Starting one makes the count
 * odd and records, in qs_pending, every CPU that must pass a quiescent
 * state before it may end; the CPU that clears the last bit makes the
 * count even again. Whoever wants a grace period from now takes a
 * snapshot, the count at which one that starts after now has ended
 * (gp_snapshot), and waits until the count reaches it.
 *
 * Quiescent states are reported by each CPU for itself: at a timer tick
 * that interrupted a thread with preemption on, and by a thread that
 * waits in synchronize_rcu (it is in no read-side section, or it could
 * not sleep). On one CPU a synchronize_rcu therefore ends at once: no
 * other CPU can be inside a read-side section meanwhile.
 *
 * Which CPUs a grace period waits for: those that run threads
 * (rcu.cpus), not every CPU that is known. A CPU that has not started
 * yet (or failed to) runs nothing and takes no ticks to report with:
 * waiting for it would never end. A CPU joins with rcu_cpu_online when
 * it starts running threads (kernel/smp.c).
 *
 * Callbacks. call_rcu runs on any path, a probe hit included, so it takes
 * no lock: it appends to this CPU's own list with interrupts off, each
 * callback stamped with its snapshot. The same CPU's timer tick starts a
 * grace period when its oldest callback needs one, and moves the ready
 * ones to a shared list under rcu.lock, which only ticks and threads take
 * (never a probe hit); the "rcu" thread runs them, where they may take
 * locks and free memory.
 *
 * Every function here runs inside the scheduler's tick or a probe hit,
 * so none may be probed.
 */
#include "kernel/rcu.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/spinlock.h"

/* Callbacks queued on one CPU, oldest first; touched only by that CPU,
 * with interrupts off. */
struct rcu_cpu {
	struct rcu_head *head, *tail;
};

static struct rcu_cpu rcu_cpus[MAX_CPUS];

static struct {
	struct spinlock lock;		/* guards everything below but queued */
	unsigned long gp_seq;		/* see the top of this file */
	unsigned long qs_pending;	/* CPUs the running grace period waits for */
	unsigned long cpus;		/* CPUs that run threads: each one waited for */
	struct rcu_head *done, *done_tail;	/* ready callbacks, oldest first */
	unsigned long queued;		/* callbacks not yet run (atomic) */
} rcu = { .lock = SPINLOCK_INIT("rcu") };

static struct wait_queue rcu_thread_wq = WAIT_QUEUE_INIT(rcu_thread_wq);

/* The count at which a grace period that starts after now has ended:
 * the next even count if none runs, the one after if one does (it may
 * have started before a reader we must wait for). */
static unsigned long notrace gp_snapshot(void)
{
	return (__atomic_load_n(&rcu.gp_seq, __ATOMIC_ACQUIRE) + 3) & ~1UL;
}
NOKPROBE_SYMBOL(gp_snapshot);

static bool gp_reached(unsigned long snap)
{
	return (long)(__atomic_load_n(&rcu.gp_seq, __ATOMIC_ACQUIRE) - snap) >= 0;
}
NOKPROBE_SYMBOL(gp_reached);

static void start_gp_locked(void)
{
	if (rcu.gp_seq & 1)
		return;		/* one is running */
	rcu.qs_pending = rcu.cpus;
	__atomic_store_n(&rcu.gp_seq, rcu.gp_seq + 1, __ATOMIC_RELEASE);
}
NOKPROBE_SYMBOL(start_gp_locked);

/* This CPU is quiescent now: if the running grace period waits for it,
 * it no longer does, and the last CPU ends it. */
static void report_qs_locked(void)
{
	unsigned long bit = 1UL << this_cpu()->id;

	if (!(rcu.gp_seq & 1) || !(rcu.qs_pending & bit))
		return;
	rcu.qs_pending &= ~bit;
	if (!rcu.qs_pending)
		__atomic_store_n(&rcu.gp_seq, rcu.gp_seq + 1, __ATOMIC_RELEASE);
}
NOKPROBE_SYMBOL(report_qs_locked);

void synchronize_rcu(void)
{
	unsigned long snap = gp_snapshot();

	if (current_thread()->preempt_count)
		panic("rcu: synchronize_rcu inside a read-side section would wait for itself");
	for (;;) {
		unsigned long flags = spin_lock_irqsave(&rcu.lock);
		bool done;

		start_gp_locked();
		report_qs_locked();
		done = gp_reached(snap);
		spin_unlock_irqrestore(&rcu.lock, flags);
		if (done)
			return;
		thread_sleep(1);	/* the other CPUs report at their ticks */
	}
}

/* notrace as well as never probed: function_graph's return path frees
 * through it (kernel/trace/fgraph.c). */
void notrace call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	unsigned long flags = arch_irq_save();
	struct rcu_cpu *rc = &rcu_cpus[this_cpu()->id];

	head->func = func;
	head->next = NULL;
	head->gp_seq = gp_snapshot();
	if (rc->head)
		rc->tail->next = head;
	else
		rc->head = head;
	rc->tail = head;
	__atomic_fetch_add(&rcu.queued, 1, __ATOMIC_RELAXED);
	arch_irq_restore(flags);
}
NOKPROBE_SYMBOL(call_rcu);

/* Move this CPU's ready callbacks to the shared list; true if any moved. */
static bool move_ready_locked(struct rcu_cpu *rc)
{
	bool moved = false;

	while (rc->head && gp_reached(rc->head->gp_seq)) {
		struct rcu_head *head = rc->head;

		rc->head = head->next;
		head->next = NULL;
		if (rcu.done)
			rcu.done_tail->next = head;
		else
			rcu.done = head;
		rcu.done_tail = head;
		moved = true;
	}
	return moved;
}
NOKPROBE_SYMBOL(move_ready_locked);

void rcu_timer_tick(bool quiescent)
{
	struct rcu_cpu *rc = &rcu_cpus[this_cpu()->id];
	bool wake;

	if (!rc->head && !(__atomic_load_n(&rcu.gp_seq, __ATOMIC_RELAXED) & 1))
		return;		/* nothing queued here, no grace period running */
	spin_lock(&rcu.lock);
	/* Start first: this tick's quiescent state then counts for it. */
	if (rc->head && !gp_reached(rc->head->gp_seq))
		start_gp_locked();
	if (quiescent)
		report_qs_locked();
	wake = move_ready_locked(rc);
	spin_unlock(&rcu.lock);
	if (wake)
		wait_queue_wake_all(&rcu_thread_wq);
}
NOKPROBE_SYMBOL(rcu_timer_tick);

/* The "rcu" thread: runs ready callbacks, oldest first. */
static void rcu_thread(void *unused)
{
	(void)unused;
	for (;;) {
		unsigned long flags = spin_lock_irqsave(&rcu.lock);
		struct rcu_head *head;

		while (!rcu.done)
			wait_queue_wait(&rcu_thread_wq, &rcu.lock);
		head = rcu.done;
		rcu.done = NULL;
		spin_unlock_irqrestore(&rcu.lock, flags);
		while (head) {
			struct rcu_head *next = head->next;

			head->func(head);	/* may queue head again */
			__atomic_fetch_sub(&rcu.queued, 1, __ATOMIC_RELEASE);
			head = next;
		}
	}
}

void rcu_barrier(void)
{
	while (__atomic_load_n(&rcu.queued, __ATOMIC_ACQUIRE))
		thread_sleep(1);
}

void rcu_cpu_online(void)
{
	unsigned long flags = spin_lock_irqsave(&rcu.lock);

	/* A grace period already running goes on without this CPU: it
	 * was in no read-side section when the period started. */
	rcu.cpus |= 1UL << this_cpu()->id;
	spin_unlock_irqrestore(&rcu.lock, flags);
}

void rcu_init(void)
{
	rcu_cpu_online();	/* the boot CPU */
	if (thread_create("rcu", rcu_thread, NULL) < 0)
		panic("rcu: cannot start the rcu thread");
}
