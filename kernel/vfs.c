/* The virtual file system: path resolution and the file calls the rest
 * of the kernel uses.
 *
 * This layer knows nothing about how a filesystem stores its data. It
 * walks paths with the inode's iops->lookup and moves bytes with its
 * fops->read/write, as Linux's VFS does, so another filesystem could be
 * mounted without touching this file.
 *
 * Lifetime: an inode is never freed while its filesystem is mounted
 * (ramfs has no unlink yet), so the pointers that lookups hand out stay
 * valid without reference counts. A struct file belongs to the thread
 * that opened it; it is not shared, so file->pos needs no lock. */

#include "kernel/mm/heap.h"
#include "kernel/vfs.h"
#include "lib/errno.h"
#include "lib/string.h"

/* The largest count one read or write handles, so the result always
 * fits in an ssize_t. Linux caps a single call below 2 GiB too; callers
 * that want more simply call again. */
#define VFS_RW_MAX ((size_t)1 << 30)

/* The mounted root. It is stored once at boot and read by every lookup,
 * on any CPU: the release store and the acquire load make a thread that
 * sees the new pointer also see the tree that was built behind it. */
static struct inode *vfs_root;

void vfs_mount_root(struct inode *root)
{
	__atomic_store_n(&vfs_root, root, __ATOMIC_RELEASE);
}

int vfs_next_component(const char **path, char name[VFS_NAME_MAX + 1])
{
	const char *p = *path;
	size_t len = 0;

	while (*p == '/')
		p++;
	while (p[len] != '\0' && p[len] != '/')
		len++;
	if (len > VFS_NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(name, p, len);
	name[len] = '\0';
	*path = p + len;
	return (int)len;
}

/* Walk an absolute path from the root. Repeated and trailing slashes are
 * ignored ("//etc///motd/" is "/etc/motd"); "." and ".." are ordinary
 * names, which no ramfs directory holds. Returns 0 and sets *out, or a
 * negative errno: -EINVAL (not absolute), -ENAMETOOLONG, -ENOTDIR (a
 * component in the middle is a file) or -ENOENT. */
static int resolve(const char *path, struct inode **out)
{
	struct inode *node = __atomic_load_n(&vfs_root, __ATOMIC_ACQUIRE);
	char name[VFS_NAME_MAX + 1];
	int len;

	if (!path || path[0] != '/')
		return -EINVAL;
	if (strnlen(path, VFS_PATH_MAX + 1) > VFS_PATH_MAX)
		return -ENAMETOOLONG;
	if (!node)
		return -ENOENT;		/* nothing mounted yet */

	while ((len = vfs_next_component(&path, name)) > 0) {
		if (node->type != INODE_DIR || !node->iops || !node->iops->lookup)
			return -ENOTDIR;
		node = node->iops->lookup(node, name);
		if (!node)
			return -ENOENT;
	}
	if (len < 0)
		return len;
	*out = node;
	return 0;
}

struct inode *vfs_lookup(const char *path)
{
	struct inode *inode;

	return resolve(path, &inode) == 0 ? inode : NULL;
}

/* Besides the errors listed in vfs.h, this returns those of resolve()
 * and -EINVAL for flags other than one of the three access modes. */
int vfs_open(const char *path, int flags, struct file **out)
{
	struct inode *inode;
	struct file *file;
	int err;

	if (!out)
		return -EINVAL;
	if (flags != O_RDONLY && flags != O_WRONLY && flags != O_RDWR)
		return -EINVAL;
	err = resolve(path, &inode);
	if (err)
		return err;
	if (inode->type == INODE_DIR)
		return -EISDIR;

	file = kmalloc(sizeof(*file));
	if (!file)
		return -ENOMEM;
	file->inode = inode;
	file->pos = 0;
	file->flags = flags;
	*out = file;
	return 0;
}

/* The checks vfs_read and vfs_write share, in the order Linux makes
 * them: a file not open for this direction is a bad descriptor
 * (-EBADF), a file whose filesystem lacks the operation is -EINVAL,
 * then the arguments. 0 when the call may go ahead. */
static int check_read_write(const struct file *file, bool writing, const void *buf,
			    size_t count, const loff_t *pos)
{
	const struct file_operations *fops;

	if (!file || !file->inode || file->flags == (writing ? O_RDONLY : O_WRONLY))
		return -EBADF;
	fops = file->inode->fops;
	if (!fops || (writing ? !fops->write : !fops->read))
		return -EINVAL;
	if (!pos || *pos < 0)
		return -EINVAL;
	if (!buf && count)
		return -EFAULT;
	return 0;
}

/* __noinline: probes are placed on this symbol, so it must stay a real
 * call with its own entry point, whatever the optimiser would prefer. */
__noinline ssize_t vfs_read(struct file *file, char *buf, size_t count,
			    loff_t *pos)
{
	int err = check_read_write(file, false, buf, count, pos);

	if (err)
		return err;
	return file->inode->fops->read(file, buf, MIN(count, VFS_RW_MAX), pos);
}

__noinline ssize_t vfs_write(struct file *file, const char *buf, size_t count,
			     loff_t *pos)
{
	int err = check_read_write(file, true, buf, count, pos);

	if (err)
		return err;
	return file->inode->fops->write(file, buf, MIN(count, VFS_RW_MAX), pos);
}

void vfs_close(struct file *file)
{
	kfree(file);
}

int vfs_read_all(const char *path, void **out, size_t *size)
{
	struct file *file;
	char *buf;
	ssize_t n = 0;
	int err = vfs_open(path, O_RDONLY, &file);

	if (err)
		return err;
	*size = file->inode->size;
	buf = kmalloc(*size ? *size : 1);
	if (!buf) {
		vfs_close(file);
		return -ENOMEM;
	}
	for (size_t done = 0; done < *size; done += (size_t)n) {
		n = vfs_read(file, buf + done, *size - done, &file->pos);
		if (n <= 0) {
			*size = done;
			break;
		}
	}
	vfs_close(file);
	if (n < 0) {
		kfree(buf);
		return (int)n;
	}
	*out = buf;
	return 0;
}

/* Returns 1, 0 past the last entry, -ENOTDIR for a file, or an error of
 * resolve(). Each call finds the index-th child afresh, so listing a
 * directory of n entries costs O(n^2) steps: fine for the small trees
 * here, and it needs no directory cursor to keep between calls. */
int vfs_readdir(const char *path, size_t index, struct dirent *out)
{
	struct inode *dir, *child;
	int err;

	if (!out)
		return -EINVAL;
	err = resolve(path, &dir);
	if (err)
		return err;
	if (dir->type != INODE_DIR || !dir->iops || !dir->iops->child)
		return -ENOTDIR;

	child = dir->iops->child(dir, index);
	if (!child)
		return 0;
	strlcpy(out->name, child->name, sizeof(out->name));
	out->type = child->type;
	/* A writer may be growing the file on another CPU: the filesystem
	 * changes size under its own lock with an atomic store, and this
	 * atomic load reads either the old or the new value, never a torn
	 * mix. Being slightly stale is fine for a listing. */
	out->size = __atomic_load_n(&child->size, __ATOMIC_RELAXED);
	return 1;
}
