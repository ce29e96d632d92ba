/* ramfs: files and directories kept in kernel memory.
 *
 * Every inode is embedded in a struct ramfs_node. A directory keeps its
 * children in a list sorted by name, so listings come out in the same
 * order every time. A file keeps its contents in a kmalloc'd buffer of
 * `capacity` bytes of which the first inode.size are used; the contents
 * are copied out of the boot archive so that files can be written.
 *
 * Locking: one spinlock, ramfs_lock, guards the shape of every mounted
 * ramfs tree (the children lists) and the contents of every file (data,
 * capacity, inode.size). Each operation takes it once around the walk or
 * copy it does; nothing here sleeps or calls out with it held. One lock
 * for everything is coarse, but it is easy to see that it is right, and
 * vfs_read is called by the shell and by a background worker at once.
 *
 * A tree that is still being built (or is being destroyed) is reachable
 * only by the thread building it, so build and destroy take no lock;
 * vfs_mount_root publishes the finished tree to the other CPUs. */

#include "kernel/mm/heap.h"
#include "kernel/ramfs.h"
#include "kernel/spinlock.h"
#include "kernel/vfs.h"
#include "lib/cpio.h"
#include "lib/errno.h"
#include "lib/list.h"
#include "lib/string.h"

/* Cap on a file's size: keeps pos + count far from overflowing and one
 * runaway writer from eating all of memory. */
#define RAMFS_FILE_MAX ((size_t)64 << 20)
/* The smallest buffer a write allocates; then it doubles. */
#define RAMFS_MIN_CAPACITY 64

struct ramfs_node {
	struct inode inode;		/* what the VFS sees */
	struct ramfs_node *parent;	/* NULL for the root */
	struct list_node sibling;	/* entry in parent->children */
	struct list_node children;	/* directories: sorted by name */
	char *data;			/* files: the contents */
	size_t capacity;		/* files: bytes allocated at data */
};

static struct spinlock ramfs_lock = SPINLOCK_INIT("ramfs");

static struct ramfs_node *to_node(struct inode *inode)
{
	return container_of(inode, struct ramfs_node, inode);
}

/* ---- Directories ---- */

/* Find name among dir's children. Caller holds ramfs_lock, or owns a
 * tree that is not mounted. */
static struct ramfs_node *find_child(struct ramfs_node *dir, const char *name)
{
	struct ramfs_node *child;

	list_for_each_entry(child, &dir->children, sibling) {
		int cmp = strcmp(child->inode.name, name);

		if (cmp == 0)
			return child;
		if (cmp > 0)
			break;	/* sorted: it would have come before this one */
	}
	return NULL;
}

/* Link node into dir's children, before the first name that sorts after it. */
static void insert_sorted(struct ramfs_node *dir, struct ramfs_node *node)
{
	struct list_node *pos;

	list_for_each(pos, &dir->children) {
		struct ramfs_node *child = list_entry(pos, struct ramfs_node, sibling);

		if (strcmp(child->inode.name, node->inode.name) > 0)
			break;
	}
	/* Insert before pos (the list head itself if nothing sorted after). */
	list_insert_between(&node->sibling, pos->prev, pos);
}

static struct inode *ramfs_lookup(struct inode *dir, const char *name)
{
	struct ramfs_node *child;
	unsigned long flags;

	flags = spin_lock_irqsave(&ramfs_lock);
	child = find_child(to_node(dir), name);
	spin_unlock_irqrestore(&ramfs_lock, flags);
	return child ? &child->inode : NULL;
}

static struct inode *ramfs_child(struct inode *dir, size_t index)
{
	struct ramfs_node *child, *found = NULL;
	unsigned long flags;

	flags = spin_lock_irqsave(&ramfs_lock);
	list_for_each_entry(child, &to_node(dir)->children, sibling) {
		if (index-- == 0) {
			found = child;
			break;
		}
	}
	spin_unlock_irqrestore(&ramfs_lock, flags);
	return found ? &found->inode : NULL;
}

