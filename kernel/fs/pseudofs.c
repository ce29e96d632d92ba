/* Pseudo filesystems: making, calling and removing generated files
 * (pseudofs.h).
 *
 * Making and removing: the trees' shape changes under pseudofs_lock, a
 * mutex (a file's maker may sleep; lookups never take it: dentry.c). A
 * removal takes its whole subtree out under the lock at once, marking
 * every node removed, and then, without the lock, waits for each file's
 * calls to end: a file's operations may make or remove other files
 * meanwhile. A second removal of a node already being removed waits
 * until the first is done with it.
 *
 * Calling: the VFS calls pseudo_file_fops, which enter() the node,
 * call the creator's operation, and leave() it. enter counts the call
 * on this CPU's own counter (node->active is per CPU: readers on
 * several CPUs write no shared word), unless the node is marked
 * removed. A remover marks it, waits an RCU grace period (after which
 * every call that missed the mark has counted itself, since the check
 * and the count are one read-side section), then waits for the sum of
 * the counters to drop to 0. From then on no call starts or runs. One
 * grace period serves every file of a removed subtree, all marked
 * before it: a directory of a thousand files goes at the cost of one.
 *
 * Files still open: their release is due, and must not come after the
 * creator is gone. So an open that has a release to come records an
 * opener; a remover runs the release of every opener left, and a close
 * runs the release of its own opener only if it took it off the list
 * first, counted as a call, which the remover waits for too. Either way
 * each release runs once. (Linux's procfs does the same with its
 * pde_openers.) */

#include "kernel/backtrace.h"
#include "kernel/fs/pseudofs.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/percpu_alloc.h"
#include "kernel/mutex.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/rcu.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/string.h"

/* A file open on a node, whose release is still to run. */
struct opener {
	struct list_node node;		/* in pseudo_node->openers */
	struct file *file;
};

static struct mutex pseudofs_lock = MUTEX_INIT(pseudofs_lock, "pseudofs");
/* The nodes whose maker is known, oldest first (pseudofs_lock). */
static LIST_HEAD(made_nodes);

static struct pseudo_node *inode_node(struct inode *inode)
{
	return to_pseudo_node(to_dentry(inode));
}

/* ---- Calls into a file's operations ---- */

/* Add delta to this CPU's count of calls into node: preemption is off. */
static void count_call(struct pseudo_node *node, long delta)
{
	unsigned long *mine = this_cpu_ptr(node->active);

	__atomic_store_n(mine, *mine + (unsigned long)delta, __ATOMIC_RELEASE);
}

/* Count a call into node's operations, unless node is being removed. */
static bool enter(struct pseudo_node *node)
{
	bool ok;

	rcu_read_lock();
	ok = !__atomic_load_n(&node->removed, __ATOMIC_RELAXED);
	if (ok)
		count_call(node, 1);
	rcu_read_unlock();
	return ok;
}

/* The call is over (it may end on another CPU than it began: only the
 * sum of the counters means anything). */
static void leave(struct pseudo_node *node)
{
	preempt_disable();
	count_call(node, -1);
	preempt_enable();
}

