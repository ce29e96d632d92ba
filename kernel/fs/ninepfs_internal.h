/* What the files of the 9p filesystem share (ninepfs.h): the client,
 * its lock, and the inode they make. Not for use outside kernel/fs/ninepfs*. */
#ifndef KERNEL_FS_NINEPFS_INTERNAL_H
#define KERNEL_FS_NINEPFS_INTERNAL_H

#include "kernel/fs/vfs.h"
#include "kernel/mutex.h"
#include "lib/ninep.h"

/* One host file. The fid was walked to it and is never opened, so that
 * more walks can start from it (9P forbids walking from an open fid);
 * each open file gets a fid of its own. fid is P9_NOFID for a name that
 * was listed but is gone from the host: it can be listed, not used. */
struct p9_node {
	struct inode inode;
	struct p9_node *parent;		/* held; NULL for the root */
	uint32_t fid;
	struct p9_qid qid;		/* as the walk to it found it */
	char name[];			/* inode.name points here */
};

static inline struct p9_node *to_p9_node(struct inode *inode)
{
	return container_of(inode, struct p9_node, inode);
}

/* The client, its buffers and its fids, and the directory listings
 * (ninepfs_dir.c): every request is made with p9fs_lock held, since the
 * client sends one request at a time through one pair of buffers. */
extern struct p9_client p9fs_client;
extern struct mutex p9fs_lock;

extern const struct inode_operations p9fs_iops;
extern const struct file_operations p9fs_file_fops;

/* Clunk fid (the host forgets it), taking p9fs_lock. */
void p9fs_clunk(uint32_t fid);

/* After a call of the client failed with err: if the server or the
 * device broke the protocol (not a plain refusal, such as a missing
 * file), say what it did in one kernel message. Returns err. Call with
 * p9fs_lock held. */
int p9fs_check(int err, const char *call);

/* The inode for the child called name (len bytes) of dir, walked to on
 * the host now, with its size from the host: a new reference. NULL if
 * the host has no such name (or refused the walk). A symbolic link is
 * the link itself, not followed (the lookup the VFS calls follows it). */
struct inode *p9fs_walk_name(struct inode *dir, const char *name, size_t len);

/* iops->child: the index-th entry of dir, listed on the host when a
 * listing starts (index 0) and taken from that listing after (ninepfs_dir.c). */
struct inode *p9fs_child(struct inode *dir, size_t index);

/* A node for a name that was listed but can no longer be walked to: a
 * new reference to an inode of the given qid type, which no operation
 * can use. NULL if memory is short. */
struct inode *p9fs_gone_node(struct inode *dir, const char *name, size_t len, uint8_t qid_type);

/* Drop the listing kept for the directory whose qid path is dir, if
 * any (a name was made or removed in it). Call with p9fs_lock held. */
void p9fs_forget_listing(uint64_t dir);

#endif
