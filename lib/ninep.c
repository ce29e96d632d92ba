/* The 9P2000.L client calls (lib/ninep.h): build a request, send it,
 * check the reply field by field.
 *
 * Nothing the server sends is trusted. lib/ninep_wire.c checks the
 * header (size, tag, type); each call here then reads its reply's fields
 * through the sticky reader, and p9_in_done refuses a reply whose fields
 * run past its end or stop short of it. Counts are checked against what
 * was asked before any data is copied.
 *
 * Fids are the numbers 0 to P9_MAX_FIDS - 1, kept in a bitmap: a call
 * that makes a fid takes the lowest free one, p9_clunk gives it back.
 * Small numbers keep a trace readable, and a fid the server invents can
 * never be confused with one of ours since only requests carry fids. */
#include "lib/ninep.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Rread and Rreaddir: header and count[4] before the data. */
#define P9_IOHDR_SIZE (P9_HDR_SIZE + 4)
/* Twrite: header, fid[4] offset[8] count[4] before the data. */
#define P9_TWRITE_HDR_SIZE (P9_HDR_SIZE + 16)

static int fail(struct p9_client *c, int err, const char *why)
{
	c->why = why;
	return err;
}

void p9_client_init(struct p9_client *c, p9_rpc_fn rpc, void *ctx,
		    void *req_buf, void *reply_buf, size_t bufsize)
{
	memset(c, 0, sizeof(*c));
	c->rpc = rpc;
	c->ctx = ctx;
	c->req = req_buf;
	c->reply = reply_buf;
	c->bufsize = bufsize;
	/* Until Tversion has agreed on less: the offer never exceeds it. */
	c->msize = (uint32_t)MIN(bufsize, (size_t)INT32_MAX);
	c->why = "no error";
}

const char *p9_why(const struct p9_client *c)
{
	return c->why;
}

/* Tags only have to tell apart requests in flight; with one at a time
 * a counter is enough. NOTAG is kept for Tversion. */
static uint16_t new_tag(struct p9_client *c)
{
	uint16_t tag = c->next_tag++;

	if (c->next_tag == P9_NOTAG)
		c->next_tag = 0;
	return tag;
}

static int fid_alloc(struct p9_client *c, uint32_t *fid)
{
	for (uint32_t i = 0; i < P9_MAX_FIDS; i++) {
		if (!(c->fids[i / 32] & (1u << (i % 32)))) {
			c->fids[i / 32] |= 1u << (i % 32);
			*fid = i;
			return 0;
		}
	}
	return fail(c, -ENOSPC, "all fids are in use");
}

static void fid_free(struct p9_client *c, uint32_t fid)
{
	if (fid < P9_MAX_FIDS)
		c->fids[fid / 32] &= ~(1u << (fid % 32));
}

static void begin(struct p9_client *c, struct p9_out *o, uint8_t type, uint16_t tag)
{
	p9_out_begin(o, c->req, c->msize, type, tag);
}

/* Send the request in o and check the reply's header; on success *in
 * holds the reply's body, of type want. */
static int transact(struct p9_client *c, struct p9_out *o, uint8_t want, struct p9_in *in)
{
	int len = p9_out_finish(o);
	size_t got = 0;
	uint16_t tag;
	int err;

	if (len < 0)
		return fail(c, len, "request does not fit in msize");
	/* The tag is read back from the header, now known to be whole. */
	tag = (uint16_t)(o->data[5] | o->data[6] << 8);
	err = c->rpc(c->ctx, c->req, (size_t)len, c->reply, c->msize, &got);
	if (err)
		return fail(c, err < 0 ? err : -EIO, "transport failed");
	if (got > c->msize)
		return fail(c, -EPROTO, "transport returned more than the buffer");
	return p9_check_reply(in, c->reply, got, tag, want, &c->why);
}

static bool str_is(const struct p9_str *s, const char *want)
{
	return s->len == strlen(want) && memcmp(s->s, want, s->len) == 0;
}