/* Wait until no call into node runs. */
static void wait_idle(struct pseudo_node *node)
{
	while (per_cpu_sum(node->active))
		thread_sleep(1);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

/* Take the opener of file off node's list and count the release to come
 * as a call: NULL if a remover took it (and runs the release). */
static struct opener *take_opener(struct pseudo_node *node, struct file *file)
{
	unsigned long flags = spin_lock_irqsave(&node->openers_lock);
	struct opener *o, *found = NULL;

	list_for_each_entry(o, &node->openers, node) {
		if (o->file == file) {
			found = o;
			list_del(&o->node);
			count_call(node, 1);
			break;
		}
	}
	spin_unlock_irqrestore(&node->openers_lock, flags);
	return found;
}

/* Any opener of node, off its list: NULL when none is left. */
static struct opener *pop_opener(struct pseudo_node *node)
{
	unsigned long flags = spin_lock_irqsave(&node->openers_lock);
	struct opener *o = NULL;

	if (!list_empty(&node->openers)) {
		o = list_first_entry(&node->openers, struct opener, node);
		list_del(&o->node);
	}
	spin_unlock_irqrestore(&node->openers_lock, flags);
	return o;
}

/* What the file's operations cannot do is refused at open, as Linux
 * refuses what a file's mode bits forbid: writing /proc/version fails
 * with -EACCES when it is opened, not with -EINVAL at the first write. */
static int check_access(const struct pseudo_node *node, int flags)
{
	int mode = flags & O_ACCMODE;

	if (mode != O_RDONLY && !node->fops.write)
		return -EACCES;
	if (mode != O_WRONLY && !node->fops.read)
		return -EACCES;
	return 0;
}

static int pseudo_open(struct inode *inode, struct file *file)
{
	struct pseudo_node *node = inode_node(inode);
	struct opener *o = NULL;
	unsigned long flags;
	int err;

	if (!enter(node))
		return -ENOENT;
	err = check_access(node, file->flags);
	if (!err && node->fops.release && !(o = kmalloc(sizeof(*o))))
		err = -ENOMEM;
	if (!err && node->fops.open)
		err = node->fops.open(inode, file);
	if (!err && o) {
		o->file = file;
		flags = spin_lock_irqsave(&node->openers_lock);
		list_add_tail(&o->node, &node->openers);
		spin_unlock_irqrestore(&node->openers_lock, flags);
	} else {
		kfree(o);
	}
	leave(node);
	return err;
}

/* One read or write through the creator's operation, if the file is
 * still there. */
static ssize_t read_or_write(struct file *file, char *buf, size_t count, loff_t *pos,
			     bool writing)
{
	struct pseudo_node *node = inode_node(file->inode);
	const struct file_operations *fops = &node->fops;
	ssize_t ret;

	if (!enter(node))
		return -EIO;
	if (writing)
		ret = fops->write ? fops->write(file, buf, count, pos) : -EINVAL;
	else
		ret = fops->read ? fops->read(file, buf, count, pos) : -EINVAL;
	leave(node);
	return ret;
}

static ssize_t pseudo_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return read_or_write(file, buf, count, pos, false);
}

/* The write operation takes the bytes as they are: the cast only lets
 * one function carry both directions. */
static ssize_t pseudo_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return read_or_write(file, (char *)buf, count, pos, true);
}

static loff_t pseudo_llseek(struct file *file, loff_t offset, int whence)
{
	struct pseudo_node *node = inode_node(file->inode);
	loff_t ret;

	if (!enter(node))
		return -EIO;
	ret = node->fops.llseek ? node->fops.llseek(file, offset, whence)
				: default_llseek(file, offset, whence);
	leave(node);
	return ret;
}

static int pseudo_release(struct inode *inode, struct file *file)
{
	struct pseudo_node *node = inode_node(inode);
	struct opener *o = take_opener(node, file);

	if (o) {
		node->fops.release(inode, file);
		kfree(o);
		leave(node);
	}
	return 0;
}

static const struct file_operations pseudo_file_fops = {
	.llseek = pseudo_llseek,
	.read = pseudo_read,
	.write = pseudo_write,
	.open = pseudo_open,
	.release = pseudo_release,
};

/* ---- Nodes ---- */

static void free_node_rcu(struct rcu_head *head)
{
	struct dentry *d = container_of(head, struct dentry, rcu);

	dentry_put_parent(d);
	kfree(to_pseudo_node(d));
}

/* iops->release: removed, and the last file on it closed. A lookup that
 * found it just before may still be looking at it. */
static struct inode *release_node(struct inode *inode)
{
	call_rcu(&to_dentry(inode)->rcu, free_node_rcu);
	return NULL;	/* the parent is put a grace period later, in free_node_rcu */
}

const struct inode_operations pseudo_dir_iops = {
	.lookup = dentry_lookup,
	.parent = dentry_parent,
	.child = dentry_child,
	.release = release_node,
};

static const struct inode_operations pseudo_file_iops = {
	.release = release_node,
};

static bool dot_or_dot_dot(const char *name, size_t len)
{
	return name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.'));
}

/* Walk name's components but the last from *dir, which ends at the
 * directory the last goes into; *last and *len are that component.
 * With pseudofs_lock held. */
