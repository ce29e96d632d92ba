/* Self tests of generated files (seq_file.c).
 *
 * Each test opens a file of its own: an inode made here whose file
 * operations are seq_file's, read through vfs_read as any file is. The
 * files' records are lines whose text follows from their number, so a
 * reader can check every byte it gets without keeping the file. */

#include "kernel/fs/debugfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/cmd_output.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* ---- Lines that can be checked ---- */

#define LINE_MAX 64

/* Line number n: "n:" and 5 to 34 times one letter, then a newline. A
 * line made of two records' pieces has the wrong letter or length. */
static size_t make_line(unsigned long n, char *text)
{
	size_t len = (size_t)snprintf(text, LINE_MAX, "%lu:", n);
	size_t letters = 5 + n % 30;

	memset(text + len, 'a' + (int)(n % 26), letters);
	text[len + letters] = '\n';
	return len + letters + 1;
}

/* Whether text (len bytes, the newline last) is a line of make_line. */
static bool whole_line(const char *text, size_t len)
{
	char want[LINE_MAX];
	unsigned long n = 0;
	size_t i;

	for (i = 0; i < len && text[i] >= '0' && text[i] <= '9' && i < 12; i++)
		n = n * 10 + (unsigned long)(text[i] - '0');
	return i > 0 && make_line(n, want) == len && memcmp(want, text, len) == 0;
}

/* A reader's check of the lines 0, 1, 2... as they arrive, in pieces. */
struct expect {
	unsigned long line;	/* the next line to start */
	size_t at, len;		/* in text, the line being read */
	char text[LINE_MAX];
	unsigned long wrong;	/* bytes that were not the expected ones */
};

static void expect_bytes(struct expect *e, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (e->at == e->len) {
			e->len = make_line(e->line++, e->text);
			e->at = 0;
		}
		e->wrong += buf[i] != e->text[e->at++];
	}
}

/* ---- A file of its own, outside any filesystem ---- */

struct test_file {
	struct inode inode;
	struct file file;
};

/* Open t as vfs_open would a file of fops made with data. */
static int open_test_file(struct test_file *t, const struct file_operations *fops, void *data)
{
	*t = (struct test_file){
		.inode = { .name = "seq-test", .type = INODE_FILE, .refs = 1, .fops = fops,
			   .i_private = data },
	};
	t->file = (struct file){ .inode = &t->inode, .flags = O_RDONLY };
	return fops->open(&t->inode, &t->file);
}

static void close_test_file(struct test_file *t)
{
	t->inode.fops->release(&t->inode, &t->file);
}

/* Read the file to its end, chunk bytes per vfs_read (chunk <=
 * sizeof(buf)), checking every byte. Returns the bytes read. */
static size_t read_checked(struct test_file *t, size_t chunk, struct expect *e)
{
	static char buf[65536];
	size_t total = 0;
	ssize_t n;

	while ((n = vfs_read(&t->file, buf, chunk, &t->file.pos)) > 0) {
		expect_bytes(e, buf, (size_t)n);
		total += (size_t)n;
	}
	EXPECT_EQ(n, 0);
	return total;
}

/* ---- A file of numbered lines: i_private is how many ---- */

static void *numbers_start(struct seq_file *m, loff_t *pos)
{
	return *pos < (loff_t)(uintptr_t)m->private ? (void *)(uintptr_t)(*pos + 1) : NULL;
}

static void *numbers_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return numbers_start(m, pos);
}

static void numbers_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static int numbers_show(struct seq_file *m, void *v)
{
	char text[LINE_MAX];

	seq_write(m, text, make_line((uintptr_t)v - 1, text));
	return 0;
}

static const struct seq_operations numbers_sops = {
	.start = numbers_start, .next = numbers_next, .stop = numbers_stop,
	.show = numbers_show,
};

DEFINE_SEQ_ATTRIBUTE(numbers);

#define MANY_LINES 10000

