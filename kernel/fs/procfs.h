/* procfs: the pseudo filesystem mounted at /proc, and the calls that
 * make its files, with Linux 6's names and signatures, for the kernel
 * and for modules (include/linux/proc_fs.h). Names may be paths through
 * directories that exist ("sys/debug"). A file made by a module's code
 * goes with the module (pseudofs.h). */
#ifndef KERNEL_FS_PROCFS_H
#define KERNEL_FS_PROCFS_H

#include "kernel/fs/pseudofs.h"
#include "kernel/fs/seq_file.h"

/* What a /proc file does: Linux's struct proc_ops (since 5.6 procfs
 * takes these, not file operations), with the fields ProbeOS has. Each
 * has the signature of the file operation of the same name. */
struct proc_ops {
	int (*proc_open)(struct inode *inode, struct file *file);
	ssize_t (*proc_read)(struct file *file, char *buf, size_t count, loff_t *pos);
	ssize_t (*proc_write)(struct file *file, const char *buf, size_t count, loff_t *pos);
	loff_t (*proc_lseek)(struct file *file, loff_t offset, int whence);
	int (*proc_release)(struct inode *inode, struct file *file);
};

/* A file or directory of /proc. */
struct proc_dir_entry {
	struct pseudo_node node;
};

/* Make a file in parent (NULL: /proc itself) whose calls go to
 * proc_ops; pde_data() of its inode is data. mode is not kept
 * (vfs.h's umode_t). Returns it, or NULL (the name exists, a directory
 * on the way does not, no memory). */
struct proc_dir_entry *proc_create_data(const char *name, umode_t mode,
					struct proc_dir_entry *parent,
					const struct proc_ops *proc_ops, void *data);
struct proc_dir_entry *proc_create(const char *name, umode_t mode, struct proc_dir_entry *parent,
				   const struct proc_ops *proc_ops);

/* A file of one record printed by show(m, v) (single_open's), whose
 * m->private is data. */
struct proc_dir_entry *proc_create_single_data(const char *name, umode_t mode,
					       struct proc_dir_entry *parent,
					       int (*show)(struct seq_file *m, void *v),
					       void *data);
#define proc_create_single(name, mode, parent, show)                          \
	proc_create_single_data(name, mode, parent, show, NULL)

/* A file of records walked by ops (seq_open's); pde_data() of its inode
 * is data. */
struct proc_dir_entry *proc_create_seq_data(const char *name, umode_t mode,
					    struct proc_dir_entry *parent,
					    const struct seq_operations *ops, void *data);
#define proc_create_seq(name, mode, parent, ops)                              \
	proc_create_seq_data(name, mode, parent, ops, NULL)

/* Make a directory; NULL if it cannot be made. */
struct proc_dir_entry *proc_mkdir(const char *name, struct proc_dir_entry *parent);

/* Remove an entry and everything under it (nothing for NULL), waiting
 * until no call into its files runs (pseudofs_remove). */
void proc_remove(struct proc_dir_entry *de);
/* The same for the entry called name in parent (NULL: /proc). */
void remove_proc_entry(const char *name, struct proc_dir_entry *parent);

/* The data a /proc file was made with. */
void *pde_data(const struct inode *inode);

#endif
