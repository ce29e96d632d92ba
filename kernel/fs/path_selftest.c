/* Self tests of path resolution (vfs.c, mount.c, d_path.c, cwd.c):
 * "." and "..", across mount points too, the names vfs_path_name gives,
 * relative paths from the working directory, and what happens to a
 * working directory that is removed or unmounted, or inherited by a new
 * thread.
 *
 * `selftest` runs in the shell's thread, so every case that changes
 * the working directory puts the shell's back (save_cwd, restore_cwd).
 * The cases that remove things work in a directory of debugfs of their
 * own (TEST_DIR), since ramfs keeps every directory it makes. */

#include "kernel/fs/cwd.h"
#include "kernel/fs/debugfs.h"
#include "kernel/fs/mount.h"
#include "kernel/fs/vfs.h"
#include "kernel/arch.h"
#include "kernel/mm/heap.h"
#include "kernel/sched.h"
#include "kernel/selftest.h"
#include "lib/errno.h"
#include "lib/string.h"

#define DEBUGFS_DIR "/sys/kernel/debug"
#define TEST_NAME "path-selftest"
#define TEST_DIR DEBUGFS_DIR "/" TEST_NAME
#define TEST_FILE "path-selftest.txt"

static struct path saved_cwd;

static void save_cwd(void)
{
	cwd_get(&saved_cwd);
}

static void restore_cwd(void)
{
	EXPECT(cwd_set(&saved_cwd) == 0);
	path_put(&saved_cwd);
}

/* Do the two names lead to the same place: the same inode, reached
 * through the same mount? */
static bool same_place(const char *name, const char *other)
{
	struct path a, b;
	bool same;

	if (kern_path(name, &a) != 0)
		return false;
	if (kern_path(other, &b) != 0) {
		path_put(&a);
		return false;
	}
	same = a.mnt == b.mnt && a.inode == b.inode;
	path_put(&a);
	path_put(&b);
	return same;
}

/* Each pair of names, which must lead to the same place. */
struct same {
	const char *name, *other;
};

static void expect_same_places(const struct same *pairs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!same_place(pairs[i].name, pairs[i].other))
			selftest_fail(__FILE__, __LINE__, "expected %s to lead to %s",
				      pairs[i].name, pairs[i].other);
	}
}

/* What vfs_path_name says of the place name leads to, into buf. */
static int name_of(const char *name, char *buf, size_t size)
{
	struct path where;
	int ret = kern_path(name, &where);

	if (ret)
		return ret;
	ret = vfs_path_name(&where, buf, size);
	path_put(&where);
	return ret;
}

static void test_dot_and_dot_dot(void)
{
	static const struct same pairs[] = {
		{ "/etc/../etc/motd", "/etc/motd" }, { "/./etc/./motd", "/etc/motd" },
		{ "/home/student/projects/../..", "/home" }, { "/..", "/" },
		{ "/../../etc/..", "/" },
	};
	struct kstat st;

	expect_same_places(pairs, ARRAY_SIZE(pairs));
	EXPECT_EQ(vfs_stat("/etc/..", &st), 0);
	EXPECT(st.type == INODE_DIR);
	/* Each name is walked, as in Linux: a file or a missing name on the
	 * way is an error even if a ".." would leave it again. */
	EXPECT_EQ(vfs_stat("/etc/motd/..", &st), -ENOTDIR);
	EXPECT_EQ(vfs_stat("/etc/motd/.", &st), -ENOTDIR);
	EXPECT_EQ(vfs_stat("/nope/..", &st), -ENOENT);
}

/* Not "/sys/kernel/debug/tracing/.." and "/sys/kernel/debug": the
 * Kprobes guide's `mount -t debugfs none /sys/kernel/debug` (the boot
 * tests type it) stacks a second debugfs there, and ".." from tracefs
 * climbs into the first, where tracefs was mounted (docs/vfs.md, Mounts):
 * the same directory, the same name (test_path_names), another mount. */
static void test_dot_dot_across_mounts(void)
{
	static const struct same pairs[] = {
		{ "/sys/kernel/debug/..", "/sys/kernel" },
		{ "/sys/kernel/tracing/..", "/sys/kernel" },
		{ "/sys/kernel/debug/tracing/../..", "/sys/kernel" },
		{ "/proc/..", "/" }, { "/sys/../proc/..", "/" },
		{ "/sys/kernel/debug/tracing/../tracing", "/sys/kernel/debug/tracing" },
	};

	expect_same_places(pairs, ARRAY_SIZE(pairs));
	/* tracefs's one tree is mounted twice: the same inode through two
	 * mounts, and ".." knows which way the walk came in. */
	EXPECT(!same_place("/sys/kernel/tracing", "/sys/kernel/debug/tracing"));
}

