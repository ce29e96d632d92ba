/* Self tests of the pseudo filesystems and mounts (pseudofs.c,
 * mount.c, debugfs.c, procfs.c), through the paths they are mounted at
 * and the VFS calls, as a reader would use them. Each test works in a
 * directory of debugfs of its own (TEST_DIR) and removes it. A module's
 * files are tested from above, in kernel/module/module_files_selftest.c. */

#include "kernel/fs/debugfs.h"
#include "kernel/fs/mount.h"
#include "kernel/fs/procfs.h"
#include "kernel/mm/heap.h"
#include "kernel/cmd_output.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "kernel/smp.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/boot.h>

#define TEST_NAME "pseudofs-selftest"
#define TEST_DIR "/sys/kernel/debug/" TEST_NAME

/* ---- A file that keeps what is written to it ---- */

struct kept {
	char text[32];
	size_t len;
	int open_flags;		/* as the last open saw them */
	int opens, releases;
};

static int kept_show(struct seq_file *m, void *v)
{
	struct kept *k = m->private;

	(void)v;
	seq_write(m, k->text, k->len);
	return 0;
}

static int kept_open(struct inode *inode, struct file *file)
{
	struct kept *k = inode->i_private;

	k->open_flags = file->flags;
	k->opens++;
	return single_open(file, kept_show, k);
}

static int kept_release(struct inode *inode, struct file *file)
{
	((struct kept *)inode->i_private)->releases++;
	return single_release(inode, file);
}

/* One write is the new text, whole, as a handler of Linux's gets it. */
static ssize_t kept_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct kept *k = file->inode->i_private;

	(void)pos;
	if (count > sizeof(k->text))
		return -EINVAL;
	memcpy(k->text, buf, count);
	k->len = count;
	return (ssize_t)count;
}

static const struct file_operations kept_fops = {
	.open = kept_open, .read = seq_read, .write = kept_write, .llseek = seq_lseek,
	.release = kept_release,
};

/* Whether text holds part. */
static bool contains(const char *text, const char *part)
{
	size_t len = strlen(part);

	for (; *text; text++)
		if (strncmp(text, part, len) == 0)
			return true;
	return false;
}

/* Written, read back, with the flags reaching the file's open; a
 * generated file's size is 0 and it reads to its end all the same. */
