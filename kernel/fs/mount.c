/* The mount table (mount.h); /proc/mounts shows it (kernel/fs/proc/mounts.c).
 *
 * Mounts and unmounts change the table under mount_lock, a mutex; path
 * walks read it without a lock, as an RCU list. A mount is published in
 * this order: filled in, added to the list (a release store), and only
 * then counted on the directory it covers (another); a walk loads the
 * count first (acquire), so when it sees one it also sees the entry.
 *
 * An unmount takes the entry out and lowers the count, then waits a
 * grace period, after which no walk can be looking at the entry without
 * having taken a reference to it, before it gives back the table's
 * reference. The mount is freed with its last reference: at once, or
 * when the last walk or working directory standing in it leaves. The
 * root's entry, made at boot, never goes. */

#include "kernel/fs/mount.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/panic.h"
#include "kernel/rcu.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/list.h"
#include "lib/string.h"

struct mount {
	struct list_node node;		/* in mounts, oldest first */
	unsigned long refs;		/* atomic: the table's while mounted,
					   and each path's that holds it */
	bool detached;			/* unmounted (atomic) */
	struct mount *parent;		/* the mount mountpoint is in; NULL: "/" */
	struct inode *mountpoint;	/* the directory it covers; NULL: "/" */
	struct inode *root;		/* what a walk finds there instead */
	const char *type;		/* its type's name */
	char *source;			/* as given to mount ("none") */
	char *dir;			/* where: the absolute path, as it was
					   when mounted */
};

static struct mutex mount_lock = MUTEX_INIT(mount_lock, "mounts");
static LIST_HEAD(mounts);
static LIST_HEAD(types);
/* The mount of "/": stored once at boot, read by every walk. */
static struct mount *root_mount;

void register_filesystem(struct file_system_type *type)
{
	mutex_lock(&mount_lock);
	list_add_tail(&type->node, &types);
	mutex_unlock(&mount_lock);
}

static struct file_system_type *find_type(const char *name)
{
	struct file_system_type *type;

	list_for_each_entry(type, &types, node)
		if (strcmp(type->name, name) == 0)
			return type;
	return NULL;
}

void mnt_get(struct mount *m)
{
	__atomic_fetch_add(&m->refs, 1, __ATOMIC_RELAXED);
}

/* As inode_put: the release order makes all use of m happen before the
 * free. The parent is put last, after m is gone, and so on up: a loop,
 * not a call per level, since how deeply mounts nest is up to the user. */
