/* debugfs: the pseudo filesystem mounted at /sys/kernel/debug, where
 * the kernel shows what is useful to debug it (/sys/kernel/debug/kprobes/
 * on Linux), and the calls that make its files, with Linux's names and
 * signatures, for the kernel and for modules (include/linux/debugfs.h).
 * A file made by a module's code goes with the module (pseudofs.h). */
#ifndef KERNEL_FS_DEBUGFS_H
#define KERNEL_FS_DEBUGFS_H

#include "kernel/fs/dentry.h"
#include "kernel/fs/vfs.h"

/* Make a directory in parent (NULL: the top of debugfs). Returns it, or
 * an ERR_PTR (which, as in Linux, callers need not check: every call
 * given one as parent or to remove passes it on or does nothing). */
struct dentry *debugfs_create_dir(const char *name, struct dentry *parent);

/* Make a file in parent whose calls go to fops; its inode's i_private
 * is data. mode is not kept (vfs.h's umode_t). Returns it, or an
 * ERR_PTR. */
struct dentry *debugfs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops);

/* Remove a file or a directory with everything under it, waiting until
 * no call into its files runs; NULL or an ERR_PTR does nothing. */
void debugfs_remove(struct dentry *dentry);
/* Linux's older name: debugfs_remove has been recursive since 5.6. */
#define debugfs_remove_recursive debugfs_remove

#endif