static void test_file_written_and_read(void)
{
	static struct kept k;
	struct dentry *dir = debugfs_create_dir(TEST_NAME, NULL);
	char buf[64];
	struct kstat st;

	k = (struct kept){ .text = "start\n", .len = 6 };
	EXPECT(!IS_ERR(debugfs_create_file("kept", 0644, dir, &k, &kept_fops)));
	EXPECT_EQ(vfs_stat(TEST_DIR "/kept", &st), 0);
	EXPECT(st.type == INODE_FILE && st.size == 0);
	EXPECT_EQ(vfs_read_text(TEST_DIR "/kept", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "start\n");

	/* What the shell's `echo 0 > FILE` opens with. */
	EXPECT_EQ(vfs_write_text(TEST_DIR "/kept", O_CREAT | O_TRUNC, "0\n"), 0);
	EXPECT_EQ(k.open_flags, O_WRONLY | O_CREAT | O_TRUNC);
	EXPECT_EQ(vfs_read_text(TEST_DIR "/kept", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "0\n");
	EXPECT_EQ(k.opens, k.releases);

	/* No new names, no removal by path, no directories made in it. */
	EXPECT_EQ(vfs_write_text(TEST_DIR "/new", O_CREAT, "x"), -EACCES);
	EXPECT_EQ(vfs_unlink(TEST_DIR "/kept"), -EPERM);
	EXPECT_EQ(vfs_mkdir(TEST_DIR "/sub"), -EPERM);

	debugfs_remove(dir);
	EXPECT_EQ(vfs_stat(TEST_DIR, &st), -ENOENT);
	EXPECT_EQ(k.opens, k.releases);
}

/* The calls refuse what Linux's refuse, with an ERR_PTR. */
static void test_create_errors(void)
{
	static char long_name[VFS_NAME_MAX + 2];
	struct dentry *dir = debugfs_create_dir(TEST_NAME, NULL);
	struct dentry *file = debugfs_create_file("f", 0444, dir, NULL, &kept_fops);

	EXPECT_EQ(PTR_ERR(debugfs_create_dir(TEST_NAME, NULL)), -EEXIST);
	EXPECT_EQ(PTR_ERR(debugfs_create_file("f", 0444, dir, NULL, &kept_fops)), -EEXIST);
	EXPECT_EQ(PTR_ERR(debugfs_create_dir("x", file)), -ENOTDIR);
	EXPECT_EQ(PTR_ERR(debugfs_create_dir("nope/x", dir)), -ENOENT);
	EXPECT_EQ(PTR_ERR(debugfs_create_dir("", dir)), -EINVAL);
	EXPECT_EQ(PTR_ERR(debugfs_create_dir("..", dir)), -EINVAL);
	memset(long_name, 'n', VFS_NAME_MAX + 1);
	EXPECT_EQ(PTR_ERR(debugfs_create_dir(long_name, dir)), -ENAMETOOLONG);
	long_name[VFS_NAME_MAX] = '\0';
	EXPECT(!IS_ERR(debugfs_create_dir(long_name, dir)));
	/* A parent that is an error is passed on; removing one is nothing. */
	EXPECT_EQ(PTR_ERR(debugfs_create_dir("x", ERR_PTR(-ENOMEM))), -ENOMEM);
	debugfs_remove(ERR_PTR(-ENOMEM));
	debugfs_remove(NULL);
	debugfs_remove(dir);
	/* Nothing is made in what is gone. */
	EXPECT_EQ(PTR_ERR(debugfs_create_dir("x", dir)), -ENOENT);
}

/* procfs: a path of directories, a file made and removed by name, and
 * the files every boot has. */
static void test_procfs(void)
{
	static struct kept k = { .text = "proc\n", .len = 5 };
	static const struct proc_ops kept_proc_ops = {
		.proc_open = kept_open, .proc_read = seq_read, .proc_write = kept_write,
		.proc_lseek = seq_lseek, .proc_release = kept_release,
	};
	struct proc_dir_entry *dir = proc_mkdir("sys/" TEST_NAME, NULL);
	char buf[160];

	EXPECT(dir != NULL);
	EXPECT(proc_create_data("value", 0644, dir, &kept_proc_ops, &k) != NULL);
	EXPECT_EQ(vfs_read_text("/proc/sys/" TEST_NAME "/value", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "proc\n");
	EXPECT(proc_create_data("value", 0644, dir, &kept_proc_ops, &k) == NULL);
	proc_remove(dir);
	EXPECT_EQ(vfs_read_text("/proc/sys/" TEST_NAME "/value", buf, sizeof(buf)), -ENOENT);

	EXPECT(proc_create(TEST_NAME, 0444, NULL, &kept_proc_ops) != NULL);
	remove_proc_entry(TEST_NAME, NULL);
	EXPECT_EQ(vfs_read_text("/proc/" TEST_NAME, buf, sizeof(buf)), -ENOENT);

	EXPECT_EQ(vfs_read_text("/proc/version", buf, sizeof(buf)), 0);
	EXPECT(strncmp(buf, "ProbeOS version probeos-", 24) == 0);
	EXPECT(contains(buf, " (gcc version "));
	EXPECT(contains(buf, ") #1 SMP PREEMPT " ARCH_NAME "\n"));
	EXPECT_EQ(vfs_read_text("/proc/mounts", buf, sizeof(buf)), 0);
	EXPECT(strncmp(buf, "rootfs / ramfs rw 0 0\nproc /proc proc rw 0 0\n", 44) == 0);
}

/* ---- Removed while open ---- */

static void remove_while_open(void)
{
	static struct kept k;
	struct dentry *dir = debugfs_create_dir(TEST_NAME, NULL);
	struct file *file = NULL;
	char buf[8];
	loff_t at = 0;

	k = (struct kept){ .text = "open\n", .len = 5 };
	debugfs_create_file("kept", 0444, dir, &k, &kept_fops);
	EXPECT_EQ(vfs_open(TEST_DIR "/kept", O_RDONLY, &file), 0);
	if (!file) {
		debugfs_remove(dir);
		return;
	}
	EXPECT_EQ(vfs_read(file, buf, 2, &at), 2);
	debugfs_remove(dir);
	/* The removal ran the release the open file was due, and only it. */
	EXPECT_EQ(k.releases, 1);
	EXPECT_EQ(vfs_read(file, buf, sizeof(buf), &at), -EIO);
	EXPECT_EQ(vfs_llseek(file, 0, SEEK_SET), -EIO);
	vfs_close(file);
	EXPECT_EQ(k.releases, 1);
	EXPECT_EQ(k.opens, 1);
}

/* Everything the file and the open took is given back. */
static void test_remove_while_open(void)
{
	EXPECT(selftest_heap_balanced(remove_while_open));
}

/* ---- Removed while a call runs ---- */

static int block_entered, block_go, reader_done, remover_done, file_remover_done;
static ssize_t reader_result;
/* What the blocked read removes once it is let go. */
static struct dentry *removed_by_read;

/* A read that waits until the test lets it go, then removes a file of
 * its own: a removal waiting for this read must not stop it. */
static ssize_t blocking_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	__atomic_store_n(&block_entered, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&block_go, __ATOMIC_ACQUIRE))
		thread_sleep(1);
	debugfs_remove(removed_by_read);
	if (*pos || !count)
		return 0;
	buf[0] = 'b';
	*pos = 1;
	return 1;
}

static const struct file_operations blocking_fops = { .read = blocking_read };

static void blocked_reader(void *arg)
{
	struct file *file;
	char c;

	(void)arg;
	reader_result = vfs_open(TEST_DIR "/blocking", O_RDONLY, &file);
	if (reader_result == 0) {
		reader_result = vfs_read(file, &c, 1, &file->pos);
		vfs_close(file);
	}
	__atomic_store_n(&reader_done, 1, __ATOMIC_RELEASE);
}

static void remover(void *dir)
{
	debugfs_remove(dir);
	__atomic_store_n(&remover_done, 1, __ATOMIC_RELEASE);
}

static void file_remover(void *file)
{
	debugfs_remove(file);
	__atomic_store_n(&file_remover_done, 1, __ATOMIC_RELEASE);
}

/* Wait up to two seconds for *flag. */
static bool wait_flag(int *flag)
{
	for (int i = 0; i < 2 * TIMER_HZ && !__atomic_load_n(flag, __ATOMIC_ACQUIRE); i++)
		thread_sleep(1);
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

/* debugfs_remove does not return while a read of the file runs (its
 * creator could free what the read uses), nor does a second removal of
 * the file, made while the first waits; the read itself finishes, and
 * may remove another file meanwhile. */
static void test_remove_waits_for_calls(void)
{
	struct dentry *dir = debugfs_create_dir(TEST_NAME, NULL), *file;
	struct kstat st;

	block_entered = block_go = reader_done = remover_done = file_remover_done = 0;
	removed_by_read = debugfs_create_dir(TEST_NAME "-other", NULL);
	file = debugfs_create_file("blocking", 0444, dir, NULL, &blocking_fops);
	EXPECT(thread_create("st-blocked", blocked_reader, NULL) >= 0);
	EXPECT(wait_flag(&block_entered));
	EXPECT(thread_create("st-remover", remover, dir) >= 0);
	thread_sleep(TIMER_HZ / 5);
	EXPECT(thread_create("st-remover", file_remover, file) >= 0);
	thread_sleep(TIMER_HZ / 5);
	EXPECT(!__atomic_load_n(&remover_done, __ATOMIC_ACQUIRE));
	EXPECT(!__atomic_load_n(&file_remover_done, __ATOMIC_ACQUIRE));
	__atomic_store_n(&block_go, 1, __ATOMIC_RELEASE);
	EXPECT(wait_flag(&remover_done));
	EXPECT(wait_flag(&file_remover_done));
	EXPECT(wait_flag(&reader_done));
	EXPECT_EQ(reader_result, 1);
	EXPECT_EQ(vfs_stat(TEST_DIR "-other", &st), -ENOENT);
}

/* ---- Walked to, opened and read while made and removed ---- */

#define CHURN_ROUNDS 300

struct churner {
	unsigned long opens, reads, gone, wrong;
} __aligned(64);

static struct churner churners[MAX_CPUS];
static int churn_stop, churn_done;

static int churn_show(struct seq_file *m, void *v)
{
	(void)v;
	seq_puts(m, "churn\n");
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(churn);

/* Open, read and close the file over and over: it is there and reads
 * whole, or it is not there, or it went between the open and the read
 * (-EIO); nothing else. */
static void churn_reader(void *arg)
{
	struct churner *c = arg;

	while (!__atomic_load_n(&churn_stop, __ATOMIC_ACQUIRE)) {
		struct file *file;
		char buf[16];
		loff_t at = 0;
		ssize_t n;
		int err = vfs_open(TEST_DIR "/churn", O_RDONLY, &file);

		if (err) {
			c->gone++;
			c->wrong += err != -ENOENT;
		} else {
			c->opens++;
			n = vfs_read(file, buf, sizeof(buf), &at);
			c->reads += n == 6;
			c->wrong += !(n == -EIO || (n == 6 && memcmp(buf, "churn\n", 6) == 0));
			vfs_close(file);
		}
		thread_yield();		/* to the maker, if it shares this CPU */
	}
	__atomic_add_fetch(&churn_done, 1, __ATOMIC_RELEASE);
}

static void test_open_while_made_and_removed(void)
{
	unsigned long cpus = smp_cpus_running(), opens = 0, wrong = 0;
	struct dentry *dir = debugfs_create_dir(TEST_NAME, NULL);
	int started = 0;

	churn_stop = churn_done = 0;
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!(cpus & (1UL << cpu)))
			continue;
		churners[cpu] = (struct churner){ 0 };
		started += thread_create_on(cpu, "st-churn", churn_reader, &churners[cpu]) >= 0;
	}
	for (int round = 0; round < CHURN_ROUNDS; round++) {
		struct dentry *file = debugfs_create_file("churn", 0444, dir, NULL, &churn_fops);

		EXPECT(!IS_ERR(file));
		thread_yield();
		debugfs_remove(file);
		thread_yield();
	}
	__atomic_store_n(&churn_stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2 * TIMER_HZ && __atomic_load_n(&churn_done, __ATOMIC_ACQUIRE) < started;
	     i++)
		thread_sleep(1);
	EXPECT_EQ(churn_done, started);
	debugfs_remove(dir);
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		opens += churners[cpu].opens;
		wrong += churners[cpu].wrong;
	}
	cmd_printf("    # %lu opens on %d CPUs while the file came and went %d times, %lu wrong\n",
		   opens, started, CHURN_ROUNDS, wrong);
	EXPECT(opens > 0);
	EXPECT_EQ(wrong, 0);
}

