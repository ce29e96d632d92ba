/* Self tests for the VFS and ramfs.
 *
 * Two kinds of test. Those on the mounted root only read (other threads
 * use it at the same time): they check path resolution, open errors and
 * directory listing against files we control in rootfs/. Those that
 * write, or check how a tree is built, use a private tree from
 * ramfs_build() on an archive assembled here, so the system's root is
 * never replaced or changed, and free it again with ramfs_destroy(). */

#include "kernel/mm/heap.h"
#include "kernel/fs/ramfs.h"
#include "kernel/cmd_output.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/selftest.h"
#include "kernel/fs/vfs.h"
#include "lib/cpio.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* ---- A newc archive, assembled by hand ----
 *
 * Each entry is a 110-byte ASCII header ("070701", then 13 fields of 8
 * hex digits: inode, mode, uid, gid, nlink, mtime, file size, four
 * device numbers, name size including the NUL, checksum), the name, NUL
 * padding to a multiple of 4, the data, and padding again. The entry
 * named TRAILER!!! ends the archive. */

struct archive {
	char bytes[2048];
	size_t len;
};

static void ar_put(struct archive *ar, const void *data, size_t len)
{
	if (ar->len + len > sizeof(ar->bytes))
		return;		/* the test fixtures are far smaller */
	memcpy(ar->bytes + ar->len, data, len);
	ar->len += len;
}

static void ar_pad(struct archive *ar)
{
	static const char zeros[4];

	ar_put(ar, zeros, ALIGN_UP(ar->len, 4) - ar->len);
}

static void ar_add(struct archive *ar, const char *name, uint32_t mode,
		   const char *data)
{
	size_t size = data ? strlen(data) : 0;
	char header[111];	/* 110 characters and snprintf's NUL */

	snprintf(header, sizeof(header),
		 "070701%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x",
		 (unsigned)ar->len + 1, (unsigned)mode, 0u, 0u, 1u, 0u,
		 (unsigned)size, 0u, 0u, 0u, 0u,
		 (unsigned)strlen(name) + 1, 0u);
	ar_put(ar, header, 110);
	ar_put(ar, name, strlen(name) + 1);
	ar_pad(ar);
	ar_put(ar, data, size);
	ar_pad(ar);
}

static void ar_finish(struct archive *ar)
{
	ar_add(ar, "TRAILER!!!", 0, NULL);
}

#define DIR_MODE  (CPIO_MODE_DIR | 0755)
#define FILE_MODE (CPIO_MODE_FILE | 0644)
#define LINK_MODE (0120000 | 0777)

#define A_TXT "0123456789abcdef"

/* The fixture, deliberately awkward: names out of order, a file listed
 * before its directory, two directory levels never listed at all, an
 * empty file, and a symlink (which ramfs skips). The tree it gives:
 *
 *   /alpha              (empty)
 *   /docs/a.txt         "0123456789abcdef"
 *   /docs/b.txt         "bravo\n"
 *   /zeta/deep/leaf.txt "leaf\n"
 */
static void make_fixture(struct archive *ar)
{
	ar->len = 0;
	ar_add(ar, ".", DIR_MODE, NULL);
	ar_add(ar, "docs/b.txt", FILE_MODE, "bravo\n");
	ar_add(ar, "zeta/deep/leaf.txt", FILE_MODE, "leaf\n");
	ar_add(ar, "docs", DIR_MODE, NULL);
	ar_add(ar, "docs/a.txt", FILE_MODE, A_TXT);
	ar_add(ar, "link", LINK_MODE, "docs/a.txt");
	ar_add(ar, "alpha", FILE_MODE, NULL);
	ar_finish(ar);
}

/* The archive is static: 2 KiB is too much for a kernel stack. The
 * selftest command runs one case at a time, so sharing it is safe. */
static struct archive fixture;

static struct inode *build_fixture(void)
{
	struct inode *root;
	int err;

	make_fixture(&fixture);
	root = ramfs_build(fixture.bytes, fixture.len, &err);
	EXPECT_EQ(err, 0);
	EXPECT(root != NULL);
	return root;
}

/* Walk a relative path ("docs/a.txt") in a private tree with the inode
 * operations, as the VFS does on the mounted one. The references the
 * lookups take are given back at once: the tree is the test's own and
 * lives until ramfs_destroy, whatever the counts say. */
