/* The mount table (mount.h), and /proc/mounts, which shows it.
 *
 * Mounts and unmounts change the table under mount_lock, a mutex; path
 * walks read it without a lock, as an RCU list. A mount is published in
 * this order: filled in, added to the list (a release store), and only
 * then counted on the directory it covers (another); a walk loads the
 * count first (acquire), so when it sees one it also sees the entry.
 * An unmount takes the entry out and lowers the count, then waits a
 * grace period, after which no walk can be looking at the entry (or be
 * about to take a reference to its root), before it lets them go. The
 * root's entry, made at boot, never goes. */

#include "kernel/fs/mount.h"
#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/rcu.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/list.h"
#include "lib/string.h"

struct mount {
	struct list_node node;		/* in mounts, oldest first */
	struct inode *mountpoint;	/* the directory it covers; NULL: "/" */
	struct inode *root;		/* what a walk finds there instead */
	const char *type;		/* its type's name */
	char *source;			/* as given to mount ("none") */
	char *dir;			/* where: the path with single slashes */
};

static struct mutex mount_lock = MUTEX_INIT(mount_lock, "mounts");
static LIST_HEAD(mounts);
static LIST_HEAD(types);
/* "/": stored once at boot, read by every walk. */
static struct inode *root_inode;

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

/* The length of path written with single slashes and none at the end
 * ("//a//b/" is "/a/b"), and that path into out if it is not NULL; the
 * path's names have been walked already, so none is too long. */
static size_t canonical_path(const char *path, char *out)
{
	const char *name;
	size_t len = 0;
	int n;

	while ((n = vfs_next_component(&path, &name)) > 0) {
		if (out) {
			out[len] = '/';
			memcpy(out + len + 1, name, (size_t)n);
		}
		len += 1 + (size_t)n;
	}
	if (len == 0) {		/* the root: "/" */
		if (out)
			out[0] = '/';
		len = 1;
	}
	if (out)
		out[len] = '\0';
	return len;
}

/* A mount entry holding copies of source and of dir, canonical. */
static struct mount *new_mount(const char *source, const char *dir)
{
	size_t source_len = strlen(source) + 1, dir_len = canonical_path(dir, NULL) + 1;
	struct mount *m = kzalloc(sizeof(*m) + source_len + dir_len);

	if (!m)
		return NULL;
	m->source = (char *)(m + 1);
	m->dir = m->source + source_len;
	memcpy(m->source, source, source_len);
	canonical_path(dir, m->dir);
	return m;
}

/* Add m, covering mountpoint (whose reference it keeps) with root. */
static void publish(struct mount *m, struct inode *mountpoint, struct inode *root,
		    const char *type)
{
	m->mountpoint = mountpoint;
	m->root = root;
	m->type = type;
	inode_get(root);
	list_add_tail_rcu(&m->node, &mounts);
	if (mountpoint)
		__atomic_add_fetch(&mountpoint->mounts, 1, __ATOMIC_RELEASE);
}

/* No lock: nothing else runs yet (mount.h). */
void vfs_mount_root(struct inode *root, const char *source, const char *type_name)
{
	struct mount *m = new_mount(source, "/");

	if (m)
		publish(m, NULL, root, type_name);
	__atomic_store_n(&root_inode, root, __ATOMIC_RELEASE);
}

struct inode *mount_get_root(void)
{
	struct inode *root = __atomic_load_n(&root_inode, __ATOMIC_ACQUIRE);

	if (root)
		inode_get(root);	/* the root's mount keeps it: never 0 */
	return root;
}

/* The newest mount on inode is the one a walk sees: mounts stack, as
 * in Linux, and an unmount uncovers the one before. */
struct inode *mount_cross(struct inode *inode)
{
	struct inode *root = NULL;
	struct mount *m;

	if (!__atomic_load_n(&inode->mounts, __ATOMIC_ACQUIRE))
		return inode;
	rcu_read_lock();
	list_for_each_entry_rcu(m, &mounts, node)
		if (m->mountpoint == inode)
			root = m->root;
	if (root)
		inode_get(root);	/* the mount's reference outlasts the grace period */
	rcu_read_unlock();
	if (!root)
		return inode;		/* unmounted meanwhile */
	inode_put(inode);
	return root;
}