static const struct inode_operations ramfs_dir_iops = {
	.lookup = ramfs_lookup,
	.child = ramfs_child,
};

/* ---- Files ---- */

static ssize_t ramfs_read(struct file *file, char *buf, size_t count,
			  loff_t *pos)
{
	struct ramfs_node *node = to_node(file->inode);
	unsigned long flags;
	size_t n = 0;

	if (*pos < 0)
		return -EINVAL;

	flags = spin_lock_irqsave(&ramfs_lock);
	if ((uint64_t)*pos < node->inode.size) {
		n = MIN(count, node->inode.size - (size_t)*pos);
		memcpy(buf, node->data + *pos, n);
	}
	spin_unlock_irqrestore(&ramfs_lock, flags);

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

/* Write at *pos, growing the buffer if the write ends past it. A gap
 * between the old end of the file and *pos reads back as zeros.
 *
 * kmalloc is not called with ramfs_lock held (the heap has its own lock
 * and may one day have to wait for memory), so growing is: note the size
 * needed, drop the lock, allocate, retake the lock, and swap the buffers
 * in unless another writer grew the file even further meanwhile. Either
 * way the buffer is big enough afterwards, and the old one can be freed
 * once the lock is dropped: readers only touch data under the lock. */
static ssize_t ramfs_write(struct file *file, const char *buf, size_t count,
			   loff_t *pos)
{
	struct ramfs_node *node = to_node(file->inode);
	char *fresh = NULL, *old = NULL;
	size_t start, end, size, want;
	unsigned long flags;

	if (*pos < 0)
		return -EINVAL;
	if (count == 0)
		return 0;	/* not even a gap is filled, as in POSIX */
	if ((uint64_t)*pos > RAMFS_FILE_MAX || count > RAMFS_FILE_MAX - (size_t)*pos)
		return -ENOSPC;
	start = (size_t)*pos;
	end = start + count;

	flags = spin_lock_irqsave(&ramfs_lock);
	if (end > node->capacity) {
		want = grown_capacity(node->capacity, end);
		spin_unlock_irqrestore(&ramfs_lock, flags);
		fresh = kmalloc(want);
		if (!fresh)
			return -ENOMEM;
		flags = spin_lock_irqsave(&ramfs_lock);
		if (want > node->capacity) {
			memcpy(fresh, node->data, node->inode.size);
			old = node->data;
			node->data = fresh;
			node->capacity = want;
			fresh = NULL;	/* now owned by the file */
		}
	}

	size = node->inode.size;
	if (start > size)
		memset(node->data + size, 0, start - size);
	memcpy(node->data + start, buf, count);
	/* Atomic store: vfs_readdir reads size without our lock. */
	if (end > size)
		__atomic_store_n(&node->inode.size, end, __ATOMIC_RELAXED);
	spin_unlock_irqrestore(&ramfs_lock, flags);

	kfree(old);
	kfree(fresh);	/* NULL unless another writer got there first */
	*pos = (loff_t)end;
	return (ssize_t)count;
}

static const struct file_operations ramfs_file_fops = {
	.read = ramfs_read,
	.write = ramfs_write,
};

/* ---- Building a tree from an archive ---- */

/* A new, empty node linked under parent (if any). Directories get the
 * directory operations and no file operations, and files the reverse,
 * so the VFS refuses to read a directory or walk into a file. */
static struct ramfs_node *new_node(struct ramfs_node *parent, const char *name,
				   enum inode_type type)
{
	struct ramfs_node *node = kzalloc(sizeof(*node));

	if (!node)
		return NULL;
	strlcpy(node->inode.name, name, sizeof(node->inode.name));
	node->inode.type = type;
	node->inode.iops = type == INODE_DIR ? &ramfs_dir_iops : NULL;
	node->inode.fops = type == INODE_FILE ? &ramfs_file_fops : NULL;
	node->inode.private = node;
	node->parent = parent;
	list_init(&node->sibling);
	list_init(&node->children);
	if (parent)
		insert_sorted(parent, node);
	return node;
}

/* Set *out to dir's subdirectory called name, creating it if missing. */
static int get_subdir(struct ramfs_node *dir, const char *name,
		      struct ramfs_node **out)
{
	struct ramfs_node *child = find_child(dir, name);

	if (child && child->inode.type != INODE_DIR)
		return -ENOTDIR;
	if (!child)
		child = new_node(dir, name, INODE_DIR);
	if (!child)
		return -ENOMEM;
	*out = child;
	return 0;
}

static int add_file(struct ramfs_node *dir, const char *name,
		    const void *contents, size_t size)
{
	struct ramfs_node *node;
	char *data = NULL;

	if (find_child(dir, name))
		return -EEXIST;
	if (size > RAMFS_FILE_MAX)
		return -ENOSPC;
	if (size) {
		data = kmalloc(size);
		if (!data)
			return -ENOMEM;
		memcpy(data, contents, size);
	}
	node = new_node(dir, name, INODE_FILE);
	if (!node) {
		kfree(data);
		return -ENOMEM;
	}
	node->data = data;
	node->capacity = size;
	node->inode.size = size;
	return 0;
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
	char name[VFS_NAME_MAX + 1], next[VFS_NAME_MAX + 1];
	const char *path = entry->name;
	bool have_name = false;
	int len, err;

	/* Symlinks, devices and the like have no ramfs inode: skip them. */
	if (type != CPIO_MODE_DIR && type != CPIO_MODE_FILE)
		return 0;

	/* Keep one component in hand: only once the next one turns up do
	 * we know that it is a directory on the way, not the last name. */
	while ((len = vfs_next_component(&path, next)) != 0) {
		if (len < 0)
			return len;
		if (strcmp(next, ".") == 0)
			continue;
		if (strcmp(next, "..") == 0)
			return -EINVAL;
		if (have_name) {
			err = get_subdir(dir, name, &dir);
			if (err)
				return err;
		}
		strlcpy(name, next, sizeof(name));
		have_name = true;
	}

	if (!have_name)		/* the root itself */
		return type == CPIO_MODE_DIR ? 0 : -EINVAL;
	if (type == CPIO_MODE_FILE)
		return add_file(dir, name, entry->data, entry->size);
	child = find_child(dir, name);
	if (child)	/* already made for an earlier entry's path */
		return child->inode.type == INODE_DIR ? 0 : -EEXIST;
	return new_node(dir, name, INODE_DIR) ? 0 : -ENOMEM;
}

/* Build a tree; returns the entry count (and sets *root) or an errno. */
static int build_tree(const void *archive, size_t size, struct inode **root)
{
	struct ramfs_node *top = new_node(NULL, "/", INODE_DIR);
	int ret;

	if (!top)
		return -ENOMEM;
	ret = cpio_walk(archive, size, add_entry, top);
	if (ret < 0) {
		ramfs_destroy(&top->inode);
		return ret;
	}
	*root = &top->inode;
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
		vfs_mount_root(root);
	return ret;
}

/* Free the tree depth first without recursion (a deep tree must not
 * overflow the small kernel stack): go down to a node with no children,
 * free it, go back up to its parent, and repeat until the root is gone. */
void ramfs_destroy(struct inode *root)
{
	struct ramfs_node *top, *node, *parent;
	bool was_top;

	if (!root)
		return;
	top = to_node(root);
	node = top;
	for (;;) {
		if (!list_empty(&node->children)) {
			node = list_first_entry(&node->children,
						struct ramfs_node, sibling);
			continue;
		}
		parent = node->parent;
		was_top = node == top;
		list_del(&node->sibling);
		kfree(node->data);
		kfree(node);
		if (was_top)
			return;
		node = parent;
	}
}