static struct inode *lookup_path(struct inode *dir, const char *path)
{
	while (dir && *path) {
		size_t len = strchr(path, '/') ? (size_t)(strchr(path, '/') - path)
					       : strlen(path);

		dir = dir->iops && dir->iops->lookup ? dir->iops->lookup(dir, path, len) : NULL;
		if (dir)
			inode_put(dir);
		path += len + (path[len] == '/');
	}
	return dir;
}

/* Name of dir's index-th child, or NULL; a failing test must report,
 * not fault on a NULL pointer. */
static const char *child_name(struct inode *dir, size_t index)
{
	struct inode *child = dir && dir->iops && dir->iops->child ?
			      dir->iops->child(dir, index) : NULL;

	if (child)
		inode_put(child);	/* as in lookup_path */
	return child ? child->name : NULL;
}

static bool is_dir(const struct inode *inode)
{
	return inode && inode->type == INODE_DIR;
}

static bool is_file(const struct inode *inode, size_t size)
{
	return inode && inode->type == INODE_FILE && inode->size == size;
}

static struct file open_on(struct inode *inode, int flags)
{
	struct file file = { .inode = inode, .pos = 0, .flags = flags };

	return file;
}

/* ---- Private tree ---- */

static void test_build_shape(void)
{
	static const char *const top[] = { "alpha", "docs", "zeta" };
	struct inode *root = build_fixture(), *docs;
	size_t i;

	if (!root)
		return;
	EXPECT(is_dir(root));

	/* Sorted, the symlink skipped, implicit directories created. */
	for (i = 0; i < ARRAY_SIZE(top); i++)
		EXPECT_STREQ(child_name(root, i), top[i]);
	EXPECT(child_name(root, ARRAY_SIZE(top)) == NULL);
	EXPECT(lookup_path(root, "link") == NULL);

	docs = lookup_path(root, "docs");
	EXPECT(is_dir(docs));
	EXPECT_STREQ(child_name(docs, 0), "a.txt");
	EXPECT_STREQ(child_name(docs, 1), "b.txt");
	EXPECT(child_name(docs, 2) == NULL);

	EXPECT(is_dir(lookup_path(root, "zeta")));
	EXPECT(is_dir(lookup_path(root, "zeta/deep")));
	EXPECT(is_file(lookup_path(root, "zeta/deep/leaf.txt"), 5));
	EXPECT(is_file(lookup_path(root, "docs/a.txt"), 16));
	EXPECT(is_file(lookup_path(root, "alpha"), 0));
	EXPECT(lookup_path(root, "docs/c.txt") == NULL);
	EXPECT(lookup_path(root, "docs/a.txt/x") == NULL);

	ramfs_destroy(root);
}

static void test_read_positions(void)
{
	struct inode *root = build_fixture(), *a;
	struct file f;
	char buf[32];
	loff_t at;

	if (!root)
		return;
	a = lookup_path(root, "docs/a.txt");
	EXPECT(a != NULL);
	if (!a)
		goto out;
	f = open_on(a, O_RDONLY);

	/* A partial read, then the rest, then end of file. */
	EXPECT_EQ(vfs_read(&f, buf, 4, &f.pos), 4);
	EXPECT(memcmp(buf, "0123", 4) == 0);
	EXPECT_EQ(f.pos, 4);
	EXPECT_EQ(vfs_read(&f, buf, sizeof(buf), &f.pos), 12);
	EXPECT(memcmp(buf, "456789abcdef", 12) == 0);
	EXPECT_EQ(f.pos, 16);
	EXPECT_EQ(vfs_read(&f, buf, sizeof(buf), &f.pos), 0);
	EXPECT_EQ(f.pos, 16);

	/* Reading at an offset of our own leaves f.pos alone. */
	at = 10;
	EXPECT_EQ(vfs_read(&f, buf, 3, &at), 3);
	EXPECT(memcmp(buf, "abc", 3) == 0);
	EXPECT_EQ(at, 13);
	EXPECT_EQ(f.pos, 16);

	/* Past the end is end of file, not an error; zero bytes is zero. */
	at = 100;
	EXPECT_EQ(vfs_read(&f, buf, sizeof(buf), &at), 0);
	EXPECT_EQ(at, 100);
	at = 0;
	EXPECT_EQ(vfs_read(&f, buf, 0, &at), 0);
	EXPECT_EQ(at, 0);
out:
	ramfs_destroy(root);
}

