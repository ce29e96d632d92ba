/* Fuzz target "paths": the VFS's path walk, with "." and "..", relative
 * paths from the working directory, mounts and the names of places
 * (kernel/fs/vfs.c, mount.c, cwd.c, d_path.c, over dentry.c and
 * ramfs.c), run as they are, on one CPU that the harness plays.
 *
 * The input is lines of "OP PATH", each one call:
 *
 *   c PATH   cd (vfs_chdir)          m PATH   mkdir
 *   f PATH   make a file (O_CREAT)   r PATH   rm (vfs_unlink)
 *   M PATH   mount the tree "view"   U PATH   umount
 *   anything else: only resolve PATH
 *
 * on this tree, made anew for each input:
 *
 *   /            the root: a fixed tree that takes no new names
 *   ├── a/deep/
 *   ├── b/
 *   └── w/       the tree "work" mounted here: d/ (e/, f), g/
 *
 * "view" (x/ (y/), z) is mounted by M, anywhere and as often as the
 * input likes (mounts stack), but never on a directory of its own: a
 * mount made through one of its mounts would be seen through all of them
 * (the mount table is keyed by directory, mount.h), and ".." from it
 * would climb back through the first, which the model below does not
 * know.
 *
 * After each call, for the call's path and for the working directory:
 *  - a path that resolves leads where its lexical form does (the working
 *    directory's name, then the path, "." dropped and ".." taking off
 *    the name before): ProbeOS has no symbolic links, so a walk that
 *    succeeds must agree with that, mount included;
 *  - vfs_path_name of the place is that lexical name, leads back to the
 *    place, and fits a buffer of its length plus one, not one less.
 * The lexical form is only known while the working directory is
 * reachable by its name and that name leads to it (not once it is
 * unmounted, or covered by a mount made on it since).
 *
 * At the end of an input everything is unmounted and the working
 * directory is "/" again, and then every reference must be given back:
 * each directory holds one from its own directory and one per child,
 * each file one (checked node by node), and the mounts are freed
 * (LeakSanitizer sees one that is not). The RCU here frees at once, so
 * AddressSanitizer sees any use of a freed node or mount. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Before rename.h: the host's snprintf ---- */

/* A newc archive (lib/cpio.h) of the entries given: "NAME" for a
 * directory, "NAME=" for an empty file. */
static size_t make_archive(char *buf, size_t size, const char *const *names, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i <= n; i++) {
		const char *name = i < n ? names[i] : "TRAILER!!!";
		size_t name_len = strcspn(name, "=");
		bool file = name[name_len] == '=';
		int wrote = snprintf(buf + len, size - len,
				     "070701%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08zx%08x%.*s",
				     0, file ? 0100644 : 040755, 0, 0, 1, 0, 0, 0, 0, 0, 0,
				     name_len + 1, 0, (int)name_len, name);

		if (wrote <= 0 || (size_t)wrote + 4 >= size - len)
			abort();
		len += (size_t)wrote + 1;		/* the name's NUL */
		memset(buf + len - 1, 0, 4);
		len = (len + 3) & ~(size_t)3;
	}
	return len;
}

#include "tests/host/rename.h"
#include "kernel/cpu.h"
#include "kernel/fs/cwd.h"
#include "kernel/fs/dentry.h"
#include "kernel/fs/mount.h"
#include "kernel/fs/ramfs.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/heap.h"
#include "kernel/panic.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "lib/errno.h"
#include "lib/string.h"

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_paths.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

/* ---- The kernel around the VFS, as one CPU running one thread (the
 * heap, mutexes and synchronize_rcu: tests/host/host_kernel.c) ---- */

static struct cpu cpu0;
static struct thread thread0;
struct cpu *fuzz_this_cpu = &cpu0;

void panic(const char *fmt, ...)
{
	fprintf(stderr, "panic: %s\n", fmt);
	abort();
}

void spin_lock_recursion(const struct spinlock *lock)
{
	(void)lock;
	abort();
}

/* As synchronize_rcu (tests/host/host_kernel.c): no reader to wait for. */
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	func(head);
}

/* ---- The trees ---- */

/* The root's directories take no new names, so that nothing an input
 * makes outlives it. */
