/* ramfs: files and directories kept in kernel memory.
 *
 * Every node is a struct ramfs_node, which begins with the struct
 * dentry (dentry.h) that gives it its name, its inode and, for a
 * directory, its children sorted by name. A file keeps its contents in a
 * struct ramfs_data, a kmalloc'd buffer of `capacity` bytes of which the
 * first inode.size are used; the contents are copied out of the boot
 * archive so that files can be written.
 *
 * Locking: readers take no lock, so that CPUs reading files at once
 * never wait for each other or share a cache line they write.
 *  - Directories: lookups walk the children lists without a lock
 *    (dentry_lookup), and take a reference to what they find. Creating
 *    and unlinking change the lists under ramfs_tree_lock; a node is
 *    freed only once its last reference is gone and a grace period has
 *    passed (release_node), so a walker never stands on freed memory.
 *  - File contents: each file has a lock for its writers and a sequence
 *    count (kernel/seqcount.h). A writer bumps the count around each
 *    change; a reader copies, then checks the count, and copies again if
 *    a write overlapped. So a read returns the whole file as it was
 *    before a write or after it, never a mix. A writer that needs a
 *    bigger buffer publishes it with rcu_assign_pointer and frees the old
 *    one after a grace period: a reader may still be copying from it.
 *    A reader that keeps losing to writers takes the writers' lock
 *    (READ_TRIES), so a stream of writes cannot starve it.
 * Nothing here sleeps or calls out with a spinlock held.
 *
 * A tree that is still being built (or is being destroyed) is reachable
 * only by the thread building it, so build and destroy take no lock;
 * vfs_mount_root publishes the finished tree to the other CPUs. */

#include "kernel/fs/dentry.h"
#include "kernel/fs/mount.h"
#include "kernel/mm/heap.h"
#include "kernel/fs/ramfs.h"
#include "kernel/rcu.h"
#include "kernel/seqcount.h"
#include "kernel/spinlock.h"
#include "kernel/fs/vfs.h"
#include "lib/cpio.h"
#include "lib/errno.h"
#include "lib/list.h"
#include "lib/string.h"

/* Cap on a file's size: keeps pos + count far from overflowing and one
 * runaway writer from eating all of memory. */
#define RAMFS_FILE_MAX ((size_t)64 << 20)
/* The smallest buffer a write allocates; then it doubles. */
#define RAMFS_MIN_CAPACITY 64
/* Lock-free passes a read makes before it waits for the writers. */
#define READ_TRIES 4
/* What a replaced buffer is filled with before it is freed: a reader
 * that copied from it too late would return these bytes, and the tests
 * look for them. */
#define RAMFS_FREED_BYTE 0xdd

/* A file's contents. Replaced whole when a write needs more room. */
struct ramfs_data {
	struct rcu_head rcu;		/* freeing it after a grace period */
	size_t capacity;		/* bytes at bytes[] */
	char bytes[];
};

struct ramfs_node {
	struct dentry dentry;		/* name, inode, place in the tree: first */
	struct spinlock lock;		/* files: held by writers */
	struct seqcount seq;		/* files: odd during a write */
	struct ramfs_data *data;	/* files: the contents; NULL if none */
};

/* Guards the shape of every mounted ramfs tree: only creating and
 * unlinking take it, never a lookup or a read. */
static struct spinlock ramfs_tree_lock = SPINLOCK_INIT("ramfs tree");

static const struct inode_operations ramfs_dir_iops;
static const struct inode_operations ramfs_file_iops;
static const struct file_operations ramfs_file_fops;

static struct ramfs_node *to_node(struct inode *inode)
{
	return container_of(to_dentry(inode), struct ramfs_node, dentry);
}

static struct ramfs_node *dentry_node(struct dentry *d)
{
	return container_of(d, struct ramfs_node, dentry);
}

static size_t capacity_of(const struct ramfs_data *data)
{
	return data ? data->capacity : 0;
}

/* ---- Nodes ---- */

/* A new, unlinked node holding one reference: its directory's, once it
 * is linked. Directories get the directory operations and no file
 * operations, and files the reverse, so the VFS refuses to read a
 * directory or walk into a file. */
