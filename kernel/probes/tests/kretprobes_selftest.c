/* Selftests of kretprobes: return values, entry_handler and data,
 * maxactive exhaustion, recursion, and backtraces through a probed call. */
#include "kernel/mm/heap.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/tests/probe_selftest_util.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "lib/errno.h"

__noinline long krt_square(long x)
{
	return x * x;
}

static long (*volatile square_ptr)(long) = krt_square;

#define MAX_SEEN 16
static long seen_ret[MAX_SEEN], seen_arg[MAX_SEEN];
static int nseen, nentries;

static void reset_seen(void)
{
	nseen = nentries = 0;
}

static int remember_arg(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(long *)ri->data = (long)regs_get_argument(regs, 0);
	nentries++;
	return 0;
}

static int remember_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	if (nseen < MAX_SEEN)
		seen_ret[nseen++] = (long)regs_return_value(regs);
	return 0;
}

/* For a kretprobe whose data (data_size) remember_arg filled at entry:
 * without it, ri->data is past the instance. */
static int remember_return_and_arg(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (nseen < MAX_SEEN)
		seen_arg[nseen] = *(long *)ri->data;
	return remember_return(ri, regs);
}

static void handler_sees_return_value_and_data(void)
{
	struct kretprobe rp = { .kp.symbol_name = "krt_square",
				.handler = remember_return_and_arg, .entry_handler = remember_arg,
				.data_size = sizeof(long) };

	reset_seen();
	EXPECT_EQ(register_kretprobe(&rp), 0);
	EXPECT_EQ(rp.maxactive, 10);	/* max(10, 2 * CPUs) with one CPU */
	EXPECT_EQ(square_ptr(7), 49);
	EXPECT_EQ(nentries, 1);
	EXPECT_EQ(nseen, 1);
	EXPECT_EQ(seen_ret[0], 49);
	EXPECT_EQ(seen_arg[0], 7);
	EXPECT_EQ(kretprobe_instances_in_use(&rp), 0);
	unregister_kretprobe(&rp);
	EXPECT_EQ(square_ptr(3), 9);
	EXPECT_EQ(nseen, 1);
}

static int refuse_odd(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)ri;
	return (long)regs_get_argument(regs, 0) & 1;
}

static void entry_handler_can_skip_a_call(void)
{
	struct kretprobe rp = { .kp.symbol_name = "krt_square", .handler = remember_return,
				.entry_handler = refuse_odd };

	reset_seen();
	EXPECT_EQ(register_kretprobe(&rp), 0);
	square_ptr(3);
	EXPECT_EQ(nseen, 0);
	square_ptr(4);
	EXPECT_EQ(nseen, 1);
	EXPECT_EQ(seen_ret[0], 16);
	EXPECT_EQ(kretprobe_nmissed(&rp), 0);
	unregister_kretprobe(&rp);
}

static void recursion_reports_every_return_in_order(void)
{
	struct kretprobe rp = { .kp.symbol_name = "probe_test_sum_to",
				.handler = remember_return_and_arg, .entry_handler = remember_arg,
				.data_size = sizeof(long) };

	reset_seen();
	EXPECT_EQ(register_kretprobe(&rp), 0);
	EXPECT_EQ(probe_test_sum_to(4), 10);
	EXPECT_EQ(nseen, 5);
	/* Innermost first: sum_to(0)=0, (1)=1, (2)=3, (3)=6, (4)=10. */
	for (int i = 0; i < 5 && i < nseen; i++) {
		EXPECT_EQ(seen_arg[i], i);
		EXPECT_EQ(seen_ret[i], (long)i * (i + 1) / 2);
	}
	EXPECT_EQ(kretprobe_nmissed(&rp), 0);
	unregister_kretprobe(&rp);
}

static void maxactive_exhaustion_is_counted(void)
{
	struct kretprobe rp = { .kp.symbol_name = "probe_test_sum_to",
				.handler = remember_return_and_arg, .entry_handler = remember_arg,
				.data_size = sizeof(long), .maxactive = 2 };

	reset_seen();
	EXPECT_EQ(register_kretprobe(&rp), 0);
	EXPECT_EQ(probe_test_sum_to(4), 10);	/* five nested calls, two instances */
	EXPECT_EQ(kretprobe_nmissed(&rp), 3);
	EXPECT_EQ(rp.nmissed, 0);	/* counted per CPU while registered... */
	EXPECT_EQ(nentries, 2);		/* missed calls skip entry_handler */
	EXPECT_EQ(nseen, 2);
	EXPECT_EQ(seen_arg[0], 3);	/* the two outermost calls */
	EXPECT_EQ(seen_arg[1], 4);
	unregister_kretprobe(&rp);
	EXPECT_EQ(rp.nmissed, 3);	/* ...and added in by unregistering */
}

