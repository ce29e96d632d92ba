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
 * Each mount remembers the mount its directory is in (its parent), so
 * that ".." from its root climbs back out into that directory
 * (mount_climb). (A mount covers a directory in every mount of that
 * directory's tree, since the table is keyed by the directory; reached
 * through another mount of the tree than the one it was made in, ".."
 * still climbs into the one it was made in. Linux's mounts belong to
 * one parent mount each and have no such case.) It is
 * reference-counted: a path (path.h) holds the
 * mount it is in, so a walk or a working directory inside a mount keeps
 * it, unmounted or not.
 *
 * A filesystem type names a tree to mount: the pseudo filesystems
 * (proc, sysfs, debugfs, tracefs: pseudofs.h) each have one, which
 * every mount of the type shows, as Linux's do. */
#ifndef KERNEL_FS_MOUNT_H
#define KERNEL_FS_MOUNT_H

#include "kernel/fs/vfs.h"
#include "lib/list.h"

struct mount;

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

/* Take another reference to m (Linux's mntget). */
void mnt_get(struct mount *m);
/* Give one back (Linux's mntput). The table holds one while m is
 * mounted, so only an unmounted mount is freed, when the last walk or
 * working directory standing in it leaves; it then gives back what it
 * held: its root, the directory it covered and the mount that directory
 * is in. */
void mnt_put(struct mount *m);

/* "/" and the root's mount, with references taken; false before
 * vfs_mount_root. Lock-free: every absolute path walk starts here. */
bool mount_get_root(struct path *out);

/* If a filesystem is mounted on path's inode, move path onto its root
 * (the newest mount's), with references taken in place of path's.
 * Nothing changes where nothing is mounted. Lock-free. */
void mount_cross(struct path *path);

/* While path stands on the root of a mounted filesystem, move it down
 * to the directory that mount covers, in the mount that directory is in:
 * where ".." leaves from, and what a mount on that path covers. "/"
 * stays. References are taken in place of path's. Returns false if one
 * of the mounts it left has been unmounted: path is then no longer
 * reachable from "/". Lock-free. */
bool mount_climb(struct path *path);

/* Mount the filesystem type called type_name on the directory dir
 * (absolute, or relative to the working directory); source says what it
 * was made from ("none"), for the table. Linux's mount(2) order. A
 * mount on a directory that has one already goes on top of it, as in
 * Linux: walks see the newest. Returns 0, or -ENODEV (no such type),
 * -EBUSY (dir is "/"), -ENOMEM, or the errors of finding dir (-ENOENT,
 * also for a directory that was removed, -ENOTDIR...). */
int vfs_mount(const char *source, const char *dir, const char *type_name);

/* One mount as /proc/mounts shows it; the strings are the table's. */
struct mount_info {
	const char *source;		/* as given to mount ("none") */
	const char *dir;		/* the absolute path, as when mounted */
	const char *type;		/* its type's name ("ramfs") */
};

/* Hold off mounts and unmounts, for a reader of the whole table, until
 * mount_table_unlock. May sleep (the table's lock is a mutex). */
void mount_table_lock(void);
void mount_table_unlock(void);
/* With the table locked: fill *info with the n-th mount, oldest first
 * (from 0), and return true; false past the last. */
bool mount_table_at(size_t n, struct mount_info *info);

/* Unmount the mount whose root dir names (the newest on that
 * directory): 0, -EINVAL if dir is no mount's root (or is "/"), -EBUSY
 * if a mount was made inside it, or the errors of finding dir. The
 * mount is taken out of the table at once, as Linux's `umount -l`
 * does: files open in it stay open (they hold their inodes), and a
 * walk or working directory still in it keeps it, ".." leading back to
 * where it was mounted, until it leaves. */
int vfs_umount(const char *dir);

#endif