/* ---- Mounts ---- */

/* procfs mounted on a directory of debugfs shows /proc's files there;
 * sysfs mounted on top hides them until it is unmounted; the table
 * shows each mount while it is there. */
static void test_mounts_crossed_and_stacked(void)
{
	static char mine[160], theirs[160];
	struct dentry *dir = debugfs_create_dir(TEST_NAME, NULL);
	struct kstat st;

	debugfs_create_dir("mnt", dir);
	EXPECT_EQ(vfs_mount("none", TEST_DIR "//mnt/", "proc"), 0);
	EXPECT_EQ(vfs_read_text(TEST_DIR "/mnt/version", mine, sizeof(mine)), 0);
	EXPECT_EQ(vfs_read_text("/proc/version", theirs, sizeof(theirs)), 0);
	EXPECT_STREQ(mine, theirs);

	EXPECT_EQ(vfs_mount("sysfs", TEST_DIR "/mnt", "sysfs"), 0);
	EXPECT_EQ(vfs_stat(TEST_DIR "/mnt/version", &st), -ENOENT);
	EXPECT_EQ(vfs_stat(TEST_DIR "/mnt/module", &st), 0);
	EXPECT_EQ(vfs_umount(TEST_DIR "/mnt"), 0);
	EXPECT_EQ(vfs_stat(TEST_DIR "/mnt/version", &st), 0);
	EXPECT_EQ(vfs_umount(TEST_DIR "/mnt/"), 0);
	EXPECT_EQ(vfs_stat(TEST_DIR "/mnt/version", &st), -ENOENT);

	EXPECT_EQ(vfs_umount(TEST_DIR "/mnt"), -EINVAL);
	EXPECT_EQ(vfs_umount("/"), -EINVAL);
	EXPECT_EQ(vfs_umount("/sys"), -EBUSY);
	EXPECT_EQ(vfs_mount("none", TEST_DIR "/mnt", "nofs"), -ENODEV);
	EXPECT_EQ(vfs_mount("none", "/", "proc"), -EBUSY);
	EXPECT_EQ(vfs_mount("none", "/etc/motd", "proc"), -ENOTDIR);
	EXPECT_EQ(vfs_mount("none", TEST_DIR "/nope", "proc"), -ENOENT);
	debugfs_remove(dir);
}

