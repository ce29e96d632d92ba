/* procfs: /proc, and Linux's calls to make its files (procfs.h).
 *
 * A /proc file is a pseudo file (pseudofs.h) whose file operations are
 * its proc_ops, which have the same signatures; one of one record
 * (proc_create_single) or of records (proc_create_seq) gets seq_file's,
 * with its show function or seq_operations kept in the node's fs_data.
 * The directory /proc/sys, where Linux's sysctl files are, is made at
 * boot, for the subsystems whose files go there. */

#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/export.h"
#include "lib/string.h"

static struct pseudofs procfs = PSEUDOFS_INIT(procfs, "proc");

static struct proc_dir_entry *to_pde(struct pseudo_node *node)
{
	return container_of(node, struct proc_dir_entry, node);
}

/* Make what spec says in parent: the entry, or NULL. */
static struct proc_dir_entry *make(struct proc_dir_entry *parent, const struct pseudo_spec *spec)
{
	struct pseudo_node *node = pseudofs_create(&procfs, parent ? &parent->node : NULL, spec);

	return IS_ERR(node) ? NULL : to_pde(node);
}

/* A file whose operations are ops, as the file operations they are. */
static struct proc_dir_entry *make_file(const char *name, struct proc_dir_entry *parent,
					const struct proc_ops *ops, void *data, const void *caller)
{
	const struct file_operations fops = {
		.open = ops->proc_open, .read = ops->proc_read, .write = ops->proc_write,
		.llseek = ops->proc_lseek, .release = ops->proc_release,
	};

	return make(parent, &(struct pseudo_spec){
		.name = name, .fops = &fops, .data = data, .caller = caller,
	});
}

struct proc_dir_entry *proc_create_data(const char *name, umode_t mode,
					struct proc_dir_entry *parent,
					const struct proc_ops *proc_ops, void *data)
{
	(void)mode;
	return make_file(name, parent, proc_ops, data, PSEUDOFS_CALLER());
}
EXPORT_SYMBOL(proc_create_data);

struct proc_dir_entry *proc_create(const char *name, umode_t mode, struct proc_dir_entry *parent,
				   const struct proc_ops *proc_ops)
{
	(void)mode;
	return make_file(name, parent, proc_ops, NULL, PSEUDOFS_CALLER());
}
EXPORT_SYMBOL(proc_create);

/* ---- Files of seq_file ---- */

static const void *fs_data_of(struct inode *inode)
{
	return to_pseudo_node(to_dentry(inode))->fs_data;
}

static int proc_single_open(struct inode *inode, struct file *file)
{
	int (*show)(struct seq_file *m, void *v) = fs_data_of(inode);

	return single_open(file, show, inode->i_private);
}

static const struct file_operations proc_single_fops = {
	.open = proc_single_open, .read = seq_read, .llseek = seq_lseek,
	.release = single_release,
};

struct proc_dir_entry *proc_create_single_data(const char *name, umode_t mode,
					       struct proc_dir_entry *parent,
					       int (*show)(struct seq_file *m, void *v),
					       void *data)
{
	(void)mode;
	return make(parent, &(struct pseudo_spec){
		.name = name, .fops = &proc_single_fops, .data = data, .fs_data = show,
		.caller = PSEUDOFS_CALLER(),
	});
}
EXPORT_SYMBOL(proc_create_single_data);

static int proc_seq_open(struct inode *inode, struct file *file)
{
	return seq_open(file, fs_data_of(inode));
}

static const struct file_operations proc_seq_fops = {
	.open = proc_seq_open, .read = seq_read, .llseek = seq_lseek,
	.release = seq_release,
};

struct proc_dir_entry *proc_create_seq_data(const char *name, umode_t mode,
					    struct proc_dir_entry *parent,
					    const struct seq_operations *ops, void *data)
{
	(void)mode;
	return make(parent, &(struct pseudo_spec){
		.name = name, .fops = &proc_seq_fops, .data = data, .fs_data = ops,
		.caller = PSEUDOFS_CALLER(),
	});
}
EXPORT_SYMBOL(proc_create_seq_data);

/* ---- Directories, removal, data ---- */

struct proc_dir_entry *proc_mkdir(const char *name, struct proc_dir_entry *parent)
{
	return make(parent, &(struct pseudo_spec){ .name = name, .caller = PSEUDOFS_CALLER() });
}
EXPORT_SYMBOL(proc_mkdir);

void proc_remove(struct proc_dir_entry *de)
{
	pseudofs_remove(de ? &de->node : NULL);
}
EXPORT_SYMBOL(proc_remove);

void remove_proc_entry(const char *name, struct proc_dir_entry *parent)
{
	struct pseudo_node *dir = parent ? &parent->node : &procfs.root;
	struct inode *found = dentry_lookup(&dir->dentry.inode, name, strlen(name));

	if (!found)
		return;
	pseudofs_remove(to_pseudo_node(to_dentry(found)));
	inode_put(found);
}
EXPORT_SYMBOL(remove_proc_entry);

void *pde_data(const struct inode *inode)
{
	return inode->i_private;
}
EXPORT_SYMBOL(pde_data);

static int procfs_init(void)
{
	register_filesystem(&procfs.type);
	return proc_mkdir("sys", NULL) ? 0 : -ENOMEM;
}
late_initcall(procfs_init);
