/* struct file, struct inode and struct file_operations, for modules:
 * the kernel's own (kernel/fs/vfs.h). They answer to Linux's names where
 * ProbeOS has the same thing: the operations' fields and signatures,
 * file->private_data, inode->i_private, the O_ and SEEK_ values. A
 * file's position and open flags are file->pos and file->flags (Linux's
 * f_pos and f_flags). Also simple_read_from_buffer (kernel/fs/libfs.h)
 * and THIS_MODULE, for the owner field (linux/module.h). */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H

#include <linux/module.h>
#include <linux/stat.h>
#include <linux/types.h>
#include "kernel/fs/libfs.h"
#include "kernel/fs/vfs.h"

/* The inode a file is open on. */
static inline struct inode *file_inode(const struct file *file)
{
	return file->inode;
}

#endif
