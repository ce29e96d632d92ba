/* A place in the tree a path walk moves through: an inode, and the mount
 * it was reached through. The inode alone does not say where ".." leads
 * from the root of a mounted filesystem (one tree may be mounted in
 * several places), the mount does (mount.h). Linux's struct path pairs a
 * vfsmount and a dentry the same way.
 *
 * Kept in a header of its own, with nothing else, because every thread
 * holds one: its working directory (kernel/sched.h, kernel/fs/cwd.h). */
#ifndef KERNEL_FS_PATH_H
#define KERNEL_FS_PATH_H

struct inode;
struct mount;

/* Both are held with a reference while the path is kept. Both NULL:
 * "no place", which a thread's working directory is until it changes
 * it (it then means the root). */
struct path {
	struct mount *mnt;
	struct inode *inode;
};

/* Take a reference to the mount and to the inode of path (nothing for
 * an empty path). */
void path_get(const struct path *path);
/* Give both back (nothing for an empty path). */
void path_put(const struct path *path);

#endif
