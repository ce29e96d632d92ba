/*
 * The probes stress selftest: a kprobe on every instruction of every
 * probe-able function of lib/ and the VFS at once, while workloads whose
 * results are checked run in this thread and in a reader thread that the
 * timer preempts. Afterwards every probe is removed, and the text must be
 * byte-identical to before, and the heap and instruction slots back where
 * they started.
 *
 * Probes are registered at every offset of every function: the core
 * refuses those that are not instruction boundaries (-EILSEQ) and those
 * that cannot be probed (-EINVAL), which also tests the refusals.
 */
#include "kernel/heap.h"
#include "kernel/printk.h"
#include "kernel/probes/kprobes.h"
#include "kernel/probes/probe_point.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/symtab.h"
#include "kernel/vfs.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

#define BATCH 64
#define READER_FILE "/data/lorem.txt"

extern char __lib_text_start[], __lib_text_end[], __vfs_text_start[], __vfs_text_end[];

struct stress {
	struct kprobe **probes;
	size_t count, capacity;
	unsigned long rejected_boundary, rejected_other;
};

static int stress_count_hit(struct kprobe *p, struct pt_regs *regs)
{
	(void)p;
	(void)regs;
	return 0;	/* the core counts nhit */
}

static bool grow(struct stress *st)
{
	size_t cap = st->capacity ? st->capacity * 2 : 1024;
	struct kprobe **bigger = kmalloc(cap * sizeof(*bigger));

	if (!bigger)
		return false;
	if (st->probes)
		memcpy(bigger, st->probes, st->count * sizeof(*bigger));
	kfree(st->probes);
	st->probes = bigger;
	st->capacity = cap;
	return true;
}

/* Register a batch with register_kprobes; if one offset is refused, the
 * batch is rolled back, so fall back to one at a time to keep the rest. */
static void register_batch(struct stress *st, struct kprobe **batch, size_t n)
{
	if (register_kprobes(batch, (int)n) == 0) {
		for (size_t i = 0; i < n; i++)
			st->probes[st->count++] = batch[i];
		return;
	}
	for (size_t i = 0; i < n; i++) {
		int err;

		err = register_kprobe(batch[i]);
		if (err == 0) {
			st->probes[st->count++] = batch[i];
			continue;
		}
		if (err == -EILSEQ)
			st->rejected_boundary++;
		else
			st->rejected_other++;
		kfree(batch[i]);
	}
}

/* Probe every offset of [start, end), function by function. */
static void probe_range(struct stress *st, uintptr_t start, uintptr_t end)
{
	struct kprobe *batch[BATCH];
	size_t n = 0;

	for (uintptr_t a = start; a < end; a++) {
		struct kprobe *kp;

		if (st->count + n + 1 >= st->capacity && !grow(st))
			break;
		kp = kzalloc(sizeof(*kp));
		if (!kp)
			break;
		kp->addr = (uint8_t *)a;
		kp->pre_handler = stress_count_hit;
		batch[n++] = kp;
		if (n == BATCH) {
			register_batch(st, batch, n);
			n = 0;
		}
	}
	register_batch(st, batch, n);
}

/* ---- workloads with known answers ---- */

static char expected_file[4096];
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

static void reader(void *unused)
{
	static char buf[4096];

	(void)unused;
	while (!reader_stop) {
		ssize_t n = read_whole(READER_FILE, buf, sizeof(buf));

		if (n != expected_len || memcmp(buf, expected_file, (size_t)n) != 0)
			reader_errors++;
		reader_rounds++;
	}
	reader_done = 1;
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
		errors += parse_u64("0x1f2e", &v) != 0 || v != 0x1f2e;
		errors += parse_u64("12z", &v) != -EINVAL;
	}
	return errors;
}

static void probe_everything_in_lib_and_vfs(void)
{
	struct stress st = { 0 };
	struct heap_stats heap_before, heap_after;
	size_t text_len = (size_t)(__vfs_text_end - __lib_text_start);
	uint8_t *text_before;
	unsigned long hits = 0, slots_before = arch_kprobe_slots_in_use();
	static char again[4096];

	heap_get_stats(&heap_before);
	text_before = kmalloc(text_len);
	EXPECT(text_before != NULL);
	if (!text_before)
		return;
	memcpy(text_before, __lib_text_start, text_len);
	expected_len = read_whole(READER_FILE, expected_file, sizeof(expected_file));
	EXPECT(expected_len > 0);

	probe_range(&st, (uintptr_t)__lib_text_start, (uintptr_t)__lib_text_end);
	probe_range(&st, (uintptr_t)__vfs_text_start, (uintptr_t)__vfs_text_end);
	EXPECT(st.count > 500);
	EXPECT(st.rejected_boundary > st.count);	/* most bytes are mid-instruction */

	/* Work, checked, in this thread and in a preempted reader thread. */
	reader_stop = reader_done = 0;
	reader_rounds = reader_errors = 0;
	EXPECT(thread_create("st-reader", reader, NULL) != NULL);
	for (int round = 0; round < 5; round++) {
		EXPECT_EQ(string_workload(), 0);
		EXPECT_EQ(read_whole(READER_FILE, again, sizeof(again)), expected_len);
		EXPECT(memcmp(again, expected_file, (size_t)expected_len) == 0);
		thread_sleep(2);
	}
	reader_stop = 1;
	while (!reader_done)
		thread_sleep(1);
	EXPECT(reader_rounds > 0);
	EXPECT_EQ(reader_errors, 0);

	for (size_t i = 0; i < st.count; i++)
		hits += st.probes[i]->nhit;
	EXPECT(hits > 1000);
	kprintf("    # %zu probes; offsets refused: %lu inside an instruction, %lu other;"
		" %lu hits; reader rounds %lu\n", st.count, st.rejected_boundary,
		st.rejected_other, hits, (unsigned long)reader_rounds);
	for (size_t i = 0; i < st.count; i += BATCH)
		unregister_kprobes(st.probes + i, (int)MIN((size_t)BATCH, st.count - i));
	for (size_t i = 0; i < st.count; i++)
		kfree(st.probes[i]);
	kfree(st.probes);

	EXPECT(memcmp(text_before, __lib_text_start, text_len) == 0);
	kfree(text_before);
	thread_sleep(2);	/* let the reader thread be reaped */
	heap_get_stats(&heap_after);
	EXPECT_EQ(heap_after.bytes_in_use, heap_before.bytes_in_use);
	EXPECT_EQ(heap_after.allocations, heap_before.allocations);
	EXPECT_EQ(arch_kprobe_slots_in_use(), slots_before);
}

static const struct selftest_case stress_cases[] = {
	SELFTEST_CASE(probe_everything_in_lib_and_vfs),
};
SELFTEST_SUITE("kprobes-stress", stress_cases);
