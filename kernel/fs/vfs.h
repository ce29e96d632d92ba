/* The virtual file system: a tree of inodes, files opened on them, and
 * per-filesystem operations, shaped after Linux's so that probing
 * vfs_read here teaches the same thing as probing it there. */
#ifndef KERNEL_FS_VFS_H
#define KERNEL_FS_VFS_H

#include "kernel/fs/path.h"
#include "lib/list.h"
#include "lib/types.h"

/* Linux's NAME_MAX and PATH_MAX: a name has at most 255 bytes, and a
 * path, with its terminating NUL, at most 4096. */
#define VFS_NAME_MAX 255
#define VFS_PATH_MAX 4096

/* What an inode is: a regular file or a directory, which every
 * filesystem here has, or one of the special files only a host's
 * shared folder can hold (ninepfs.h): a FIFO, a socket, a character or
 * a block device. Those are listed, never opened (-ENXIO): their bytes
 * would be the host's, not a file's. */
enum inode_type { INODE_FILE, INODE_DIR, INODE_FIFO, INODE_SOCK, INODE_CHR, INODE_BLK };

/* A file's mode bits, as Linux's calls to make files take them. There
 * is one user here, who may read and write anything (as Linux's root
 * may), so no mode is stored or checked. */
typedef unsigned short umode_t;

struct file;
struct inode;
struct module;

/* What a file does when it is opened, read, written, moved in and
 * closed: Linux's fields, in Linux's order, with Linux's signatures.
 * Every operation but read and write may be NULL (see each). */
struct file_operations {
	/* Linux's: the module the operations are in, which modules set to
	 * THIS_MODULE. Nothing reads it here: a module's generated files
	 * are known by the code that made them, and go when it goes
	 * (kernel/fs/pseudofs.h), so THIS_MODULE is NULL. */
	struct module *owner;
	/* Set file->pos from offset and whence (SEEK_SET, SEEK_CUR,
	 * SEEK_END) and return it, or a negative errno. NULL: vfs_llseek
	 * does it, counting SEEK_END from the inode's size. */
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);
	ssize_t (*read)(struct file *file, char *buf, size_t count, loff_t *pos);
	/* Write at *pos, or at the end of the file if the file was opened
	 * with O_APPEND (the end as it is under the filesystem's own lock,
	 * so that appends from two files never overwrite each other). A
	 * generated file's write gets the bytes of one vfs_write and
	 * returns how many it took, or a negative errno. */
	ssize_t (*write)(struct file *file, const char *buf, size_t count, loff_t *pos);
	/* The file is set up (its flags, O_TRUNC included, are in
	 * file->flags); prepare what reads and writes need, in
	 * file->private_data. An error fails the open. NULL: nothing to do. */
	int (*open)(struct inode *inode, struct file *file);
	/* The file is being closed: give back what open took. Its result is
	 * not used (as in Linux). NULL: nothing to do. */
	int (*release)(struct inode *inode, struct file *file);
};

struct inode_operations {
	/* The names these operations take are len bytes long and are not
	 * NUL-terminated: they point into the path being walked. */

