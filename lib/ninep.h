/* A 9P2000.L client over any transport that carries one request and
 * brings back one reply (virtio 9P in the kernel, canned bytes in the
 * tests and the fuzzer).
 *
 * Each call builds its request, sends it with rpc, and checks the reply
 * strictly before using any of it: the server is outside the kernel and
 * is not trusted. Every call returns 0 or a count on success, a negative
 * errno otherwise: the server's own (from Rlerror), -EPROTO for a reply
 * that breaks the protocol, or the transport's. p9_why() then says in a
 * few words what went wrong. Calls are not thread-safe: the caller holds
 * a lock around each. See docs/9p.md. */
#ifndef LIB_NINEP_H
#define LIB_NINEP_H

#include "lib/ninep_wire.h"
#include "lib/types.h"

#define P9_NOFID  0xffffffffu
#define P9_NOTAG  0xffff
/* The smallest msize this client works with: room for a path walk of
 * 16 long names, or a useful read. */
#define P9_MIN_MSIZE 4096
/* The most names one Twalk may carry. */
#define P9_MAXWELEM 16
/* Fids this client hands out: 0 to P9_MAX_FIDS - 1. */
#define P9_MAX_FIDS 1024

/* Tgetattr's request mask: every field of the original stat. */
#define P9_GETATTR_BASIC 0x000007ffull

/* Send the req_len bytes at req and store the reply in reply, at most cap
 * bytes, setting *reply_len. Returns 0 or a negative errno. */
typedef int (*p9_rpc_fn)(void *ctx, const void *req, size_t req_len,
			 void *reply, size_t cap, size_t *reply_len);

struct p9_client {
	p9_rpc_fn rpc;
	void *ctx;
	uint8_t *req;		/* the request buffer, bufsize bytes */
	uint8_t *reply;		/* the reply buffer, bufsize bytes */
	size_t bufsize;
	uint32_t msize;		/* negotiated by p9_version, <= bufsize */
	uint16_t next_tag;
	uint32_t fids[P9_MAX_FIDS / 32];	/* bit set: fid in use */
	const char *why;	/* what the last failure was */
};

struct p9_time {
	uint64_t sec;
	uint64_t nsec;
};

/* The file type bits of Rgetattr's mode: 9P2000.L carries Linux's
 * st_mode, so these are Linux's S_IFMT and S_IF* values. */
#define P9_S_IFMT   0170000
#define P9_S_IFSOCK 0140000
#define P9_S_IFBLK  0060000
#define P9_S_IFCHR  0020000
#define P9_S_IFIFO  0010000

/* Rgetattr: valid says which fields the server filled in (P9_GETATTR_*). */
struct p9_attr {
	uint64_t valid;
	struct p9_qid qid;
	uint32_t mode, uid, gid;
	uint64_t nlink, rdev, size, blksize, blocks;
	struct p9_time atime, mtime, ctime, btime;
	uint64_t gen, data_version;
};

/* One Rreaddir entry. name is not NUL-terminated and points into the
 * buffer the entries were read from. offset is what to pass to the next
 * p9_readdir to go on after this entry. */
struct p9_dirent {
	struct p9_qid qid;
	uint64_t offset;
	uint8_t type;
	const char *name;
	uint16_t name_len;
};

struct p9_dirent_iter {
	struct p9_in in;
};

/* Set up c to talk through rpc(ctx, ...) with two buffers of bufsize
 * bytes each, which must outlive c. No fid is in use. */
void p9_client_init(struct p9_client *c, p9_rpc_fn rpc, void *ctx,
		    void *req_buf, void *reply_buf, size_t bufsize);

/* What the last call that failed found wrong, as a short phrase. */
const char *p9_why(const struct p9_client *c);

/* Tversion: offer msize = bufsize and "9P2000.L". The server's msize
 * becomes c->msize; it must be <= bufsize and >= P9_MIN_MSIZE. A server
 * that answers "unknown" gives -ENOSYS. Frees every fid, as the server
 * forgets them too. */