/* 10,000 lines, read whole through buffers of 1 byte to 64 KiB. */
static void test_every_line_through_any_buffer(void)
{
	static const size_t chunks[] = { 1, 7, 100, 4096, 65536 };

	for (size_t i = 0; i < ARRAY_SIZE(chunks); i++) {
		struct expect e = { 0 };
		struct test_file t;

		EXPECT_EQ(open_test_file(&t, &numbers_fops, (void *)MANY_LINES), 0);
		read_checked(&t, chunks[i], &e);
		close_test_file(&t);
		EXPECT_EQ(e.wrong, 0);
		EXPECT_EQ(e.line, MANY_LINES);
		EXPECT_EQ(e.at, e.len);
	}
}

/* The same file in debugfs, through the VFS by its path: its size is 0,
 * and vfs_read_all (as cat) reads all 10,000 lines to its end. */
static void test_read_to_the_end_by_path(void)
{
	struct dentry *file = debugfs_create_file("seq-file-selftest", 0444, NULL,
						  (void *)MANY_LINES, &numbers_fops);
	struct expect e = { 0 };
	struct kstat st;
	size_t size = 0;
	void *all = NULL;

	EXPECT(!IS_ERR(file));
	EXPECT_EQ(vfs_stat("/sys/kernel/debug/seq-file-selftest", &st), 0);
	EXPECT_EQ(st.size, 0);
	EXPECT_EQ(vfs_read_all("/sys/kernel/debug/seq-file-selftest", &all, &size), 0);
	expect_bytes(&e, all, size);
	EXPECT_EQ(e.wrong, 0);
	EXPECT_EQ(e.line, MANY_LINES);
	EXPECT_EQ(e.at, e.len);
	kfree(all);
	debugfs_remove(file);
}

/* Reads at positions of the caller's, not the file's: the file makes
 * its records again up to there, and the file's own position still
 * reads on from where it was. seq_lseek moves it; SEEK_END has no end
 * to count from. */
static void test_positions(void)
{
	static char text[1016 + LINE_MAX];
	const char *want = text + 1000;	/* bytes 1000 to 1015 of the file */
	char buf[16];
	struct test_file t;
	loff_t at;

	for (size_t len = 0, n = 0; len < 1016; n++)
		len += make_line(n, text + len);
	EXPECT_EQ(open_test_file(&t, &numbers_fops, (void *)MANY_LINES), 0);
	EXPECT_EQ(vfs_read(&t.file, buf, 10, &t.file.pos), 10);
	at = 1000;
	EXPECT_EQ(vfs_read(&t.file, buf, sizeof(buf), &at), (ssize_t)sizeof(buf));
	EXPECT(memcmp(buf, want, sizeof(buf)) == 0);
	EXPECT_EQ(at, 1016);

	EXPECT_EQ(vfs_llseek(&t.file, 1000, SEEK_SET), 1000);
	EXPECT_EQ(vfs_read(&t.file, buf, sizeof(buf), &t.file.pos), (ssize_t)sizeof(buf));
	EXPECT(memcmp(buf, want, sizeof(buf)) == 0);
	EXPECT_EQ(vfs_llseek(&t.file, -16, SEEK_CUR), 1000);
	EXPECT_EQ(vfs_read(&t.file, buf, 1, &t.file.pos), 1);
	EXPECT_EQ(buf[0], want[0]);
	EXPECT_EQ(vfs_llseek(&t.file, 0, SEEK_END), -EINVAL);
	EXPECT_EQ(vfs_llseek(&t.file, -1, SEEK_SET), -EINVAL);

	at = 100000000;
	EXPECT_EQ(vfs_read(&t.file, buf, sizeof(buf), &at), 0);
	close_test_file(&t);
}

/* ---- One record larger than the buffer ---- */

#define BIG_RECORD 20000

