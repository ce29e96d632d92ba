/*
 * The probes SMP stress selftest ("probes-smp-stress"): kprobes-stress's
 * probe on every instruction of lib/ and the VFS (stress_probes.c), hit
 * by one worker thread pinned to each CPU that runs threads. A worker
 * runs rounds of the checked workload (stress_workload_round) and calls
 * smp_stress_counted, on whose entry a counting probe stays enabled
 * throughout. Meanwhile this thread, on one CPU, churns the probes the
 * workers are hitting: it switches the optimizer off and on, disables
 * and enables some probes, registers and unregisters probes on the
 * counted function and on lib/ and VFS functions the workers call, and
 * disarms and re-arms every probe with the global knob.
 *
 * Afterwards the text must be byte-identical, the heap and the slots as
 * before, and the counted probe's hits plus misses must be exactly the
 * calls all the workers made: a hit lost or counted twice while a CPU
 * patched the text another was running shows there.
 */
#include "kernel/cmd_output.h"
#include "kernel/probes/kprobes.h"
#include "kernel/probes/optimizer.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/probes/tests/stress_workload.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "kernel/symtab.h"
#include "kernel/fs/vfs.h"
#include "lib/bitops.h"
#include "lib/string.h"

#define CALLS_PER_ROUND 64
#define WORKER_ROUNDS 1		/* each worker's at least, before the churn stops */
#define CHURN_ROUNDS 2		/* the churn's at least */
#define FLIP_EVERY 64		/* disable and enable every 64th lib/VFS probe */
#define MAX_CHURN_PROBES 64
#define DEADLINE_TICKS (120 * TIMER_HZ)

struct worker {
	unsigned long rounds;	/* read by the churn while the worker runs */
	unsigned long calls, errors;
	int done;
	char buf[STRESS_FILE_MAX];
};

static struct worker workers[MAX_CPUS];
static int stop;
/* The churn holds the counted calls while the global knob is off (the
 * counted probe is disarmed then, so a call would be lost); in_calls
 * counts the workers between their look at hold and their last call. */
static int hold, in_calls;

static __noinline long smp_stress_counted(long x)
{
	return 3 * x + 1;
}

/* Called through a volatile pointer so that every call really happens. */
static long (*volatile counted)(long) = smp_stress_counted;

/* CALLS_PER_ROUND calls of the counted function, unless they are held;
 * returns how many it made. The increment of in_calls comes before the
 * look at hold, and the churn sets hold before it reads in_calls, so
 * either the churn waits for these calls or they see hold set. */
static unsigned long counted_calls(struct worker *w)
{
	unsigned long made = 0;

	__atomic_add_fetch(&in_calls, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&hold, __ATOMIC_SEQ_CST)) {
		for (long i = 0; i < CALLS_PER_ROUND; i++)
			w->errors += counted(i) != 3 * i + 1;
		made = CALLS_PER_ROUND;
	}
	__atomic_sub_fetch(&in_calls, 1, __ATOMIC_SEQ_CST);
	return made;
}

static void worker_main(void *arg)
{
	struct worker *w = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		w->calls += counted_calls(w);
		w->errors += stress_workload_round(w->buf);
		__atomic_store_n(&w->rounds, w->rounds + 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

/* Start one worker on every CPU that runs threads; returns the CPUs. */
static unsigned long start_workers(void)
{
	unsigned long cpus = smp_cpus_running();

	stop = 0;
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		int id;

		workers[cpu] = (struct worker){ .done = 1 };	/* none here */
		if (!(cpus & (1UL << cpu)))
			continue;
		workers[cpu].done = 0;
		id = thread_create_on(cpu, "st-smp", worker_main, &workers[cpu]);
		EXPECT(id >= 0);
		workers[cpu].done = id < 0;
	}
	return cpus;
}

/* True once every worker has run at least rounds rounds. */
static bool workers_ran(unsigned long rounds)
{
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (!workers[cpu].done && __atomic_load_n(&workers[cpu].rounds, __ATOMIC_RELAXED) < rounds)
			return false;
	return true;
}

/* Stop the workers, wait for them, and check their answers; returns the
 * counted calls they made. */
static unsigned long stop_workers(void)
{
	uint64_t end = sched_ticks() + DEADLINE_TICKS;
	unsigned long calls = 0;

	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		while (!__atomic_load_n(&workers[cpu].done, __ATOMIC_ACQUIRE) && sched_ticks() < end)
			thread_sleep(1);
		EXPECT(workers[cpu].done);
		EXPECT_EQ(workers[cpu].errors, 0);
		calls += workers[cpu].calls;
	}
	return calls;
}

/* The optimizer off and on: every optimized point becomes a breakpoint
 * again, then a jump, while the workers run through it. */
static void flip_optimizer(void)
{
	kprobes_set_optimization(false);
	thread_sleep(1);
	kprobes_set_optimization(true);
}

/* Disable and enable every FLIP_EVERY-th probe of sp, and flipper, which
 * shares its point with the counted probe (that one stays armed). */
