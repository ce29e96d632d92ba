/* Dentries: the nodes of the in-memory trees that ramfs and the pseudo
 * filesystems are made of.
 *
 * In Linux a dentry is a name in a directory, pointing to the inode it
 * names. Here the two live in one object, since nothing is ever read
 * from a disk: a struct dentry holds its inode, its name, its parent
 * and, for a directory, its children, sorted by name so that listings
 * come out in the same order every time. A filesystem's own node
 * begins with one (struct ramfs_node, struct pseudo_node) and adds what
 * its files need.
 *
 * Readers walk the children lists without a lock, inside an RCU
 * read-side section (kernel/rcu.h); each filesystem serializes its own
 * changes (ramfs with a spinlock, pseudofs with a mutex) and makes them
 * with the RCU list calls, so a walker sees a child linked or not, never
 * half linked. A dentry is freed only after its last reference is gone
 * and a grace period has passed (the filesystem's iops->release). */
#ifndef KERNEL_FS_DENTRY_H
#define KERNEL_FS_DENTRY_H

#include "kernel/fs/vfs.h"
#include "kernel/rcu.h"
#include "lib/list.h"

struct dentry {
	struct inode inode;		/* what the VFS sees */
	struct dentry *parent;		/* NULL for a root; held with a
					   reference once linked (below) */
	struct list_node sibling;	/* entry in parent->children */
	struct list_node children;	/* directories: sorted by name */
	struct rcu_head rcu;		/* freeing it after a grace period */
};

static inline struct dentry *to_dentry(struct inode *inode)
{
	return container_of(inode, struct dentry, inode);
}

/* A zeroed object of size bytes that begins with a new, unlinked
 * dentry, followed by a copy of the name (len bytes, not necessarily
 * NUL-terminated in name). It holds one reference: its directory's,
 * once it is linked. NULL when memory is short. */
struct dentry *dentry_alloc(size_t size, const char *name, size_t len, enum inode_type type);

/* The child of dir called name (len bytes), or NULL. Call inside an RCU
 * read-side section, with the filesystem's writers excluded, or on a
 * tree no one else can reach yet. */
struct dentry *dentry_find(struct dentry *dir, const char *name, size_t len);

/* Link child into dir's children, in name order, and publish it to
 * readers. The filesystem's writers are excluded. child takes a
 * reference to dir, which it keeps until it is freed, unlinked or not:
 * so ".." from a directory that someone still holds (a working
 * directory, say) always leads somewhere, as a Linux dentry's d_parent
 * does. */
void dentry_link(struct dentry *dir, struct dentry *child);

/* Give back the reference d holds to its directory: the filesystem
 * calls it as it frees d (after the grace period), so that a parent
 * left with no other reference is freed in turn, one grace period
 * later, never by a recursion down a long chain. */
void dentry_put_parent(struct dentry *d);

/* Take d out of its directory. Readers standing on it walk on; it may be
 * freed only after a grace period. The filesystem's writers are
 * excluded. */
void dentry_unlink(struct dentry *d);

/* iops->lookup for a tree of dentries: the child, with a reference
 * taken, found without a lock; NULL if there is none or it is on its
 * way out. */
struct inode *dentry_lookup(struct inode *dir, const char *name, size_t len);

/* iops->parent for a tree of dentries: dir's parent, with a reference
 * taken; NULL for the root. */
struct inode *dentry_parent(struct inode *dir);

/* iops->child for a tree of dentries: the index-th child in name order,
 * with a reference taken, or NULL past the end. */
struct inode *dentry_child(struct inode *dir, size_t index);

/* The first dentry under top that has no children: top itself when it
 * has none. Taking such leaves away one at a time takes a tree apart
 * without recursion, which a deep tree would need a large stack for. */
struct dentry *dentry_first_leaf(struct dentry *top);

#endif
