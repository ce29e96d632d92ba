/* Selftests of the tracing ring buffer (kernel/trace/ring_buffer.h) in
 * the kernel: records written on every CPU at once (through cross-CPU
 * calls, from their interrupt handlers) come back whole, each on its
 * CPU and merged in time order; a clear hides what came before; writes
 * stop while the buffer is off; and a ring that laps counts what it
 * overwrote. The ring itself is tested on the host too, its writer and
 * a reader in two threads (tests/host/test_ring_threads.c). */
#include "kernel/cpu.h"
#include "kernel/mm/heap.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/smp_call.h"
#include "kernel/trace/ring_buffer.h"
#include "lib/errno.h"

#define TYPE_TEST 7
#define PER_CALL 20

static struct ring_buffer *rb;
static unsigned int write_failures;	/* of write_some, on any CPU */

/* What a test record holds: the CPU that wrote it and its number there. */
struct test_record {
	uint32_t cpu;
	uint32_t n;
};

static void write_some(void *arg)
{
	unsigned int cpu = this_cpu()->id;

	(void)arg;
	for (uint32_t n = 0; n < PER_CALL; n++) {
		struct test_record t = { cpu, n };

		/* Counted, not EXPECTed: this may run in another CPU's
		 * interrupt handler. */
		if (ring_buffer_write(rb, TYPE_TEST, &t, sizeof(t)) != 0)
			__atomic_fetch_add(&write_failures, 1, __ATOMIC_RELAXED);
	}
}

/* Each case's buffer, of bytes per CPU: whether it could be made. */
static bool start(size_t bytes)
{
	write_failures = 0;
	rb = ring_buffer_create(bytes);
	EXPECT(rb != NULL);
	return rb != NULL;
}

static void finish(void)
{
	EXPECT_EQ(write_failures, 0u);
	ring_buffer_destroy(rb);
}

/* Read everything into counts per CPU, checking each record and the
 * order (each CPU's records follow one another, write_some's numbers
 * going round); the number of records read. */
static unsigned int read_all(unsigned int per_cpu[MAX_CPUS])
{
	struct ring_buffer_cursor *c = kmalloc(sizeof(*c));
	int64_t prev[MAX_CPUS];
	uint64_t last_time = 0;
	unsigned int total = 0, cpu;
	const struct ring_entry *e;

	if (!c)
		return 0;
	for (unsigned int i = 0; i < MAX_CPUS; i++)
		prev[i] = -1;
	ring_buffer_cursor_start(rb, c);
	while ((e = ring_buffer_next(rb, c, &cpu)) != NULL) {
		const struct test_record *t = (const void *)e->data;

		EXPECT_EQ(e->type, TYPE_TEST);
		EXPECT_EQ(e->len, (uint32_t)sizeof(*t));
		EXPECT_EQ(t->cpu, cpu);
		if (prev[cpu] >= 0)
			EXPECT_EQ(t->n, (uint32_t)(prev[cpu] + 1) % PER_CALL);
		EXPECT(e->time >= last_time);	/* all merged by time */
		last_time = e->time;
		prev[cpu] = t->n;
		per_cpu[cpu]++;
		total++;
	}
	kfree(c);
	return total;
}

static void every_cpu_writes_at_once(void)
{
	unsigned int per_cpu[MAX_CPUS] = { 0 };
	unsigned int others = cpu_count() - 1, total;

	if (!start(16384))
		return;
	/* The others from their interrupt handlers, while this one writes
	 * from its thread. */
	preempt_disable();
	smp_call_on_others(write_some, NULL);
	write_some(NULL);
	preempt_enable();
	total = read_all(per_cpu);
	EXPECT_EQ(total, (others + 1) * PER_CALL);
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		EXPECT(per_cpu[cpu] == 0 || per_cpu[cpu] == PER_CALL);
		EXPECT_EQ(ring_buffer_written(rb, cpu), (uint64_t)per_cpu[cpu]);
	}
	finish();
}

static void clear_hides_and_off_drops(void)
{
	unsigned int per_cpu[MAX_CPUS] = { 0 };
	struct test_record t = { 0, 0 };

	if (!start(16384))
		return;
	preempt_disable();
	write_some(NULL);
	ring_buffer_clear(rb);
	EXPECT_EQ(read_all(per_cpu), 0u);
	ring_buffer_set_on(rb, false);
	EXPECT(!ring_buffer_is_on(rb));
	EXPECT_EQ(ring_buffer_write(rb, TYPE_TEST, &t, sizeof(t)), -EAGAIN);
	ring_buffer_set_on(rb, true);
	write_some(NULL);
	preempt_enable();
	EXPECT_EQ(read_all(per_cpu), (unsigned int)PER_CALL);
	finish();
}

/* The smallest buffer, lapped many times on this CPU: the newest
 * records are all there, and written = read + overrun. */
static void a_full_ring_overwrites_and_counts(void)
{
	unsigned int per_cpu[MAX_CPUS] = { 0 };
	unsigned int cpu, total;

	if (!start(0))
		return;
	preempt_disable();
	cpu = this_cpu()->id;
	for (int i = 0; i < 50; i++)
		write_some(NULL);
	preempt_enable();
	total = read_all(per_cpu);
	EXPECT(total > 0 && total < 50 * PER_CALL);
	EXPECT_EQ(ring_buffer_written(rb, cpu), 50ull * PER_CALL);
	EXPECT_EQ(ring_buffer_written(rb, cpu), total + ring_buffer_overrun(rb, cpu));
	finish();
}

static const struct selftest_case ring_buffer_cases[] = {
	SELFTEST_CASE(every_cpu_writes_at_once),
	SELFTEST_CASE(clear_hides_and_off_drops),
	SELFTEST_CASE(a_full_ring_overwrites_and_counts),
};
SELFTEST_SUITE("ring_buffer", ring_buffer_cases);
