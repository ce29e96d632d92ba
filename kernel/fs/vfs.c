/* The virtual file system: path resolution and the file calls the rest
 * of the kernel uses.
 *
 * This layer knows nothing about how a filesystem stores its data. It
 * walks paths with the inode's iops->lookup (and ".." with
 * iops->parent), going on in the root of a filesystem mounted on a
 * directory (mount_cross, mount.c), and moves bytes with its
 * fops->read/write, as Linux's VFS does: ramfs and the pseudo
 * filesystems are mounted without this file knowing either. A walk
 * starts at "/" or, for a relative path, at the thread's working
 * directory (cwd.h).
 *
 * Lifetime: inodes and mounts are reference-counted (vfs.h, mount.h). A
 * path walk holds a reference to the directory it stands in and to its
 * mount (a struct path, path.h) while it looks up the next name, and
 * hands the last place's references to the caller; an open file holds
 * one to its inode until vfs_close. So nothing is freed under anyone, and a
 * file removed while it is open goes on as its filesystem says (a ramfs
 * file reads on; a generated one reads -EIO, pseudofs.h). Reads and
 * writes take no reference: the file already holds one.
 *
 * A struct file belongs to the thread that opened it; it is not shared,
 * so file->pos needs no lock. */

#include "kernel/mm/heap.h"
#include "kernel/panic.h"
#include "kernel/fs/cwd.h"
#include "kernel/fs/mount.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/export.h"
#include "lib/string.h"

/* The largest count one read or write handles, so the result always
 * fits in an ssize_t. Linux caps a single call below 2 GiB too; callers
 * that want more simply call again. */
#define VFS_RW_MAX ((size_t)1 << 30)

void inode_get(struct inode *inode)
{
	__atomic_fetch_add(&inode->refs, 1, __ATOMIC_RELAXED);
}