static void test_path_names(void)
{
	static char buf[VFS_PATH_MAX];

	EXPECT_EQ(name_of("/", buf, sizeof(buf)), 1);
	EXPECT_STREQ(buf, "/");
	EXPECT_EQ(name_of("//etc//", buf, sizeof(buf)), 4);
	EXPECT_STREQ(buf, "/etc");
	EXPECT_EQ(name_of("/sys/kernel/tracing", buf, sizeof(buf)), 19);
	EXPECT_STREQ(buf, "/sys/kernel/tracing");
	EXPECT_EQ(name_of("/sys/kernel/debug/tracing", buf, sizeof(buf)), 25);
	EXPECT_STREQ(buf, "/sys/kernel/debug/tracing");
	EXPECT_EQ(name_of("/sys/kernel/debug/tracing/..", buf, sizeof(buf)), 17);
	EXPECT_STREQ(buf, "/sys/kernel/debug");
	/* The terminating NUL must fit too. */
	EXPECT_EQ(name_of("/etc", buf, 5), 4);
	EXPECT_STREQ(buf, "/etc");
	EXPECT_EQ(name_of("/etc", buf, 4), -ENAMETOOLONG);
	EXPECT_EQ(name_of("/", buf, 2), 1);
	EXPECT_EQ(name_of("/", buf, 1), -ENAMETOOLONG);
}

static void test_relative_paths(void)
{
	static const struct same pairs[] = {
		{ "motd", "/etc/motd" }, { "./motd", "/etc/motd" },
		{ "../etc//motd", "/etc/motd" }, { ".", "/etc" }, { "..", "/" },
		{ "../..", "/" },
	};
	static char buf[64];
	struct file *file;
	struct dirent ent;
	struct kstat st;

	save_cwd();
	EXPECT_EQ(vfs_chdir("/etc"), 0);
	EXPECT_EQ(vfs_getcwd(buf, sizeof(buf)), 4);
	EXPECT_STREQ(buf, "/etc");
	expect_same_places(pairs, ARRAY_SIZE(pairs));
	EXPECT_EQ(vfs_readdir(".", 0, &ent), 1);
	EXPECT_STREQ(ent.name, "hostname");
	EXPECT_EQ(vfs_open("motd", O_RDONLY, &file), 0);
	vfs_close(file);

	/* A failed cd changes nothing. */
	EXPECT_EQ(vfs_chdir("motd"), -ENOTDIR);
	EXPECT_EQ(vfs_chdir("motd/"), -ENOTDIR);
	EXPECT_EQ(vfs_chdir("nope"), -ENOENT);
	EXPECT_EQ(vfs_chdir(""), -ENOENT);
	EXPECT_EQ(vfs_getcwd(buf, sizeof(buf)), 4);

	/* Making and removing names, relative. */
	EXPECT_EQ(vfs_open(TEST_FILE, O_WRONLY | O_CREAT, &file), 0);
	vfs_close(file);
	EXPECT_EQ(vfs_stat("/etc/" TEST_FILE, &st), 0);
	EXPECT_EQ(vfs_unlink("../etc/" TEST_FILE), 0);
	EXPECT_EQ(vfs_stat("/etc/" TEST_FILE, &st), -ENOENT);
	EXPECT_EQ(vfs_mkdir("motd"), -EEXIST);
	EXPECT_EQ(vfs_mkdir("motd/"), -EEXIST);
	EXPECT_EQ(vfs_mkdir("."), -EEXIST);
	EXPECT_EQ(vfs_mkdir(".."), -EEXIST);
	EXPECT_EQ(vfs_unlink("."), -EISDIR);
	EXPECT_EQ(vfs_unlink(".."), -EISDIR);
	EXPECT_EQ(vfs_open(".", O_RDWR | O_CREAT, &file), -EISDIR);

	/* cd .. out of a mounted filesystem. */
	EXPECT_EQ(vfs_chdir(DEBUGFS_DIR), 0);
	EXPECT_EQ(vfs_chdir(".."), 0);
	EXPECT_EQ(vfs_getcwd(buf, sizeof(buf)), 11);
	EXPECT_STREQ(buf, "/sys/kernel");
	restore_cwd();
}

/* Does the text of size bytes at text hold line as one of its lines? */
static bool has_line(const char *text, size_t size, const char *line)
{
	size_t len = strlen(line);

	for (size_t at = 0; at + len < size; at++) {
		if ((at == 0 || text[at - 1] == '\n') && memcmp(text + at, line, len) == 0 &&
		    text[at + len] == '\n')
			return true;
	}
	return false;
}

/* Is line one of the lines of /proc/mounts? */
static bool in_mount_table(const char *line)
{
	void *table;
	size_t size;
	bool found;

	if (vfs_read_all("/proc/mounts", &table, &size) != 0)
		return false;
	found = has_line(table, size, line);
	kfree(table);
	return found;
}

/* procfs mounted by a relative path, then unmounted while the working
 * directory is in it: the table shows the absolute path; the mount
 * stays for the working directory, ".." climbs out to where it was,
 * and it is freed when the working directory leaves. */