int p9_version(struct p9_client *c)
{
	uint32_t asked = (uint32_t)MIN(c->bufsize, (size_t)INT32_MAX);
	struct p9_out o;
	struct p9_in in;
	struct p9_str version;
	uint32_t msize;
	int err;

	if (asked < P9_MIN_MSIZE)
		return fail(c, -EINVAL, "buffers smaller than the least msize");
	memset(c->fids, 0, sizeof(c->fids));
	c->msize = asked;
	begin(c, &o, P9_TVERSION, P9_NOTAG);
	p9_put_u32(&o, asked);
	p9_put_str(&o, "9P2000.L");
	err = transact(c, &o, P9_RVERSION, &in);
	if (err)
		return err;
	msize = p9_get_u32(&in);
	p9_get_str(&in, &version);
	err = p9_in_done(&in, &c->why);
	if (err)
		return err;
	if (str_is(&version, "unknown"))
		return fail(c, -ENOSYS, "server does not speak 9P2000.L");
	if (!str_is(&version, "9P2000.L"))
		return fail(c, -EPROTO, "server answered another version");
	if (msize > asked || msize < P9_MIN_MSIZE)
		return fail(c, -EPROTO, "server msize out of range");
	c->msize = msize;
	return 0;
}

int p9_attach(struct p9_client *c, const char *uname, const char *aname,
	      uint32_t n_uname, uint32_t *fid, struct p9_qid *qid)
{
	struct p9_qid got;
	struct p9_out o;
	struct p9_in in;
	uint32_t nf;
	int err = fid_alloc(c, &nf);

	if (err)
		return err;
	begin(c, &o, P9_TATTACH, new_tag(c));
	p9_put_u32(&o, nf);
	p9_put_u32(&o, P9_NOFID);
	p9_put_str(&o, uname);
	p9_put_str(&o, aname);
	p9_put_u32(&o, n_uname);
	err = transact(c, &o, P9_RATTACH, &in);
	if (!err) {
		p9_get_qid(&in, &got);
		err = p9_in_done(&in, &c->why);
	}
	if (err) {
		fid_free(c, nf);
		return err;
	}
	*qid = got;
	*fid = nf;
	return 0;
}

/* Rwalk: nwqid[2] and that many qids, no more than the names asked. */
static int walk_reply(struct p9_client *c, struct p9_in *in, unsigned int nwname,
		      struct p9_qid *qids)
{
	uint16_t nwqid = p9_get_u16(in);
	int err;

	if (nwqid > nwname)
		return fail(c, -EPROTO, "walk reply has more qids than names");
	for (unsigned int i = 0; i < nwqid; i++)
		p9_get_qid(in, &qids[i]);
	err = p9_in_done(in, &c->why);
	if (err)
		return err;
	if (nwqid < nwname)
		return fail(c, -ENOENT, "walk stopped before the last name");
	return 0;
}

int p9_walk(struct p9_client *c, uint32_t fid, unsigned int nwname,
	    const char *const *names, uint32_t *newfid, struct p9_qid *qids)
{
	struct p9_qid got[P9_MAXWELEM];
	struct p9_out o;
	struct p9_in in;
	uint32_t nf;
	int err;

	if (nwname > P9_MAXWELEM)
		return fail(c, -EINVAL, "more names than one walk takes");
	err = fid_alloc(c, &nf);
	if (err)
		return err;
	begin(c, &o, P9_TWALK, new_tag(c));
	p9_put_u32(&o, fid);
	p9_put_u32(&o, nf);
	p9_put_u16(&o, (uint16_t)nwname);
	for (unsigned int i = 0; i < nwname; i++)
		p9_put_str(&o, names[i]);
	err = transact(c, &o, P9_RWALK, &in);
	if (!err)
		err = walk_reply(c, &in, nwname, got);
	if (err) {
		fid_free(c, nf);
		return err;
	}
	if (qids)
		memcpy(qids, got, nwname * sizeof(got[0]));
	*newfid = nf;
	return 0;
}

static void get_time(struct p9_in *in, struct p9_time *t)
{
	t->sec = p9_get_u64(in);
	t->nsec = p9_get_u64(in);
}

/* Rgetattr's fields, in their order on the wire. */
static void get_attr(struct p9_in *in, struct p9_attr *a)
{
	a->valid = p9_get_u64(in);
	p9_get_qid(in, &a->qid);
	a->mode = p9_get_u32(in);
	a->uid = p9_get_u32(in);
	a->gid = p9_get_u32(in);
	a->nlink = p9_get_u64(in);
	a->rdev = p9_get_u64(in);
	a->size = p9_get_u64(in);
	a->blksize = p9_get_u64(in);
	a->blocks = p9_get_u64(in);
	get_time(in, &a->atime);
	get_time(in, &a->mtime);
	get_time(in, &a->ctime);
	get_time(in, &a->btime);
	a->gen = p9_get_u64(in);
	a->data_version = p9_get_u64(in);
}