int p9_version(struct p9_client *c);

/* Tattach: a new fid for the root of the export aname, as user uname /
 * n_uname. Sets *fid and *qid. */
int p9_attach(struct p9_client *c, const char *uname, const char *aname,
	      uint32_t n_uname, uint32_t *fid, struct p9_qid *qid);

/* Twalk: a new fid for the file reached from fid through the nwname
 * (<= P9_MAXWELEM) names; nwname 0 clones fid. Sets *newfid and, when
 * qids is not NULL, the nwname qids. A walk that stops early gives
 * -ENOENT and no new fid. */
int p9_walk(struct p9_client *c, uint32_t fid, unsigned int nwname,
	    const char *const *names, uint32_t *newfid, struct p9_qid *qids);

/* Tgetattr: the attributes of fid that mask asks for (e.g. P9_GETATTR_BASIC). */
int p9_getattr(struct p9_client *c, uint32_t fid, uint64_t mask, struct p9_attr *attr);

/* Tlopen: open fid with Linux open flags. Sets *qid and *iounit (0: no limit
 * beyond msize), either may be NULL. */
int p9_lopen(struct p9_client *c, uint32_t fid, uint32_t flags,
	     struct p9_qid *qid, uint32_t *iounit);

/* Tlcreate: create name in the directory fid and open it; fid then
 * stands for the new file. Sets *qid and *iounit, either may be NULL. */
int p9_lcreate(struct p9_client *c, uint32_t fid, const char *name, uint32_t flags,
	       uint32_t mode, uint32_t gid, struct p9_qid *qid, uint32_t *iounit);

/* Tmkdir: make the directory name in the directory dfid, with mode bits
 * mode and group gid. Sets *qid unless qid is NULL. */
int p9_mkdir(struct p9_client *c, uint32_t dfid, const char *name, uint32_t mode,
	     uint32_t gid, struct p9_qid *qid);

/* Tunlinkat: remove name from the directory dfid; flags 0 for a file
 * (Linux's AT_REMOVEDIR, 0x200, for an empty directory). */
int p9_unlinkat(struct p9_client *c, uint32_t dfid, const char *name, uint32_t flags);

/* Tread: up to count bytes at offset of the open fid into dst; count is
 * cut to what fits in one message. Returns the bytes read, 0 at the end. */
int p9_read(struct p9_client *c, uint32_t fid, uint64_t offset, void *dst, uint32_t count);

/* Twrite: up to count bytes of src at offset; count is cut to what fits
 * in one message. Returns the bytes the server wrote. */
int p9_write(struct p9_client *c, uint32_t fid, uint64_t offset, const void *src,
	     uint32_t count);

/* Treaddir: entries of the open directory fid from offset (0, or an
 * entry's offset), up to count bytes of them copied to dst. Every entry
 * is checked before any is returned. Returns the bytes, 0 at the end;
 * walk them with p9_dirent_start and p9_dirent_next. */
int p9_readdir(struct p9_client *c, uint32_t fid, uint64_t offset, void *dst,
	       uint32_t count);

/* Tclunk: forget fid. The fid is free again even if the server refuses,
 * as the protocol says. */
int p9_clunk(struct p9_client *c, uint32_t fid);

/* Treadlink: the target of the symbolic link fid, NUL-terminated into dst
 * of cap bytes (-ENAMETOOLONG if it does not fit). Returns its length. */
int p9_readlink(struct p9_client *c, uint32_t fid, char *dst, size_t cap);

/* Iterate over the len bytes of Rreaddir entries at data. */
void p9_dirent_start(struct p9_dirent_iter *it, const void *data, size_t len);

/* The next entry into *d: 1, or 0 after the last, or -EPROTO if an entry
 * runs past the end or its name is empty or holds '/' or a NUL. */
int p9_dirent_next(struct p9_dirent_iter *it, struct p9_dirent *d);

#endif