static int big_show(struct seq_file *m, void *v)
{
	char text[LINE_MAX];

	(void)v;
	for (unsigned long n = 0, made = 0; made < BIG_RECORD; n++) {
		size_t len = make_line(n, text);

		seq_write(m, text, len);
		made += len;
	}
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(big);

/* A single_open file of one 20,000-byte record, through 5-byte reads:
 * the buffer grows from 4 KiB until the record fits. */
static void test_record_larger_than_buffer(void)
{
	struct expect e = { 0 };
	struct test_file t;
	size_t n;

	EXPECT_EQ(open_test_file(&t, &big_fops, NULL), 0);
	n = read_checked(&t, 5, &e);
	EXPECT(n >= BIG_RECORD);
	EXPECT_EQ(e.wrong, 0);
	EXPECT_EQ(e.at, e.len);
	EXPECT(((struct seq_file *)t.file.private_data)->size > BIG_RECORD);
	close_test_file(&t);
}

/* ---- Records skipped, and records that fail ---- */

#define FAILING_LINE 5

/* Odd lines are skipped; line FAILING_LINE fails. */
static int picky_show(struct seq_file *m, void *v)
{
	unsigned long n = (uintptr_t)v - 1;

	if (n == FAILING_LINE)
		return -EIO;
	numbers_show(m, v);
	return n % 2 ? SEQ_SKIP : 0;
}

static const struct seq_operations picky_sops = {
	.start = numbers_start, .next = numbers_next, .stop = numbers_stop,
	.show = picky_show,
};

DEFINE_SEQ_ATTRIBUTE(picky);

/* The lines before the failing one are read, skipped ones left out;
 * the next read returns the error. */
static void test_skip_and_error(void)
{
	char buf[256], want[256];
	size_t len = 0;
	struct test_file t;

	for (unsigned long n = 0; n < FAILING_LINE; n += 2)
		len += make_line(n, want + len);
	EXPECT_EQ(open_test_file(&t, &picky_fops, (void *)MANY_LINES), 0);
	EXPECT_EQ(vfs_read(&t.file, buf, sizeof(buf), &t.file.pos), (ssize_t)len);
	EXPECT(memcmp(buf, want, len) == 0);
	EXPECT_EQ(vfs_read(&t.file, buf, sizeof(buf), &t.file.pos), -EIO);
	close_test_file(&t);
}

/* ---- Records that change between reads, on other CPUs ---- */

/* A ring of numbered records under a mutex, which a writer on another
 * CPU keeps changing while a reader reads it in pieces of 1 to 13
 * bytes: every line the reader puts together must be whole. */
#define RING_RECORDS 100
#define READ_PASSES 60

static unsigned long ring[RING_RECORDS];	/* the oldest at ring[ring_first] */
static unsigned int ring_first;
static struct mutex ring_lock = MUTEX_INIT(ring_lock, "seq_file selftest");
static int writer_started, writer_stop, writer_done;
static unsigned long writer_changes;

/* The record at pos, oldest first, or NULL past the last (ring_lock). */
static unsigned long *record_at(loff_t pos)
{
	return pos < RING_RECORDS ? &ring[(ring_first + pos) % RING_RECORDS] : NULL;
}

static void *ring_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	mutex_lock(&ring_lock);
	return record_at(*pos);
}

static void *ring_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	(void)v;
	return record_at(++*pos);
}

static void ring_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	mutex_unlock(&ring_lock);
}

static int ring_show(struct seq_file *m, void *v)
{
	char text[LINE_MAX];

	seq_write(m, text, make_line(*(unsigned long *)v, text));
	return 0;
}

static const struct seq_operations ring_sops = {
	.start = ring_start, .next = ring_next, .stop = ring_stop, .show = ring_show,
};

DEFINE_SEQ_ATTRIBUTE(ring);

/* Drop the oldest record and add a new one at the end, over and over:
 * every record's index moves between two reads. */
static void ring_writer(void *arg)
{
	unsigned long next = RING_RECORDS;

	(void)arg;
	__atomic_store_n(&writer_started, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&writer_stop, __ATOMIC_ACQUIRE)) {
		mutex_lock(&ring_lock);
		ring[ring_first] = next++;
		ring_first = (ring_first + 1) % RING_RECORDS;
		mutex_unlock(&ring_lock);
		writer_changes++;
		thread_yield();
	}
	__atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
}

