/* 9p: the host's folder, shared by QEMU over virtio 9P, mounted at /host.
 *
 * The filesystem is a thin layer over the 9P2000.L client (lib/ninep.h):
 * each inode holds a fid walked to its file on the host, each open file
 * a second fid opened on it, and every operation is one or a few
 * requests. Nothing is cached but the names of a directory being listed:
 * a file changed on the host is never read stale (docs/9p.md, "The
 * filesystem"). */
#ifndef KERNEL_FS_NINEPFS_H
#define KERNEL_FS_NINEPFS_H

/* The directory the host's folder is mounted on at boot. */
#define NINEPFS_MOUNT_POINT "/host"

/* If a virtio 9P device is up (kernel/virtio/virtio_9p.h), negotiate 9P
 * with it, attach to its folder and mount it at NINEPFS_MOUNT_POINT as a
 * filesystem of type "9p", printing one line either way. Called once at
 * boot, after the initcalls (kernel/main.c). Returns 0, -ENODEV if no
 * device is present, or the error that stopped the mount. */
int ninepfs_mount_host(void);

#endif