/* A pool cut into parts, as on a machine with four CPUs (this runs on
 * any number): a call takes from its CPU's part first, then steals from
 * the others' in turn; never more than maxactive are in use, and only a
 * call that finds none free anywhere is refused (a miss). A given-back
 * instance goes to its own part, whichever CPU gives it back. */
static void pool_parts_are_stolen_from_before_a_miss(void)
{
	struct kretprobe rp = { .maxactive = 8 };
	struct kretprobe_pool *pool = kretprobe_pool_create(&rp, 4);
	struct kretprobe_instance *ri[8];

	EXPECT(pool != NULL);
	if (!pool)
		return;
	/* Parts of two: CPU 1 owns instances 2 and 3. */
	for (int i = 0; i < 8; i++)
		ri[i] = kretprobe_pool_take(pool, 1);
	EXPECT(ri[1] > ri[0]);
	EXPECT(ri[2] > ri[1]);		/* stolen from CPU 2's part */
	EXPECT(ri[6] < ri[0]);		/* CPU 0's part, last */
	EXPECT(ri[7] != NULL);
	EXPECT(kretprobe_pool_take(pool, 1) == NULL);	/* maxactive in use */
	EXPECT(kretprobe_pool_take(pool, 3) == NULL);
	/* CPU 0's first instance comes back (on whatever CPU): CPU 3 finds
	 * its own part full and steals it from CPU 0's. */
	kretprobe_pool_give_back(ri[6]);
	EXPECT(kretprobe_pool_take(pool, 3) == ri[6]);
	EXPECT(kretprobe_pool_take(pool, 0) == NULL);
	/* One back in CPU 2's part: CPU 2 finds it first. */
	kretprobe_pool_give_back(ri[2]);
	EXPECT(kretprobe_pool_take(pool, 2) == ri[2]);
	kretprobe_pool_destroy(pool);
}

/* A second register_kretprobe of a live kretprobe is refused and leaves
 * the registration as it was: its instances, and what it counted. */
static void registering_twice_is_refused(void)
{
	struct kretprobe rp = { .kp.symbol_name = "probe_test_sum_to", .handler = remember_return,
				.maxactive = 2 };

	reset_seen();
	EXPECT_EQ(register_kretprobe(&rp), 0);
	EXPECT_EQ(probe_test_sum_to(2), 3);	/* three nested calls, two instances */
	EXPECT_EQ(kretprobe_nmissed(&rp), 1);
	EXPECT_EQ(register_kretprobe(&rp), -EEXIST);
	EXPECT_EQ(kretprobe_nmissed(&rp), 1);
	EXPECT_EQ(probe_test_sum_to(1), 1);	/* two nested calls: both instances */
	EXPECT_EQ(kretprobe_nmissed(&rp), 1);
	EXPECT_EQ(nseen, 4);
	unregister_kretprobe(&rp);
}

static void backtrace_shows_real_caller(void)
{
	struct kretprobe rp = { .kp.symbol_name = "probe_test_capture_backtrace" };

	EXPECT_EQ(register_kretprobe(&rp), 0);
	probe_test_expect_real_caller();
	unregister_kretprobe(&rp);
}

/* A probed function that ends its thread: its call never returns. */
__noinline void krt_exit_thread(void)
{
	thread_exit();
}

static volatile int exiter_started;

static void exiter(void *unused)
{
	void (*volatile fn)(void) = krt_exit_thread;

	(void)unused;
	exiter_started = 1;
	fn();
}

static void thread_exit_gives_back_instances(void)
{
	struct kretprobe rp = { .kp.symbol_name = "krt_exit_thread", .maxactive = 1 };

	exiter_started = 0;
	EXPECT_EQ(register_kretprobe(&rp), 0);
	EXPECT(thread_create("st-exit", exiter, NULL) >= 0);
	while (!exiter_started)
		thread_sleep(1);
	thread_sleep(3);
	EXPECT_EQ(kprobe_nhit(&rp.kp), 1);
	EXPECT_EQ(kretprobe_instances_in_use(&rp), 0);
	/* and the one instance is free for the next call */
	exiter_started = 0;
	EXPECT(thread_create("st-exit", exiter, NULL) >= 0);
	while (!exiter_started)
		thread_sleep(1);
	thread_sleep(3);
	EXPECT_EQ(kprobe_nhit(&rp.kp), 2);
	EXPECT_EQ(kretprobe_nmissed(&rp), 0);
	unregister_kretprobe(&rp);
}

