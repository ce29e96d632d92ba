/* The shared workload of the probes stress selftests (see the header). */
#include "kernel/arch.h"
#include "kernel/mm/percpu_alloc.h"
#include "kernel/probes/optimizer.h"
#include "kernel/probes/tests/stress_workload.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/symtab.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

#define READER_FILE "/data/lorem.txt"
#define ROUNDS 5
#define SETTLE_TICKS (10 * TIMER_HZ)	/* for the optimizer thread's work */

static char expected_file[STRESS_FILE_MAX];
static ssize_t expected_len;
static volatile int reader_stop, reader_done;
static volatile unsigned long reader_rounds, reader_errors;

static ssize_t read_whole(const char *path, char *buf, size_t size)
{
	struct file *f;
	ssize_t total = 0, n;
	loff_t pos = 0;

	if (vfs_open(path, O_RDONLY, &f) < 0)
		return -ENOENT;
	while ((n = vfs_read(f, buf + total, MIN((size_t)64, size - total), &pos)) > 0)
		total += n;
	vfs_close(f);
	return n < 0 ? n : total;
}

/* FNV-1a: enough to notice a changed byte. */
static uint64_t sum_bytes(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

void stress_snapshot_take(struct stress_snapshot *snap)
{
	rcu_barrier();	/* points unregistered earlier are freed first */
	/* and the text is final: no jump is still to be written */
	EXPECT(optimizer_wait_idle(SETTLE_TICKS));
	/* The per-CPU counts' spare chunk, which the test's probes may
	 * leave (a first run) or find (a second), is counted on neither side. */
	percpu_release_spare();
	heap_get_stats(&snap->heap);
	snap->slots = kprobe_slots_in_use() + optimizer_detours_in_use();
	/* The reference copy of the reader's file, read before any probe is
	 * registered: a probe that broke reads the same way every time would
	 * otherwise break the reference too. */
	expected_len = read_whole(READER_FILE, expected_file, sizeof(expected_file));
	EXPECT(expected_len > 0);
	snap->text_len = (size_t)(__vfs_text_end - __lib_text_start);
	snap->text = kmalloc(snap->text_len);
	EXPECT(snap->text != NULL);
	if (snap->text) {
		memcpy(snap->text, __lib_text_start, snap->text_len);
		snap->text_sum = sum_bytes(snap->text, snap->text_len);
	}
}

/* The first byte of the text that differs from the snapshot, named. */
static void expect_text_unchanged(const struct stress_snapshot *snap)
{
	const uint8_t *now = (const uint8_t *)__lib_text_start;
	struct symbol s;

	for (size_t i = 0; i < snap->text_len; i++) {
		uintptr_t at = (uintptr_t)now + i;

		if (now[i] == snap->text[i])
			continue;
		if (sym_by_addr(at, &s) < 0)
			s = (struct symbol){ .name = "?", .addr = at };
		selftest_fail(__FILE__, __LINE__, "text differs at %s+0x%lx (%p): 0x%02x, was 0x%02x",
			      s.name, (unsigned long)(at - s.addr), (void *)at, now[i], snap->text[i]);
		return;
	}
}

void stress_snapshot_check(struct stress_snapshot *snap)
{
	struct heap_stats now;

	/* A probe that was there before the test (a boot test's, say) lost
	 * its jump while stress probes sat in its region; the optimizer
	 * thread writes it again once they are gone. Compare after that. */
	EXPECT(optimizer_wait_idle(SETTLE_TICKS));
	if (snap->text) {
		if (sum_bytes(snap->text, snap->text_len) != snap->text_sum)
			selftest_fail(__FILE__, __LINE__, "the snapshot of the text changed in the"
				      " heap: a stray write, not a change of the text");
		expect_text_unchanged(snap);
		kfree(snap->text);
		snap->text = NULL;
	}
	rcu_barrier();		/* let unregistered points be freed */
	percpu_release_spare();
	/* And exited threads be reaped: each by the next thread its CPU
	 * switches to, which on a CPU gone idle may take a few ticks. */
	for (int tick = 0; tick < SETTLE_TICKS; tick++) {
		heap_get_stats(&now);
		if (now.allocations == snap->heap.allocations)
			break;
		thread_sleep(1);
	}
	EXPECT_EQ(now.bytes_in_use, snap->heap.bytes_in_use);
	EXPECT_EQ(now.allocations, snap->heap.allocations);
	EXPECT_EQ(kprobe_slots_in_use() + optimizer_detours_in_use(), snap->slots);
}


/* Formatting, copying, comparing and parsing, with known answers. */
static unsigned long string_workload(void)
{
	unsigned long errors = 0;

	for (int i = 0; i < 20; i++) {
		char buf[64], copy[64];
		uint64_t v = 0;

		snprintf(buf, sizeof(buf), "%d-%x-%s-%03d", 12345, 0xbeef, "probe", i);
		errors += strncmp(buf, "12345-beef-probe-0", 18) != 0;
		errors += strlen(buf) != 20;
		memcpy(copy, buf, sizeof(buf));
		errors += memcmp(copy, buf, sizeof(buf)) != 0;
		memmove(copy + 1, copy, 21);	/* overlapping: shift right */
		errors += copy[0] != '1' || strcmp(copy + 1, buf) != 0;
		errors += strchr(buf, 'p') != buf + 11;
		errors += parse_unsigned("0x1f2e", UINT64_MAX, &v) != 0 || v != 0x1f2e;
		errors += parse_unsigned("12z", UINT64_MAX, &v) != -EINVAL;
	}
	return errors;
}

unsigned long stress_workload_round(char *buf)
{
	ssize_t n = read_whole(READER_FILE, buf, STRESS_FILE_MAX);

	return string_workload() +
	       (n != expected_len || memcmp(buf, expected_file, (size_t)n) != 0);
}

static void reader(void *unused)
{
	static char buf[STRESS_FILE_MAX];

	(void)unused;
	while (!reader_stop) {
		reader_errors += stress_workload_round(buf);
		reader_rounds++;
	}
	reader_done = 1;
}

unsigned long stress_run_workload(void)
{
	static char again[STRESS_FILE_MAX];

	reader_stop = reader_done = 0;
	reader_rounds = reader_errors = 0;
	EXPECT(thread_create("st-reader", reader, NULL) >= 0);
	for (int round = 0; round < ROUNDS; round++) {
		EXPECT_EQ(stress_workload_round(again), 0);
		thread_sleep(2);
	}
	reader_stop = 1;
	while (!reader_done)
		thread_sleep(1);
	EXPECT(reader_rounds > 0);
	EXPECT_EQ(reader_errors, 0);
	return reader_rounds;
}
