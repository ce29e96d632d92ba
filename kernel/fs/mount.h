/* Mounts: filesystems whose roots stand in for directories.
 *
 * The root filesystem (ramfs, from the boot archive) is mounted at "/";
 * every other mount covers a directory of a filesystem mounted before:
 * a path walk that reaches that directory goes on in the mounted root
 * instead (mount_cross), as in Linux. A mount is looked up without a
 * lock, like the rest of a walk: the table is an RCU list, and a
 * directory records how many mounts cover it, so a walk looks in the
 * table only at a mount point.
 *
 * A filesystem type names a tree to mount: the pseudo filesystems
 * (proc, sysfs, debugfs, tracefs: pseudofs.h) each have one, which
 * every mount of the type shows, as Linux's do. */
#ifndef KERNEL_FS_MOUNT_H
#define KERNEL_FS_MOUNT_H

#include "kernel/fs/vfs.h"
#include "lib/list.h"

struct file_system_type {
	const char *name;		/* what `mount -t` names: "proc" */
	struct inode *root;		/* the tree a mount of it shows */
	struct list_node node;		/* in the registered types */
};

/* Make type mountable by its name (from an initcall). */
void register_filesystem(struct file_system_type *type);

/* Mount root at "/": the first mount, made once at boot before any
 * other thread or CPU runs, which nothing covers or unmounts. source and
 * type_name are what the table shows for it ("rootfs", "ramfs"). */
void vfs_mount_root(struct inode *root, const char *source, const char *type_name);

/* The root directory, with a reference taken; NULL before
 * vfs_mount_root. Lock-free: every path walk starts here. */
struct inode *mount_get_root(void);

/* What a walk that reached inode stands on: the root of the filesystem
 * mounted on it, with a reference taken in place of inode's (given
 * back), or inode itself if nothing is mounted there. Lock-free. */
struct inode *mount_cross(struct inode *inode);

/* Mount the filesystem type called type_name on the directory dir;
 * source says what it was made from ("none"), for the table. Linux's
 * mount(2) order. A mount on a directory that has one already goes on
 * top of it, as in Linux: walks see the newest. Returns 0, or -ENODEV
 * (no such type), -EBUSY (dir is "/"), -ENOMEM, or the errors of
 * finding dir (-ENOENT, -ENOTDIR...). */
int vfs_mount(const char *source, const char *dir, const char *type_name);

/* Unmount the newest mount on dir: 0, -EINVAL if nothing is mounted
 * there (or dir is "/"), -EBUSY if another mount lies below it. Files
 * open in it stay open: they hold their inodes. */
int vfs_umount(const char *dir);

#endif
