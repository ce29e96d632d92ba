/* Pseudo filesystems: trees of directories and generated files that the
 * kernel makes as it runs, the one core that procfs, sysfs, debugfs and
 * tracefs are instances of (docs/files.md).
 *
 * A file is made with the file operations that generate it (seq_file's,
 * usually: seq_file.h), which it keeps a copy of, and a pointer for them
 * (inode->i_private). The VFS never calls those operations directly:
 * every call goes through pseudofs's own (pseudofs.c), which count the
 * calls running, so that a file can be removed safely while it is open,
 * read, or walked to:
 * once pseudofs_remove returns, no call into the file's operations is
 * running or will start, the release of every file still open on it
 * has run, and its creator may free what the operations use (a module
 * its code). Reads and writes on a removed file then fail with -EIO.
 *
 * Each node keeps the address of the code that made it (the caller of
 * the function that made it), so that code about to go can take its
 * nodes with it: pseudofs_remove_made_by. The module loader calls it as
 * a module goes (kernel/module/module_files.c), so a module's files go
 * with it, with a warning, if the module did not remove them itself;
 * this layer knows nothing of modules.
 *
 * Directories and files are made and removed from threads only. */
#ifndef KERNEL_FS_PSEUDOFS_H
#define KERNEL_FS_PSEUDOFS_H

#include "kernel/fs/dentry.h"
#include "kernel/fs/mount.h"
#include "kernel/spinlock.h"
#include "lib/list.h"

struct pseudo_node {
	struct dentry dentry;		/* name, inode, place in the tree: first */
	struct pseudofs *fs;
	bool removed;			/* taken out of the tree (pseudofs_lock) */
	bool gone;			/* and its calls are over */
	uintptr_t maker;		/* the code that made it; 0: unknown */
	struct list_node link;		/* in made_nodes (if maker); once
					   removed, in its remover's list */
	/* Files only: */
	struct file_operations fops;	/* what generates it */
	const void *fs_data;		/* for the filesystem's own fops (procfs's) */
	unsigned long *active;		/* per CPU: calls into fops running */
	struct spinlock openers_lock;
	struct list_node openers;	/* files open on it whose release is due */
};

/* One pseudo filesystem: a type to mount, and its tree. */
struct pseudofs {
	struct file_system_type type;
	struct pseudo_node root;
};

extern const struct inode_operations pseudo_dir_iops;

/* The pseudo filesystem var, whose type is called type_name, with an
 * empty root, for a static definition. */
#define PSEUDOFS_INIT(var, type_name) {                                        \
	.type = { .name = type_name, .root = &(var).root.dentry.inode },      \
	.root = {                                                              \
		.dentry = {                                                    \
			.inode = { .name = "", .type = INODE_DIR, .refs = 1,   \
				   .iops = &pseudo_dir_iops },                 \
			.sibling = LIST_HEAD_INIT((var).root.dentry.sibling),  \
			.children = LIST_HEAD_INIT((var).root.dentry.children), \
		},                                                             \
		.fs = &(var),                                                  \
		.link = LIST_HEAD_INIT((var).root.link),                       \
		.openers = LIST_HEAD_INIT((var).root.openers),                 \
	},                                                                     \
}

/* What pseudofs_create makes. */
struct pseudo_spec {
	/* Its name, or a path of names below the parent through
	 * directories that exist ("sys/debug", as procfs's names may be). */
	const char *name;
	/* Its operations, copied into the node; NULL: a directory. */
	const struct file_operations *fops;
	void *data;		/* inode->i_private, for the operations */
	/* For a filesystem whose operations are its own and need more than
	 * the maker's data: procfs keeps a file's show function here. */
	const void *fs_data;
	/* The code that asked for it, kept as the node's maker: nodes go
	 * with the code that made them (pseudofs_remove_made_by). */
	const void *caller;
};

/* The return address of the function that uses it, into its caller:
 * spec.caller for a function that makes files for others (debugfs's,
 * procfs's). Read from the frame record, so that it is the real one
 * even when a kretprobe on that function has replaced it. */
#define PSEUDOFS_CALLER() pseudofs_caller((uintptr_t)__builtin_frame_address(0))
const void *pseudofs_caller(uintptr_t frame);

/* Make a directory or a file under parent (NULL: the root of fs).
 * Returns it, or ERR_PTR(-EEXIST, -ENOENT (a directory on the way is
 * missing or being removed), -ENOTDIR, -EINVAL (an empty name, "." or
 * ".."), -ENAMETOOLONG or -ENOMEM). */
struct pseudo_node *pseudofs_create(struct pseudofs *fs, struct pseudo_node *parent,
				    const struct pseudo_spec *spec);

/* The same for the calls that take and return a struct dentry, as
 * debugfs and tracefs do: a parent that is an ERR_PTR is returned as it
 * is, and what is made is returned as its dentry. */
struct dentry *pseudofs_create_dentry(struct pseudofs *fs, struct dentry *parent,
				      const struct pseudo_spec *spec);

/* Remove node and everything under it (nothing if it is NULL, an
 * ERR_PTR or a root), and wait until none of their file operations runs
 * (see above); for a node another thread is removing, wait until that
 * removal is done with it. Must not be called from one of the
 * operations of a file it removes: it would wait for itself. */
void pseudofs_remove(struct pseudo_node *node);

/* Remove, as pseudofs_remove does, every node still there that code in
 * [start, start + size) made, each with a warning that who (such as
 * "module foo") left it: that code is going, and nothing may call into
 * it any more. From a thread. */
void pseudofs_remove_made_by(uintptr_t start, size_t size, const char *who);
/* Count the nodes that code in [start, start + size) made as made at
 * to from now on: that code is about to be freed (a module's init), and
 * to is code that stays (the module's core). */
void pseudofs_move_made_by(uintptr_t start, size_t size, uintptr_t to);

/* The node of a dentry. NULL and ERR_PTR values come through as they
 * are, since the dentry is the node's first field. */
static inline struct pseudo_node *to_pseudo_node(struct dentry *d)
{
	return container_of(d, struct pseudo_node, dentry);
}
_Static_assert(offsetof(struct pseudo_node, dentry) == 0, "the dentry comes first");

#endif