void mnt_put(struct mount *m)
{
	while (m && __atomic_sub_fetch(&m->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		struct mount *parent = m->parent;

		inode_put(m->root);
		if (m->mountpoint)
			inode_put(m->mountpoint);
		kfree(m);
		m = parent;
	}
}

/* A mount entry holding copies of source and of dir, with the table's
 * reference. */
static struct mount *new_mount(const char *source, const char *dir)
{
	size_t source_len = strlen(source) + 1, dir_len = strlen(dir) + 1;
	struct mount *m = kzalloc(sizeof(*m) + source_len + dir_len);

	if (!m)
		return NULL;
	m->refs = 1;
	m->source = (char *)(m + 1);
	m->dir = m->source + source_len;
	memcpy(m->source, source, source_len);
	memcpy(m->dir, dir, dir_len);
	return m;
}

/* Add m, covering the directory at point (whose references it keeps)
 * with root. */
static void publish(struct mount *m, const struct path *point, struct inode *root,
		    const char *type)
{
	m->parent = point->mnt;
	m->mountpoint = point->inode;
	m->root = root;
	m->type = type;
	inode_get(root);
	list_add_tail_rcu(&m->node, &mounts);
	if (m->mountpoint)
		__atomic_add_fetch(&m->mountpoint->mounts, 1, __ATOMIC_RELEASE);
}

/* No lock: nothing else runs yet (mount.h). */
void vfs_mount_root(struct inode *root, const char *source, const char *type_name)
{
	static const struct path nowhere;
	struct mount *m = new_mount(source, "/");

	if (!m)
		panic("vfs: no memory to mount the root");
	publish(m, &nowhere, root, type_name);
	__atomic_store_n(&root_mount, m, __ATOMIC_RELEASE);
}

bool mount_get_root(struct path *out)
{
	struct mount *m = __atomic_load_n(&root_mount, __ATOMIC_ACQUIRE);

	if (!m)
		return false;
	out->mnt = m;
	out->inode = m->root;
	path_get(out);		/* the root's mount keeps both: never 0 */
	return true;
}

/* The newest mount on the inode is the one a walk sees: mounts stack,
 * as in Linux, and an unmount uncovers the one before. */
void mount_cross(struct path *path)
{
	struct path under = *path;
	struct mount *m, *found = NULL;

	if (!__atomic_load_n(&path->inode->mounts, __ATOMIC_ACQUIRE))
		return;
	rcu_read_lock();
	list_for_each_entry_rcu(m, &mounts, node)
		if (m->mountpoint == path->inode)
			found = m;
	if (found) {
		/* The table's reference outlasts the grace period. */
		path->mnt = found;
		path->inode = found->root;
		path_get(path);
	}
	rcu_read_unlock();
	if (found)
		path_put(&under);
}

/* A mount's fields but detached are fixed from its publication on, and
 * the path's reference keeps it. */
bool mount_climb(struct path *path)
{
	bool attached = true;

	while (path->mnt->parent && path->inode == path->mnt->root) {
		struct path up = { path->mnt->parent, path->mnt->mountpoint };

		if (__atomic_load_n(&path->mnt->detached, __ATOMIC_RELAXED))
			attached = false;
		path_get(&up);
		path_put(path);
		*path = up;
	}
	return attached;
}

/* A type, once registered, stays: it may be used after the lock. The
 * table shows dir as the absolute path it names now, wherever the
 * working directory is (Linux's too). */
int vfs_mount(const char *source, const char *dir, const char *type_name)
{
	struct file_system_type *type;
	struct mount *m = NULL;
	struct path point;
	char *where;
	int err;

	mutex_lock(&mount_lock);
	type = find_type(type_name);
	mutex_unlock(&mount_lock);
	if (!type)
		return -ENODEV;
	err = vfs_mountpoint(dir, &point);
	if (err)
		return err;
	where = kmalloc(VFS_PATH_MAX);
	err = where ? vfs_path_name(&point, where, VFS_PATH_MAX) : -ENOMEM;
	if (err >= 0) {
		m = new_mount(source, where);
		err = m ? 0 : -ENOMEM;
	}
	kfree(where);
	if (err) {
		path_put(&point);
		return err;
	}
	mutex_lock(&mount_lock);
	publish(m, &point, type->root, type->name);
	mutex_unlock(&mount_lock);
	return 0;
}

/* Was a mount made inside m (on one of its directories)? It could no
 * longer be reached once m is gone. With mount_lock held. */
static bool has_submounts(const struct mount *m)
{
	const struct mount *c;

	list_for_each_entry(c, &mounts, node)
		if (c->parent == m)
			return true;
	return false;
}

int vfs_umount(const char *dir)
{
	struct path where;
	struct mount *m;
	int err = kern_path(dir, &where);

	if (err)
		return err;
	m = where.mnt;
	mutex_lock(&mount_lock);
	if (where.inode != m->root || !m->parent || m->detached)
		err = -EINVAL;		/* no mount's root, or "/" */
	else if (has_submounts(m))
		err = -EBUSY;
	else {
		list_del_rcu(&m->node);
		__atomic_store_n(&m->detached, true, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&m->mountpoint->mounts, 1, __ATOMIC_RELEASE);
	}
	mutex_unlock(&mount_lock);
	path_put(&where);
	if (err)
		return err;
	synchronize_rcu();
	mnt_put(m);		/* the table's */
	return 0;
}

/* ---- Reading the table (for /proc/mounts, kernel/fs/proc/mounts.c) ---- */

void mount_table_lock(void)
{
	mutex_lock(&mount_lock);
}

void mount_table_unlock(void)
{
	mutex_unlock(&mount_lock);
}

bool mount_table_at(size_t n, struct mount_info *info)
{
	struct mount *m;

	list_for_each_entry(m, &mounts, node) {
		if (n-- == 0) {
			*info = (struct mount_info){ m->source, m->dir, m->type };
			return true;
		}
	}
	return false;
}