static void flip_some(struct stress_probes *sp, struct kprobe *flipper)
{
	for (size_t i = 0; i < sp->count; i += FLIP_EVERY)
		EXPECT_EQ(disable_kprobe(sp->probes[i]), 0);
	EXPECT_EQ(disable_kprobe(flipper), 0);
	thread_sleep(1);
	EXPECT_EQ(enable_kprobe(flipper), 0);
	for (size_t i = 0; i < sp->count; i += FLIP_EVERY)
		EXPECT_EQ(enable_kprobe(sp->probes[i]), 0);
}

static struct kprobe churn_probes[MAX_CHURN_PROBES];

static int churn_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	(void)regs;
	return 0;
}

/* Probes on what the workers call: every offset of the counted function
 * that takes one (some with a post-handler, which forces a single-step;
 * any in its first instructions unoptimizes its entry) and a kretprobe on
 * it, and the entries of strlen, memcpy and vfs_read, which share the
 * points of the lib/VFS probes there. Registered, left a tick, removed. */
static void register_and_unregister(void)
{
	static const uintptr_t entries[] = { (uintptr_t)strlen, (uintptr_t)memcpy,
					     (uintptr_t)vfs_read };
	struct kretprobe rp = { .kp.addr = (uint8_t *)smp_stress_counted, .handler = churn_ret };
	struct symbol s;
	size_t n = 0;

	EXPECT_EQ(sym_by_addr((uintptr_t)smp_stress_counted, &s), 0);
	for (size_t off = 0; off < s.size && n < MAX_CHURN_PROBES; off++)
		n += probe_test_at(&churn_probes[n], s.addr + off, off & 1);
	EXPECT(n > 1);
	for (size_t i = 0; i < ARRAY_SIZE(entries) && n < MAX_CHURN_PROBES; i++) {
		EXPECT(probe_test_at(&churn_probes[n], entries[i], false));
		n++;
	}
	EXPECT_EQ(register_kretprobe(&rp), 0);
	thread_sleep(1);
	unregister_kretprobe(&rp);
	for (size_t i = 0; i < n; i++)
		unregister_kprobe(&churn_probes[i]);
}

/* Every probe disarmed and armed again by the global knob. The counted
 * calls are held meanwhile: a disarmed probe sees no call at all. */
static void flip_global_knob(void)
{
	__atomic_store_n(&hold, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&in_calls, __ATOMIC_SEQ_CST))
		thread_sleep(1);
	kprobes_global_disarm();
	thread_sleep(1);
	kprobes_global_arm();
	__atomic_store_n(&hold, 0, __ATOMIC_SEQ_CST);
}

/* Churn until the workers have run a few rounds each; returns its rounds.
 * The global knob flips in the first round only: it patches every one of
 * the thousands of points twice, each patch waiting for every CPU. */
static unsigned long churn(struct stress_probes *sp, struct kprobe *flipper)
{
	uint64_t end = sched_ticks() + DEADLINE_TICKS;
	unsigned long rounds = 0;

	while ((rounds < CHURN_ROUNDS || !workers_ran(WORKER_ROUNDS)) && sched_ticks() < end) {
		flip_optimizer();
		flip_some(sp, flipper);
		register_and_unregister();
		if (rounds == 0)
			flip_global_knob();
		rounds++;
	}
	EXPECT(workers_ran(WORKER_ROUNDS));
	return rounds;
}

static void churn_while_every_cpu_hits(void)
{
	struct kprobe kp, flipper;
	struct stress_probes sp;
	struct stress_snapshot snap;
	unsigned long cpus, calls, churned, hits;

	stress_snapshot_take(&snap);
	/* Past the call site, so that the counted point traps, and is a
	 * jump before the churn starts (its entry gets probes of its own in
	 * the churn, which ride on the site). */
	EXPECT(probe_test_at(&kp, probe_test_past_site((uintptr_t)smp_stress_counted), false));
	EXPECT(probe_test_at(&flipper, probe_test_past_site((uintptr_t)smp_stress_counted), false));
	EXPECT_EQ(probe_test_settle(&kp), OPT_OPTIMIZED);
	stress_probe_lib_and_vfs(&sp);
	EXPECT(sp.count > 500);

	cpus = start_workers();
	churned = churn(&sp, &flipper);
	calls = stop_workers();

	EXPECT(calls > 0);
	EXPECT_EQ(kprobe_nhit(&kp) + kprobe_nmissed(&kp), calls);
	hits = stress_probes_hits(&sp);
	EXPECT(hits > 1000);
	cmd_printf("    # %zu probes on lib/ and the VFS, %lu hits; %u workers, %lu counted calls"
		   " (%lu hits, %lu missed); %lu churn rounds\n", sp.count, hits,
		   bits_set(cpus), calls, kprobe_nhit(&kp), kprobe_nmissed(&kp), churned);
	unregister_kprobe(&flipper);
	unregister_kprobe(&kp);
	stress_unprobe(&sp);
	stress_snapshot_check(&snap);
}

static const struct selftest_case smp_stress_cases[] = {
	SELFTEST_CASE(churn_while_every_cpu_hits),
};
SELFTEST_SUITE("probes-smp-stress", smp_stress_cases);
