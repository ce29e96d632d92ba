/* 9p: open files (ninepfs.h). Each open file walks a fid of its own to
 * the inode's file and opens it with Tlopen; reads and writes are Tread
 * and Twrite of at most one message each, in a loop.
 *
 * A file read to its end is checked against the host once more: if its
 * size or modification time changed since it was opened, the read that
 * would have said "end of file" says -ESTALE instead. A reader such as
 * insmod, which reads a whole file and then uses it, so never takes a
 * file that was being rewritten on the host for a whole one. (A file
 * replaced by a rename, as the build installs modules, is no change: the
 * open fid still reads the file it opened, whole.) */
#include "kernel/fs/ninepfs_internal.h"
#include "kernel/mm/heap.h"
#include "lib/errno.h"
#include "lib/string.h"

struct p9_open_file {
	uint32_t fid;			/* opened with Tlopen */
	uint64_t size;			/* the host's, when opened */
	struct p9_time mtime;		/* likewise */
};

/* The host's size and modification time of the open fid. Call with
 * p9fs_lock held. */
static int host_attr(uint32_t fid, uint64_t *size, struct p9_time *mtime)
{
	struct p9_attr attr;
	int err = p9fs_check(p9_getattr(&p9fs_client, fid, P9_GETATTR_BASIC, &attr), "getattr");

	if (err)
		return err;
	*size = attr.size;
	if (mtime)
		*mtime = attr.mtime;
	return 0;
}

/* Set the size the VFS shows for the file (until the next lookup) to
 * the host's now. Call with p9fs_lock held. */
static int refresh_size(struct file *file, uint32_t fid)
{
	uint64_t size;
	int err = host_attr(fid, &size, NULL);

	if (!err)
		__atomic_store_n(&file->inode->size, (size_t)size, __ATOMIC_RELAXED);
	return err;
}

/* Walk a second fid to the file and open it with the access mode, and
 * O_TRUNC, of the VFS's flags (appends are placed by p9fs_write). */
static int open_fid(struct p9_node *node, int flags, struct p9_open_file *of)
{
	int err = p9fs_check(p9_walk(&p9fs_client, node->fid, 0, NULL, &of->fid, NULL), "walk");

	if (err)
		return err;
	err = p9fs_check(p9_lopen(&p9fs_client, of->fid, (uint32_t)(flags & (O_ACCMODE | O_TRUNC)),
				  NULL, NULL), "lopen");
	if (!err)
		err = host_attr(of->fid, &of->size, &of->mtime);
	if (err)
		p9_clunk(&p9fs_client, of->fid);
	return err;
}

static int p9fs_open(struct inode *inode, struct file *file)
{
	struct p9_node *node = to_p9_node(inode);
	struct p9_open_file *of;
	int err;

	if (node->fid == P9_NOFID)
		return -ENOENT;
	if (node->qid.type & P9_QT_SYMLINK)
		return -ELOOP;	/* not followed: see docs/9p.md */
	if (inode->type != INODE_FILE)
		return -ENXIO;	/* a FIFO, socket or device: the host's, not a file */
	of = kzalloc(sizeof(*of));
	if (!of)
		return -ENOMEM;
	mutex_lock(&p9fs_lock);
	err = open_fid(node, file->flags, of);
	mutex_unlock(&p9fs_lock);
	if (err) {
		kfree(of);
		return err;
	}
	__atomic_store_n(&inode->size, (size_t)of->size, __ATOMIC_RELAXED);
	file->private_data = of;
	return 0;
}

/* At the end of the file: -ESTALE if the host's copy changed since the
 * open, else 0 (end of file). */
static int check_unchanged(struct p9_open_file *of)
{
	struct p9_time mtime;
	uint64_t size;
	int err = host_attr(of->fid, &size, &mtime);

	if (err)
		return err;
	if (size != of->size || mtime.sec != of->mtime.sec || mtime.nsec != of->mtime.nsec)
		return -ESTALE;
	return 0;
}

static ssize_t p9fs_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct p9_open_file *of = file->private_data;
	size_t done = 0;
	int n = 0;

	mutex_lock(&p9fs_lock);
	while (done < count) {
		uint32_t ask = (uint32_t)MIN(count - done, (size_t)UINT32_MAX);

		n = p9fs_check(p9_read(&p9fs_client, of->fid, (uint64_t)*pos + done,
				       buf + done, ask), "read");
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (done == 0 && n == 0 && (file->flags & O_ACCMODE) == O_RDONLY)
		n = check_unchanged(of);
	mutex_unlock(&p9fs_lock);
	if (done == 0 && n < 0)
		return n;
	*pos += (loff_t)done;
	return (ssize_t)done;
}

/* Writes at *pos, or, for O_APPEND, at the end as the host has it now. */
static ssize_t p9fs_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct p9_open_file *of = file->private_data;
	uint64_t at = (uint64_t)*pos;
	size_t done = 0;
	int n = 0;

	mutex_lock(&p9fs_lock);
	if (file->flags & O_APPEND)
		n = host_attr(of->fid, &at, NULL);
	while (n >= 0 && done < count) {
		uint32_t give = (uint32_t)MIN(count - done, (size_t)UINT32_MAX);

		n = p9fs_check(p9_write(&p9fs_client, of->fid, at + done, buf + done, give),
			       "write");
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (done)
		refresh_size(file, of->fid);	/* a failure leaves the old size */
	mutex_unlock(&p9fs_lock);
	if (done == 0 && n < 0)
		return n;
	*pos = (loff_t)(at + done);
	return (ssize_t)done;
}

/* SEEK_END counts from the host's size now, not the lookup's. */
static loff_t p9fs_llseek(struct file *file, loff_t offset, int whence)
{
	struct p9_open_file *of = file->private_data;
	int err;

	if (whence == SEEK_END) {
		mutex_lock(&p9fs_lock);
		err = refresh_size(file, of->fid);
		mutex_unlock(&p9fs_lock);
		if (err)
			return err;
	}
	return default_llseek(file, offset, whence);
}

static int p9fs_file_release(struct inode *inode, struct file *file)
{
	struct p9_open_file *of = file->private_data;

	(void)inode;
	p9fs_clunk(of->fid);
	kfree(of);
	return 0;
}

const struct file_operations p9fs_file_fops = {
	.llseek = p9fs_llseek,
	.read = p9fs_read,
	.write = p9fs_write,
	.open = p9fs_open,
	.release = p9fs_file_release,
};
