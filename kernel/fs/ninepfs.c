/* 9p: the host's folder as a filesystem (ninepfs.h): its inodes, the
 * walk from a directory to a name, making files, and the mount at boot.
 *
 * No cache. An inode lives while the VFS holds it (a walk passing
 * through, an open file, a working directory) and is made afresh by each
 * lookup, with its size from the host at that moment; a read always goes
 * to the host. So a file edited or rebuilt on the host is seen at once,
 * at the cost of two requests per name walked (Twalk and Tgetattr). The
 * one thing kept is a directory's listing while it is read, one entry at
 * a time (ninepfs_dir.c).
 *
 * Every request is made with p9fs_lock held: the client has one pair of
 * buffers and sends one request at a time (the device could take more;
 * a teaching kernel's few threads do not need them). */
#include "kernel/fs/mount.h"
#include "kernel/fs/ninepfs.h"
#include "kernel/fs/ninepfs_internal.h"
#include "kernel/mm/heap.h"
#include "kernel/printk.h"
#include "kernel/virtio/virtio_9p.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Symbolic links one lookup follows, links in targets included; each
 * nests a lookup on the stack, so fewer than Linux's 40. */
#define P9FS_MAX_LINKS 8

struct p9_client p9fs_client;
struct mutex p9fs_lock = MUTEX_INIT(p9fs_lock, "9p");

static struct file_system_type p9fs_type = { .name = "9p" };

int p9fs_check(int err, const char *call)
{
	if (err == -EPROTO || err == -EIO || err == -ETIMEDOUT)
		printk(KERN_WARNING "9p: %s: %s\n", call, p9_why(&p9fs_client));
	return err;
}

void p9fs_clunk(uint32_t fid)
{
	mutex_lock(&p9fs_lock);
	p9_clunk(&p9fs_client, fid);
	mutex_unlock(&p9fs_lock);
}

static int p9fs_rpc(void *ctx, const void *req, size_t req_len, void *reply, size_t cap,
		    size_t *reply_len)
{
	(void)ctx;
	return virtio_9p_request(req, req_len, reply, cap, reply_len);
}

/* The VFS's type for a host file: from its qid for a directory, else
 * from the type bits of its mode (P9_S_*), 0 when
 * no Tgetattr was asked. A link is a file here (lookup follows it). */
static enum inode_type type_of(const struct p9_qid *qid, uint32_t mode)
{
	if (qid->type & P9_QT_DIR)
		return INODE_DIR;
	switch (mode & P9_S_IFMT) {
	case P9_S_IFIFO:
		return INODE_FIFO;
	case P9_S_IFSOCK:
		return INODE_SOCK;
	case P9_S_IFCHR:
		return INODE_CHR;
	case P9_S_IFBLK:
		return INODE_BLK;
	default:
		return INODE_FILE;
	}
}

/* A new node for a host file, with one reference, holding parent's
 * (which the caller gives it); mode as type_of takes it. NULL if memory
 * is short. */
static struct p9_node *node_new(struct p9_node *parent, const char *name, size_t len,
				uint32_t fid, const struct p9_qid *qid, uint32_t mode,
				size_t size)
{
	struct p9_node *n = kzalloc(sizeof(*n) + len + 1);

	if (!n)
		return NULL;
	memcpy(n->name, name, len);
	n->parent = parent;
	n->fid = fid;
	n->qid = *qid;
	n->inode.name = n->name;
	n->inode.type = type_of(qid, mode);
	n->inode.ino = qid->path;	/* a new inode for each walk: this tells it is one file */
	n->inode.size = size;
	n->inode.refs = 1;
	n->inode.iops = &p9fs_iops;
	n->inode.fops = &p9fs_file_fops;
	return n;
}

/* The VFS's name (len bytes, not NUL-terminated) as the C string 9P's
 * calls take, in buf. */