static void test_write_extends(void)
{
	static const char zeros[6];
	struct inode *root = build_fixture(), *a, *alpha;
	char big[300], buf[320];
	struct file f;
	loff_t at;
	size_t i;

	if (!root)
		return;
	a = lookup_path(root, "docs/a.txt");
	alpha = lookup_path(root, "alpha");
	EXPECT(a && alpha);
	if (!a || !alpha)
		goto out;
	f = open_on(a, O_RDWR);

	/* Append at the end: the file grows. */
	f.pos = 16;
	EXPECT_EQ(vfs_write(&f, "XYZ", 3, &f.pos), 3);
	EXPECT_EQ(f.pos, 19);
	EXPECT_EQ(a->size, 19);

	/* Overwrite inside: the size stays. */
	at = 0;
	EXPECT_EQ(vfs_write(&f, "AB", 2, &at), 2);
	EXPECT_EQ(a->size, 19);
	at = 0;
	EXPECT_EQ(vfs_read(&f, buf, sizeof(buf), &at), 19);
	EXPECT(memcmp(buf, "AB23456789abcdefXYZ", 19) == 0);

	/* Past the end: the gap reads back as zeros. */
	at = 25;
	EXPECT_EQ(vfs_write(&f, "!", 1, &at), 1);
	EXPECT_EQ(a->size, 26);
	at = 19;
	EXPECT_EQ(vfs_read(&f, buf, sizeof(buf), &at), 7);
	EXPECT(memcmp(buf, zeros, 6) == 0 && buf[6] == '!');

	/* An empty file, grown well past its first buffer. */
	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 26);
	f = open_on(alpha, O_WRONLY);
	EXPECT_EQ(vfs_write(&f, "hi", 2, &f.pos), 2);
	EXPECT_EQ(vfs_write(&f, big, sizeof(big), &f.pos), (ssize_t)sizeof(big));
	EXPECT_EQ(alpha->size, 2 + sizeof(big));
	f = open_on(alpha, O_RDONLY);
	EXPECT_EQ(vfs_read(&f, buf, sizeof(buf), &f.pos), 2 + sizeof(big));
	EXPECT(memcmp(buf, "hi", 2) == 0 && memcmp(buf + 2, big, sizeof(big)) == 0);

	/* A write of nothing changes nothing, even far past the end. */
	at = 1000;
	f = open_on(alpha, O_WRONLY);
	EXPECT_EQ(vfs_write(&f, "", 0, &at), 0);
	EXPECT_EQ(alpha->size, 2 + sizeof(big));
out:
	ramfs_destroy(root);
}

static void test_rw_errors(void)
{
	struct inode *root = build_fixture(), *a;
	struct file f;
	char buf[8];
	loff_t at = -1;

	if (!root)
		return;
	a = lookup_path(root, "docs/a.txt");
	EXPECT(a != NULL);
	if (!a)
		goto out;

	EXPECT_EQ(vfs_read(NULL, buf, sizeof(buf), &at), -EBADF);
	EXPECT_EQ(vfs_write(NULL, buf, sizeof(buf), &at), -EBADF);

	f = open_on(a, O_WRONLY);
	EXPECT_EQ(vfs_read(&f, buf, sizeof(buf), &f.pos), -EBADF);
	f = open_on(a, O_RDONLY);
	EXPECT_EQ(vfs_write(&f, "x", 1, &f.pos), -EBADF);
	EXPECT_EQ(a->size, 16);

	EXPECT_EQ(vfs_read(&f, buf, sizeof(buf), NULL), -EINVAL);
	EXPECT_EQ(vfs_read(&f, buf, sizeof(buf), &at), -EINVAL);
	EXPECT_EQ(vfs_read(&f, NULL, sizeof(buf), &f.pos), -EFAULT);

	/* A directory has no read operation. */
	f = open_on(root, O_RDONLY);
	EXPECT_EQ(vfs_read(&f, buf, sizeof(buf), &f.pos), -EINVAL);
out:
	ramfs_destroy(root);
}

/* Build a one-off archive from (name, mode, data) triples and expect
 * ramfs_build to fail with err. */
struct entry {
	const char *name;
	uint32_t mode;
	const char *data;
};

static void expect_build_fails(const struct entry *entries, size_t n, int err)
{
	struct inode *root;
	int got = 0;
	size_t i;

	fixture.len = 0;
	for (i = 0; i < n; i++)
		ar_add(&fixture, entries[i].name, entries[i].mode, entries[i].data);
	ar_finish(&fixture);
	root = ramfs_build(fixture.bytes, fixture.len, &got);
	EXPECT(root == NULL);
	EXPECT_EQ(got, err);
	ramfs_destroy(root);
}