	/* Find the child called name in a directory. Returns it with a
	 * reference taken (inode_put gives it back), or NULL if absent.
	 * The VFS walks "." and ".." itself: they never reach lookup. */
	struct inode *(*lookup)(struct inode *dir, const char *name, size_t len);
	/* The directory that holds dir, with a reference taken, or NULL for
	 * the root of the filesystem: where ".." leads inside it. Every
	 * directory has it; a directory removed from its parent still
	 * answers with that parent, which it keeps until it goes (as a
	 * Linux dentry keeps its d_parent). */
	struct inode *(*parent)(struct inode *dir);
	/* Return the index-th child of a directory, with a reference taken;
	 * NULL past the end. */
	struct inode *(*child)(struct inode *dir, size_t index);
	/* The file called name in dir, made empty if it does not exist,
	 * with a reference taken. 0, or -EISDIR if name is a directory, or
	 * another negative errno. NULL if the directory takes no new files
	 * (O_CREAT of a new name is then -EACCES, as in Linux). */
	int (*create)(struct inode *dir, const char *name, size_t len, struct inode **out);
	/* Make an empty directory called name in dir: 0, -EEXIST, or
	 * another negative errno. NULL if none can be made (-EPERM). */
	int (*mkdir)(struct inode *dir, const char *name, size_t len);
	/* Remove the file called name from dir: 0, -ENOENT or -EISDIR. Open
	 * files keep the inode, unnamed, until they are closed. NULL if no
	 * file can be removed from it (-EPERM, as in Linux). */
	int (*unlink)(struct inode *dir, const char *name, size_t len);
	/* Make a file size bytes long: cut off, or extended with zeros.
	 * NULL for a file that has no bytes to cut (a generated one): its
	 * open sees O_TRUNC in file->flags and does what it means. */
	int (*truncate)(struct inode *inode, size_t size);
	/* The last reference is gone: free the inode. Lookups find inodes
	 * without holding a reference, inside an RCU read-side section, so
	 * the memory must stay until a grace period has passed (call_rcu).
	 * Returns the inode whose reference this one held and that inode_put
	 * should give back now (its directory), or NULL: handing it back,
	 * rather than putting it here, keeps a chain of a thousand
	 * directories from being freed by a thousand nested calls. */
	struct inode *(*release)(struct inode *inode);
};

/* An inode lives while someone holds a reference to it: its directory
 * (until it is unlinked), each open file, each path walk passing
 * through it. Readers of a file's data take no reference and no lock. */
struct inode {
	const char *name;		/* the filesystem's; lives as long as the inode */
	enum inode_type type;
	size_t size;			/* changed with atomic stores */
	unsigned long refs;		/* atomic; see above */
	unsigned int mounts;		/* filesystems mounted on it (atomic):
					   a walk crosses into one (mount.c) */
	const struct inode_operations *iops;
	const struct file_operations *fops;
	void *i_private;		/* the data a generated file was made
					   with, for its operations (Linux's name) */
	uint64_t ino;			/* the file's number in its filesystem,
					   where one file may have several inodes
					   at once (9p's: the host's); 0 where an
					   inode is its file's only one */
};

