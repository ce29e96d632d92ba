/* The working directory: where a thread's relative paths start
 * (Linux's current->fs->pwd).
 *
 * Each thread has one, thread->cwd (kernel/sched.h), a struct path
 * (path.h) that holds references to the directory and to its mount, so
 * neither can go while a thread stands in it. A thread made by another
 * starts in its maker's (thread_create); one made by nobody (the boot
 * and idle threads) starts with an empty path, which means "/". Only the
 * thread itself changes its own, so it is read without a lock.
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

/* The calling thread's working directory, with references taken (give
 * them back with path_put): "/" if it never changed it; an empty path
 * before anything is mounted. */
void cwd_get(struct path *out);

/* Make path, a directory, the calling thread's working directory. It
 * takes references of its own; the caller keeps its. */
void cwd_set(const struct path *path);

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
