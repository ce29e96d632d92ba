/* Selftests of threads and the scheduler. */
#include "kernel/mm/heap.h"
#include <asm/irq.h>
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/spinlock.h"
#include "lib/string.h"

/* Wait (sleeping) until *flag is set or max_ticks pass; true if set. */
static bool wait_for_flag(const volatile int *flag, uint64_t max_ticks)
{
	uint64_t end = sched_ticks() + max_ticks;

	while (!*flag && sched_ticks() < end)
		thread_sleep(1);
	return *flag;
}

static void set_flag(void *arg)
{
	*(volatile int *)arg = 1;
}

static void thread_runs_and_is_reaped(void)
{
	static volatile int ran;
	struct heap_stats before, after;

	rcu_barrier();	/* frees deferred by earlier work are done */
	heap_get_stats(&before);
	ran = 0;
	EXPECT(thread_create("st-once", set_flag, (void *)&ran) >= 0);
	EXPECT(wait_for_flag(&ran, 100));
	/* The exited thread's stack and structure are freed at the next
	 * switch after it dies: give the scheduler a few ticks. */
	thread_sleep(3);
	heap_get_stats(&after);
	EXPECT_EQ(after.allocations, before.allocations);
	EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
}

static void sleep_lasts_at_least_its_ticks(void)
{
	uint64_t start = sched_ticks();

	thread_sleep(5);
	EXPECT(sched_ticks() - start >= 5);
}

/* Busy-wait (interrupts on, never sleeping) for n timer ticks. */
static void spin_ticks(uint64_t n)
{
	uint64_t end = sched_ticks() + n;

	while (sched_ticks() < end)
		;
}

/* Two threads that never yield: both progress only if the timer preempts. */
static volatile uint64_t spin_count[2];
static volatile int spin_stop, spin_done[2];

static void spinner(void *arg)
{
	int me = (int)(uintptr_t)arg;

	while (!spin_stop)
		spin_count[me]++;
	spin_done[me] = 1;
}

static void preemption_shares_the_cpu(void)
{
	spin_stop = 0;
	for (int i = 0; i < 2; i++) {
		spin_count[i] = 0;
		spin_done[i] = 0;
		EXPECT(thread_create("st-spin", spinner, (void *)(uintptr_t)i) >= 0);
	}
	/* This thread busy-waits too, without sleeping: the spinners can
	 * only run if the timer takes the CPU away from it. */
	spin_ticks(20);
	EXPECT(spin_count[0] > 0);
	EXPECT(spin_count[1] > 0);
	spin_stop = 1;
	EXPECT(wait_for_flag(&spin_done[0], 100));
	EXPECT(wait_for_flag(&spin_done[1], 100));
}

static void preempt_disable_keeps_the_cpu(void)
{
	spin_stop = 0;
	spin_done[0] = 0;
	preempt_disable();
	/* On this CPU: another CPU would run it at once. */
	EXPECT(thread_create_on(this_cpu()->id, "st-spin", spinner, (void *)0) >= 0);
	spin_count[0] = 0;
	/* Ticks come (interrupts are on) and the slice runs out, but the
	 * ready spinner must not get the CPU... */
	spin_ticks(5 * SCHED_SLICE_TICKS);
	EXPECT_EQ(spin_count[0], 0);
	preempt_enable();
	EXPECT_EQ(current_thread()->preempt_count, 0);
	/* ...until preemption is enabled again. */
	spin_ticks(5 * SCHED_SLICE_TICKS);
	EXPECT(spin_count[0] > 0);
	spin_stop = 1;
	EXPECT(wait_for_flag(&spin_done[0], 100));
}

static struct wait_queue test_wq = WAIT_QUEUE_INIT(test_wq);
static struct spinlock test_lock = SPINLOCK_INIT("selftest wq");
static volatile int wq_condition, wq_woken;

static void waiter(void *unused)
{
	unsigned long flags = spin_lock_irqsave(&test_lock);

	(void)unused;
	while (!wq_condition)
		wait_queue_wait(&test_wq, &test_lock);
	spin_unlock_irqrestore(&test_lock, flags);
	wq_woken = 1;
}

static void wait_queue_wakes_waiter(void)
{
	unsigned long flags;

	wq_condition = 0;
	wq_woken = 0;
	EXPECT(thread_create("st-wait", waiter, NULL) >= 0);
	thread_sleep(3);
	EXPECT_EQ(wq_woken, 0);		/* still waiting */
	flags = spin_lock_irqsave(&test_lock);
	wq_condition = 1;
	spin_unlock_irqrestore(&test_lock, flags);
	wait_queue_wake_all(&test_wq);
	EXPECT(wait_for_flag(&wq_woken, 100));
}

static volatile int turns[8], nturns;

static void take_turns(void *arg)
{
	for (int i = 0; i < 3; i++) {
		turns[nturns++] = (int)(uintptr_t)arg;
		thread_yield();
	}
}

/* Two threads that yield after each step alternate, with no timer help:
 * this thread sleeps until both are done. */
static void yield_alternates_threads(void)
{
	unsigned long flags = arch_irq_save();

	nturns = 0;
	/* Created with interrupts off, so neither starts before both exist,
	 * and both on this CPU: on two CPUs they would not take turns. */
	EXPECT(thread_create_on(this_cpu()->id, "st-yield", take_turns, (void *)1) >= 0);
	EXPECT(thread_create_on(this_cpu()->id, "st-yield", take_turns, (void *)2) >= 0);
	arch_irq_restore(flags);
	for (int i = 0; i < 100 && nturns < 6; i++)
		thread_sleep(1);
	EXPECT_EQ(nturns, 6);
	for (int i = 1; i < nturns; i++)
		EXPECT(turns[i] != turns[i - 1]);
}

static void current_thread_is_named(void)
{
	EXPECT_STREQ(current_thread()->name, "shell");
	EXPECT_EQ(current_thread()->state, THREAD_RUNNING);
}

static const struct selftest_case sched_cases[] = {
	SELFTEST_CASE(current_thread_is_named),
	SELFTEST_CASE(thread_runs_and_is_reaped),
	SELFTEST_CASE(sleep_lasts_at_least_its_ticks),
	SELFTEST_CASE(preemption_shares_the_cpu),
	SELFTEST_CASE(preempt_disable_keeps_the_cpu),
	SELFTEST_CASE(wait_queue_wakes_waiter),
	SELFTEST_CASE(yield_alternates_threads),
};
SELFTEST_SUITE("sched", sched_cases);
