/* Selftests of the kernel log (kernel/log.c) and of what reaches it
 * (kernel/printk.c): records, wrapping and clearing on a small ring of
 * the tests' own; then, in the kernel log itself, what kprintf and
 * printk store, from every CPU at once; and that a command's output
 * (kernel/cmd_output.c) reaches its stream, never the log.
 *
 * The kernel log is shared with everything else that prints, so a test
 * reads it from where it ended when the test began, and looks for lines
 * of its own (they start with "logtest"). */
#include "kernel/cmd_output.h"
#include "kernel/cpu.h"
#include "kernel/log.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "lib/bitops.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"
#include <asm/irq.h>

/* Small enough to wrap after a few dozen records. */
static char test_buf[1024];
static struct log_ring test_log = LOG_RING_INIT("log selftest", test_buf);
_Static_assert(sizeof(test_buf) >= LOG_RING_MIN, "the test ring holds the longest record");

/* Clear the test ring; returns the cursor of the next record. */
static struct log_cursor test_log_cleared(void)
{
	struct log_cursor first, end;

	log_bounds(&test_log, &first, &end);
	log_clear(&test_log, &end);
	return end;
}

/* Where the kernel log's next record will be. */
static struct log_cursor kernel_log_end(void)
{
	struct log_cursor first, end;

	log_bounds(&kernel_log, &first, &end);
	return end;
}

/* How many records of the kernel log from *from on are exactly text;
 * *level (if not NULL) is the last one's level. */
static int logged(const struct log_cursor *from, const char *text, unsigned int *level)
{
	struct log_cursor c = *from;
	struct log_record rec;
	int n = 0;

	while (log_read(&kernel_log, &c, &rec) == 0) {
		if (strcmp(rec.text, text) == 0) {
			n++;
			if (level)
				*level = rec.level;
		}
	}
	return n;
}

/* Sleep until *count reaches n, for at most ten seconds; true if it did. */
static bool wait_for_count(const volatile int *count, int n)
{
	uint64_t end = sched_ticks() + 10 * TIMER_HZ;

	while (__atomic_load_n(count, __ATOMIC_ACQUIRE) != n && sched_ticks() < end)
		thread_sleep(1);
	return *count == n;
}

static void records_keep_level_and_time(void)
{
	struct log_cursor c = test_log_cleared();
	struct log_record rec;
	ktime_t before = ktime_get(), after;

	log_store(&test_log, 3, "first", 5);
	log_store(&test_log, 7, "second line", 11);
	after = ktime_get();
	EXPECT_EQ(log_read(&test_log, &c, &rec), 0);
	EXPECT_STREQ(rec.text, "first");
	EXPECT_EQ(rec.level, 3);
	EXPECT(rec.time >= before && rec.time <= after);
	EXPECT_EQ(log_read(&test_log, &c, &rec), 0);
	EXPECT_STREQ(rec.text, "second line");
	EXPECT_EQ(rec.len, 11);
	EXPECT_EQ(rec.level, 7);
	EXPECT(rec.time <= after);
	EXPECT_EQ(log_read(&test_log, &c, &rec), -EAGAIN);
}

static void long_line_is_cut(void)
{
	static char line[LOG_LINE_MAX + 50];
	struct log_cursor c = test_log_cleared();
	struct log_record rec;

	memset(line, 'x', sizeof(line));
	log_store(&test_log, 6, line, sizeof(line));
	EXPECT_EQ(log_read(&test_log, &c, &rec), 0);
	EXPECT_EQ(rec.len, LOG_LINE_MAX);
	EXPECT_EQ(strlen(rec.text), LOG_LINE_MAX);
}

/* A hundred records do not fit in 1 KiB: the oldest are dropped whole,
 * and a reader from the start learns how many from the first number it
 * gets; the rest follow in order, up to the newest. */