int p9_getattr(struct p9_client *c, uint32_t fid, uint64_t mask, struct p9_attr *attr)
{
	struct p9_attr got;
	struct p9_out o;
	struct p9_in in;
	int err;

	begin(c, &o, P9_TGETATTR, new_tag(c));
	p9_put_u32(&o, fid);
	p9_put_u64(&o, mask);
	err = transact(c, &o, P9_RGETATTR, &in);
	if (err)
		return err;
	get_attr(&in, &got);
	err = p9_in_done(&in, &c->why);
	if (!err)
		*attr = got;
	return err;
}

/* Rlopen and Rlcreate: qid[13] iounit[4]. */
static int open_reply(struct p9_client *c, struct p9_in *in, struct p9_qid *qid,
		      uint32_t *iounit)
{
	struct p9_qid q;
	uint32_t unit;

	int err;

	p9_get_qid(in, &q);
	unit = p9_get_u32(in);
	err = p9_in_done(in, &c->why);
	if (err)
		return err;
	if (qid)
		*qid = q;
	if (iounit)
		*iounit = unit;
	return 0;
}

int p9_lopen(struct p9_client *c, uint32_t fid, uint32_t flags,
	     struct p9_qid *qid, uint32_t *iounit)
{
	struct p9_out o;
	struct p9_in in;
	int err;

	begin(c, &o, P9_TLOPEN, new_tag(c));
	p9_put_u32(&o, fid);
	p9_put_u32(&o, flags);
	err = transact(c, &o, P9_RLOPEN, &in);
	return err ? err : open_reply(c, &in, qid, iounit);
}

int p9_lcreate(struct p9_client *c, uint32_t fid, const char *name, uint32_t flags,
	       uint32_t mode, uint32_t gid, struct p9_qid *qid, uint32_t *iounit)
{
	struct p9_out o;
	struct p9_in in;
	int err;

	begin(c, &o, P9_TLCREATE, new_tag(c));
	p9_put_u32(&o, fid);
	p9_put_str(&o, name);
	p9_put_u32(&o, flags);
	p9_put_u32(&o, mode);
	p9_put_u32(&o, gid);
	err = transact(c, &o, P9_RLCREATE, &in);
	return err ? err : open_reply(c, &in, qid, iounit);
}

int p9_mkdir(struct p9_client *c, uint32_t dfid, const char *name, uint32_t mode,
	     uint32_t gid, struct p9_qid *qid)
{
	struct p9_qid got;
	struct p9_out o;
	struct p9_in in;
	int err;

	begin(c, &o, P9_TMKDIR, new_tag(c));
	p9_put_u32(&o, dfid);
	p9_put_str(&o, name);
	p9_put_u32(&o, mode);
	p9_put_u32(&o, gid);
	err = transact(c, &o, P9_RMKDIR, &in);
	if (err)
		return err;
	p9_get_qid(&in, &got);
	err = p9_in_done(&in, &c->why);
	if (!err && qid)
		*qid = got;
	return err;
}

int p9_unlinkat(struct p9_client *c, uint32_t dfid, const char *name, uint32_t flags)
{
	struct p9_out o;
	struct p9_in in;
	int err;

	begin(c, &o, P9_TUNLINKAT, new_tag(c));
	p9_put_u32(&o, dfid);
	p9_put_str(&o, name);
	p9_put_u32(&o, flags);
	err = transact(c, &o, P9_RUNLINKAT, &in);
	return err ? err : p9_in_done(&in, &c->why);
}

/* Tread and Treaddir: fid[4] offset[8] count[4], with count cut to what
 * one reply can carry. Their replies are count[4] and that many bytes:
 * *data and *n get them, checked to be no more than asked. */