static void test_build_errors(void)
{
	static const struct entry duplicate[] = {
		{ "f", FILE_MODE, "1" }, { "f", FILE_MODE, "2" },
	};
	static const struct entry through_file[] = {
		{ "f", FILE_MODE, "1" }, { "f/x", FILE_MODE, "2" },
	};
	static const struct entry dir_over_file[] = {
		{ "f", FILE_MODE, "1" }, { "f", DIR_MODE, NULL },
	};
	static const struct entry dot_dot[] = {
		{ "a/../b", FILE_MODE, "1" },
	};
	static const char garbage[] = "this is not a cpio archive, not at all";
	struct inode *root;
	int err = 0;

	expect_build_fails(duplicate, ARRAY_SIZE(duplicate), -EEXIST);
	expect_build_fails(through_file, ARRAY_SIZE(through_file), -ENOTDIR);
	expect_build_fails(dir_over_file, ARRAY_SIZE(dir_over_file), -EEXIST);
	expect_build_fails(dot_dot, ARRAY_SIZE(dot_dot), -EINVAL);

	root = ramfs_build(garbage, sizeof(garbage), &err);
	EXPECT(root == NULL);
	EXPECT_EQ(err, -EINVAL);
}

/* ---- Names of up to 255 bytes, paths of up to 4096 ---- */

/* buf (of at least n + 1 bytes) made into prefix followed by letters up
 * to n bytes in all. */
static char *long_text(char *buf, size_t n, const char *prefix)
{
	size_t start = strlen(prefix);

	memcpy(buf, prefix, start);
	for (size_t i = start; i < n; i++)
		buf[i] = (char)('a' + i % 26);
	buf[n] = '\0';
	return buf;
}

/* Static: a 4096-byte path does not belong on a kernel stack. */
static char limit_buf[VFS_PATH_MAX + 1];

static void test_name_limits_in_archives(void)
{
	struct entry longest = { limit_buf, FILE_MODE, "1" };
	struct inode *root;
	int err;

	/* "d/" and a name of VFS_NAME_MAX bytes: built, and found. */
	long_text(limit_buf, 2 + VFS_NAME_MAX, "d/");
	fixture.len = 0;
	ar_add(&fixture, longest.name, longest.mode, longest.data);
	ar_finish(&fixture);
	root = ramfs_build(fixture.bytes, fixture.len, &err);
	EXPECT_EQ(err, 0);
	EXPECT(is_file(lookup_path(root, limit_buf), 1));
	ramfs_destroy(root);

	/* One byte more is refused. */
	long_text(limit_buf, 2 + VFS_NAME_MAX + 1, "d/");
	expect_build_fails(&longest, 1, -ENAMETOOLONG);
}

/* Build a tree, write to it (which reallocates a file) and destroy it. */
static void build_write_destroy(void)
{
	struct inode *root = build_fixture(), *a;
	struct file f;

	a = lookup_path(root, "docs/a.txt");
	if (a) {
		f = open_on(a, O_WRONLY);
		f.pos = 200;
		EXPECT_EQ(vfs_write(&f, "grow", 4, &f.pos), 4);
	}
	ramfs_destroy(root);
}

static void test_destroy_frees_all(void)
{
	EXPECT(selftest_heap_balanced(build_write_destroy));
	/* A build that fails half-way must free what it made, too. */
	EXPECT(selftest_heap_balanced(test_build_errors));
}

/* ---- The mounted root (read only) ---- */

static ssize_t read_whole(const char *path, char *buf, size_t size)
{
	struct file *file;
	ssize_t n, total = 0;
	int err = vfs_open(path, O_RDONLY, &file);

	if (err)
		return err;
	while ((size_t)total < size - 1 &&
	       (n = vfs_read(file, buf + total, size - 1 - total, &file->pos)) > 0)
		total += n;
	buf[total] = '\0';
	vfs_close(file);
	return total;
}

static void test_root_files(void)
{
	char buf[512];

	EXPECT_EQ(read_whole("/etc/hostname", buf, sizeof(buf)), 8);
	EXPECT_STREQ(buf, "probeos\n");

	EXPECT(read_whole("/etc/motd", buf, sizeof(buf)) > 0);
	EXPECT(strncmp(buf, "Welcome to ProbeOS", 18) == 0);
	EXPECT(strchr(buf, '`') != NULL);	/* it mentions `help` */
}