/* The table shows a mount while it is there, and not after. */
static void test_mount_table(void)
{
	static char table[1024];
	struct dentry *dir = debugfs_create_dir(TEST_NAME, NULL);

	EXPECT_EQ(vfs_mount("my source", TEST_DIR, "tracefs"), 0);
	EXPECT_EQ(vfs_read_text("/proc/mounts", table, sizeof(table)), 0);
	EXPECT(contains(table, "\nmy\\040source " TEST_DIR " tracefs rw 0 0\n"));
	EXPECT_EQ(vfs_umount(TEST_DIR), 0);
	EXPECT_EQ(vfs_read_text("/proc/mounts", table, sizeof(table)), 0);
	EXPECT(!contains(table, TEST_DIR));
	debugfs_remove(dir);
}

static void make_and_remove(void)
{
	static struct kept k;
	struct dentry *dir = debugfs_create_dir(TEST_NAME, NULL);

	for (int i = 0; i < 10; i++)
		debugfs_remove(debugfs_create_file("kept", 0444, dir, &k, &kept_fops));
	debugfs_create_file("kept", 0444, debugfs_create_dir("sub", dir), &k, &kept_fops);
	debugfs_remove(dir);
}

static void test_remove_frees_all(void)
{
	EXPECT(selftest_heap_balanced(make_and_remove));
}

static const struct selftest_case pseudofs_cases[] = {
	SELFTEST_CASE(test_file_written_and_read),
	SELFTEST_CASE(test_create_errors),
	SELFTEST_CASE(test_procfs),
	SELFTEST_CASE(test_remove_while_open),
	SELFTEST_CASE(test_remove_waits_for_calls),
	SELFTEST_CASE(test_open_while_made_and_removed),
	SELFTEST_CASE(test_mounts_crossed_and_stacked),
	SELFTEST_CASE(test_mount_table),
	SELFTEST_CASE(test_remove_frees_all),
};
SELFTEST_SUITE("pseudofs", pseudofs_cases);