/* A type, once registered, stays: it may be used after the lock. */
int vfs_mount(const char *source, const char *dir, const char *type_name)
{
	struct file_system_type *type;
	struct inode *point;
	struct mount *m;
	int err;

	mutex_lock(&mount_lock);
	type = find_type(type_name);
	mutex_unlock(&mount_lock);
	if (!type)
		return -ENODEV;
	err = vfs_mountpoint(dir, &point);
	if (err)
		return err;
	m = new_mount(source, dir);
	if (!m) {
		inode_put(point);
		return -ENOMEM;
	}
	mutex_lock(&mount_lock);
	publish(m, point, type->root, type->name);
	mutex_unlock(&mount_lock);
	return 0;
}

/* The newest entry mounted at the canonical path dir, and whether
 * taking it away would leave a mount below dir with no way to reach it:
 * one lies below, and no other mount at dir stays. With mount_lock
 * held. */
static struct mount *find_mount(const char *dir, bool *busy)
{
	size_t len = strlen(dir);
	struct mount *m, *found = NULL;
	bool below = false;
	int at_dir = 0;

	list_for_each_entry(m, &mounts, node) {
		if (m->mountpoint && strcmp(m->dir, dir) == 0) {
			found = m;
			at_dir++;
		} else if (strncmp(m->dir, dir, len) == 0 && m->dir[len] == '/') {
			below = true;
		}
	}
	*busy = below && at_dir == 1;
	return found;
}

int vfs_umount(const char *dir)
{
	struct inode *point;
	struct mount *m = NULL;
	bool busy;
	char *path;
	int err = vfs_mountpoint(dir, &point);

	if (err)
		return err == -EBUSY ? -EINVAL : err;	/* "/": not a mount of ours */
	inode_put(point);
	path = kmalloc(canonical_path(dir, NULL) + 1);
	if (!path)
		return -ENOMEM;
	canonical_path(dir, path);
	mutex_lock(&mount_lock);
	m = find_mount(path, &busy);
	if (!m)
		err = -EINVAL;
	else if (busy)
		err = -EBUSY;
	else {
		list_del_rcu(&m->node);
		__atomic_sub_fetch(&m->mountpoint->mounts, 1, __ATOMIC_RELEASE);
	}
	mutex_unlock(&mount_lock);
	kfree(path);
	if (err)
		return err;
	synchronize_rcu();
	inode_put(m->root);
	inode_put(m->mountpoint);
	kfree(m);
	return 0;
}

/* ---- /proc/mounts: one line per mount, as Linux's ---- */

static void *mounts_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	mutex_lock(&mount_lock);
	return seq_list_start(&mounts, *pos);
}

static void *mounts_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	return seq_list_next(v, &mounts, pos);
}

static void mounts_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	mutex_unlock(&mount_lock);
}

/* A word of the table, with what would split it into two (a space, a
 * tab, a newline) and the backslash written as Linux writes them: a
 * backslash and three octal digits. */
static void show_word(struct seq_file *m, const char *word)
{
	for (; *word; word++) {
		if (*word == ' ' || *word == '\t' || *word == '\n' || *word == '\\')
			seq_printf(m, "\\%03o", (unsigned char)*word);
		else
			seq_putc(m, *word);
	}
}

/* "SOURCE DIR TYPE rw 0 0": every mount can be written, and the last
 * two fields are fstab's dump and pass numbers, 0 in Linux's too. */
static int mounts_show(struct seq_file *m, void *v)
{
	struct mount *mnt = list_entry((struct list_node *)v, struct mount, node);

	show_word(m, mnt->source);
	seq_putc(m, ' ');
	show_word(m, mnt->dir);
	seq_printf(m, " %s rw 0 0\n", mnt->type);
	return 0;
}

static const struct seq_operations mounts_ops = {
	.start = mounts_start, .next = mounts_next, .stop = mounts_stop,
	.show = mounts_show,
};

static int proc_mounts_init(void)
{
	return proc_create_seq("mounts", 0444, NULL, &mounts_ops) ? 0 : -ENOMEM;
}
late_initcall(proc_mounts_init);