static struct ramfs_node *alloc_node(const char *name, size_t len, enum inode_type type)
{
	struct dentry *d = dentry_alloc(sizeof(struct ramfs_node), name, len, type);
	struct ramfs_node *node;

	if (!d)
		return NULL;
	node = dentry_node(d);
	d->inode.iops = type == INODE_DIR ? &ramfs_dir_iops : &ramfs_file_iops;
	d->inode.fops = type == INODE_FILE ? &ramfs_file_fops : NULL;
	node->lock = (struct spinlock)SPINLOCK_INIT("ramfs file");
	return node;
}

static void free_data_rcu(struct rcu_head *head)
{
	struct ramfs_data *data = container_of(head, struct ramfs_data, rcu);

	memset(data->bytes, RAMFS_FREED_BYTE, data->capacity);
	kfree(data);
}

/* Free a buffer once no reader can be copying from it. */
static void free_data_later(struct ramfs_data *data)
{
	if (data)
		call_rcu(&data->rcu, free_data_rcu);
}

static void free_node_rcu(struct rcu_head *head)
{
	struct ramfs_node *node = dentry_node(container_of(head, struct dentry, rcu));

	kfree(node->data);	/* no file was open on it: nobody reads it */
	dentry_put_parent(&node->dentry);
	kfree(node);
}

/* iops->release: the last reference is gone (the node was unlinked and
 * every file on it closed), but a lookup that found it just before the
 * unlink may still be looking at it. */
static struct inode *release_node(struct inode *inode)
{
	call_rcu(&to_dentry(inode)->rcu, free_node_rcu);
	return NULL;	/* the parent is put a grace period later, in free_node_rcu */
}

/* ---- Directories ---- */

/* Link a new node called name, of type, into dir, unless the name is
 * taken: *out is then the node that has it, and *made false. Either way
 * *out comes with a reference for the caller. The node is made before
 * the lock is taken and freed if it is not used, so that nothing is
 * allocated under the lock. */
static int link_new(struct inode *dir, const char *name, size_t len, enum inode_type type,
		    struct dentry **out, bool *made)
{
	struct ramfs_node *fresh = alloc_node(name, len, type);
	struct dentry *child;
	unsigned long flags;

	if (!fresh)
		return -ENOMEM;
	flags = spin_lock_irqsave(&ramfs_tree_lock);
	child = dentry_find(to_dentry(dir), name, len);
	*made = !child;
	if (*made) {
		dentry_link(to_dentry(dir), &fresh->dentry);
		child = &fresh->dentry;
	}
	inode_get(&child->inode);	/* the caller's */
	spin_unlock_irqrestore(&ramfs_tree_lock, flags);
	if (!*made)
		kfree(fresh);
	*out = child;
	return 0;
}

static int ramfs_create(struct inode *dir, const char *name, size_t len, struct inode **out)
{
	struct dentry *child;
	bool made;
	int err = link_new(dir, name, len, INODE_FILE, &child, &made);

	if (err)
		return err;
	if (child->inode.type == INODE_DIR) {
		inode_put(&child->inode);
		return -EISDIR;
	}
	*out = &child->inode;
	return 0;
}

static int ramfs_mkdir(struct inode *dir, const char *name, size_t len)
{
	struct dentry *child;
	bool made;
	int err = link_new(dir, name, len, INODE_DIR, &child, &made);

	if (err)
		return err;
	inode_put(&child->inode);
	return made ? 0 : -EEXIST;
}

/* Unlink, then give back the directory's reference: the node goes when
 * the last file open on it is closed. */
static int ramfs_unlink(struct inode *dir, const char *name, size_t len)
{
	struct dentry *child;
	unsigned long flags;
	int err = 0;

	flags = spin_lock_irqsave(&ramfs_tree_lock);
	child = dentry_find(to_dentry(dir), name, len);
	if (!child)
		err = -ENOENT;
	else if (child->inode.type == INODE_DIR)
		err = -EISDIR;
	else
		dentry_unlink(child);
	spin_unlock_irqrestore(&ramfs_tree_lock, flags);
	if (!err)
		inode_put(&child->inode);
	return err;
}

