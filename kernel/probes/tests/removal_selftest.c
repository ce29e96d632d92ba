/*
 * The probe removal selftest ("probes-removal"): unregistering each type
 * of probe while every other CPU is hitting it.
 *
 * A worker pinned to each CPU that runs threads calls one function as
 * fast as it can. Meanwhile this thread, round after round, registers a
 * kprobe, a jprobe and a kretprobe on that function's entry (one point,
 * shared), lets the workers through it for a moment, and unregisters the
 * three in a different order each round, in batches and alone. The
 * handlers check what a handler may read while its probe is being
 * unregistered on another CPU: the kprobe its own point, the jprobe the
 * probe the core says is running, the kretprobe get_kretprobe() at entry
 * and at return. None of them may find any of it cleared; a breakpoint
 * met just after its point went must run the real instruction, and the
 * function must return the right answer on every call.
 */
#include "kernel/cmd_output.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/tests/stress_workload.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "lib/bitops.h"

#define ROUNDS 60
#define DEADLINE_TICKS (120 * TIMER_HZ)

static __noinline long removal_target(long x)
{
	return 5 * x + 2;
}

/* Called through a volatile pointer so that every call really happens. */
static long (*volatile target)(long) = removal_target;

struct removal_worker {
	unsigned long calls, wrong;
	int done;
};

static struct removal_worker removal_workers[MAX_CPUS];
static int removal_stop;
/* What the handlers saw cleared that must not be (counted, not asserted
 * in a handler, which must not block). */
static unsigned long bad_kprobe, bad_jprobe, bad_entry, bad_return, returns;

static void removal_worker_main(void *arg)
{
	struct removal_worker *w = arg;

	for (long i = 0; !__atomic_load_n(&removal_stop, __ATOMIC_ACQUIRE); i++) {
		w->wrong += target(i) != 5 * i + 2;
		w->calls++;
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

static int removal_pre(struct kprobe *p, struct pt_regs *regs)
{
	(void)regs;
	if (!p->point || p->point->addr != p->addr)
		__atomic_fetch_add(&bad_kprobe, 1, __ATOMIC_RELAXED);
	return 0;
}

static long removal_jprobe_entry(long x)
{
	struct kprobe *p = kprobe_running();

	(void)x;
	if (!p || !p->point)
		__atomic_fetch_add(&bad_jprobe, 1, __ATOMIC_RELAXED);
	jprobe_return();
}

static int removal_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)regs;
	if (!get_kretprobe(ri))
		__atomic_fetch_add(&bad_entry, 1, __ATOMIC_RELAXED);
	return 0;
}

static int removal_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);

	(void)regs;
	if (!rp || rp->handler != removal_return)
		__atomic_fetch_add(&bad_return, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&returns, 1, __ATOMIC_RELAXED);
	return 0;
}

static void start_removal_workers(void)
{
	unsigned long cpus = smp_cpus_running();

	removal_stop = 0;
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		int id = -1;

		removal_workers[cpu] = (struct removal_worker){ .done = 1 };
		if (!(cpus & (1UL << cpu)))
			continue;
		removal_workers[cpu].done = 0;
		id = thread_create_on(cpu, "st-remove", removal_worker_main, &removal_workers[cpu]);
		EXPECT(id >= 0);
		removal_workers[cpu].done = id < 0;
	}
}

/* Stop the workers and check their answers; returns the calls made. */
static unsigned long stop_removal_workers(void)
{
	uint64_t end = sched_ticks() + DEADLINE_TICKS;
	unsigned long calls = 0;

	__atomic_store_n(&removal_stop, 1, __ATOMIC_RELEASE);
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		while (!__atomic_load_n(&removal_workers[cpu].done, __ATOMIC_ACQUIRE) &&
		       sched_ticks() < end)
			thread_sleep(1);
		EXPECT(removal_workers[cpu].done);
		EXPECT_EQ(removal_workers[cpu].wrong, 0);
		calls += removal_workers[cpu].calls;
	}
	return calls;
}

/* Unregister the three, in the order round picks: one of the six orders,
 * each probe alone, or (every other round) the kprobe and the jprobe
 * through the batch calls of one element, which share the batch path. */
static void unregister_in_order(int round, struct kprobe *kp, struct jprobe *jp,
				struct kretprobe *rp)
{
	static const char orders[6][3] = {
		{ 'k', 'j', 'r' }, { 'k', 'r', 'j' }, { 'j', 'k', 'r' },
		{ 'j', 'r', 'k' }, { 'r', 'k', 'j' }, { 'r', 'j', 'k' },
	};
	const char *order = orders[round % 6];

	for (int i = 0; i < 3; i++) {
		if (order[i] == 'k' && round % 2)
			unregister_kprobes(&kp, 1);
		else if (order[i] == 'k')
			unregister_kprobe(kp);
		else if (order[i] == 'j' && round % 2)
			unregister_jprobes(&jp, 1);
		else if (order[i] == 'j')
			unregister_jprobe(jp);
		else
			unregister_kretprobe(rp);
	}
}

static void unregister_while_every_cpu_hits(void)
{
	uint64_t end = sched_ticks() + DEADLINE_TICKS;
	unsigned long calls, nhit = 0;
	struct stress_snapshot snap;
	int rounds = 0;

	stress_snapshot_take(&snap);
	bad_kprobe = bad_jprobe = bad_entry = bad_return = returns = 0;
	start_removal_workers();
	while (rounds < ROUNDS && sched_ticks() < end) {
		struct kprobe kp = { .addr = (uint8_t *)removal_target, .pre_handler = removal_pre };
		struct jprobe jp = { .kp.addr = (uint8_t *)removal_target,
				     .entry = (void *)removal_jprobe_entry };
		struct kretprobe rp = { .kp.addr = (uint8_t *)removal_target,
					.entry_handler = removal_entry, .handler = removal_return };

		EXPECT_EQ(register_kprobe(&kp), 0);
		EXPECT_EQ(register_jprobe(&jp), 0);
		EXPECT_EQ(register_kretprobe(&rp), 0);
		thread_sleep(1);
		unregister_in_order(rounds, &kp, &jp, &rp);
		EXPECT(kp.point == NULL && jp.kp.point == NULL && rp.kp.point == NULL);
		nhit += kp.nhit;
		rounds++;
	}
	calls = stop_removal_workers();
	EXPECT_EQ(rounds, ROUNDS);
	EXPECT(nhit > 0 && returns > 0);
	EXPECT_EQ(bad_kprobe, 0);
	EXPECT_EQ(bad_jprobe, 0);
	EXPECT_EQ(bad_entry, 0);
	EXPECT_EQ(bad_return, 0);
	cmd_printf("    # %d rounds on %u CPUs: %lu calls, %lu kprobe hits, %lu returns handled\n",
		   rounds, bits_set(smp_cpus_running()), calls, nhit, returns);
	/* A point whose slot a worker had just left waits one grace period
	 * more before it is freed: the check's own barrier may not be
	 * enough. */
	rcu_barrier();
	stress_snapshot_check(&snap);
}

static const struct selftest_case removal_cases[] = {
	SELFTEST_CASE(unregister_while_every_cpu_hits),
};
SELFTEST_SUITE("probes-removal", removal_cases);