static int find_parent(struct pseudo_node **dir, const char *name, const char **last,
		       size_t *len)
{
	const char *next;
	int n = vfs_next_component(&name, last), next_n;

	for (; n > 0; n = next_n) {
		struct dentry *d;

		if (dot_or_dot_dot(*last, (size_t)n))
			return -EINVAL;
		next_n = vfs_next_component(&name, &next);
		if (next_n == 0)
			break;
		d = dentry_find(&(*dir)->dentry, *last, (size_t)n);
		if (!d)
			return -ENOENT;
		if (d->inode.type != INODE_DIR)
			return -ENOTDIR;
		*dir = to_pseudo_node(d);
		*last = next;
	}
	if (n <= 0)
		return n ? n : -EINVAL;	/* a name too long, or none */
	*len = (size_t)n;
	return 0;
}

/* A new node called name (len bytes), for spec, not linked yet. */
static struct pseudo_node *new_node(struct pseudo_node *dir, const struct pseudo_spec *spec,
				    const char *name, size_t len)
{
	enum inode_type type = spec->fops ? INODE_FILE : INODE_DIR;
	struct dentry *d = dentry_alloc(sizeof(struct pseudo_node), name, len, type);
	struct pseudo_node *node;

	if (!d)
		return NULL;
	node = to_pseudo_node(d);
	d->inode.iops = spec->fops ? &pseudo_file_iops : &pseudo_dir_iops;
	d->inode.fops = spec->fops ? &pseudo_file_fops : NULL;
	d->inode.i_private = spec->data;
	node->fs = dir->fs;
	if (spec->fops)
		node->fops = *spec->fops;
	node->fs_data = spec->fs_data;
	node->openers_lock = (struct spinlock)SPINLOCK_INIT("pseudofs openers");
	list_init(&node->openers);
	list_init(&node->link);
	if (spec->fops && !(node->active = alloc_percpu(unsigned long))) {
		kfree(node);
		return NULL;
	}
	return node;
}

const void *pseudofs_caller(uintptr_t frame)
{
	struct backtrace_entry e;

	return backtrace_collect(frame, &e, 1) == 1 ? (const void *)e.addr : NULL;
}

struct pseudo_node *pseudofs_create(struct pseudofs *fs, struct pseudo_node *parent,
				    const struct pseudo_spec *spec)
{
	struct pseudo_node *dir = parent ? parent : &fs->root, *node = NULL;
	const char *name;
	size_t len;
	int err;

	mutex_lock(&pseudofs_lock);
	err = find_parent(&dir, spec->name, &name, &len);
	if (!err && dir->removed)
		err = -ENOENT;
	if (!err && dir->dentry.inode.type != INODE_DIR)
		err = -ENOTDIR;
	if (!err && dentry_find(&dir->dentry, name, len))
		err = -EEXIST;
	if (!err && !(node = new_node(dir, spec, name, len)))
		err = -ENOMEM;
	if (!err) {
		node->maker = (uintptr_t)spec->caller;
		if (node->maker)
			list_add_tail(&node->link, &made_nodes);
		dentry_link(&dir->dentry, &node->dentry);
	}
	mutex_unlock(&pseudofs_lock);
	return err ? ERR_PTR(err) : node;
}

struct dentry *pseudofs_create_dentry(struct pseudofs *fs, struct dentry *parent,
				      const struct pseudo_spec *spec)
{
	struct pseudo_node *node;

	if (IS_ERR(parent))
		return parent;
	node = pseudofs_create(fs, parent ? to_pseudo_node(parent) : NULL, spec);
	return IS_ERR(node) ? ERR_PTR(PTR_ERR(node)) : &node->dentry;
}

/* ---- Removing ---- */

/* No call into a file's operations runs or will start, and every
 * release due has run: node was marked removed a grace period ago. */
static void revoke(struct pseudo_node *node)
{
	struct opener *o;

	wait_idle(node);
	while ((o = pop_opener(node)) != NULL) {
		node->fops.release(&node->dentry.inode, o->file);
		kfree(o);
	}
	wait_idle(node);	/* a close that took its opener first */
	free_percpu(node->active);
}