static const struct inode_operations fixed_dir_iops = {
	.lookup = dentry_lookup,
	.parent = dentry_parent,
	.child = dentry_child,
};

static struct dentry *fixed_dir(struct dentry *parent, const char *name)
{
	struct dentry *d = dentry_alloc(sizeof(struct dentry), name, strlen(name), INODE_DIR);

	CHECK(d != NULL);
	d->inode.iops = &fixed_dir_iops;
	if (parent)
		dentry_link(parent, d);
	return d;
}

static struct inode *build_tree(const char *const *names, size_t n)
{
	static char archive[2048];
	size_t size = make_archive(archive, sizeof(archive), names, n);
	int err;
	struct inode *root = ramfs_build(archive, size, &err);

	CHECK(root != NULL && err == 0);
	return root;
}

static struct dentry *fixed_root;
static struct file_system_type work_type = { .name = "work" };
static struct file_system_type view_type = { .name = "view" };

static void setup(void)
{
	struct dentry *a;

	cpu0.self = &cpu0;
	cpu0.current = &thread0;
	fixed_root = fixed_dir(NULL, "/");
	a = fixed_dir(fixed_root, "a");
	fixed_dir(a, "deep");
	fixed_dir(fixed_root, "b");
	fixed_dir(fixed_root, "w");
	vfs_mount_root(&fixed_root->inode, "rootfs", "fixed");
	register_filesystem(&work_type);
	register_filesystem(&view_type);
}

/* Is inode in the tree whose root is top? */
static bool in_tree(struct inode *inode, struct inode *top)
{
	struct dentry *d = to_dentry(inode);

	while (d->parent)
		d = d->parent;
	return &d->inode == top;
}

/* Every reference in the tree under top is structural: its directory's
 * (top: base), and one per child; nothing mounted anywhere. */
static void check_refs(struct dentry *top, unsigned long base)
{
	struct dentry *child;
	unsigned long children = 0;

	list_for_each_entry(child, &top->children, sibling) {
		check_refs(child, 1);
		children++;
	}
	CHECK(top->inode.refs == base + children);
	CHECK(top->inode.mounts == 0);
}

/* ---- The model: names, lexically ---- */

#define MAX_MOUNTS 12
#define MAX_CALLS 64

static char cwd_name[VFS_PATH_MAX];
static bool cwd_known;		/* cwd_name leads to the working directory */
static char mounted[MAX_MOUNTS][VFS_PATH_MAX];	/* in the order made */
static int mounts;

static bool same_place(const struct path *a, const struct path *b)
{
	return a->mnt == b->mnt && a->inode == b->inode;
}

/* Where the working directory is by name, if its name leads to it. */
static void learn_cwd(void)
{
	struct path cwd, named;

	cwd_known = vfs_getcwd(cwd_name, sizeof(cwd_name)) >= 0 &&
		    kern_path(cwd_name, &named) == 0;
	if (!cwd_known)
		return;
	cwd_get(&cwd);
	cwd_known = same_place(&cwd, &named);
	path_put(&named);
	path_put(&cwd);
}

/* path's lexical form into out: false if it is not known (a relative
 * path from a working directory of unknown name) or is too long. */
static bool lexical(const char *path, char *out, size_t size)
{
	const char *name;
	size_t len = 0;
	int n;

	if (path[0] != '/') {
		if (!cwd_known)
			return false;
		len = strlen(cwd_name);
		memcpy(out, cwd_name, len);
		if (len == 1)
			len = 0;	/* "/": names are added after a '/' */
	}
	while ((n = vfs_next_component(&path, &name)) > 0) {
		if (n == 1 && name[0] == '.')
			continue;
		if (n == 2 && name[0] == '.' && name[1] == '.') {
			while (len > 0 && out[--len] != '/')
				;
			continue;
		}
		if (len + 1 + (size_t)n + 1 > size)
			return false;
		out[len++] = '/';
		memcpy(out + len, name, (size_t)n);
		len += (size_t)n;
	}
	if (n < 0)
		return false;
	if (len == 0)
		out[len++] = '/';
	out[len] = '\0';
	return len < VFS_PATH_MAX;
}