static void wrap_counts_dropped(void)
{
	struct log_cursor c = test_log_cleared();
	uint64_t start = c.seq, dropped;
	struct log_record rec;
	char text[16];
	int kept = 0;

	for (int i = 0; i < 100; i++)
		log_store(&test_log, 6, text, (size_t)snprintf(text, sizeof(text), "line %d", i));
	EXPECT_EQ(log_read(&test_log, &c, &rec), 0);
	dropped = rec.seq - start;
	EXPECT(dropped > 0);
	do {
		snprintf(text, sizeof(text), "line %d", (int)(rec.seq - start));
		EXPECT_STREQ(rec.text, text);
		kept++;
	} while (log_read(&test_log, &c, &rec) == 0);
	EXPECT_STREQ(text, "line 99");
	EXPECT_EQ(dropped + (uint64_t)kept, 100);
}

/* dmesg -c clears what it printed, dmesg -C everything. */
static void clear_forgets_what_came_before(void)
{
	struct log_cursor c = test_log_cleared(), first, end;
	struct log_record rec;

	log_store(&test_log, 6, "one", 3);
	log_store(&test_log, 6, "two", 3);
	EXPECT_EQ(log_read(&test_log, &c, &rec), 0);
	log_clear(&test_log, &c);
	log_bounds(&test_log, &first, &end);
	EXPECT_EQ(log_read(&test_log, &first, &rec), 0);
	EXPECT_STREQ(rec.text, "two");
	log_clear(&test_log, &end);
	log_bounds(&test_log, &first, &end);
	EXPECT_EQ(log_read(&test_log, &first, &rec), -EAGAIN);
	log_store(&test_log, 6, "three", 5);
	EXPECT_EQ(log_read(&test_log, &first, &rec), 0);
	EXPECT_STREQ(rec.text, "three");
}

/* Writers on every CPU, each of its own letter ('A' on CPU 0, 'B' on
 * CPU 1...), started at once. */
#define LETTERS 40
#define RING_WRITES 2000
#define KPRINTF_WRITES 16

static volatile int writers_go, writers_done;

static void start_writers_on_every_cpu(void (*fn)(void *), int *n)
{
	unsigned long cpus = smp_cpus_running();

	writers_go = 0;
	writers_done = 0;
	*n = 0;
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		if (cpus & (1UL << cpu))
			*n += thread_create_on(cpu, "st-log", fn, (void *)(uintptr_t)('A' + cpu)) >= 0;
	EXPECT_EQ(*n, (int)bits_set(cpus));
	__atomic_store_n(&writers_go, 1, __ATOMIC_RELEASE);
}

/* Fill text with the writer's letter, LETTERS times, then wait for the start. */
static void writer_begin(void *arg, char text[LETTERS + 1])
{
	memset(text, (int)(uintptr_t)arg, LETTERS);
	text[LETTERS] = '\0';
	while (!__atomic_load_n(&writers_go, __ATOMIC_ACQUIRE))
		thread_yield();
}

static bool one_letter(const char *text, size_t len)
{
	for (size_t i = 1; i < len; i++)
		if (text[i] != text[0])
			return false;
	return len == LETTERS;
}

static void ring_writer(void *arg)
{
	char text[LETTERS + 1];

	writer_begin(arg, text);
	for (int i = 0; i < RING_WRITES; i++)
		log_store(&test_log, 6, text, LETTERS);
	__atomic_fetch_add(&writers_done, 1, __ATOMIC_RELEASE);
}

/* Every CPU stores into the small ring at once, dropping each other's
 * records to make room, while this thread reads: every record it gets
 * is whole, and those it gets and those it was told it lost add up. */
static void every_cpu_stores_whole_records(void)
{
	struct log_cursor c = test_log_cleared();
	uint64_t end = sched_ticks() + 10 * TIMER_HZ, got = 0, lost = 0;
	struct log_record rec;
	int n, torn = 0;

	start_writers_on_every_cpu(ring_writer, &n);
	for (;;) {
		bool finished = __atomic_load_n(&writers_done, __ATOMIC_ACQUIRE) == n;
		uint64_t want = c.seq;

		if (log_read(&test_log, &c, &rec) == 0) {
			got++;
			lost += rec.seq - want;
			torn += !one_letter(rec.text, rec.len);
		} else if (finished || sched_ticks() > end) {
			break;
		} else {
			thread_yield();
		}
	}
	EXPECT_EQ(writers_done, n);
	EXPECT_EQ(torn, 0);
	EXPECT(got > 0);
	EXPECT_EQ(got + lost, (uint64_t)n * RING_WRITES);
}

