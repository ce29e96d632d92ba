/* The working directory: where a thread's relative paths start
 * (Linux's current->fs->pwd).
 *
 * Each thread has one in its struct fs_struct, thread->fs
 * (kernel/sched.h): a struct path (path.h) that holds references to the
 * directory and to its mount, so neither can go while a thread stands
 * in it. The scheduler knows only the pointer: kernel_clone's clone
 * hook (cwd.c) gives a new thread a copy of its maker's, and the exit
 * hook gives it back. A thread made by nobody (the boot and idle
 * threads) has none, which means "/", until it changes directory. Only
 * the thread itself changes its own, so it is read without a lock.
 *
 * A directory that is removed while it is a working directory stays, as
 * in Linux: held, empty and nameless. Relative paths from it find
 * nothing in it, ".." still leads to the directory it was in, and
 * vfs_getcwd says -ENOENT. A working directory in a filesystem that is
 * unmounted keeps it the same way (mount.h). */
#ifndef KERNEL_FS_CWD_H
#define KERNEL_FS_CWD_H

#include "kernel/fs/path.h"
#include "lib/types.h"

/* A thread's filesystem state (Linux's struct fs_struct, whose pwd is
 * this one; there is no chroot here, so no root). */
struct fs_struct {
	struct path pwd;
};

/* The calling thread's working directory, with references taken (give
 * them back with path_put): "/" if it never changed it; an empty path
 * before anything is mounted. */
void cwd_get(struct path *out);

/* Make path, a directory, the calling thread's working directory. It
 * takes references of its own; the caller keeps its. 0, or -ENOMEM for
 * a boot or idle thread that has no fs_struct yet and none can be made. */
int cwd_set(const struct path *path);

/* Change the calling thread's working directory to the directory at
 * path (absolute, or relative to the current one): Linux's chdir(2).
 * 0, or -ENOTDIR for a file, or the errors of kern_path (vfs.h). */
int vfs_chdir(const char *path);

/* Write the absolute path of the calling thread's working directory
 * into buf (size bytes): Linux's getcwd(2). Returns its length,
 * -ENAMETOOLONG if it does not fit, or -ENOENT if the directory was
 * removed or its filesystem unmounted; buf then holds the path it had. */
int vfs_getcwd(char *buf, size_t size);

#endif