static int read_like(struct p9_client *c, uint8_t type, uint32_t fid, uint64_t offset,
		     uint32_t count, const uint8_t **data, uint32_t *n)
{
	struct p9_out o;
	struct p9_in in;
	int err;

	count = MIN(count, c->msize - P9_IOHDR_SIZE);
	begin(c, &o, type, new_tag(c));
	p9_put_u32(&o, fid);
	p9_put_u64(&o, offset);
	p9_put_u32(&o, count);
	err = transact(c, &o, type + 1, &in);
	if (err)
		return err;
	*n = p9_get_u32(&in);
	if (*n > count)
		return fail(c, -EPROTO, "server sent more bytes than asked");
	*data = p9_get_bytes(&in, *n);
	return p9_in_done(&in, &c->why);
}

int p9_read(struct p9_client *c, uint32_t fid, uint64_t offset, void *dst, uint32_t count)
{
	const uint8_t *data;
	uint32_t n;
	int err = read_like(c, P9_TREAD, fid, offset, count, &data, &n);

	if (err)
		return err;
	memcpy(dst, data, n);
	return (int)n;
}

int p9_readdir(struct p9_client *c, uint32_t fid, uint64_t offset, void *dst,
	       uint32_t count)
{
	struct p9_dirent_iter it;
	struct p9_dirent d;
	const uint8_t *data;
	uint32_t n;
	int err = read_like(c, P9_TREADDIR, fid, offset, count, &data, &n);

	if (err)
		return err;
	p9_dirent_start(&it, data, n);
	while ((err = p9_dirent_next(&it, &d)) > 0)
		;
	if (err)
		return fail(c, err, "directory entry broken or badly named");
	memcpy(dst, data, n);
	return (int)n;
}

int p9_write(struct p9_client *c, uint32_t fid, uint64_t offset, const void *src,
	     uint32_t count)
{
	struct p9_out o;
	struct p9_in in;
	uint32_t n;
	int err;

	count = MIN(count, c->msize - P9_TWRITE_HDR_SIZE);
	begin(c, &o, P9_TWRITE, new_tag(c));
	p9_put_u32(&o, fid);
	p9_put_u64(&o, offset);
	p9_put_u32(&o, count);
	p9_put_bytes(&o, src, count);
	err = transact(c, &o, P9_RWRITE, &in);
	if (err)
		return err;
	n = p9_get_u32(&in);
	err = p9_in_done(&in, &c->why);
	if (err)
		return err;
	if (n > count)
		return fail(c, -EPROTO, "server wrote more bytes than sent");
	return (int)n;
}

int p9_clunk(struct p9_client *c, uint32_t fid)
{
	struct p9_out o;
	struct p9_in in;
	int err;

	begin(c, &o, P9_TCLUNK, new_tag(c));
	p9_put_u32(&o, fid);
	err = transact(c, &o, P9_RCLUNK, &in);
	fid_free(c, fid);
	return err ? err : p9_in_done(&in, &c->why);
}

int p9_readlink(struct p9_client *c, uint32_t fid, char *dst, size_t cap)
{
	struct p9_out o;
	struct p9_in in;
	struct p9_str target;
	int err;

	begin(c, &o, P9_TREADLINK, new_tag(c));
	p9_put_u32(&o, fid);
	err = transact(c, &o, P9_RREADLINK, &in);
	if (err)
		return err;
	p9_get_str(&in, &target);
	err = p9_in_done(&in, &c->why);
	if (err)
		return err;
	if (memchr(target.s, '\0', target.len))
		return fail(c, -EPROTO, "link target holds a NUL");
	if (target.len >= cap)
		return fail(c, -ENAMETOOLONG, "link target longer than the buffer");
	memcpy(dst, target.s, target.len);
	dst[target.len] = '\0';
	return target.len;
}

void p9_dirent_start(struct p9_dirent_iter *it, const void *data, size_t len)
{
	p9_in_start(&it->in, data, len);
}

int p9_dirent_next(struct p9_dirent_iter *it, struct p9_dirent *d)
{
	struct p9_str name;

	if (!it->in.bad && it->in.left == 0)
		return 0;
	p9_get_qid(&it->in, &d->qid);
	d->offset = p9_get_u64(&it->in);
	d->type = p9_get_u8(&it->in);
	p9_get_str(&it->in, &name);
	if (it->in.bad || name.len == 0 || memchr(name.s, '/', name.len) ||
	    memchr(name.s, '\0', name.len)) {
		it->in.bad = true;	/* stay broken: no entry after this one */
		return -EPROTO;
	}
	d->name = name.s;
	d->name_len = name.len;
	return 1;
}