/* Take top and everything under it out of the tree, leaf by leaf, each
 * marked removed, onto the list dying (in the order they went). With
 * pseudofs_lock held: no one sees part of it gone but not the rest. */
static void detach(struct pseudo_node *top, struct list_node *dying)
{
	struct pseudo_node *leaf;

	do {
		leaf = to_pseudo_node(dentry_first_leaf(&top->dentry));
		__atomic_store_n(&leaf->removed, true, __ATOMIC_RELAXED);
		dentry_unlink(&leaf->dentry);
		list_del(&leaf->link);		/* from made_nodes, if there */
		list_add_tail(&leaf->link, dying);
	} while (leaf != top);
}

/* Wait until another removal is done with node. */
static void wait_gone(struct pseudo_node *node)
{
	while (!__atomic_load_n(&node->gone, __ATOMIC_ACQUIRE))
		thread_sleep(1);
}

void pseudofs_remove(struct pseudo_node *node)
{
	struct pseudo_node *n, *next;
	LIST_HEAD(dying);
	bool ours;

	if (IS_ERR_OR_NULL(node) || !node->dentry.parent)
		return;
	mutex_lock(&pseudofs_lock);
	ours = !node->removed;
	if (ours)
		detach(node, &dying);
	else
		inode_get(&node->dentry.inode);		/* while it waits */
	mutex_unlock(&pseudofs_lock);
	if (!ours) {
		wait_gone(node);
		inode_put(&node->dentry.inode);
		return;
	}
	synchronize_rcu();	/* every call that missed a mark has counted itself */
	list_for_each_entry_safe(n, next, &dying, link) {
		list_del(&n->link);
		if (n->dentry.inode.type == INODE_FILE)
			revoke(n);
		__atomic_store_n(&n->gone, true, __ATOMIC_RELEASE);
		inode_put(&n->dentry.inode);		/* its directory's */
	}
}

/* ---- Nodes go with the code that made them ---- */

/* node's path from its filesystem's root into buf ("dir/file"): only
 * its last names if they do not all fit. With pseudofs_lock held. */
static void path_in_fs(struct pseudo_node *node, char *buf, size_t size)
{
	size_t start = size - 1;

	buf[start] = '\0';
	for (struct dentry *d = &node->dentry; d->parent; d = d->parent) {
		size_t len = strlen(d->inode.name);

		if (len + 1 > start)
			break;
		start -= len;
		memcpy(buf + start, d->inode.name, len);
		if (d->parent->parent)
			buf[--start] = '/';
	}
	memmove(buf, buf + start, size - start);
}

/* The oldest node that code in [start, start + size) made and that is
 * still there, with a reference taken, after saying that it goes; NULL
 * when none is left. */
static struct pseudo_node *take_left_node(uintptr_t start, size_t size, const char *who)
{
	struct pseudo_node *node, *found = NULL;
	char *path = kmalloc(VFS_PATH_MAX);

	mutex_lock(&pseudofs_lock);
	list_for_each_entry(node, &made_nodes, link) {
		if (node->maker - start < size) {
			found = node;
			inode_get(&node->dentry.inode);
			if (path)
				path_in_fs(node, path, VFS_PATH_MAX);
			kprintf("%s: warning: %s left the %s %s; removing it\n",
				node->fs->type.name, who,
				node->dentry.inode.type == INODE_FILE ? "file" : "directory",
				path ? path : node->dentry.inode.name);
			break;
		}
	}
	mutex_unlock(&pseudofs_lock);
	kfree(path);
	return found;
}

void pseudofs_remove_made_by(uintptr_t start, size_t size, const char *who)
{
	struct pseudo_node *node;

	while ((node = take_left_node(start, size, who)) != NULL) {
		pseudofs_remove(node);
		inode_put(&node->dentry.inode);
	}
}

void pseudofs_move_made_by(uintptr_t start, size_t size, uintptr_t to)
{
	struct pseudo_node *node;

	mutex_lock(&pseudofs_lock);
	list_for_each_entry(node, &made_nodes, link)
		if (node->maker - start < size)
			node->maker = to;
	mutex_unlock(&pseudofs_lock);
}
