/* Dentries: names, directories and lock-free lookups for the in-memory
 * filesystems (dentry.h). */

#include "kernel/fs/dentry.h"
#include "kernel/mm/heap.h"
#include "lib/string.h"

/* Compare a stored, NUL-terminated name with one of len bytes taken
 * from a path (not terminated there), in strcmp's order. */
static int name_cmp(const char *stored, const char *name, size_t len)
{
	int cmp = strncmp(stored, name, len);

	return cmp ? cmp : (unsigned char)stored[len];
}

/* The name lives right after the filesystem's object, in the same
 * allocation, so that a name costs only its own length (up to
 * VFS_NAME_MAX bytes) and goes with the dentry. */
struct dentry *dentry_alloc(size_t size, const char *name, size_t len, enum inode_type type)
{
	struct dentry *d = kzalloc(size + len + 1);
	char *copy;

	if (!d)
		return NULL;
	copy = (char *)d + size;
	memcpy(copy, name, len);
	copy[len] = '\0';
	d->inode.name = copy;
	d->inode.type = type;
	d->inode.refs = 1;
	list_init(&d->sibling);
	list_init(&d->children);
	return d;
}

struct dentry *dentry_find(struct dentry *dir, const char *name, size_t len)
{
	struct dentry *child;

	list_for_each_entry_rcu(child, &dir->children, sibling) {
		int cmp = name_cmp(child->inode.name, name, len);

		if (cmp == 0)
			return child;
		if (cmp > 0)
			break;	/* sorted: it would have come before this one */
	}
	return NULL;
}

void dentry_link(struct dentry *dir, struct dentry *child)
{
	struct list_node *pos;

	list_for_each(pos, &dir->children) {
		struct dentry *d = list_entry(pos, struct dentry, sibling);

		if (strcmp(d->inode.name, child->inode.name) > 0)
			break;
	}
	inode_get(&dir->inode);		/* child's: see dentry.h */
	child->parent = dir;
	/* Insert before pos (the list head itself if nothing sorted after). */
	list_insert_between_rcu(&child->sibling, pos->prev, pos);
}

void dentry_unlink(struct dentry *d)
{
	list_del_rcu(&d->sibling);
}

void dentry_put_parent(struct dentry *d)
{
	if (d->parent)
		inode_put(&d->parent->inode);
}

struct inode *dentry_lookup(struct inode *dir, const char *name, size_t len)
{
	struct dentry *child;

	rcu_read_lock();
	child = dentry_find(to_dentry(dir), name, len);
	if (child && !inode_get_unless_zero(&child->inode))
		child = NULL;	/* unlinked and closed: on its way out */
	rcu_read_unlock();
	return child ? &child->inode : NULL;
}

/* No lock: dir holds its parent, and the caller holds dir. */
struct inode *dentry_parent(struct inode *dir)
{
	struct dentry *parent = to_dentry(dir)->parent;

	if (!parent)
		return NULL;
	inode_get(&parent->inode);
	return &parent->inode;
}

struct inode *dentry_child(struct inode *dir, size_t index)
{
	struct dentry *child, *found = NULL;

	rcu_read_lock();
	list_for_each_entry_rcu(child, &to_dentry(dir)->children, sibling) {
		if (index-- == 0) {
			if (inode_get_unless_zero(&child->inode))
				found = child;
			break;
		}
	}
	rcu_read_unlock();
	return found ? &found->inode : NULL;
}

struct dentry *dentry_first_leaf(struct dentry *top)
{
	while (!list_empty(&top->children))
		top = list_first_entry(&top->children, struct dentry, sibling);
	return top;
}