struct file {
	struct inode *inode;
	loff_t pos;
	int flags;		/* as given to vfs_open */
	void *private_data;	/* the file operations' own (Linux's name) */
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

/* Where vfs_llseek counts from: Linux's values. */
#define SEEK_SET 0	/* the start of the file */
#define SEEK_CUR 1	/* the file's position */
#define SEEK_END 2	/* its end */

/* Take another reference to inode. */
void inode_get(struct inode *inode);
/* Take a reference unless the last one is already gone (the inode is
 * being freed): for lookups that found inode inside an RCU read-side
 * section. True if the reference was taken. */
bool inode_get_unless_zero(struct inode *inode);
/* Give a reference back; the last one frees the inode (iops->release),
 * and then, in a loop, each inode the freed one held a last reference
 * to. */
void inode_put(struct inode *inode);
/* Whether two inodes are the same file: the same inode, or two of one
 * filesystem with the same ino (Linux compares st_dev and st_ino). */
bool vfs_same_file(const struct inode *a, const struct inode *b);

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

/* Every call below that takes a path takes it as Linux's calls do:
 * absolute ("/etc/motd"), or relative to the calling thread's working
 * directory ("motd", "../etc/motd": kernel/fs/cwd.h). "." names the
 * directory it is in and ".." the one above it, across a mount point
 * back into the filesystem below; ".." of "/" is "/". A slash after the
 * last name ("/etc/", "/etc/motd/") says it names a directory: for a
 * file that is -ENOTDIR, as in Linux. */

/* Resolve name to the place it leads to, crossing mounts: 0 and *out,
 * whose references the caller gives back with path_put, or a negative
 * errno: -ENOENT (a name missing, or an empty path), -ENOTDIR (a file
 * where a directory was needed, "." and ".." or a slash after its name
 * included), -ENAMETOOLONG
 * (a name longer than VFS_NAME_MAX, or a path of VFS_PATH_MAX bytes or
 * more), -EINVAL (NULL). Linux's kern_path, without its flags. */
int kern_path(const char *name, struct path *out);

/* Write the absolute path that leads to path into buf (size bytes),
 * with single slashes and none at the end: what getcwd(2) and
 * /proc/mounts show. Returns its length, -ENAMETOOLONG if it does not
 * fit, or -ENOENT if path can no longer be reached by a name (a
 * directory on the way was removed, or a mount on the way unmounted);
 * buf then holds the name it was reached by all the same. */
int vfs_path_name(const struct path *path, char *buf, size_t size);

/* The type and size of the place path is (one kern_path found):
 * Linux's vfs_getattr, without its flags. */
void vfs_getattr(const struct path *path, struct kstat *out);
/* The type and size of what a path names: 0 or a negative errno (those
 * of kern_path). */
int vfs_stat(const char *path, struct kstat *out);

/* Open the file at a path. flags is O_RDONLY, O_WRONLY or
 * O_RDWR, with O_CREAT, O_TRUNC and O_APPEND as in open(2); they reach
 * the file's open in file->flags. Returns 0 and sets *out, or a
 * negative errno (-ENOENT, -EISDIR, also for O_CREAT of a new name with
 * a slash after it, -ENOTDIR, -ENOMEM, -EACCES for O_CREAT of a new name
 * where the directory takes none, or the file's open's). */
int vfs_open(const char *path, int flags, struct file **out);
/* Make an empty directory at a path: 0 or a negative errno (-EEXIST,
 * also for "/", "." and "..", -ENOENT, -ENOTDIR, -EPERM where the
 * directory takes none). */
int vfs_mkdir(const char *path);
/* The directory at a path as the filesystem below any mount on it
 * holds it, with references: the one a mount there covers (for
 * mount.c). Returns 0, or a negative errno: -ENOTDIR for a file,
 * -EBUSY for "/" (the root filesystem is mounted there), or those of
 * kern_path. */
int vfs_mountpoint(const char *path, struct path *out);
/* Remove the file at a path: 0 or a negative errno (-ENOENT, -EISDIR,
 * also for "/", "." and "..", -ENOTDIR for a file's name with a slash
 * after it, -EPERM where the directory lets no file
 * go). Files open on it go on as their filesystem says (a ramfs file
 * reads on until it is closed). */
int vfs_unlink(const char *path);
/* Read up to count bytes at *pos, advancing *pos. Returns bytes read,
 * 0 at end of file, or a negative errno. */
ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos);
/* Write count bytes at *pos, advancing *pos; negative errno on error. */
ssize_t vfs_write(struct file *file, const char *buf, size_t count, loff_t *pos);
/* Move file->pos to offset, counted as whence says (SEEK_*), through the
 * file's own llseek if it has one. Returns the new position, or -EINVAL
 * (an unknown whence, a position below 0). */
loff_t vfs_llseek(struct file *file, loff_t offset, int whence);
/* What vfs_llseek does for a file without llseek: SEEK_END counts from
 * the inode's size. Linux's name, for operations that forward a seek. */
loff_t default_llseek(struct file *file, loff_t offset, int whence);
/* Close a file from vfs_open: its release runs, and its inode
 * reference is given back. */
void vfs_close(struct file *file);
/* Read the file at path to its end (until vfs_read returns 0, whatever
 * its size says) into a new kmalloc'd buffer (*buf, *size bytes; the
 * caller kfrees it). Returns 0 or a negative errno. */
int vfs_read_all(const char *path, void **buf, size_t *size);
/* The file at path as a string in buf (size bytes, at least 1; what does
 * not fit is dropped): 0, or vfs_read_all's error. */
int vfs_read_text(const char *path, char *buf, size_t size);
/* Open path for writing with flags added (O_CREAT, O_TRUNC, O_APPEND),
 * write text in one call, close: 0 or a negative errno. */
int vfs_write_text(const char *path, int flags, const char *text);
/* Fill *out with the index-th entry of the directory at path. Returns 1
 * when an entry was stored, 0 past the last one, or a negative errno
 * (-ENOTDIR for a file, or those of kern_path). */
int vfs_readdir(const char *path, size_t index, struct dirent *out);
/* The same for the directory dir (one kern_path found), without
 * looking a path up again: for listing a directory entry by entry. */
int vfs_readdir_at(const struct path *dir, size_t index, struct dirent *out);

#endif