static void kprintf_writer(void *arg)
{
	char text[LETTERS + 1];

	writer_begin(arg, text);
	for (int i = 0; i < KPRINTF_WRITES; i++)
		kprintf("logtest %s\n", text);
	__atomic_fetch_add(&writers_done, 1, __ATOMIC_RELEASE);
}

/* The same through kprintf, into the kernel log: each line is formatted
 * in pieces, gathered and stored whole. */
static void kprintf_from_every_cpu_is_whole(void)
{
	struct log_cursor c = kernel_log_end();
	struct log_record rec;
	int n, ours = 0, torn = 0;

	start_writers_on_every_cpu(kprintf_writer, &n);
	EXPECT(wait_for_count(&writers_done, n));
	while (log_read(&kernel_log, &c, &rec) == 0) {
		if (strncmp(rec.text, "logtest ", 8) != 0)
			continue;
		ours++;
		torn += !one_letter(rec.text + 8, rec.len - 8);
	}
	EXPECT_EQ(torn, 0);
	EXPECT_EQ(ours, n * KPRINTF_WRITES);
}

/* kprintf's text is a kernel message: each line a record at the
 * default level (a blank line none, a long one cut), the last line of a
 * message even without its newline. */
static void kprintf_lines_are_kernel_messages(void)
{
	struct log_cursor from = kernel_log_end();
	char cut[LOG_LINE_MAX + 1];
	unsigned int level = 0;

	kprintf("logtest: one\n\nlogtest: two");
	kprintf("\n");
	kprintf("logtest: %0300d\n", 7);
	EXPECT_EQ(logged(&from, "logtest: one", &level), 1);
	EXPECT_EQ(level, LOG_DEFAULT_LEVEL);
	EXPECT_EQ(logged(&from, "logtest: two", NULL), 1);
	EXPECT_EQ(logged(&from, "", NULL), 0);
	snprintf(cut, sizeof(cut), "logtest: %0300d", 7);
	EXPECT_EQ(logged(&from, cut, NULL), 1);
}

/* A stream that keeps what it is given. */
static struct capture {
	struct cmd_stream stream;
	char text[1024];
	size_t len;
	int writes;
} capture;

static ssize_t capture_write(struct cmd_stream *s, const char *buf, size_t len)
{
	struct capture *c = container_of(s, struct capture, stream);

	for (size_t i = 0; i < len && c->len < sizeof(c->text) - 1; i++)
		c->text[c->len++] = buf[i];
	c->text[c->len] = '\0';
	c->writes++;
	return (ssize_t)len;
}

/* Empty the capture and make it this thread's standard output (err:
 * its standard error); returns the old stream. */
static struct cmd_stream *capture_begin(bool err)
{
	capture.stream.write = capture_write;
	capture.len = 0;
	capture.text[0] = '\0';
	capture.writes = 0;
	return err ? cmd_error_set(&capture.stream) : cmd_output_set(&capture.stream);
}

/* A command's output reaches its standard output only, a long one in
 * chunks; none of it is logged. */
static void output_reaches_its_stream(void)
{
	struct log_cursor from = kernel_log_end();
	struct cmd_stream *old = capture_begin(false);
	int n = cmd_printf("logtest: to the stream %d\n", 7);

	cmd_output_set(old);
	EXPECT_STREQ(capture.text, "logtest: to the stream 7\n");
	EXPECT_EQ(n, (int)capture.len);
	EXPECT_EQ(capture.writes, 1);
	EXPECT_EQ(logged(&from, "logtest: to the stream 7", NULL), 0);

	old = capture_begin(false);
	n = cmd_printf("%0600d\n", 7);
	cmd_output_set(old);
	EXPECT_EQ(n, 601);
	EXPECT_EQ(capture.len, 601);
	EXPECT(capture.writes > 1);
	EXPECT(capture.text[599] == '7' && capture.text[600] == '\n');
}