static void test_root_llseek(void)
{
	struct file *file = NULL;
	char buf[8];

	EXPECT_EQ(vfs_open("/etc/hostname", O_RDONLY, &file), 0);
	if (!file)
		return;
	EXPECT_EQ(vfs_llseek(file, 0, SEEK_END), 8);
	EXPECT_EQ(vfs_llseek(file, -3, SEEK_END), 5);
	EXPECT_EQ(vfs_read(file, buf, sizeof(buf), &file->pos), 3);
	EXPECT(memcmp(buf, "os\n", 3) == 0);
	EXPECT_EQ(vfs_llseek(file, -6, SEEK_CUR), 2);
	EXPECT_EQ(vfs_llseek(file, 3, SEEK_SET), 3);
	EXPECT_EQ(vfs_llseek(file, -1, SEEK_SET), -EINVAL);
	EXPECT_EQ(vfs_llseek(file, 0, 7), -EINVAL);
	EXPECT_EQ(file->pos, 3);	/* a refused seek moves nothing */
	vfs_close(file);
}

/* The type vfs_stat reports for path, or its error. */
static int stat_type(const char *path)
{
	struct kstat st;
	int err = vfs_stat(path, &st);

	return err ? err : (int)st.type;
}

static void test_root_lookup(void)
{
	struct file *file = NULL, *again = NULL;
	struct kstat st;

	EXPECT_EQ(vfs_stat("/etc/motd", &st), 0);
	EXPECT(st.type == INODE_FILE && st.size > 0);
	EXPECT_EQ(stat_type("//etc///motd"), INODE_FILE);
	EXPECT_EQ(stat_type("/etc/motd/"), -ENOTDIR);
	EXPECT_EQ(stat_type("/etc/motd//"), -ENOTDIR);
	EXPECT_EQ(stat_type("/"), INODE_DIR);
	EXPECT_EQ(stat_type("///"), INODE_DIR);
	EXPECT_EQ(stat_type("/etc/"), INODE_DIR);
	EXPECT_EQ(stat_type("/etc//"), INODE_DIR);
	EXPECT_EQ(stat_type(""), -ENOENT);
	EXPECT_EQ(stat_type(NULL), -EINVAL);
	EXPECT_EQ(stat_type("/nope"), -ENOENT);
	EXPECT_EQ(stat_type("/etc/motd/x"), -ENOTDIR);

	EXPECT_EQ(vfs_open("/etc", O_RDONLY, &file), -EISDIR);
	EXPECT_EQ(vfs_open("/", O_RDONLY, &file), -EISDIR);
	EXPECT_EQ(vfs_open("/", O_RDWR | O_CREAT, &file), -EISDIR);
	EXPECT_EQ(vfs_open("/etc", O_RDWR | O_CREAT, &file), -EISDIR);
	EXPECT_EQ(vfs_open("/nope", O_RDONLY, &file), -ENOENT);
	EXPECT_EQ(vfs_open("/nope/new", O_RDWR | O_CREAT, &file), -ENOENT);
	EXPECT_EQ(vfs_open("/etc/nope", O_RDONLY, &file), -ENOENT);
	EXPECT_EQ(vfs_open("/etc/motd/x", O_RDONLY, &file), -ENOTDIR);
	EXPECT_EQ(vfs_open("/etc/motd/x", O_RDWR | O_CREAT, &file), -ENOTDIR);
	EXPECT_EQ(vfs_open("/etc/motd/", O_RDONLY, &file), -ENOTDIR);
	EXPECT_EQ(vfs_open("/etc/motd/", O_WRONLY | O_CREAT | O_TRUNC, &file), -ENOTDIR);
	EXPECT_EQ(vfs_open("/etc/new/", O_WRONLY | O_CREAT, &file), -EISDIR);
	EXPECT_EQ(vfs_open("/etc/", O_RDONLY, &file), -EISDIR);
	EXPECT_EQ(vfs_open("/etc/motd", 42, &file), -EINVAL);
	EXPECT_EQ(vfs_open("/etc/motd", O_ACCMODE, &file), -EINVAL);
	EXPECT(file == NULL);

	/* The same file however the path is spelled. */
	EXPECT_EQ(vfs_open("/etc/motd", O_RDONLY, &file), 0);
	EXPECT(file != NULL && file->pos == 0);
	EXPECT_EQ(vfs_open("//etc///motd", O_RDONLY, &again), 0);
	EXPECT(file && again && file->inode == again->inode);
	if (again)
		vfs_close(again);
	if (file)
		vfs_close(file);
}

/* ---- Files made, cut and removed on the mounted root ----
 *
 * These write to the system's root, under names no one else uses, and
 * remove what they made. */

#define SCRATCH "/vfs-selftest.txt"

