/* Selftests of the scheduler on several CPUs: threads that are not
 * pinned run on every CPU. (IPIs have their own suite, smp_call:
 * kernel/smp_call_selftest.c.) On one CPU they pass trivially. */
#include "kernel/cpu.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"

/* The CPUs something ran on, a bit each. */
static unsigned long ran_on;

static void note_cpu(void *unused)
{
	(void)unused;
	__atomic_fetch_or(&ran_on, 1UL << this_cpu()->id, __ATOMIC_RELAXED);
}

static volatile int spin_stop;
static volatile int spinners_done;

/* Never sleeps: only the scheduler moves it, to whichever CPU is free. */
static void spinner(void *unused)
{
	while (!spin_stop)
		note_cpu(unused);
	__atomic_fetch_add(&spinners_done, 1, __ATOMIC_RELEASE);
}

/* One spinner per CPU, more threads than there are CPUs with the shell:
 * within two seconds every CPU that runs threads has run one. */
static void threads_run_on_every_cpu(void)
{
	unsigned long want = smp_cpus_running();
	int n = 0;

	ran_on = 0;
	spin_stop = 0;
	spinners_done = 0;
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (want & (1UL << cpu))
			n += thread_create("st-spin", spinner, NULL) >= 0;
	for (int i = 0; i < 2 * TIMER_HZ && __atomic_load_n(&ran_on, __ATOMIC_RELAXED) != want; i++)
		thread_sleep(1);
	EXPECT_EQ(ran_on, want);
	spin_stop = 1;
	for (int i = 0; i < TIMER_HZ && spinners_done != n; i++)
		thread_sleep(1);
	EXPECT_EQ(spinners_done, n);
}

static const struct selftest_case smp_cases[] = {
	SELFTEST_CASE(threads_run_on_every_cpu),
};
SELFTEST_SUITE("smp", smp_cases);