static void unmounted_cwd(void)
{
	static char buf[64];
	struct dentry *dir = debugfs_create_dir(TEST_NAME, NULL);
	struct kstat st;

	debugfs_create_dir("mnt", dir);
	EXPECT_EQ(vfs_chdir(TEST_DIR), 0);
	EXPECT_EQ(vfs_mount("none", "mnt", "proc"), 0);
	EXPECT(in_mount_table("none " TEST_DIR "/mnt proc rw 0 0"));
	EXPECT_EQ(vfs_chdir("mnt/sys"), 0);
	EXPECT_EQ(vfs_getcwd(buf, sizeof(buf)), (int)strlen(TEST_DIR "/mnt/sys"));
	EXPECT_STREQ(buf, TEST_DIR "/mnt/sys");

	EXPECT_EQ(vfs_umount(".."), 0);
	EXPECT(!in_mount_table("none " TEST_DIR "/mnt proc rw 0 0"));
	EXPECT_EQ(vfs_getcwd(buf, sizeof(buf)), -ENOENT);
	EXPECT_STREQ(buf, TEST_DIR "/mnt/sys");
	EXPECT_EQ(vfs_stat("../version", &st), 0);
	EXPECT_EQ(vfs_umount(".."), -EINVAL);
	EXPECT_EQ(vfs_chdir("../.."), 0);
	EXPECT_EQ(vfs_getcwd(buf, sizeof(buf)), (int)strlen(TEST_DIR));
	EXPECT_STREQ(buf, TEST_DIR);
	EXPECT_EQ(vfs_stat("mnt/version", &st), -ENOENT);

	EXPECT_EQ(vfs_chdir("/"), 0);
	debugfs_remove(dir);
}

static void test_cwd_in_an_unmounted_filesystem(void)
{
	save_cwd();
	EXPECT(selftest_heap_balanced(unmounted_cwd));
	restore_cwd();
}

/* A directory removed under the working directory stays while it is
 * there: empty, nameless, with ".." leading to the (removed) directory
 * it was in, and from there on up. Both go when it leaves. */
static void removed_cwd(void)
{
	static char buf[64];
	struct dentry *dir = debugfs_create_dir(TEST_NAME, NULL);
	struct dirent ent;
	struct kstat st;

	debugfs_create_dir("sub", dir);
	EXPECT_EQ(vfs_chdir(TEST_DIR "/sub"), 0);
	debugfs_remove(dir);
	EXPECT_EQ(vfs_getcwd(buf, sizeof(buf)), -ENOENT);
	EXPECT_STREQ(buf, TEST_DIR "/sub");
	EXPECT_EQ(vfs_stat(".", &st), 0);
	EXPECT(st.type == INODE_DIR);
	EXPECT_EQ(vfs_readdir(".", 0, &ent), 0);
	EXPECT_EQ(vfs_readdir("..", 0, &ent), 0);
	EXPECT_EQ(vfs_stat("../sub", &st), -ENOENT);
	EXPECT_EQ(vfs_chdir("../.."), 0);
	EXPECT_EQ(vfs_getcwd(buf, sizeof(buf)), (int)strlen(DEBUGFS_DIR));
	EXPECT_STREQ(buf, DEBUGFS_DIR);
}

static void test_cwd_in_a_removed_directory(void)
{
	save_cwd();
	EXPECT(selftest_heap_balanced(removed_cwd));
	restore_cwd();
}

static volatile int child_done;
static char child_cwd[64];
static int child_stat;

/* Report where it starts, then move: its maker must not move with it. */
static void child(void *unused)
{
	struct kstat st;

	(void)unused;
	vfs_getcwd(child_cwd, sizeof(child_cwd));
	child_stat = vfs_stat("motd", &st);
	vfs_chdir("/");
	__atomic_store_n(&child_done, 1, __ATOMIC_RELEASE);
}

static void test_threads_inherit_the_cwd(void)
{
	static char buf[64];
	uint64_t end = sched_ticks() + 10 * TIMER_HZ;

	save_cwd();
	EXPECT_EQ(vfs_chdir("/etc"), 0);
	child_done = 0;
	child_cwd[0] = '\0';
	EXPECT(thread_create("st-cwd", child, NULL) >= 0);
	while (!__atomic_load_n(&child_done, __ATOMIC_ACQUIRE) && sched_ticks() < end)
		thread_sleep(1);
	EXPECT(child_done);
	EXPECT_STREQ(child_cwd, "/etc");
	EXPECT_EQ(child_stat, 0);
	EXPECT_EQ(vfs_getcwd(buf, sizeof(buf)), 4);
	EXPECT_STREQ(buf, "/etc");
	restore_cwd();
}

static const struct selftest_case path_cases[] = {
	SELFTEST_CASE(test_dot_and_dot_dot),
	SELFTEST_CASE(test_dot_dot_across_mounts),
	SELFTEST_CASE(test_path_names),
	SELFTEST_CASE(test_relative_paths),
	SELFTEST_CASE(test_cwd_in_an_unmounted_filesystem),
	SELFTEST_CASE(test_cwd_in_a_removed_directory),
	SELFTEST_CASE(test_threads_inherit_the_cwd),
};
SELFTEST_SUITE("paths", path_cases);