/* Write text at the file's position; true if all of it went. */
static bool put(struct file *file, const char *text)
{
	return vfs_write(file, text, strlen(text), &file->pos) == (ssize_t)strlen(text);
}

/* The whole file at its start, as a string in buf. */
static ssize_t get(struct file *file, char *buf, size_t size)
{
	loff_t at = 0;
	ssize_t n = vfs_read(file, buf, size - 1, &at);

	buf[n > 0 ? n : 0] = '\0';
	return n;
}

static void create_append_truncate_unlink(void)
{
	struct file *w = NULL, *r = NULL, *a = NULL;
	struct kstat st;
	char buf[32];

	EXPECT_EQ(vfs_open(SCRATCH, O_RDONLY, &r), -ENOENT);
	EXPECT_EQ(vfs_open(SCRATCH, O_WRONLY | O_CREAT, &w), 0);
	if (!w)
		return;
	EXPECT_EQ(vfs_stat(SCRATCH, &st), 0);
	EXPECT(st.type == INODE_FILE && st.size == 0);
	EXPECT(put(w, "hello"));
	vfs_close(w);

	/* O_CREAT on a file that exists opens it as it is. */
	EXPECT_EQ(vfs_open(SCRATCH, O_RDWR | O_CREAT, &r), 0);
	if (!r)
		return;
	EXPECT_EQ(get(r, buf, sizeof(buf)), 5);

	/* O_APPEND writes at the end, wherever the position is. */
	EXPECT_EQ(vfs_open(SCRATCH, O_WRONLY | O_APPEND, &a), 0);
	if (a) {
		EXPECT(put(a, " world"));
		EXPECT_EQ(a->pos, 11);
		a->pos = 0;
		EXPECT(put(a, "!"));
		EXPECT_EQ(a->pos, 12);
		vfs_close(a);
	}
	EXPECT_EQ(get(r, buf, sizeof(buf)), 12);
	EXPECT_STREQ(buf, "hello world!");

	/* O_TRUNC cuts, but not for a reader (as on Linux). */
	EXPECT_EQ(vfs_open(SCRATCH, O_RDONLY | O_TRUNC, &a), 0);
	if (a)
		vfs_close(a);
	EXPECT_EQ(vfs_stat(SCRATCH, &st), 0);
	EXPECT_EQ(st.size, 12);
	EXPECT_EQ(vfs_open(SCRATCH, O_WRONLY | O_TRUNC, &a), 0);
	if (a) {
		EXPECT_EQ(get(r, buf, sizeof(buf)), 0);
		EXPECT(put(a, "kept"));
		vfs_close(a);
	}

	/* Removed while open: gone by name, still readable through r. */
	EXPECT_EQ(vfs_unlink(SCRATCH), 0);
	EXPECT_EQ(vfs_stat(SCRATCH, &st), -ENOENT);
	EXPECT_EQ(vfs_unlink(SCRATCH), -ENOENT);
	EXPECT_EQ(get(r, buf, sizeof(buf)), 4);
	EXPECT_STREQ(buf, "kept");
	vfs_close(r);
}

static void test_create_append_truncate_unlink(void)
{
	/* The node and its buffers are freed once the last file closes. */
	EXPECT(selftest_heap_balanced(create_append_truncate_unlink));
	EXPECT_EQ(vfs_unlink("/etc"), -EISDIR);
	EXPECT_EQ(vfs_unlink("/"), -EISDIR);
	EXPECT_EQ(vfs_unlink("/etc/motd/x"), -ENOTDIR);
	EXPECT_EQ(vfs_unlink("/etc/motd/"), -ENOTDIR);
	EXPECT_EQ(vfs_unlink("/etc/"), -EISDIR);
	EXPECT_EQ(vfs_unlink("/etc/nope/"), -ENOENT);
	EXPECT_EQ(vfs_unlink("/nope/x"), -ENOENT);
	EXPECT_EQ(vfs_unlink(""), -ENOENT);
}

