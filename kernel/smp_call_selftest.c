/*
 * Selftests of running functions on the other CPUs (kernel/smp_call.c),
 * and with them of the architecture's IPIs (arch_send_ipi): every case
 * needs IPI_CALL_FUNCTION to reach every other CPU, each time.
 *
 * The shell thread that runs these may move from CPU to CPU between two
 * calls, so a case never assumes which CPU is "this one": it checks that
 * exactly one CPU that runs threads, the caller, was left out. On a
 * machine with one CPU the cases still run, and check that nothing was
 * called.
 */
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "kernel/smp_call.h"
#include "kernel/time.h"
#include "lib/bitops.h"

/* Per CPU, written only by that CPU: how often the function ran there,
 * and whether it ran in an IPI's handler, with the interrupted
 * registers at hand. */
static unsigned int runs[MAX_CPUS];
static bool in_handler[MAX_CPUS];

static void count_run(void *unused)
{
	unsigned int id = this_cpu()->id;

	(void)unused;
	runs[id]++;
	in_handler[id] = this_cpu()->irq_depth > 0 && smp_call_regs();
}

static void clear_runs(void)
{
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		runs[cpu] = 0;
		in_handler[cpu] = false;
	}
}

/* The CPUs whose runs[] is not 0, a bit per CPU. */
static unsigned long cpus_that_ran(void)
{
	unsigned long ran = 0;

	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (runs[cpu])
			ran |= 1UL << cpu;
	return ran;
}

static void call_reaches_every_other_cpu(void)
{
	unsigned long running = smp_cpus_running();
	unsigned long ran;

	clear_runs();
	smp_call_on_others(count_run, NULL);
	ran = cpus_that_ran();
	/* Only CPUs that run threads, all of them but one: the caller. */
	EXPECT_EQ(ran & ~running, 0);
	EXPECT_EQ(bits_set(running & ~ran), 1);
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (ran & (1UL << cpu)) {
			EXPECT_EQ(runs[cpu], 1);
			EXPECT(in_handler[cpu]);
		}
}

/* Many requests in a row: an IPI lost or served twice shows in the sum. */
static void no_call_is_lost(void)
{
	const unsigned int calls = 200;
	unsigned int total = 0;

	clear_runs();
	for (unsigned int i = 0; i < calls; i++)
		smp_call_on_others(count_run, NULL);
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		total += runs[cpu];
	EXPECT_EQ(total, calls * (bits_set(smp_cpus_running()) - 1));
}

/* One spinner pinned to each CPU that runs threads, counting as fast as
 * it can; while stop_machine's function runs, none but the one on the
 * caller's CPU (which the caller keeps off it) may count at all. */
static volatile unsigned long spins[MAX_CPUS];
static volatile int spin_stop, spinners_done;

static void spinner(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	while (!spin_stop)
		spins[cpu]++;
	__atomic_fetch_add(&spinners_done, 1, __ATOMIC_RELEASE);
}

/* stop_machine's function: true if no spinner moved in a millisecond,
 * interrupts off here and the other CPUs held. */
static int spinners_stand_still(void *unused)
{
	unsigned long before[MAX_CPUS];
	ktime_t end = ktime_get() + NSEC_PER_SEC / 1000;
	int still = 1;

	(void)unused;
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		before[cpu] = spins[cpu];
	while (ktime_get() < end)
		;
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (spins[cpu] != before[cpu])
			still = 0;
	return still;
}

/* Sleep until every spinner counted at least to least[]; false if one
 * did not within a second. */
static bool spinners_passed(const unsigned long *least, unsigned long running)
{
	for (int tries = 0; tries < TIMER_HZ; tries++) {
		bool all = true;

		for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
			if ((running & (1UL << cpu)) && spins[cpu] <= least[cpu])
				all = false;
		if (all)
			return true;
		thread_sleep(1);
	}
	return false;
}

static void stop_machine_holds_the_others(void)
{
	unsigned long running = smp_cpus_running();
	unsigned long seen[MAX_CPUS] = { 0 };
	int started = 0;

	spin_stop = 0;
	spinners_done = 0;
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		spins[cpu] = 0;
		if (running & (1UL << cpu))
			started += thread_create_on(cpu, "st-spin", spinner,
						    (void *)(uintptr_t)cpu) >= 0;
	}
	EXPECT_EQ(started, bits_set(running));
	EXPECT(spinners_passed(seen, running));
	EXPECT_EQ(stop_machine(spinners_stand_still, NULL), 1);
	/* Let go, every spinner counts again. */
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		seen[cpu] = spins[cpu];
	EXPECT(spinners_passed(seen, running));
	spin_stop = 1;
	for (int tries = 0; tries < TIMER_HZ && spinners_done < started; tries++)
		thread_sleep(1);
	EXPECT_EQ(spinners_done, started);
}

static const struct selftest_case smp_call_cases[] = {
	SELFTEST_CASE(call_reaches_every_other_cpu),
	SELFTEST_CASE(no_call_is_lost),
	SELFTEST_CASE(stop_machine_holds_the_others),
};
SELFTEST_SUITE("smp_call", smp_call_cases);