static int to_cname(char buf[VFS_NAME_MAX + 1], const char *name, size_t len)
{
	if (len > VFS_NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return 0;
}

/* Walk from dir's fid to its child name: a new fid, its qid, and the
 * mode and size the host gives it now (0 for a directory). Call with
 * p9fs_lock held. */
static int walk_child(struct p9_node *dir, const char *name, uint32_t *fid,
		      struct p9_qid *qid, uint32_t *mode, size_t *size)
{
	struct p9_attr attr;
	int err;

	if (dir->fid == P9_NOFID)
		return -ENOENT;
	err = p9fs_check(p9_walk(&p9fs_client, dir->fid, 1, &name, fid, qid), "walk");
	if (err)
		return err;
	*mode = 0;
	*size = 0;
	if (qid->type & P9_QT_DIR)
		return 0;	/* a directory's size means nothing here */
	err = p9fs_check(p9_getattr(&p9fs_client, *fid, P9_GETATTR_BASIC, &attr), "getattr");
	if (err) {
		p9_clunk(&p9fs_client, *fid);
		return err;
	}
	*mode = attr.mode;
	*size = (size_t)attr.size;
	return 0;
}

struct inode *p9fs_walk_name(struct inode *dir_inode, const char *name, size_t len)
{
	struct p9_node *dir = to_p9_node(dir_inode), *child;
	char cname[VFS_NAME_MAX + 1];
	struct p9_qid qid;
	uint32_t fid, mode;
	size_t size;
	int err;

	if (to_cname(cname, name, len))
		return NULL;
	mutex_lock(&p9fs_lock);
	err = walk_child(dir, cname, &fid, &qid, &mode, &size);
	mutex_unlock(&p9fs_lock);
	if (err)
		return NULL;
	child = node_new(dir, name, len, fid, &qid, mode, size);
	if (!child) {
		p9fs_clunk(fid);
		return NULL;
	}
	inode_get(dir_inode);
	return &child->inode;
}

static struct inode *lookup_following(struct inode *dir, const char *name, size_t len,
				      int *links);

/* The target of the symbolic link at link (a kmalloc'd string the caller
 * frees), or NULL if it cannot be read. */
static char *read_target(struct p9_node *link)
{
	char *target = kmalloc(VFS_PATH_MAX);
	int n;

	if (!target)
		return NULL;
	mutex_lock(&p9fs_lock);
	n = p9fs_check(p9_readlink(&p9fs_client, link->fid, target, VFS_PATH_MAX), "readlink");
	mutex_unlock(&p9fs_lock);
	if (n <= 0) {
		kfree(target);
		return NULL;
	}
	return target;
}

/* Walk target, a relative path, from dir (whose reference it takes),
 * name by name, ".." climbing to the parent node. Returns where it
 * leads (a reference), or NULL: a name missing, or ".." from the root of
 * the share, which would leave it (*outside is then set). */
static struct inode *walk_target(struct inode *dir, const char *target, int *links,
				 bool *outside)
{
	const char *name;
	int len;

	while ((len = vfs_next_component(&target, &name)) > 0) {
		struct inode *next;

		if (len == 1 && name[0] == '.')
			continue;
		if (dir->type != INODE_DIR)
			next = NULL;
		else if (len == 2 && name[0] == '.' && name[1] == '.')
			*outside = !(next = dir->iops->parent(dir));
		else
			next = lookup_following(dir, name, (size_t)len, links);
		inode_put(dir);
		if (!next)
			return NULL;
		dir = next;
	}
	if (len < 0) {
		inode_put(dir);
		return NULL;
	}
	return dir;
}

/* What the symbolic link at link (in dir) leads to, if it stays inside
 * the share: a relative target, walked from dir; NULL if that names
 * nothing. An absolute target is the host's path, not the share's, and
 * a target that climbs above the root leads out of the share: neither
 * is followed, and the link itself is returned (opening it is -ELOOP,
 * as for Linux's O_NOFOLLOW). Nor is a chain of more than
 * P9FS_MAX_LINKS links. Takes link's reference. */
static struct inode *follow(struct inode *dir, struct inode *link, int *links)
{
	bool outside = false;
	struct inode *to;
	char *target;

	if (++*links > P9FS_MAX_LINKS)
		return link;
	target = read_target(to_p9_node(link));
	if (!target)
		return link;
	if (target[0] == '/') {
		kfree(target);
		return link;
	}
	inode_get(dir);
	to = walk_target(dir, target, links, &outside);
	kfree(target);
	if (outside)
		return link;
	inode_put(link);
	return to;
}

static struct inode *lookup_following(struct inode *dir, const char *name, size_t len,
				      int *links)
{
	struct inode *child = p9fs_walk_name(dir, name, len);

	if (child && (to_p9_node(child)->qid.type & P9_QT_SYMLINK))
		child = follow(dir, child, links);
	return child;
}

/* iops->lookup: the child called name, a symbolic link followed when it
 * leads somewhere inside the share. */
static struct inode *p9fs_lookup(struct inode *dir, const char *name, size_t len)
{
	int links = 0;

	return lookup_following(dir, name, len, &links);
}

struct inode *p9fs_gone_node(struct inode *dir, const char *name, size_t len, uint8_t qid_type)
{
	struct p9_qid qid = { .type = qid_type };
	struct p9_node *n = node_new(to_p9_node(dir), name, len, P9_NOFID, &qid, 0, 0);

	if (!n)
		return NULL;
	inode_get(dir);
	return &n->inode;
}

static struct inode *p9fs_parent(struct inode *dir)
{
	struct p9_node *parent = to_p9_node(dir)->parent;

	if (!parent)
		return NULL;
	inode_get(&parent->inode);
	return &parent->inode;
}

/* Tlcreate on a clone of dir's fid (the fid Tlcreate is given becomes
 * the new file's, opened), which is clunked at once: the VFS opens the
 * file it looks up after, as for any other. */
static int p9fs_create(struct inode *dir_inode, const char *name, size_t len,
		       struct inode **out)
{
	struct p9_node *dir = to_p9_node(dir_inode);
	char cname[VFS_NAME_MAX + 1];
	uint32_t fid;
	int err;

	err = to_cname(cname, name, len);
	if (err)
		return err;
	mutex_lock(&p9fs_lock);
	err = p9fs_check(p9_walk(&p9fs_client, dir->fid, 0, NULL, &fid, NULL), "walk");
	if (!err) {
		err = p9fs_check(p9_lcreate(&p9fs_client, fid, cname, O_WRONLY, 0644, 0,
					    NULL, NULL), "lcreate");
		p9_clunk(&p9fs_client, fid);
	}
	p9fs_forget_listing(dir->qid.path);
	mutex_unlock(&p9fs_lock);
	if (err)
		return err;
	*out = p9fs_walk_name(dir_inode, name, len);
	return *out ? 0 : -ENOENT;
}

/* Make the directory name in dir (make_dir) or remove the file name
 * from it: one request, after which the directory's listing is stale. */
static int change_entry(struct inode *dir_inode, const char *name, size_t len, bool make_dir)
{
	struct p9_node *dir = to_p9_node(dir_inode);
	char cname[VFS_NAME_MAX + 1];
	int err;

	err = to_cname(cname, name, len);
	if (err)
		return err;
	mutex_lock(&p9fs_lock);
	if (make_dir)
		err = p9fs_check(p9_mkdir(&p9fs_client, dir->fid, cname, 0755, 0, NULL), "mkdir");
	else
		err = p9fs_check(p9_unlinkat(&p9fs_client, dir->fid, cname, 0), "unlinkat");
	p9fs_forget_listing(dir->qid.path);
	mutex_unlock(&p9fs_lock);
	return err;
}

static int p9fs_mkdir(struct inode *dir, const char *name, size_t len)
{
	return change_entry(dir, name, len, true);
}

static int p9fs_unlink(struct inode *dir, const char *name, size_t len)
{
	return change_entry(dir, name, len, false);
}

/* The last reference is gone: the host may forget the fid. No lookup
 * finds a node without a reference (nothing is cached), so it is freed
 * at once. Its parent's reference goes back to inode_put, which gives it
 * back next: putting it here would make freeing /host/d/d/.../d one
 * nested call per level. */
static struct inode *p9fs_release(struct inode *inode)
{
	struct p9_node *n = to_p9_node(inode);
	struct p9_node *parent = n->parent;

	if (n->fid != P9_NOFID)
		p9fs_clunk(n->fid);
	kfree(n);
	return parent ? &parent->inode : NULL;
}

/* truncate is not here: a file opened with O_TRUNC is cut by the host
 * as Tlopen opens it (ninepfs_file.c). */
const struct inode_operations p9fs_iops = {
	.lookup = p9fs_lookup,
	.parent = p9fs_parent,
	.child = p9fs_child,
	.create = p9fs_create,
	.mkdir = p9fs_mkdir,
	.unlink = p9fs_unlink,
	.release = p9fs_release,
};

/* Tversion and Tattach: the root of the shared folder. The buffers live
 * as long as the kernel. */
static int attach_root(struct p9_node **root)
{
	void *req = kmalloc(VIRTIO_9P_MSG_MAX), *reply = kmalloc(VIRTIO_9P_MSG_MAX);
	struct p9_qid qid;
	uint32_t fid;
	int err;

	if (!req || !reply) {
		kfree(req);
		kfree(reply);
		return -ENOMEM;
	}
	p9_client_init(&p9fs_client, p9fs_rpc, NULL, req, reply, VIRTIO_9P_MSG_MAX);
	mutex_lock(&p9fs_lock);
	err = p9fs_check(p9_version(&p9fs_client), "version");
	if (!err)
		err = p9fs_check(p9_attach(&p9fs_client, "root", "", 0, &fid, &qid), "attach");
	mutex_unlock(&p9fs_lock);
	if (err)
		return err;
	if (!(qid.type & P9_QT_DIR))
		return -ENOTDIR;
	*root = node_new(NULL, "", 0, fid, &qid, 0, 0);
	return *root ? 0 : -ENOMEM;
}

int ninepfs_mount_host(void)
{
	struct p9_node *root;
	int err;

	if (!virtio_9p_present())
		return -ENODEV;	/* the driver has said so in its boot line */
	err = attach_root(&root);
	if (!err) {
		p9fs_type.root = &root->inode;
		register_filesystem(&p9fs_type);
		vfs_mkdir(NINEPFS_MOUNT_POINT);
		err = vfs_mount(virtio_9p_tag(), NINEPFS_MOUNT_POINT, p9fs_type.name);
	}
	if (err) {
		kprintf("9p: host folder '%s' not mounted: %s\n", virtio_9p_tag(), strerror(err));
		return err;
	}
	kprintf("9p: host folder '%s' mounted at %s (msize %u)\n", virtio_9p_tag(),
		NINEPFS_MOUNT_POINT, p9fs_client.msize);
	return 0;
}
