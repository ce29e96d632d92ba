/* The virtual file system: a tree of inodes, files opened on them, and
 * per-filesystem operations, shaped after Linux's so that probing
 * vfs_read here teaches the same thing as probing it there. */
#ifndef KERNEL_FS_VFS_H
#define KERNEL_FS_VFS_H

#include "lib/list.h"
#include "lib/types.h"

/* Linux's NAME_MAX and PATH_MAX: a name has at most 255 bytes, and a
 * path, with its terminating NUL, at most 4096. */
#define VFS_NAME_MAX 255
#define VFS_PATH_MAX 4096

enum inode_type { INODE_FILE, INODE_DIR };

struct file;
struct inode;

struct file_operations {
	ssize_t (*read)(struct file *file, char *buf, size_t count, loff_t *pos);
	/* Write at *pos, or at the end of the file if the file was opened
	 * with O_APPEND (the end as it is under the filesystem's own lock,
	 * so that appends from two files never overwrite each other). */
	ssize_t (*write)(struct file *file, const char *buf, size_t count, loff_t *pos);
};

struct inode_operations {
	/* The names these operations take are len bytes long and are not
	 * NUL-terminated: they point into the path being walked. */

	/* Find the child called name in a directory. Returns it with a
	 * reference taken (inode_put gives it back), or NULL if absent. */
	struct inode *(*lookup)(struct inode *dir, const char *name, size_t len);
	/* Return the index-th child of a directory, with a reference taken;
	 * NULL past the end. */
	struct inode *(*child)(struct inode *dir, size_t index);
	/* The file called name in dir, made empty if it does not exist,
	 * with a reference taken. 0, or -EISDIR if name is a directory, or
	 * another negative errno. NULL if the directory takes no new files. */
	int (*create)(struct inode *dir, const char *name, size_t len, struct inode **out);
	/* Remove the file called name from dir: 0, -ENOENT or -EISDIR. Open
	 * files keep the inode, unnamed, until they are closed. */
	int (*unlink)(struct inode *dir, const char *name, size_t len);
	/* Make a file size bytes long: cut off, or extended with zeros. */
	int (*truncate)(struct inode *inode, size_t size);
	/* The last reference is gone: free the inode. Lookups find inodes
	 * without holding a reference, inside an RCU read-side section, so
	 * the memory must stay until a grace period has passed (call_rcu). */
	void (*release)(struct inode *inode);
};

/* An inode lives while someone holds a reference to it: its directory
 * (until it is unlinked), each open file, each path walk passing
 * through it. Readers of a file's data take no reference and no lock. */
struct inode {
	const char *name;		/* the filesystem's; lives as long as the inode */
	enum inode_type type;
	size_t size;			/* changed with atomic stores */
	unsigned long refs;		/* atomic; see above */
	const struct inode_operations *iops;
	const struct file_operations *fops;
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

/* Open flags, Linux's values: an access mode, and any of the others. */
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR   2
#define O_ACCMODE 3
#define O_CREAT  0100	/* make the file if it does not exist */
#define O_TRUNC  01000	/* cut it to nothing (with write access) */
#define O_APPEND 02000	/* every write goes to the end */

/* Take another reference to inode. */
void inode_get(struct inode *inode);
/* Take a reference unless the last one is already gone (the inode is
 * being freed): for lookups that found inode inside an RCU read-side
 * section. True if the reference was taken. */
bool inode_get_unless_zero(struct inode *inode);
/* Give a reference back; the last one frees the inode (iops->release). */
void inode_put(struct inode *inode);

/* What vfs_stat reports. */
struct kstat {
	enum inode_type type;
	size_t size;
};

/* Find the next component of *path, skipping the slashes in front of
 * it: *name points to it, in the path itself (it is not NUL-terminated),
 * and *path moves past it. Returns the component's length, 0 when the
 * path is used up, or -ENAMETOOLONG for one longer than VFS_NAME_MAX. */
int vfs_next_component(const char **path, const char **name);

/* Mount a filesystem's root inode at "/" (only one mount for now). */
void vfs_mount_root(struct inode *root);
/* The type and size of what an absolute path names: 0 or a negative
 * errno (-ENOENT, -ENOTDIR, -EINVAL, -ENAMETOOLONG). */
int vfs_stat(const char *path, struct kstat *out);

/* Open the file at an absolute path. flags is O_RDONLY, O_WRONLY or
 * O_RDWR, with O_CREAT, O_TRUNC and O_APPEND as in open(2). Returns 0
 * and sets *out, or a negative errno (-ENOENT, -EISDIR, -ENOMEM, and
 * -EROFS for O_CREAT or O_TRUNC where the filesystem cannot). */
int vfs_open(const char *path, int flags, struct file **out);
/* Remove the file at an absolute path: 0 or a negative errno (-ENOENT,
 * -EISDIR, -EROFS). Files open on it read on until they are closed. */
int vfs_unlink(const char *path);
/* Read up to count bytes at *pos, advancing *pos. Returns bytes read,
 * 0 at end of file, or a negative errno. */
ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos);
/* Write count bytes at *pos, advancing *pos; negative errno on error. */
ssize_t vfs_write(struct file *file, const char *buf, size_t count, loff_t *pos);
void vfs_close(struct file *file);
/* Read the file at path to its end (until vfs_read returns 0, whatever
 * its size says) into a new kmalloc'd buffer (*buf, *size bytes; the
 * caller kfrees it). Returns 0 or a negative errno. */
int vfs_read_all(const char *path, void **buf, size_t *size);
/* Fill *out with the index-th entry of the directory at path. Returns 1
 * when an entry was stored, 0 past the last one, or a negative errno. */
int vfs_readdir(const char *path, size_t index, struct dirent *out);

#endif
