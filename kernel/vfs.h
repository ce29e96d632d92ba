/* The virtual file system: a tree of inodes, files opened on them, and
 * per-filesystem operations, shaped after Linux's so that probing
 * vfs_read here teaches the same thing as probing it there. */
#ifndef KERNEL_VFS_H
#define KERNEL_VFS_H

#include "lib/list.h"
#include "lib/types.h"

#define VFS_NAME_MAX 63
#define VFS_PATH_MAX 255

enum inode_type { INODE_FILE, INODE_DIR };

struct file;
struct inode;

struct file_operations {
	ssize_t (*read)(struct file *file, char *buf, size_t count, loff_t *pos);
	ssize_t (*write)(struct file *file, const char *buf, size_t count, loff_t *pos);
};

struct inode_operations {
	/* Find the child called name in a directory; NULL if absent. */
	struct inode *(*lookup)(struct inode *dir, const char *name);
	/* Return the index-th child of a directory; NULL past the end. */
	struct inode *(*child)(struct inode *dir, size_t index);
};

struct inode {
	char name[VFS_NAME_MAX + 1];
	enum inode_type type;
	size_t size;
	const struct inode_operations *iops;
	const struct file_operations *fops;
	void *private;		/* filesystem data */
};

struct file {
	struct inode *inode;
	loff_t pos;
	int flags;
};

struct dirent {
	char name[VFS_NAME_MAX + 1];
	enum inode_type type;
	size_t size;
};

#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR   2

/* Copy the next component of *path into name, skipping the slashes in
 * front of it, and advance *path past it. Returns the length of the
 * component, 0 when the path is used up, or -ENAMETOOLONG. */
int vfs_next_component(const char **path, char name[VFS_NAME_MAX + 1]);

/* Mount a filesystem's root inode at "/" (only one mount for now). */
void vfs_mount_root(struct inode *root);
/* Resolve an absolute path to an inode; NULL if it does not exist. */
struct inode *vfs_lookup(const char *path);

/* Open the file at an absolute path. Returns 0 and sets *out, or a
 * negative errno (-ENOENT, -EISDIR, -ENOMEM). */
int vfs_open(const char *path, int flags, struct file **out);
/* Read up to count bytes at *pos, advancing *pos. Returns bytes read,
 * 0 at end of file, or a negative errno. */
ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos);
/* Write count bytes at *pos, advancing *pos; negative errno on error. */
ssize_t vfs_write(struct file *file, const char *buf, size_t count, loff_t *pos);
void vfs_close(struct file *file);
/* Read the whole file at path into a new kmalloc'd buffer (*buf, *size
 * bytes; the caller kfrees it). Returns 0 or a negative errno. */
int vfs_read_all(const char *path, void **buf, size_t *size);
/* Fill *out with the index-th entry of the directory at path. Returns 1
 * when an entry was stored, 0 past the last one, or a negative errno. */
int vfs_readdir(const char *path, size_t index, struct dirent *out);

#endif