static const struct inode_operations ramfs_dir_iops = {
	.lookup = dentry_lookup,
	.parent = dentry_parent,
	.child = dentry_child,
	.create = ramfs_create,
	.mkdir = ramfs_mkdir,
	.unlink = ramfs_unlink,
	.release = release_node,
};

/* ---- Files ---- */

/* Copy what the file holds at pos into buf, as one pass of a read: the
 * size and buffer may belong to different versions if a write overlaps,
 * so the copy is bounded by both; the caller's retry check throws such a
 * pass away. */
static size_t copy_pass(const struct ramfs_node *node, char *buf, size_t count, size_t pos)
{
	const struct ramfs_data *data = rcu_dereference(node->data);
	size_t size = __atomic_load_n(&node->dentry.inode.size, __ATOMIC_RELAXED);
	size_t end = MIN(size, capacity_of(data)), n = 0;

	if (pos < end) {
		n = MIN(count, end - pos);
		memcpy(buf, data->bytes + pos, n);
	}
	return n;
}

static ssize_t ramfs_read(struct file *file, char *buf, size_t count,
			  loff_t *pos)
{
	struct ramfs_node *node = to_node(file->inode);
	unsigned long flags;
	unsigned int seq;
	size_t n = 0;
	int tries;

	if (*pos < 0)
		return -EINVAL;
	rcu_read_lock();
	for (tries = 0; tries < READ_TRIES; tries++) {
		seq = seqcount_read_begin(&node->seq);
		n = copy_pass(node, buf, count, (size_t)*pos);
		if (!seqcount_read_retry(&node->seq, seq))
			break;
	}
	rcu_read_unlock();
	if (tries == READ_TRIES) {	/* writers kept winning: wait for them */
		flags = spin_lock_irqsave(&node->lock);
		n = copy_pass(node, buf, count, (size_t)*pos);
		spin_unlock_irqrestore(&node->lock, flags);
	}
	*pos += n;
	return (ssize_t)n;
}

/* The buffer size to grow a file to so that it holds end bytes: double
 * the old size, so a file written a little at a time is copied only
 * O(log n) times. */
static size_t grown_capacity(size_t capacity, size_t end)
{
	size_t want = MAX(capacity, (size_t)RAMFS_MIN_CAPACITY);

	while (want < end)
		want *= 2;
	return want;
}

/* Make node's buffer hold at least end bytes. Called with node->lock
 * held (*flags from taking it); kmalloc is not called under a spinlock
 * (the heap has its own lock and may one day wait for memory), so this
 * drops the lock to allocate, and another writer may have grown the
 * file meanwhile: the caller checks again. The old buffer is published
 * away and freed after a grace period, as readers may be copying from
 * it; the new one has the same bytes, so no sequence bump is needed. */
static int grow(struct ramfs_node *node, size_t end, unsigned long *flags)
{
	size_t want = grown_capacity(capacity_of(node->data), end);
	struct ramfs_data *fresh, *old;

	spin_unlock_irqrestore(&node->lock, *flags);
	fresh = kmalloc(sizeof(*fresh) + want);
	*flags = spin_lock_irqsave(&node->lock);
	if (!fresh)
		return -ENOMEM;
	fresh->capacity = want;
	old = node->data;
	if (want <= capacity_of(old)) {
		kfree(fresh);	/* another writer grew it further */
		return 0;
	}
	if (old)
		memcpy(fresh->bytes, old->bytes, node->dentry.inode.size);
	rcu_assign_pointer(node->data, fresh);
	free_data_later(old);
	return 0;
}

/* Atomic store: vfs_readdir and readers load size without any lock. */
static void store_size(struct ramfs_node *node, size_t size)
{
	__atomic_store_n(&node->dentry.inode.size, size, __ATOMIC_RELAXED);
}

/* Set the size, zeroing any bytes between the old end and the new (the
 * caller holds node->lock, inside a sequence write, with room for size). */
static void set_size(struct ramfs_node *node, size_t size)
{
	size_t old = node->dentry.inode.size;

	if (size > old)
		memset(node->data->bytes + old, 0, size - old);
	store_size(node, size);
}