static void test_name_and_path_limits_on_root(void)
{
	struct file *file = NULL;
	struct kstat st;

	/* A name of VFS_NAME_MAX bytes is made, seen and removed. */
	long_text(limit_buf, 1 + VFS_NAME_MAX, "/");
	EXPECT_EQ(vfs_open(limit_buf, O_WRONLY | O_CREAT, &file), 0);
	if (file)
		vfs_close(file);
	EXPECT_EQ(stat_type(limit_buf), INODE_FILE);
	EXPECT_EQ(vfs_unlink(limit_buf), 0);
	EXPECT_EQ(stat_type(limit_buf), -ENOENT);

	/* One byte more, last or in the middle, is too long. */
	long_text(limit_buf, 1 + VFS_NAME_MAX + 1, "/");
	EXPECT_EQ(vfs_open(limit_buf, O_WRONLY | O_CREAT, &file), -ENAMETOOLONG);
	EXPECT_EQ(stat_type(limit_buf), -ENAMETOOLONG);
	EXPECT_EQ(vfs_unlink(limit_buf), -ENAMETOOLONG);
	strlcpy(limit_buf + 1 + VFS_NAME_MAX + 1, "/x", 3);
	EXPECT_EQ(stat_type(limit_buf), -ENAMETOOLONG);
	limit_buf[1 + VFS_NAME_MAX] = '/';	/* the name is VFS_NAME_MAX now */
	EXPECT_EQ(stat_type(limit_buf), -ENOENT);

	/* A path of VFS_PATH_MAX bytes with its NUL resolves; one more
	 * byte is too long. (Repeated slashes count, as on Linux.) */
	memset(limit_buf, '/', VFS_PATH_MAX);
	strlcpy(limit_buf + VFS_PATH_MAX - 1 - strlen("etc/hostname"), "etc/hostname",
		strlen("etc/hostname") + 1);
	EXPECT_EQ(strlen(limit_buf), VFS_PATH_MAX - 1);
	EXPECT_EQ(vfs_stat(limit_buf, &st), 0);
	EXPECT_EQ(st.size, 8);
	memset(limit_buf, '/', VFS_PATH_MAX);
	strlcpy(limit_buf + VFS_PATH_MAX - strlen("etc/hostname"), "etc/hostname",
		strlen("etc/hostname") + 1);
	EXPECT_EQ(strlen(limit_buf), VFS_PATH_MAX);
	EXPECT_EQ(vfs_stat(limit_buf, &st), -ENAMETOOLONG);
	EXPECT_EQ(vfs_open(limit_buf, O_RDONLY, &file), -ENAMETOOLONG);
}

/* ---- Reads never torn: readers on every CPU, one writer ----
 *
 * The writer fills the file with one letter at a time, and changes it
 * only in ways after which it again holds one letter throughout: made
 * anew with O_TRUNC and written, appended to with the same letter,
 * overwritten whole with the next, removed. Any read that returns two
 * letters saw half of a write; one that returns RAMFS_FREED_BYTE (0xdd)
 * copied from a buffer already freed. Sizes go up to TEAR_MAX, so the
 * buffer is replaced while readers copy from it. */

#define TEAR_FILE "/vfs-tear-test.txt"
#define TEAR_MAX 3000
#define TEAR_ROUNDS 1200
#define TEAR_READS_PER_OPEN 8

struct tear_reader {
	unsigned long reads, missing, torn;
	char buf[TEAR_MAX + 1];
} __aligned(64);

static struct tear_reader tear_readers[MAX_CPUS];
static int tear_stop, tear_done;

/* Is the read of n bytes in buf one letter throughout? */
static bool one_letter(const char *buf, ssize_t n)
{
	if (n < 0 || n > TEAR_MAX)
		return false;
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] != buf[0] || buf[i] < 'a' || buf[i] > 'z')
			return false;
	return true;
}

static void tear_read(void *arg)
{
	struct tear_reader *r = arg;

	while (!__atomic_load_n(&tear_stop, __ATOMIC_ACQUIRE)) {
		struct file *file;

		if (vfs_open(TEAR_FILE, O_RDONLY, &file) < 0) {
			r->missing++;
			continue;
		}
		/* Reads on one open carry on across an unlink. */
		for (int i = 0; i < TEAR_READS_PER_OPEN; i++) {
			loff_t at = 0;
			ssize_t n = vfs_read(file, r->buf, sizeof(r->buf), &at);

			r->reads++;
			r->torn += !one_letter(r->buf, n);
		}
		vfs_close(file);
		thread_yield();		/* to the writer, if it shares this CPU */
	}
	__atomic_add_fetch(&tear_done, 1, __ATOMIC_RELEASE);
}

/* One write of n bytes of letter at *pos in a file opened with flags. */
static void tear_write(int flags, char letter, size_t n, loff_t pos)
{
	static char bytes[TEAR_MAX];
	struct file *file;

	memset(bytes, letter, n);
	if (vfs_open(TEAR_FILE, O_WRONLY | flags, &file) == 0) {
		EXPECT_EQ(vfs_write(file, bytes, n, &pos), (ssize_t)n);
		vfs_close(file);
	}
}