/* The place's name is want; it leads back; it fits exactly. */
static void check_name(const struct path *place, const char *want)
{
	static char name[VFS_PATH_MAX];
	size_t len = strlen(want);
	struct path back;

	CHECK(vfs_path_name(place, name, sizeof(name)) == (int)len);
	CHECK(strcmp(name, want) == 0);
	CHECK(kern_path(name, &back) == 0);
	CHECK(same_place(&back, place));
	path_put(&back);
	CHECK(vfs_path_name(place, name, len + 1) == (int)len);
	CHECK(vfs_path_name(place, name, len) == -ENAMETOOLONG);
}

static void check_path(const char *path)
{
	static char model[VFS_PATH_MAX];
	struct path place, there;

	if (kern_path(path, &place) != 0)
		return;
	if (lexical(path, model, sizeof(model))) {
		CHECK(kern_path(model, &there) == 0);
		CHECK(same_place(&there, &place));
		path_put(&there);
		if (place.inode->type == INODE_DIR)
			check_name(&place, model);
	}
	path_put(&place);
}

/* ---- The calls ---- */

/* M: mount "view" on path, unless that is a directory of "view", and
 * keep the name of the directory covered, for unmount_all. */
static void mount_view(const char *path)
{
	struct path point;
	bool ours;
	int len;

	if (mounts == MAX_MOUNTS || vfs_mountpoint(path, &point) != 0)
		return;
	ours = in_tree(point.inode, view_type.root);
	len = vfs_path_name(&point, mounted[mounts], VFS_PATH_MAX);
	path_put(&point);
	if (!ours && vfs_mount("none", path, "view") == 0) {
		CHECK(len > 0);
		mounts++;
	}
}

static void make_file(const char *path)
{
	struct file *file;

	if (vfs_open(path, O_WRONLY | O_CREAT, &file) == 0)
		vfs_close(file);
}

static void call(char op, const char *path)
{
	switch (op) {
	case 'c':
		vfs_chdir(path);
		break;
	case 'm':
		vfs_mkdir(path);
		break;
	case 'f':
		make_file(path);
		break;
	case 'r':
		vfs_unlink(path);
		break;
	case 'M':
		mount_view(path);
		break;
	case 'U':
		vfs_umount(path);
		break;
	}
	learn_cwd();
	check_path(path);
	check_path(".");
}

/* Unmount everything: each name the input mounted on, and /w, until
 * none has a mount left. Newest first, since a mount made inside
 * another is newer than it; but the input's own umounts may have taken
 * others than the ones named, so passes go on while one makes progress.
 * What is left, check_refs finds. */
static void unmount_all(void)
{
	bool progress = true;

	while (progress) {
		progress = false;
		for (int i = mounts; i >= 0; i--) {
			while (vfs_umount(i ? mounted[i - 1] : "/w") == 0)
				progress = true;
		}
	}
	mounts = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const work[] = { "d", "d/e", "d/f=", "g" };
	static const char *const view[] = { "x", "x/y", "z=" };
	static char line[VFS_PATH_MAX + 2];
	static bool ready;
	size_t at = 0;
	int calls = 0;

	if (!ready) {
		setup();
		ready = true;
	}
	work_type.root = build_tree(work, 4);
	view_type.root = build_tree(view, 3);
	CHECK(vfs_mount("none", "/w", "work") == 0);
	learn_cwd();

	while (at < size && calls++ < MAX_CALLS) {
		size_t len = 0;

		while (at < size && data[at] != '\n') {
			if (len < sizeof(line) - 1 && data[at] != '\0')
				line[len++] = (char)data[at];
			at++;
		}
		at++;
		line[len] = '\0';
		if (len >= 2)
			call(line[0], line + 2);
	}

	CHECK(vfs_chdir("/") == 0);
	path_put(&thread0.fs->pwd);	/* back to no place, as at the start */
	kfree(thread0.fs);
	thread0.fs = NULL;
	unmount_all();
	check_refs(fixed_root, 2);	/* its own, and the root mount's */
	check_refs(to_dentry(work_type.root), 1);
	check_refs(to_dentry(view_type.root), 1);
	ramfs_destroy(work_type.root);
	ramfs_destroy(view_type.root);
	return 0;
}