/* Write at *pos (or at the end, for O_APPEND), growing the buffer if the
 * write ends past it. A gap between the old end of the file and the
 * write reads back as zeros. */
static ssize_t ramfs_write(struct file *file, const char *buf, size_t count,
			   loff_t *pos)
{
	struct ramfs_node *node = to_node(file->inode);
	size_t start, end;
	unsigned long flags;
	int err;

	if (*pos < 0)
		return -EINVAL;
	if (count == 0)
		return 0;	/* not even a gap is filled, as in POSIX */
	if (count > RAMFS_FILE_MAX)
		return -ENOSPC;

	flags = spin_lock_irqsave(&node->lock);
	for (;;) {
		start = file->flags & O_APPEND ? node->dentry.inode.size : (size_t)*pos;
		if ((uint64_t)*pos > RAMFS_FILE_MAX || start > RAMFS_FILE_MAX - count) {
			err = -ENOSPC;
			goto out;
		}
		end = start + count;
		if (end <= capacity_of(node->data))
			break;
		err = grow(node, end, &flags);
		if (err)
			goto out;
	}
	seqcount_write_begin(&node->seq);
	if (start > node->dentry.inode.size)
		set_size(node, start);
	memcpy(node->data->bytes + start, buf, count);
	if (end > node->dentry.inode.size)
		store_size(node, end);
	seqcount_write_end(&node->seq);
	err = 0;
out:
	spin_unlock_irqrestore(&node->lock, flags);
	if (err)
		return err;
	*pos = (loff_t)end;
	return (ssize_t)count;
}

/* Cut the file to size bytes, or extend it with zeros. Cut to nothing,
 * it gives its buffer back. */
static int ramfs_truncate(struct inode *inode, size_t size)
{
	struct ramfs_node *node = to_node(inode);
	struct ramfs_data *old = NULL;
	unsigned long flags;
	int err = 0;

	if (size > RAMFS_FILE_MAX)
		return -EFBIG;
	flags = spin_lock_irqsave(&node->lock);
	while (!err && size > capacity_of(node->data))
		err = grow(node, size, &flags);
	if (!err) {
		seqcount_write_begin(&node->seq);
		set_size(node, size);
		if (size == 0) {
			old = node->data;
			rcu_assign_pointer(node->data, NULL);
		}
		seqcount_write_end(&node->seq);
		free_data_later(old);
	}
	spin_unlock_irqrestore(&node->lock, flags);
	return err;
}

static const struct inode_operations ramfs_file_iops = {
	.truncate = ramfs_truncate,
	.release = release_node,
};

static const struct file_operations ramfs_file_fops = {
	.read = ramfs_read,
	.write = ramfs_write,
};

/* ---- Building a tree from an archive ---- */

/* A new, empty node linked under parent (if any), for building a tree. */
static struct ramfs_node *new_node(struct ramfs_node *parent, const char *name, size_t len,
				   enum inode_type type)
{
	struct ramfs_node *node = alloc_node(name, len, type);

	if (node && parent)
		dentry_link(&parent->dentry, &node->dentry);
	return node;
}

/* The child of dir called name, or NULL: the tree is still the
 * builder's alone. */
static struct ramfs_node *find_node(struct ramfs_node *dir, const char *name, size_t len)
{
	struct dentry *d = dentry_find(&dir->dentry, name, len);

	return d ? dentry_node(d) : NULL;
}

/* Set *out to dir's subdirectory called name, creating it if missing. */
static int get_subdir(struct ramfs_node *dir, const char *name, size_t len,
		      struct ramfs_node **out)
{
	struct ramfs_node *child = find_node(dir, name, len);

	if (child && child->dentry.inode.type != INODE_DIR)
		return -ENOTDIR;
	if (!child)
		child = new_node(dir, name, len, INODE_DIR);
	if (!child)
		return -ENOMEM;
	*out = child;
	return 0;
}