/* One round of changes, each leaving one letter throughout. */
static void tear_round(unsigned int round)
{
	char letter = (char)('a' + round % 26);
	size_t n = 1 + (round * 397) % (TEAR_MAX / 2);
	struct kstat st;

	tear_write(O_CREAT | O_TRUNC, letter, n, 0);
	tear_write(O_APPEND, letter, n, 0);
	letter = letter == 'z' ? 'a' : (char)(letter + 1);
	if (vfs_stat(TEAR_FILE, &st) == 0)
		tear_write(0, letter, st.size, 0);	/* overwrite it whole */
	if (round % 4 == 3)
		EXPECT_EQ(vfs_unlink(TEAR_FILE), 0);
}

static void test_reads_never_tear(void)
{
	unsigned long cpus = smp_cpus_running(), reads = 0, torn = 0;
	int started = 0;

	tear_stop = tear_done = 0;
	tear_round(0);		/* the readers start with a file to read */
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!(cpus & (1UL << cpu)))
			continue;
		tear_readers[cpu] = (struct tear_reader){ 0 };
		started += thread_create_on(cpu, "st-tear", tear_read, &tear_readers[cpu]) >= 0;
	}
	/* Yield between rounds: on this CPU a reader runs only when the
	 * writer lets it (with one CPU, only then at all). */
	for (unsigned int round = 1; round < TEAR_ROUNDS; round++) {
		tear_round(round);
		thread_yield();
	}
	__atomic_store_n(&tear_stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2 * TIMER_HZ && __atomic_load_n(&tear_done, __ATOMIC_ACQUIRE) < started; i++)
		thread_sleep(1);
	EXPECT_EQ(tear_done, started);
	vfs_unlink(TEAR_FILE);	/* the last round may have left it */
	/* Let the grace periods end now: the buffers and inodes this test
	 * freed with call_rcu would otherwise be freed during a later
	 * suite, and upset its heap count. */
	rcu_barrier();
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!(cpus & (1UL << cpu)))
			continue;
		EXPECT(tear_readers[cpu].reads > 0);	/* every CPU really read */
		reads += tear_readers[cpu].reads;
		torn += tear_readers[cpu].torn;
	}
	cmd_printf("vfs: %lu reads on %d CPUs during %u rounds of writes, %lu torn\n",
		   reads, started, TEAR_ROUNDS, torn);
	EXPECT_EQ(torn, 0);
}

static void test_root_readdir(void)
{
	struct dirent ent, prev;
	bool saw_etc = false, saw_hostname = false;
	size_t i;
	int ret;

	/* Every entry of / in strictly increasing name order. */
	for (i = 0; (ret = vfs_readdir("/", i, &ent)) == 1; i++) {
		if (i > 0)
			EXPECT(strcmp(prev.name, ent.name) < 0);
		if (strcmp(ent.name, "etc") == 0)
			saw_etc = ent.type == INODE_DIR;
		prev = ent;
	}
	EXPECT_EQ(ret, 0);
	EXPECT(saw_etc);
	EXPECT_EQ(vfs_readdir("/", i, &ent), 0);

	for (i = 0; vfs_readdir("/etc", i, &ent) == 1; i++) {
		if (strcmp(ent.name, "hostname") == 0)
			saw_hostname = ent.type == INODE_FILE && ent.size == 8;
	}
	EXPECT(saw_hostname);

	EXPECT_EQ(vfs_readdir("/etc/motd", 0, &ent), -ENOTDIR);
	EXPECT_EQ(vfs_readdir("/nope", 0, &ent), -ENOENT);
	EXPECT_EQ(vfs_readdir(NULL, 0, &ent), -EINVAL);
}

static const struct selftest_case vfs_cases[] = {
	SELFTEST_CASE(test_build_shape),
	SELFTEST_CASE(test_read_positions),
	SELFTEST_CASE(test_write_extends),
	SELFTEST_CASE(test_rw_errors),
	SELFTEST_CASE(test_build_errors),
	SELFTEST_CASE(test_name_limits_in_archives),
	SELFTEST_CASE(test_destroy_frees_all),
	SELFTEST_CASE(test_root_files),
	SELFTEST_CASE(test_root_llseek),
	SELFTEST_CASE(test_root_lookup),
	SELFTEST_CASE(test_root_readdir),
	SELFTEST_CASE(test_create_append_truncate_unlink),
	SELFTEST_CASE(test_name_and_path_limits_on_root),
	SELFTEST_CASE(test_reads_never_tear),
};
SELFTEST_SUITE("vfs", vfs_cases);