/* Errors go to standard error, not down standard output. */
static void errors_reach_standard_error(void)
{
	struct cmd_stream *old = capture_begin(true);

	cmd_printf("logtest: not an error\n");
	cmd_eprintf("logtest: an error %d\n", 2);
	cmd_error_set(old);
	EXPECT_STREQ(capture.text, "logtest: an error 2\n");
}

/* kprintf and printk are kernel messages even while the thread's
 * output is a stream. */
static void kernel_messages_bypass_streams(void)
{
	struct log_cursor from = kernel_log_end();
	struct cmd_stream *old = capture_begin(false);
	unsigned int level = 0;

	printk(KERN_ERR "logtest: printk %d\n", 3);
	kprintf("logtest: kprintf\n");
	cmd_output_set(old);
	EXPECT_EQ(capture.len, 0);
	EXPECT_EQ(logged(&from, "logtest: printk 3", &level), 1);
	EXPECT_EQ(level, 3);
	EXPECT_EQ(logged(&from, "logtest: kprintf", NULL), 1);
}

static volatile int others_done;

static void other_thread(void *unused)
{
	(void)unused;
	cmd_printf("logtest: from another thread\n");
	__atomic_fetch_add(&others_done, 1, __ATOMIC_RELEASE);
}

/* Streams are their thread's: another thread's output goes to the
 * console. */
static void other_threads_have_their_own(void)
{
	struct cmd_stream *old = capture_begin(false);

	others_done = 0;
	EXPECT(thread_create("st-log", other_thread, NULL) >= 0);
	EXPECT(wait_for_count(&others_done, 1));
	cmd_output_set(old);
	EXPECT_EQ(capture.len, 0);
}

/* What an interrupt handler or a probe handler prints on this thread's
 * CPU, even with cmd_printf, is a kernel message, whatever stream the
 * interrupted thread has. Both are played by raising what tells them
 * apart, interrupts off. */
static void handlers_bypass_streams(void)
{
	struct log_cursor from = kernel_log_end();
	struct cmd_stream *old = capture_begin(false);
	unsigned long flags = arch_irq_save();

	this_cpu()->irq_depth++;
	cmd_printf("logtest: as if in an interrupt\n");
	this_cpu()->irq_depth--;
	this_cpu()->handler_context.handler_state = 1;
	cmd_printf("logtest: as if in a probe handler\n");
	this_cpu()->handler_context.handler_state = 0;
	arch_irq_restore(flags);
	cmd_output_set(old);
	EXPECT_EQ(capture.len, 0);
	EXPECT_EQ(logged(&from, "logtest: as if in an interrupt", NULL), 1);
	EXPECT_EQ(logged(&from, "logtest: as if in a probe handler", NULL), 1);
}

static int failing_writes;

static ssize_t failing_write(struct cmd_stream *s, const char *buf, size_t len)
{
	(void)s;
	(void)buf;
	(void)len;
	failing_writes++;
	return -EIO;
}

/* A stream's error is cmd_printf's result, and nothing more is sent. */
static void stream_error_is_returned(void)
{
	static struct cmd_stream failing = { .write = failing_write };
	struct cmd_stream *old = cmd_output_set(&failing);
	int n;

	failing_writes = 0;
	n = cmd_printf("%0600d\n", 7);
	cmd_output_set(old);
	EXPECT_EQ(n, -EIO);
	EXPECT_EQ(failing_writes, 1);
}

static const struct selftest_case log_cases[] = {
	SELFTEST_CASE(records_keep_level_and_time),
	SELFTEST_CASE(long_line_is_cut),
	SELFTEST_CASE(wrap_counts_dropped),
	SELFTEST_CASE(clear_forgets_what_came_before),
	SELFTEST_CASE(every_cpu_stores_whole_records),
	SELFTEST_CASE(kprintf_from_every_cpu_is_whole),
	SELFTEST_CASE(kprintf_lines_are_kernel_messages),
	SELFTEST_CASE(output_reaches_its_stream),
	SELFTEST_CASE(errors_reach_standard_error),
	SELFTEST_CASE(kernel_messages_bypass_streams),
	SELFTEST_CASE(other_threads_have_their_own),
	SELFTEST_CASE(handlers_bypass_streams),
	SELFTEST_CASE(stream_error_is_returned),
};
SELFTEST_SUITE("log", log_cases);