/* A call that sleeps inside the probed function until told to return,
 * in a thread that then waits to be told to exit. */
static volatile int sleeper_inside, sleeper_may_return, sleeper_returned, sleeper_may_exit;
static volatile long sleeper_result;

__noinline long krt_sleep_inside(long x)
{
	sleeper_inside = 1;
	while (!sleeper_may_return)
		thread_sleep(1);
	return x + 1;
}

static long (*volatile sleep_inside_ptr)(long) = krt_sleep_inside;

static void sleeper(void *unused)
{
	(void)unused;
	sleeper_result = sleep_inside_ptr(41);
	sleeper_returned = 1;
	while (!sleeper_may_exit)
		thread_sleep(1);
}

/* Unregistering while a call is in flight: the pool must stay until the
 * call returns (the return still reads and frees its instance), and be
 * freed then, not leaked. So, counted in heap allocations, the return
 * frees exactly one: the pool. (Freed early, it would free none.) */
static void pool_outlives_unregister_until_the_return(void)
{
	struct kretprobe rp = { .kp.symbol_name = "krt_sleep_inside", .handler = remember_return,
				.maxactive = 2 };
	struct heap_stats in_flight, returned;

	sleeper_inside = sleeper_may_return = sleeper_returned = sleeper_may_exit = 0;
	EXPECT_EQ(register_kretprobe(&rp), 0);
	EXPECT(thread_create("st-sleeper", sleeper, NULL) >= 0);
	while (!sleeper_inside)
		thread_sleep(1);
	EXPECT_EQ(kretprobe_instances_in_use(&rp), 1);
	reset_seen();
	unregister_kretprobe(&rp);
	rcu_barrier();		/* the frees the unregistering queued have run */
	heap_get_stats(&in_flight);
	sleeper_may_return = 1;
	while (!sleeper_returned)
		thread_sleep(1);
	rcu_barrier();		/* and the one the return queued */
	heap_get_stats(&returned);
	EXPECT_EQ(sleeper_result, 42);
	EXPECT_EQ(nseen, 0);	/* no handler once unregistered */
	EXPECT_EQ(returned.allocations, in_flight.allocations - 1);
	sleeper_may_exit = 1;
}

static void batch_and_enable_disable(void)
{
	struct kretprobe a = { .kp.symbol_name = "krt_square", .handler = remember_return };
	struct kretprobe b = { .kp.symbol_name = "probe_test_sum_to", .handler = remember_return };
	struct kretprobe bad = { .kp.symbol_name = "no_such_function_xyz" };
	struct kretprobe *rps[] = { &a, &b, &bad };

	EXPECT_EQ(register_kretprobes(rps, 3), -ENOENT);	/* rolled back */
	EXPECT(a.kp.point == NULL && b.kp.point == NULL);
	a.kp.addr = b.kp.addr = NULL;
	EXPECT_EQ(register_kretprobes(rps, 2), 0);
	reset_seen();
	EXPECT_EQ(disable_kretprobe(&a), 0);
	square_ptr(5);
	EXPECT_EQ(nseen, 0);
	EXPECT_EQ(enable_kretprobe(&a), 0);
	square_ptr(5);
	EXPECT_EQ(nseen, 1);
	unregister_kretprobes(rps, 2);
	EXPECT_EQ(disable_kretprobe(&a), -EINVAL);
}

static const struct selftest_case kretprobe_cases[] = {
	SELFTEST_CASE(handler_sees_return_value_and_data),
	SELFTEST_CASE(entry_handler_can_skip_a_call),
	SELFTEST_CASE(recursion_reports_every_return_in_order),
	SELFTEST_CASE(maxactive_exhaustion_is_counted),
	SELFTEST_CASE(pool_parts_are_stolen_from_before_a_miss),
	SELFTEST_CASE(registering_twice_is_refused),
	SELFTEST_CASE(backtrace_shows_real_caller),
	SELFTEST_CASE(thread_exit_gives_back_instances),
	SELFTEST_CASE(pool_outlives_unregister_until_the_return),
	SELFTEST_CASE(batch_and_enable_disable),
};
SELFTEST_SUITE("kretprobes", kretprobe_cases);