bool inode_get_unless_zero(struct inode *inode)
{
	unsigned long refs = __atomic_load_n(&inode->refs, __ATOMIC_RELAXED);

	do {
		if (refs == 0)
			return false;
	} while (!__atomic_compare_exchange_n(&inode->refs, &refs, refs + 1, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

/* The release order makes everything done with the inode happen before
 * the free that the last put starts. A release hands back the parent it
 * held instead of putting it itself, and the loop puts it: however deep
 * the chain of last references, the stack holds one frame. */
void inode_put(struct inode *inode)
{
	while (inode) {
		unsigned long left = __atomic_sub_fetch(&inode->refs, 1, __ATOMIC_ACQ_REL);

		if (left == (unsigned long)-1)
			panic("vfs: inode %s put more often than it was taken", inode->name);
		if (left != 0 || !inode->iops || !inode->iops->release)
			return;
		inode = inode->iops->release(inode);
	}
}

/* A filesystem is known by its inode operations: each has its own, and
 * the one filesystem that numbers its inodes (9p) has one share. */
bool vfs_same_file(const struct inode *a, const struct inode *b)
{
	return a == b || (a->ino && a->ino == b->ino && a->iops == b->iops);
}

int vfs_next_component(const char **path, const char **name)
{
	const char *p = *path;
	size_t len = 0;

	while (*p == '/')
		p++;
	while (p[len] != '\0' && p[len] != '/')
		len++;
	if (len > VFS_NAME_MAX)
		return -ENAMETOOLONG;
	*name = p;
	*path = p + len;
	return (int)len;
}

void path_get(const struct path *path)
{
	if (path->mnt)
		mnt_get(path->mnt);
	if (path->inode)
		inode_get(path->inode);
}

void path_put(const struct path *path)
{
	if (path->inode)
		inode_put(path->inode);
	if (path->mnt)
		mnt_put(path->mnt);
}

static bool is_dot(const char *name, size_t len)
{
	return len == 1 && name[0] == '.';
}

static bool is_dot_dot(const char *name, size_t len)
{
	return len == 2 && name[0] == '.' && name[1] == '.';
}

/* Move pos onto inode, whose reference the caller took for it. */
static void step_to(struct path *pos, struct inode *inode)
{
	inode_put(pos->inode);
	pos->inode = inode;
}

/* ".." from pos, a directory: out of the roots of the mounts it stands
 * on, into the directory each covers (mount_climb), then up to the
 * parent in that filesystem, and into whatever is mounted there, as a
 * walk by name would go (Linux's follow_dotdot). At "/" it stays. */
static void walk_dot_dot(struct path *pos)
{
	struct inode *parent;

	mount_climb(pos);
	parent = pos->inode->iops->parent(pos->inode);
	if (!parent)
		return;		/* "/" */
	step_to(pos, parent);
	mount_cross(pos);
}

/* Step from the directory at pos to its entry called name: itself for
 * ".", its parent for "..", else its child, and into a filesystem
 * mounted on that. On failure the walk's references are given back. */
static int walk_one(struct path *pos, const char *name, size_t len)
{
	struct inode *dir = pos->inode, *child;

	if (dir->type != INODE_DIR || !dir->iops || !dir->iops->lookup) {
		path_put(pos);
		return -ENOTDIR;
	}
	if (is_dot(name, len))
		return 0;
	if (is_dot_dot(name, len)) {
		walk_dot_dot(pos);
		return 0;
	}
	child = dir->iops->lookup(dir, name, len);
	if (!child) {
		path_put(pos);
		return -ENOENT;
	}
	step_to(pos, child);
	mount_cross(pos);
	return 0;
}

/* Where a walk of path starts, with references: "/" for an absolute
 * path, else the thread's working directory. */
static int walk_start(const char *path, struct path *pos)
{
	if (path[0] != '/') {
		cwd_get(pos);
		return pos->inode ? 0 : -ENOENT;
	}
	return mount_get_root(pos) ? 0 : -ENOENT;	/* nothing mounted yet */
}

/* Whether the last name of a path, as walk_path left it (len bytes at
 * name, in the path), has a slash after it ("d/", "d//"): it must then
 * name a directory, an existing one or one being made. */
static bool must_be_dir(const char *name, size_t len)
{
	return name[len] == '/';
}

/* Walk a path, in place: no name is copied, so a walk costs the stack
 * the same whatever the lengths. The walk holds references to where it
 * stands (the inode and its mount), takes the next place's before
 * giving those back, and hands the last place's to the caller. If last
 * is non-NULL, the walk stops before the last component, which *last
 * then points to (*last_len bytes; 0 for "/"). Repeated slashes are
 * one ("//etc///motd" is "/etc/motd"); slashes at the end say, as in
 * Linux, that the last name must be a directory: the walk checks that
 * when it walks the last name, and leaves it to the caller (see
 * must_be_dir) when it does not. Returns 0 and sets *out, or a negative
 * errno (see kern_path, vfs.h). */
static int walk_path(const char *path, struct path *out, const char **last,
		     size_t *last_len)
{
	const char *name = path, *next;
	int len = 0, next_len, err;
	struct path pos;

	if (!path)
		return -EINVAL;
	if (!*path)
		return -ENOENT;		/* as Linux: "" names nothing */
	if (strnlen(path, VFS_PATH_MAX) == VFS_PATH_MAX)
		return -ENAMETOOLONG;
	err = walk_start(path, &pos);
	if (err)
		return err;

	/* Look one name ahead, so that the last can be left unwalked. */
	len = vfs_next_component(&path, &name);
	while (len > 0) {
		next_len = vfs_next_component(&path, &next);
		if (next_len < 0) {
			len = next_len;
			break;
		}
		if (next_len == 0 && last)
			break;
		err = walk_one(&pos, name, (size_t)len);
		if (err)
			return err;
		name = next;
		len = next_len;
	}
	if (!len && !last && path[-1] == '/' && pos.inode->type != INODE_DIR)
		len = -ENOTDIR;		/* "/etc/motd/" */
	if (len < 0) {
		path_put(&pos);
		return len;
	}
	if (last) {
		*last = name;
		*last_len = (size_t)len;
	}
	*out = pos;
	return 0;
}

int kern_path(const char *name, struct path *out)
{
	return walk_path(name, out, NULL, NULL);
}

/* The inode a path leads to, with a reference, for the calls that need
 * no more than the inode. */
static int resolve(const char *path, struct inode **out)
{
	struct path where;
	int err = kern_path(path, &where);

	if (err)
		return err;
	*out = where.inode;
	inode_get(*out);
	path_put(&where);
	return 0;
}

void vfs_getattr(const struct path *path, struct kstat *out)
{
	out->type = path->inode->type;
	out->size = __atomic_load_n(&path->inode->size, __ATOMIC_RELAXED);
}

int vfs_stat(const char *path, struct kstat *out)
{
	struct path where;
	int err = kern_path(path, &where);

	if (err)
		return err;
	vfs_getattr(&where, out);
	path_put(&where);
	return 0;
}

/* Walk to the directory that holds path's last name, for making or
 * removing that name: 0 with a reference in *dir and the name in *name
 * (*len bytes, in path), or an errno: -EISDIR for "/", "." and "..",
 * which name a directory without being a name in it to make or remove
 * (mkdir says -EEXIST instead, as Linux's). */
static int walk_to_parent(const char *path, struct inode **dir, const char **name,
			  size_t *len)
{
	struct path where;
	int err = walk_path(path, &where, name, len);

	if (err)
		return err;
	*dir = where.inode;
	inode_get(*dir);
	path_put(&where);
	if (!*len || is_dot(*name, *len) || is_dot_dot(*name, *len))
		err = -EISDIR;
	else if ((*dir)->type != INODE_DIR || !(*dir)->iops || !(*dir)->iops->lookup)
		err = -ENOTDIR;
	if (err)
		inode_put(*dir);
	return err;
}

/* The file at path for vfs_open: looked up, or, with O_CREAT, made by
 * the directory's create if the name is new. A name that exists is
 * opened as it is even where nothing can be made (`echo 0 > FILE` opens
 * a generated FILE with O_CREAT). What is mounted on a directory is not
 * crossed into: a directory is not opened either way. A new name with a
 * slash after it is a directory that O_CREAT cannot make (-EISDIR, as
 * Linux says), a file's name with one is -ENOTDIR. Returns 0 with a
 * reference in *out, or an errno. */
static int open_inode(const char *path, int flags, struct inode **out)
{
	struct inode *dir;
	const char *name;
	size_t len;
	int err;

	if (!(flags & O_CREAT))
		return resolve(path, out);
	err = walk_to_parent(path, &dir, &name, &len);
	if (err)
		return err;
	*out = dir->iops->lookup(dir, name, len);
	if (!*out && must_be_dir(name, len))
		err = -EISDIR;
	else if (!*out)
		err = dir->iops->create ? dir->iops->create(dir, name, len, out) : -EACCES;
	else if (must_be_dir(name, len) && (*out)->type != INODE_DIR) {
		inode_put(*out);
		err = -ENOTDIR;
	}
	inode_put(dir);
	return err;
}

/* Cut an inode opened with O_TRUNC to nothing, if it has bytes to cut;
 * a generated file has none, and its open sees the flag instead. */
static int truncate_on_open(struct inode *inode, int flags)
{
	if (!(flags & O_TRUNC) || (flags & O_ACCMODE) == O_RDONLY)
		return 0;	/* as Linux: O_TRUNC with O_RDONLY does nothing */
	if (!inode->iops || !inode->iops->truncate)
		return 0;
	return inode->iops->truncate(inode, 0);
}

/* A new file on inode, which it takes the caller's reference to, after
 * the inode's own open has agreed. */
static int new_file(struct inode *inode, int flags, struct file **out)
{
	const struct file_operations *fops = inode->fops;
	struct file *file = kzalloc(sizeof(*file));
	int err;

	if (!file)
		return -ENOMEM;
	file->inode = inode;
	file->flags = flags;
	err = fops && fops->open ? fops->open(inode, file) : 0;
	if (err) {
		kfree(file);
		return err;
	}
	*out = file;
	return 0;
}

/* Besides the errors listed in vfs.h, this returns those of walk_path() and
 * -EINVAL for flags outside the access modes and O_CREAT, O_TRUNC and
 * O_APPEND. */
int vfs_open(const char *path, int flags, struct file **out)
{
	struct inode *inode;
	int err;

	if (!out)
		return -EINVAL;
	if ((flags & O_ACCMODE) == O_ACCMODE || (flags & ~(O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND)))
		return -EINVAL;
	err = open_inode(path, flags, &inode);
	if (err)
		return err;
	err = inode->type == INODE_DIR ? -EISDIR : truncate_on_open(inode, flags);
	if (!err)
		err = new_file(inode, flags, out);
	if (err)
		inode_put(inode);
	return err;
}

/* Is there an entry called name in dir, and is it a directory? */
static bool find_name(struct inode *dir, const char *name, size_t len, bool *is_dir)
{
	struct inode *child = dir->iops->lookup(dir, name, len);

	if (!child)
		return false;
	*is_dir = child->type == INODE_DIR;
	inode_put(child);
	return true;
}

/* Make a directory at path (making) or remove the file there, with the
 * operation of the directory that holds its last name. As in Linux,
 * what the name is decides first (-EEXIST for mkdir of a name that
 * exists, -ENOENT and -EISDIR for an unlink, -ENOTDIR for unlinking a
 * file named with a slash after it), then whether the directory has the
 * operation (-EPERM if it has none). */
static int change_name(const char *path, bool making)
{
	int (*op)(struct inode *dir, const char *name, size_t len);
	struct inode *dir;
	const char *name;
	bool exists, is_dir = false;
	size_t len;
	int err = walk_to_parent(path, &dir, &name, &len);

	if (err)
		return err == -EISDIR && making ? -EEXIST : err;	/* "/", ".", ".." */
	exists = find_name(dir, name, len, &is_dir);
	op = making ? dir->iops->mkdir : dir->iops->unlink;
	if (making && exists)
		err = -EEXIST;
	else if (!making && !exists)
		err = -ENOENT;
	else if (!making && is_dir)
		err = -EISDIR;
	else if (!making && must_be_dir(name, len))
		err = -ENOTDIR;		/* "rm /etc/motd/" */
	else
		err = op ? op(dir, name, len) : -EPERM;
	inode_put(dir);
	return err;
}

int vfs_mkdir(const char *path)
{
	return change_name(path, true);
}

/* A mount's root is never a mount point itself: a path that leads to
 * one climbs down to the directory it covers (mount_climb), so a second
 * mount there goes on top of the first, covering the same directory. */
int vfs_mountpoint(const char *path, struct path *out)
{
	struct inode *parent;
	int err = kern_path(path, out);

	if (err)
		return err;
	mount_climb(out);
	if (out->inode->type != INODE_DIR)
		err = -ENOTDIR;
	else if (!(parent = out->inode->iops->parent(out->inode)))
		err = -EBUSY;	/* "/" */
	else
		inode_put(parent);
	if (err)
		path_put(out);
	return err;
}

int vfs_unlink(const char *path)
{
	return change_name(path, false);
}

/* The checks vfs_read and vfs_write share, in the order Linux makes
 * them: a file not open for this direction is a bad descriptor
 * (-EBADF), a file whose filesystem lacks the operation is -EINVAL,
 * then the arguments. 0 when the call may go ahead. */
static int check_read_write(const struct file *file, bool writing, const void *buf,
			    size_t count, const loff_t *pos)
{
	const struct file_operations *fops;

	if (!file || !file->inode || (file->flags & O_ACCMODE) == (writing ? O_RDONLY : O_WRONLY))
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

loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	const struct file_operations *fops = file->inode->fops;

	if (fops && fops->llseek)
		return fops->llseek(file, offset, whence);
	return default_llseek(file, offset, whence);
}

/* SEEK_END counts from the size as it is now (a writer may be changing
 * it). */
loff_t default_llseek(struct file *file, loff_t offset, int whence)
{
	loff_t base;

	if (whence == SEEK_SET)
		base = 0;
	else if (whence == SEEK_CUR)
		base = file->pos;
	else if (whence == SEEK_END)
		base = (loff_t)__atomic_load_n(&file->inode->size, __ATOMIC_RELAXED);
	else
		return -EINVAL;
	if (offset < -base)
		return -EINVAL;
	file->pos = base + offset;
	return file->pos;
}
EXPORT_SYMBOL(default_llseek);

void vfs_close(struct file *file)
{
	const struct file_operations *fops = file->inode->fops;

	if (fops && fops->release)
		fops->release(file->inode, file);
	inode_put(file->inode);
	kfree(file);
}

/* Double the buffer of vfs_read_all, keeping the used bytes it holds. */
static int enlarge(char **buf, size_t *cap, size_t used)
{
	char *bigger = *cap <= VFS_RW_MAX ? kmalloc(2 * *cap) : NULL;

	if (!bigger)
		return -ENOMEM;
	memcpy(bigger, *buf, used);
	kfree(*buf);
	*buf = bigger;
	*cap *= 2;
	return 0;
}

/* Reads until vfs_read says the file has ended. The size is only a
 * first guess at the buffer: a generated file's is 0, and any file may
 * grow while it is read. One byte more than it lets the read that finds
 * the end do so without making the buffer bigger. */
int vfs_read_all(const char *path, void **out, size_t *size)
{
	struct file *file;
	size_t cap, done = 0;
	ssize_t n;
	char *buf;
	int err = vfs_open(path, O_RDONLY, &file);

	if (err)
		return err;
	cap = __atomic_load_n(&file->inode->size, __ATOMIC_RELAXED) + 1;
	buf = kmalloc(cap);
	err = buf ? 0 : -ENOMEM;
	while (!err) {
		if (done == cap && (err = enlarge(&buf, &cap, done)) != 0)
			break;
		n = vfs_read(file, buf + done, cap - done, &file->pos);
		if (n <= 0) {
			err = (int)n;
			break;
		}
		done += (size_t)n;
	}
	vfs_close(file);
	if (err) {
		kfree(buf);
		return err;
	}
	*out = buf;
	*size = done;
	return 0;
}

int vfs_read_text(const char *path, char *buf, size_t size)
{
	void *all;
	size_t len;
	int err = vfs_read_all(path, &all, &len);

	if (err)
		return err;
	len = MIN(len, size - 1);
	memcpy(buf, all, len);
	buf[len] = '\0';
	kfree(all);
	return 0;
}

int vfs_write_text(const char *path, int flags, const char *text)
{
	struct file *file;
	ssize_t n;
	int err = vfs_open(path, O_WRONLY | flags, &file);

	if (err)
		return err;
	n = vfs_write(file, text, strlen(text), &file->pos);
	vfs_close(file);
	return n < 0 ? (int)n : 0;
}

/* Each call finds the index-th child afresh, so listing a directory of
 * n entries costs O(n^2) steps where a filesystem's child walks a list:
 * fine for the small trees here, and it needs no directory cursor to
 * keep between calls. */
int vfs_readdir_at(const struct path *dir, size_t index, struct dirent *out)
{
	const struct inode *inode = dir->inode;
	struct inode *child;

	if (!out)
		return -EINVAL;
	if (inode->type != INODE_DIR || !inode->iops || !inode->iops->child)
		return -ENOTDIR;
	child = inode->iops->child(dir->inode, index);
	if (!child)
		return 0;
	strlcpy(out->name, child->name, sizeof(out->name));
	out->type = child->type;
	/* A writer may be changing the size on another CPU, with an atomic
	 * store; this load reads the old or the new value, never a torn
	 * mix. Being slightly stale is fine for a listing. */
	out->size = __atomic_load_n(&child->size, __ATOMIC_RELAXED);
	inode_put(child);
	return 1;
}

int vfs_readdir(const char *path, size_t index, struct dirent *out)
{
	struct path dir;
	int err = kern_path(path, &dir);

	if (err)
		return err;
	err = vfs_readdir_at(&dir, index, out);
	path_put(&dir);
	return err;
}