/* One pass over the file in small pieces; returns the lines read, and
 * counts those that were not whole in *torn. */
static unsigned long read_pieces(unsigned long *torn)
{
	static char line[LINE_MAX + 1];
	unsigned long lines = 0;
	size_t len = 0, chunk = 1;
	struct test_file t;
	char buf[13];
	ssize_t n;

	if (open_test_file(&t, &ring_fops, NULL) != 0)
		return 0;
	while ((n = vfs_read(&t.file, buf, chunk, &t.file.pos)) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (len < LINE_MAX)
				line[len++] = buf[i];
			if (buf[i] != '\n')
				continue;
			*torn += !whole_line(line, len);
			lines++;
			len = 0;
		}
		chunk = chunk % sizeof(buf) + 1;
		thread_yield();		/* to the writer, if it shares this CPU */
	}
	close_test_file(&t);
	*torn += len != 0;	/* a piece of a line at the end */
	return lines;
}

/* A CPU running threads other than this one, or this one when it is
 * alone. */
static unsigned int other_cpu(void)
{
	unsigned long cpus = smp_cpus_running();
	unsigned int self, cpu;

	preempt_disable();
	self = this_cpu()->id;
	preempt_enable();
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (cpu != self && (cpus & (1UL << cpu)))
			return cpu;
	return self;
}

static void test_lines_whole_while_records_change(void)
{
	unsigned long lines = 0, torn = 0;
	bool started;

	for (unsigned long n = 0; n < RING_RECORDS; n++)
		ring[n] = n;
	ring_first = 0;
	writer_started = writer_stop = writer_done = 0;
	writer_changes = 0;
	started = thread_create_on(other_cpu(), "st-seq-writer", ring_writer, NULL) >= 0;
	EXPECT(started);
	/* Read only once the records are changing: the writer's CPU may be
	 * busy with another thread for a while. */
	for (int i = 0; started && i < 2 * TIMER_HZ &&
			!__atomic_load_n(&writer_started, __ATOMIC_ACQUIRE); i++)
		thread_sleep(1);
	EXPECT(writer_started);
	for (int pass = 0; pass < READ_PASSES; pass++)
		lines += read_pieces(&torn);
	__atomic_store_n(&writer_stop, 1, __ATOMIC_RELEASE);
	while (started && !__atomic_load_n(&writer_done, __ATOMIC_ACQUIRE))
		thread_sleep(1);
	cmd_printf("    # %lu lines read in pieces during %lu changes of the records, %lu torn\n",
		   lines, writer_changes, torn);
	EXPECT(lines >= READ_PASSES * (RING_RECORDS - 1));
	EXPECT(writer_changes > 0);
	EXPECT_EQ(torn, 0);
}

/* ---- Nothing kept after release ---- */

static void open_read_release(void)
{
	struct expect e = { 0 };
	struct test_file t;

	if (open_test_file(&t, &big_fops, NULL) == 0) {
		read_checked(&t, 4096, &e);
		close_test_file(&t);
	}
	if (open_test_file(&t, &numbers_fops, (void *)MANY_LINES) == 0) {
		e = (struct expect){ 0 };
		read_checked(&t, 4096, &e);
		close_test_file(&t);
	}
}

static void test_release_frees_all(void)
{
	EXPECT(selftest_heap_balanced(open_read_release));
}

static const struct selftest_case seq_file_cases[] = {
	SELFTEST_CASE(test_every_line_through_any_buffer),
	SELFTEST_CASE(test_read_to_the_end_by_path),
	SELFTEST_CASE(test_positions),
	SELFTEST_CASE(test_record_larger_than_buffer),
	SELFTEST_CASE(test_skip_and_error),
	SELFTEST_CASE(test_lines_whole_while_records_change),
	SELFTEST_CASE(test_release_frees_all),
};
SELFTEST_SUITE("seq_file", seq_file_cases);