static int add_file(struct ramfs_node *dir, const char *name, size_t len,
		    const void *contents, size_t size)
{
	struct ramfs_node *node;
	struct ramfs_data *data = NULL;

	if (find_node(dir, name, len))
		return -EEXIST;
	if (size > RAMFS_FILE_MAX)
		return -ENOSPC;
	if (size) {
		data = kmalloc(sizeof(*data) + size);
		if (!data)
			return -ENOMEM;
		data->capacity = size;
		memcpy(data->bytes, contents, size);
	}
	node = new_node(dir, name, len, INODE_FILE);
	if (!node) {
		kfree(data);
		return -ENOMEM;
	}
	node->data = data;
	node->dentry.inode.size = size;
	return 0;
}

static bool is_name(const char *name, size_t len, const char *text)
{
	return len == strlen(text) && memcmp(name, text, len) == 0;
}

/* cpio_walk calls this for each archive entry; ctx is the root. Every
 * component but the last must be a directory, and is created if the
 * archive did not list it (yet): tools may list a file before its
 * directory, or leave the directory out. "." components are skipped, so
 * the entry "." (or "./etc") names the root (or /etc); ".." is refused. */
static int add_entry(void *ctx, const struct cpio_entry *entry)
{
	struct ramfs_node *dir = ctx, *child;
	uint32_t type = entry->mode & CPIO_MODE_TYPE;
	const char *path = entry->name, *name = NULL, *next;
	int len = 0, next_len, err;

	/* Symlinks, devices and the like have no ramfs inode: skip them. */
	if (type != CPIO_MODE_DIR && type != CPIO_MODE_FILE)
		return 0;
	/* With "/" in front and a NUL after, the VFS must be able to walk it. */
	if (strnlen(path, VFS_PATH_MAX - 1) > VFS_PATH_MAX - 2)
		return -ENAMETOOLONG;

	/* Keep one component in hand: only once the next one turns up do
	 * we know that it is a directory on the way, not the last name. */
	while ((next_len = vfs_next_component(&path, &next)) != 0) {
		if (next_len < 0)
			return next_len;
		if (is_name(next, (size_t)next_len, "."))
			continue;
		if (is_name(next, (size_t)next_len, ".."))
			return -EINVAL;
		if (name) {
			err = get_subdir(dir, name, (size_t)len, &dir);
			if (err)
				return err;
		}
		name = next;
		len = next_len;
	}

	if (!name)		/* the root itself */
		return type == CPIO_MODE_DIR ? 0 : -EINVAL;
	if (type == CPIO_MODE_FILE)
		return add_file(dir, name, (size_t)len, entry->data, entry->size);
	child = find_node(dir, name, (size_t)len);
	if (child)	/* already made for an earlier entry's path */
		return child->dentry.inode.type == INODE_DIR ? 0 : -EEXIST;
	return new_node(dir, name, (size_t)len, INODE_DIR) ? 0 : -ENOMEM;
}

/* Build a tree; returns the entry count (and sets *root) or an errno. */
static int build_tree(const void *archive, size_t size, struct inode **root)
{
	struct ramfs_node *top = new_node(NULL, "/", 1, INODE_DIR);
	int ret;

	if (!top)
		return -ENOMEM;
	ret = cpio_walk(archive, size, add_entry, top);
	if (ret < 0) {
		ramfs_destroy(&top->dentry.inode);
		return ret;
	}
	*root = &top->dentry.inode;
	return ret;
}

struct inode *ramfs_build(const void *archive, size_t size, int *err)
{
	struct inode *root = NULL;
	int ret = build_tree(archive, size, &root);

	*err = ret < 0 ? ret : 0;
	return ret < 0 ? NULL : root;
}

int ramfs_mount_archive(const void *archive, size_t size)
{
	struct inode *root;
	int ret = build_tree(archive, size, &root);

	if (ret >= 0)
		vfs_mount_root(root, "rootfs", "ramfs");
	return ret;
}

/* Free the tree leaf by leaf, without recursion. */
void ramfs_destroy(struct inode *root)
{
	struct dentry *top, *leaf;

	if (!root)
		return;
	top = to_dentry(root);
	do {
		leaf = dentry_first_leaf(top);
		list_del(&leaf->sibling);
		kfree(dentry_node(leaf)->data);
		kfree(dentry_node(leaf));
	} while (leaf != top);
}
