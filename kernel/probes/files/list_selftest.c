/*
 * Selftest of /sys/kernel/debug/kprobes/list (list.c): 10,000 probes
 * list completely, each line whole, while another CPU registers and
 * removes a probe over and over.
 *
 * The file is read by its path, as `cat` reads it, in pieces of 1 to
 * 97 bytes, so that lines are split across reads and across the batches
 * list.c fetches. The churning probe is registered after the 10,000, at
 * the end of the registration order, so it never shifts their places:
 * every one of them must be listed exactly once by each of the reads. A line is whole if it
 * is exactly the line of one of the two kinds of probe.
 */
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "kernel/cmd_output.h"
#include "kernel/probes/files/probe_line.h"
#include "kernel/probes/kprobes.h"
#include "kernel/probes/probe_report.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "lib/format.h"
#include "lib/string.h"

#define MANY 10000
#define READ_PASSES 3
#define LIST "/sys/kernel/debug/kprobes/list"

__noinline int listed_target(int x)
{
	return x + 1;
}

__noinline int churned_target(int x)
{
	return x * 2;
}

static int churn_stop, churn_done;
static unsigned long churns;

/* Register and remove a probe on churned_target until told to stop. */
static void churn(void *arg)
{
	struct kprobe kp;

	(void)arg;
	while (!__atomic_load_n(&churn_stop, __ATOMIC_ACQUIRE)) {
		kp = (struct kprobe){ .addr = (uint8_t *)churned_target };
		if (register_kprobe(&kp) == 0) {
			thread_sleep(1);	/* listed for a while */
			unregister_kprobe(&kp);
			churns++;
		}
	}
	__atomic_store_n(&churn_done, 1, __ATOMIC_RELEASE);
}

/* The list's line of a probe at fn, as a report of one registered
 * there says (the place an architecture probes a function at may not be
 * its first byte); empty if it cannot be registered. */
static void expected_line(void *fn, char *buf, size_t size)
{
	struct kprobe kp = { .addr = (uint8_t *)fn };
	struct kprobe_info info;

	buf[0] = '\0';
	if (register_kprobe(&kp) < 0)
		return;
	if (kprobe_get_info(&kp, &info) == 0)
		probe_format_list_line(&info, buf, size);
	unregister_kprobe(&kp);
}

struct tally {
	unsigned long ours, churned, torn;
	char ours_line[PROBE_LIST_LINE_MAX], churned_line[PROBE_LIST_LINE_MAX];
};

static void count_line(struct tally *t, const char *line)
{
	if (strcmp(line, t->ours_line) == 0)
		t->ours++;
	else if (strcmp(line, t->churned_line) == 0)
		t->churned++;
	else
		t->torn++;
}

/* Read the list in pieces, counting its lines by kind. */
static void read_list(struct tally *t)
{
	static char line[PROBE_LIST_LINE_MAX];
	size_t len = 0, chunk = 1;
	struct file *file;
	char buf[97];
	ssize_t n;

	if (vfs_open(LIST, O_RDONLY, &file) < 0) {
		EXPECT(!"the list opens");
		return;
	}
	while ((n = vfs_read(file, buf, chunk, &file->pos)) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (len < sizeof(line) - 1)
				line[len++] = buf[i];
			if (buf[i] != '\n')
				continue;
			line[len] = '\0';
			count_line(t, line);
			len = 0;
		}
		chunk = chunk % sizeof(buf) + 1;
	}
	vfs_close(file);
	EXPECT_EQ(n, 0);
	EXPECT_EQ(len, 0);	/* no piece of a line at the end */
}

static void test_many_probes_listed_whole(void)
{
	struct kprobe *kps = kzalloc(MANY * sizeof(*kps));
	struct kprobe **all = kmalloc(MANY * sizeof(*all));
	static struct tally t;
	bool optimizing = kprobes_optimization_enabled();
	unsigned int cpu = 0;
	bool started;
	int registered = 0;

	EXPECT(kps && all);
	if (!kps || !all)
		goto out;
	/* The optimizer would add [OPTIMIZED] to the lines at a moment of
	 * its choosing; off, a probe's line stays the same throughout. */
	kprobes_set_optimization(false);
	for (; registered < MANY; registered++) {
		all[registered] = &kps[registered];
		kps[registered].addr = (uint8_t *)listed_target;
		if (register_kprobe(&kps[registered]) < 0)
			break;
	}
	EXPECT_EQ(registered, MANY);
	t = (struct tally){ 0 };
	expected_line(listed_target, t.ours_line, sizeof(t.ours_line));
	expected_line(churned_target, t.churned_line, sizeof(t.churned_line));
	churn_stop = churn_done = 0;
	churns = 0;
	for (unsigned int c = 0; c < MAX_CPUS; c++)
		if (smp_cpus_running() & (1UL << c))
			cpu = c;	/* the last CPU: often not this one */
	started = thread_create_on(cpu, "st-list-churn", churn, NULL) >= 0;
	EXPECT(started);
	for (int pass = 0; pass < READ_PASSES; pass++)
		read_list(&t);
	__atomic_store_n(&churn_stop, 1, __ATOMIC_RELEASE);
	while (started && !__atomic_load_n(&churn_done, __ATOMIC_ACQUIRE))
		thread_sleep(1);
	cmd_printf("    # %lu probes listed, %lu lines of the churning probe during %lu"
		   " churns, %lu torn\n", t.ours, t.churned, churns, t.torn);
	EXPECT_EQ(t.ours, READ_PASSES * MANY);
	EXPECT_EQ(t.torn, 0);
	unregister_kprobes(all, registered);	/* one grace period for all */
	kprobes_set_optimization(optimizing);
out:
	kfree(all);
	kfree(kps);
}

static const struct selftest_case kprobes_list_cases[] = {
	SELFTEST_CASE(test_many_probes_listed_whole),
};
SELFTEST_SUITE("kprobes-list", kprobes_list_cases);
