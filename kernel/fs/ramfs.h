/* ramfs: a filesystem that lives entirely in kernel memory. It is filled
 * at boot from a newc cpio archive (the boot module packed from rootfs/)
 * and then mounted as "/". Files can be read, written (a write may
 * extend a file), created, truncated and unlinked, and directories made;
 * reads take no lock (see ramfs.c). There is no rmdir or rename yet. */
#ifndef KERNEL_FS_RAMFS_H
#define KERNEL_FS_RAMFS_H

#include "kernel/fs/vfs.h"
#include "lib/types.h"

/* Build a tree from the archive and mount it as the root. Directories
 * missing from the archive but named in a path are created. Returns the
 * number of archive entries, or a negative errno (-EINVAL for a bad
 * archive, -ENOMEM, -EEXIST for a duplicate name, -ENOTDIR when a path
 * goes through a file, -ENAMETOOLONG). Call it once, at boot: a root
 * mounted earlier is not freed, since files may still be open on it. */
int ramfs_mount_archive(const void *archive, size_t size);

/* Build a tree without mounting it (the self tests use this so they do
 * not replace the system's root). Returns the root directory and sets
 * *err to 0, or returns NULL and sets *err to a negative errno; nothing
 * is left allocated on failure. */
struct inode *ramfs_build(const void *archive, size_t size, int *err);

/* Free a tree from ramfs_build. It must not be mounted, and no file may
 * be open on it. */
void ramfs_destroy(struct inode *root);

#endif
