/* tracefs: the pseudo filesystem of Linux's tracing, mounted at
 * /sys/kernel/tracing and at /sys/kernel/debug/tracing, with Linux's
 * calls to make its files (include/linux/tracefs.h has the same three).
 * Each does in tracefs what its debugfs namesake (debugfs.h) does in
 * debugfs: the same arguments, results and errors. */
#ifndef KERNEL_FS_TRACEFS_H
#define KERNEL_FS_TRACEFS_H

#include "kernel/fs/dentry.h"
#include "kernel/fs/vfs.h"

struct dentry *tracefs_create_dir(const char *name, struct dentry *parent);
struct dentry *tracefs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops);
void tracefs_remove(struct dentry *dentry);

#endif
