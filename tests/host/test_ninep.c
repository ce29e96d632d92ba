/* Host tests for the 9P2000.L client (lib/ninep.c, lib/ninep_wire.c).
 *
 * A fake transport stands in for virtio: it keeps the last request the
 * client sent and answers with canned replies, one per call, in order.
 * Requests are compared with byte arrays written out by hand from the
 * protocol's layout, so that the encoder is not checked against itself.
 * Replies are built the same way, or with the small builder below when
 * they are long (Rgetattr, Rreaddir). Every reply is copied into a heap
 * block of exactly its size first, so ASan sees any read past it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "lib/errno.h"
#include "lib/ninep.h"
#include "lib/string.h"

#define BUFSIZE 8192

/* ---- The fake transport ---- */

struct canned {
	const uint8_t *data;
	size_t len;
	size_t claim;	/* the length to report, when it is not len */
};

struct fake {
	uint8_t sent[BUFSIZE];
	size_t sent_len;
	struct canned replies[8];
	int next, count;
	int err;	/* returned instead of a reply, when not 0 */
};

static int fake_rpc(void *ctx, const void *req, size_t req_len,
		    void *reply, size_t cap, size_t *reply_len)
{
	struct fake *f = ctx;
	struct canned *r;

	assert_true(req_len <= sizeof(f->sent));
	memcpy(f->sent, req, req_len);
	f->sent_len = req_len;
	if (f->err)
		return f->err;
	assert_true(f->next < f->count);
	r = &f->replies[f->next++];
	memcpy(reply, r->data, MIN(r->len, cap));
	*reply_len = r->claim ? r->claim : r->len;
	return 0;
}

struct session {
	struct fake fake;
	struct p9_client c;
	uint8_t req[BUFSIZE], reply[BUFSIZE];
};

static int setup(void **state)
{
	struct session *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	p9_client_init(&s->c, fake_rpc, &s->fake, s->req, s->reply, BUFSIZE);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static void queue(struct session *s, const void *data, size_t len)
{
	s->fake.replies[s->fake.count++] = (struct canned){ data, len, 0 };
}

#define QUEUE(s, arr) queue(s, arr, sizeof(arr))

#define ASSERT_SENT(s, arr) do { \
	assert_int_equal((s)->fake.sent_len, sizeof(arr)); \
	assert_memory_equal((s)->fake.sent, arr, sizeof(arr)); \
} while (0)

/* ---- A builder for long replies ---- */

struct msg {
	uint8_t b[BUFSIZE];
	size_t n;
};

static void m_le(struct msg *m, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		m->b[m->n++] = (uint8_t)(v >> (8 * i));
}

static void m_str(struct msg *m, const char *s)
{
	m_le(m, strlen(s), 2);
	memcpy(m->b + m->n, s, strlen(s));
	m->n += strlen(s);
}

static void m_qid(struct msg *m, uint8_t type, uint32_t version, uint64_t path)
{
	m_le(m, type, 1);
	m_le(m, version, 4);
	m_le(m, path, 8);
}

static void m_begin(struct msg *m, uint8_t type, uint16_t tag)
{
	m->n = 0;
	m_le(m, 0, 4);
	m_le(m, type, 1);
	m_le(m, tag, 2);
}

static void m_end(struct msg *m)
{
	for (int i = 0; i < 4; i++)
		m->b[i] = (uint8_t)(m->n >> (8 * i));
}

/* ---- Requests and good replies ---- */

static void test_version(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		21, 0, 0, 0, P9_TVERSION, 0xff, 0xff,
		0x00, 0x20, 0, 0,
		8, 0, '9', 'P', '2', '0', '0', '0', '.', 'L',
	};
	static const uint8_t reply[] = {
		21, 0, 0, 0, P9_RVERSION, 0xff, 0xff,
		0x00, 0x10, 0, 0,
		8, 0, '9', 'P', '2', '0', '0', '0', '.', 'L',
	};

	QUEUE(s, reply);
	assert_int_equal(p9_version(&s->c), 0);
	ASSERT_SENT(s, want);
	assert_int_equal(s->c.msize, 4096);
}

/* Rversion with this msize and version string, as an answer to BUFSIZE. */
static int version_with(struct session *s, uint32_t msize, const char *version,
			uint16_t tag)
{
	static struct msg m;

	m_begin(&m, P9_RVERSION, tag);
	m_le(&m, msize, 4);
	m_str(&m, version);
	m_end(&m);
	queue(s, m.b, m.n);
	return p9_version(&s->c);
}

static void test_version_refusals(void **state)
{
	struct session *s = *state;

	assert_int_equal(version_with(s, BUFSIZE + 1, "9P2000.L", P9_NOTAG), -EPROTO);
	assert_string_equal(p9_why(&s->c), "server msize out of range");
	assert_int_equal(version_with(s, 1024, "9P2000.L", P9_NOTAG), -EPROTO);
	assert_int_equal(version_with(s, BUFSIZE, "unknown", P9_NOTAG), -ENOSYS);
	assert_int_equal(version_with(s, BUFSIZE, "9P2000.u", P9_NOTAG), -EPROTO);
	assert_int_equal(version_with(s, BUFSIZE, "9P2000.L", 0), -EPROTO);
	assert_string_equal(p9_why(&s->c), "reply tag is not the request's");
	assert_int_equal(version_with(s, BUFSIZE, "9P2000.L", P9_NOTAG), 0);
	assert_int_equal(s->c.msize, BUFSIZE);
}

static void test_version_small_buffers(void **state)
{
	struct session *s = *state;

	p9_client_init(&s->c, fake_rpc, &s->fake, s->req, s->reply, 1000);
	assert_int_equal(p9_version(&s->c), -EINVAL);
	/* Buffers too small for even a header: nothing is sent. */
	p9_client_init(&s->c, fake_rpc, &s->fake, s->req, s->reply, 4);
	assert_int_equal(p9_clunk(&s->c, 1), -E2BIG);
	assert_int_equal(p9_read(&s->c, 1, 0, s->reply, 100), -E2BIG);
	assert_int_equal(s->fake.sent_len, 0);
}

static const uint8_t rattach[] = {
	20, 0, 0, 0, P9_RATTACH, 0, 0,
	0x80, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
};

static void test_attach(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		27, 0, 0, 0, P9_TATTACH, 0, 0,
		0, 0, 0, 0,
		0xff, 0xff, 0xff, 0xff,
		4, 0, 'r', 'o', 'o', 't',
		0, 0,
		0, 0, 0, 0,
	};
	struct p9_qid qid;
	uint32_t fid = 99;

	QUEUE(s, rattach);
	assert_int_equal(p9_attach(&s->c, "root", "", 0, &fid, &qid), 0);
	ASSERT_SENT(s, want);
	assert_int_equal(fid, 0);
	assert_int_equal(qid.type, P9_QT_DIR);
	assert_int_equal(qid.version, 1);
	assert_int_equal(qid.path, 2);
}

/* The walk of docs/9p.md: from the root fid 0 to "etc" "motd" as fid 1. */
static void test_walk(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		28, 0, 0, 0, P9_TWALK, 1, 0,
		0, 0, 0, 0,
		1, 0, 0, 0,
		2, 0,
		3, 0, 'e', 't', 'c',
		4, 0, 'm', 'o', 't', 'd',
	};
	static const uint8_t reply[] = {
		35, 0, 0, 0, P9_RWALK, 1, 0,
		2, 0,
		0x80, 5, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0,
		0x00, 7, 0, 0, 0, 0x11, 0x22, 0, 0, 0, 0, 0, 0,
	};
	const char *names[] = { "etc", "motd" };
	struct p9_qid root, qids[2];
	uint32_t fid, newfid;

	QUEUE(s, rattach);
	QUEUE(s, reply);
	assert_int_equal(p9_attach(&s->c, "root", "", 0, &fid, &root), 0);
	assert_int_equal(p9_walk(&s->c, fid, 2, names, &newfid, qids), 0);
	ASSERT_SENT(s, want);
	assert_int_equal(newfid, 1);
	assert_int_equal(qids[0].type, P9_QT_DIR);
	assert_int_equal(qids[0].path, 0x10);
	assert_int_equal(qids[1].version, 7);
	assert_int_equal(qids[1].path, 0x2211);
}

static void test_getattr(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		19, 0, 0, 0, P9_TGETATTR, 0, 0,
		3, 0, 0, 0,
		0xff, 0x07, 0, 0, 0, 0, 0, 0,
	};
	static struct msg m;
	struct p9_attr a;

	m_begin(&m, P9_RGETATTR, 0);
	m_le(&m, 0x7ff, 8);
	m_qid(&m, 0, 3, 0x1234);
	m_le(&m, 0100644, 4);
	m_le(&m, 1000, 4);
	m_le(&m, 100, 4);
	for (int i = 1; i <= 5; i++)	/* nlink rdev size blksize blocks */
		m_le(&m, i * 11, 8);
	for (int i = 1; i <= 8; i++)	/* a, m, c, btime: sec nsec */
		m_le(&m, 1000 + i, 8);
	m_le(&m, 77, 8);
	m_le(&m, 88, 8);
	m_end(&m);
	assert_int_equal(m.n, 7 + 153);
	queue(s, m.b, m.n);
	assert_int_equal(p9_getattr(&s->c, 3, P9_GETATTR_BASIC, &a), 0);
	ASSERT_SENT(s, want);
	assert_int_equal(a.valid, 0x7ff);
	assert_int_equal(a.qid.path, 0x1234);
	assert_int_equal(a.mode, 0100644);
	assert_int_equal(a.uid, 1000);
	assert_int_equal(a.gid, 100);
	assert_int_equal(a.nlink, 11);
	assert_int_equal(a.size, 33);
	assert_int_equal(a.blocks, 55);
	assert_int_equal(a.atime.sec, 1001);
	assert_int_equal(a.mtime.nsec, 1004);
	assert_int_equal(a.btime.nsec, 1008);
	assert_int_equal(a.gen, 77);
	assert_int_equal(a.data_version, 88);
}

static void test_getattr_short(void **state)
{
	struct session *s = *state;
	static struct msg m;
	struct p9_attr a;

	m_begin(&m, P9_RGETATTR, 0);
	m_le(&m, 0x7ff, 8);
	m_qid(&m, 0, 3, 0x1234);
	m_end(&m);
	queue(s, m.b, m.n);
	assert_int_equal(p9_getattr(&s->c, 3, P9_GETATTR_BASIC, &a), -EPROTO);
	assert_string_equal(p9_why(&s->c), "reply ends inside a field");
}

static void test_lopen(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		15, 0, 0, 0, P9_TLOPEN, 0, 0,
		1, 0, 0, 0,
		0, 0, 0, 0,
	};
	static const uint8_t reply[] = {
		24, 0, 0, 0, P9_RLOPEN, 0, 0,
		0, 9, 0, 0, 0, 0x42, 0, 0, 0, 0, 0, 0, 0,
		0, 0x10, 0, 0,
	};
	struct p9_qid qid;
	uint32_t iounit;

	QUEUE(s, reply);
	assert_int_equal(p9_lopen(&s->c, 1, 0, &qid, &iounit), 0);
	ASSERT_SENT(s, want);
	assert_int_equal(qid.version, 9);
	assert_int_equal(qid.path, 0x42);
	assert_int_equal(iounit, 0x1000);
}

static void test_lcreate(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		28, 0, 0, 0, P9_TLCREATE, 0, 0,
		1, 0, 0, 0,
		3, 0, 'n', 'e', 'w',
		0x41, 0, 0, 0,
		0xa4, 0x01, 0, 0,
		0, 0, 0, 0,
	};
	static const uint8_t reply[] = {
		24, 0, 0, 0, P9_RLCREATE, 0, 0,
		0, 0, 0, 0, 0, 0x43, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0,
	};
	struct p9_qid qid;

	QUEUE(s, reply);
	assert_int_equal(p9_lcreate(&s->c, 1, "new", 0x41, 0644, 0, &qid, NULL), 0);
	ASSERT_SENT(s, want);
	assert_int_equal(qid.path, 0x43);
}

static void test_read(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		23, 0, 0, 0, P9_TREAD, 0, 0,
		2, 0, 0, 0,
		0, 1, 0, 0, 0, 0, 0, 0,
		10, 0, 0, 0,
	};
	static const uint8_t reply[] = {
		16, 0, 0, 0, P9_RREAD, 0, 0,
		5, 0, 0, 0, 'h', 'e', 'l', 'l', 'o',
	};
	char buf[10];

	QUEUE(s, reply);
	assert_int_equal(p9_read(&s->c, 2, 0x100, buf, sizeof(buf)), 5);
	ASSERT_SENT(s, want);
	assert_memory_equal(buf, "hello", 5);
}

/* A read larger than one message asks only for what fits. */
static void test_read_cut_to_msize(void **state)
{
	struct session *s = *state;
	static const uint8_t reply[] = { 11, 0, 0, 0, P9_RREAD, 0, 0, 0, 0, 0, 0 };
	static char buf[BUFSIZE * 2];
	uint32_t asked;

	QUEUE(s, reply);
	assert_int_equal(p9_read(&s->c, 2, 0, buf, sizeof(buf)), 0);
	memcpy(&asked, s->fake.sent + 19, 4);
	assert_int_equal(asked, BUFSIZE - 11);
}

static void test_write(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		26, 0, 0, 0, P9_TWRITE, 0, 0,
		2, 0, 0, 0,
		8, 0, 0, 0, 0, 0, 0, 0,
		3, 0, 0, 0, 'a', 'b', 'c',
	};
	static const uint8_t reply[] = { 11, 0, 0, 0, P9_RWRITE, 0, 0, 3, 0, 0, 0 };

	QUEUE(s, reply);
	assert_int_equal(p9_write(&s->c, 2, 8, "abc", 3), 3);
	ASSERT_SENT(s, want);
}

static void test_readdir(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		23, 0, 0, 0, P9_TREADDIR, 0, 0,
		4, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 1, 0, 0,
	};
	static struct msg m;
	uint8_t buf[256];
	struct p9_dirent_iter it;
	struct p9_dirent d;
	int n;

	m_begin(&m, P9_RREADDIR, 0);
	m_le(&m, 2 * (13 + 8 + 1 + 2) + 1 + 4, 4);
	m_qid(&m, P9_QT_DIR, 0, 1);
	m_le(&m, 1, 8);
	m_le(&m, 4, 1);
	m_str(&m, ".");
	m_qid(&m, 0, 0, 7);
	m_le(&m, 2, 8);
	m_le(&m, 8, 1);
	m_str(&m, "file");
	m_end(&m);
	queue(s, m.b, m.n);
	n = p9_readdir(&s->c, 4, 0, buf, sizeof(buf));
	ASSERT_SENT(s, want);
	assert_int_equal(n, 2 * 24 + 5);

	p9_dirent_start(&it, buf, (size_t)n);
	assert_int_equal(p9_dirent_next(&it, &d), 1);
	assert_int_equal(d.qid.type, P9_QT_DIR);
	assert_int_equal(d.offset, 1);
	assert_int_equal(d.type, 4);
	assert_int_equal(d.name_len, 1);
	assert_memory_equal(d.name, ".", 1);
	assert_int_equal(p9_dirent_next(&it, &d), 1);
	assert_int_equal(d.qid.path, 7);
	assert_int_equal(d.offset, 2);
	assert_int_equal(d.name_len, 4);
	assert_memory_equal(d.name, "file", 4);
	assert_int_equal(p9_dirent_next(&it, &d), 0);
}

static void test_clunk(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		11, 0, 0, 0, P9_TCLUNK, 0, 0,
		5, 0, 0, 0,
	};
	static const uint8_t reply[] = { 7, 0, 0, 0, P9_RCLUNK, 0, 0 };

	QUEUE(s, reply);
	assert_int_equal(p9_clunk(&s->c, 5), 0);
	ASSERT_SENT(s, want);
}

static void test_readlink(void **state)
{
	struct session *s = *state;
	static const uint8_t want[] = {
		11, 0, 0, 0, P9_TREADLINK, 0, 0,
		6, 0, 0, 0,
	};
	static const uint8_t reply[] = {
		15, 0, 0, 0, P9_RREADLINK, 0, 0,
		6, 0, 't', 'a', 'r', 'g', 'e', 't',
	};
	char buf[16];

	QUEUE(s, reply);
	assert_int_equal(p9_readlink(&s->c, 6, buf, sizeof(buf)), 6);
	ASSERT_SENT(s, want);
	assert_string_equal(buf, "target");
}

static void test_readlink_refusals(void **state)
{
	struct session *s = *state;
	static const uint8_t nul[] = {
		11, 0, 0, 0, P9_RREADLINK, 0, 0, 2, 0, 'a', 0,
	};
	static const uint8_t six[] = {
		15, 0, 0, 0, P9_RREADLINK, 1, 0,
		6, 0, 't', 'a', 'r', 'g', 'e', 't',
	};
	char buf[6];

	QUEUE(s, nul);
	QUEUE(s, six);
	assert_int_equal(p9_readlink(&s->c, 6, buf, sizeof(buf)), -EPROTO);
	assert_string_equal(p9_why(&s->c), "link target holds a NUL");
	assert_int_equal(p9_readlink(&s->c, 6, buf, sizeof(buf)), -ENAMETOOLONG);
}

/* ---- Rlerror ---- */

static int clunk_lerror(struct session *s, uint32_t ecode)
{
	static uint8_t reply[11] = { 11, 0, 0, 0, P9_RLERROR, 0, 0 };

	memcpy(reply + 7, &ecode, 4);
	s->c.next_tag = 0;
	s->fake.next = s->fake.count = 0;
	QUEUE(s, reply);
	return p9_clunk(&s->c, 1);
}

static void test_lerror(void **state)
{
	struct session *s = *state;

	assert_int_equal(clunk_lerror(s, ENOENT), -ENOENT);
	assert_string_equal(p9_why(&s->c), "server refused the request");
	assert_int_equal(clunk_lerror(s, EACCES), -EACCES);
	assert_int_equal(clunk_lerror(s, ENOTDIR), -ENOTDIR);
	assert_int_equal(clunk_lerror(s, 0), -EIO);
	assert_int_equal(clunk_lerror(s, 10000), -EIO);
	assert_int_equal(clunk_lerror(s, 0x80000000u), -EIO);
	assert_int_equal(clunk_lerror(s, 0xffffffffu), -EIO);
}

static void test_lerror_long(void **state)
{
	struct session *s = *state;
	static const uint8_t reply[] = { 12, 0, 0, 0, P9_RLERROR, 0, 0, 2, 0, 0, 0, 0 };

	QUEUE(s, reply);
	assert_int_equal(p9_clunk(&s->c, 1), -EPROTO);
	assert_string_equal(p9_why(&s->c), "reply has bytes after its last field");
}

/* ---- Malformed replies ---- */

static void expect_clunk(struct session *s, const void *reply, size_t len, size_t claim,
			 const char *why)
{
	s->fake.replies[s->fake.count++] = (struct canned){ reply, len, claim };
	assert_int_equal(p9_clunk(&s->c, 1), -EPROTO);
	assert_string_equal(p9_why(&s->c), why);
}

static void test_bad_headers(void **state)
{
	struct session *s = *state;
	static const uint8_t wrong_tag[] = { 7, 0, 0, 0, P9_RCLUNK, 9, 0 };
	static const uint8_t shorty[] = { 5, 0, 0, 0, P9_RCLUNK };
	static const uint8_t too_big[] = { 8, 0, 0, 0, P9_RCLUNK, 2, 0 };
	static const uint8_t too_small[] = { 7, 0, 0, 0, P9_RCLUNK, 3, 0, 0 };
	static const uint8_t unknown[] = { 7, 0, 0, 0, 200, 4, 0 };
	static const uint8_t other[] = { 9, 0, 0, 0, P9_RWALK, 5, 0, 0, 0 };
	static const uint8_t trailing[] = { 8, 0, 0, 0, P9_RCLUNK, 6, 0, 0 };
	static const uint8_t huge[] = { 0, 0x40, 0, 0, P9_RCLUNK, 7, 0 };

	expect_clunk(s, wrong_tag, sizeof(wrong_tag), 0, "reply tag is not the request's");
	expect_clunk(s, shorty, sizeof(shorty), 0, "reply shorter than its header");
	expect_clunk(s, too_big, sizeof(too_big), 0,
		     "reply size field differs from bytes received");
	expect_clunk(s, too_small, sizeof(too_small), 0,
		     "reply size field differs from bytes received");
	expect_clunk(s, unknown, sizeof(unknown), 0, "unexpected reply type");
	expect_clunk(s, other, sizeof(other), 0, "unexpected reply type");
	expect_clunk(s, trailing, sizeof(trailing), 0, "reply has bytes after its last field");
	/* A transport that says it got more than the buffer holds. */
	expect_clunk(s, huge, sizeof(huge), BUFSIZE + 1,
		     "transport returned more than the buffer");
}

/* Sizes the client must not believe: no bytes at all, a size field far
 * beyond the buffer, and a reply that fills the whole buffer while its
 * size field says there is more (a transport that cut it). */
static void test_bad_sizes(void **state)
{
	struct session *s = *state;
	static const uint8_t empty[1];
	static const uint8_t huge_size[] = { 0xff, 0xff, 0xff, 0xff, P9_RCLUNK, 1, 0 };
	static uint8_t full[BUFSIZE];

	expect_clunk(s, empty, 0, 0, "reply shorter than its header");
	expect_clunk(s, huge_size, sizeof(huge_size), 0,
		     "reply size field differs from bytes received");
	full[0] = (BUFSIZE + 1) & 0xff;
	full[1] = (BUFSIZE + 1) >> 8;
	full[4] = P9_RCLUNK;
	full[5] = 2;
	expect_clunk(s, full, sizeof(full), 0, "reply size field differs from bytes received");
}

static void test_transport_error(void **state)
{
	struct session *s = *state;

	s->fake.err = -EIO;
	assert_int_equal(p9_clunk(&s->c, 1), -EIO);
	assert_string_equal(p9_why(&s->c), "transport failed");
	s->fake.err = 1;	/* not a valid return: still an error */
	assert_int_equal(p9_clunk(&s->c, 1), -EIO);
}

static void test_read_too_much(void **state)
{
	struct session *s = *state;
	static const uint8_t more_than_asked[] = {
		14, 0, 0, 0, P9_RREAD, 0, 0, 3, 0, 0, 0, 'a', 'b', 'c',
	};
	static const uint8_t past_end[] = {
		13, 0, 0, 0, P9_RREAD, 1, 0, 3, 0, 0, 0, 'a', 'b',
	};
	static const uint8_t huge_count[] = {
		13, 0, 0, 0, P9_RREAD, 2, 0, 0xff, 0xff, 0xff, 0xff, 'a', 'b',
	};
	char buf[4] = "xyz";

	QUEUE(s, more_than_asked);
	QUEUE(s, past_end);
	QUEUE(s, huge_count);
	assert_int_equal(p9_read(&s->c, 2, 0, buf, 2), -EPROTO);
	assert_string_equal(p9_why(&s->c), "server sent more bytes than asked");
	assert_int_equal(p9_read(&s->c, 2, 0, buf, 3), -EPROTO);
	assert_string_equal(p9_why(&s->c), "reply ends inside a field");
	assert_int_equal(p9_read(&s->c, 2, 0, buf, 3), -EPROTO);
	assert_string_equal(buf, "xyz");
}

/* Rreaddir's count is checked as Rread's is, before the entries. */
static void test_readdir_too_much(void **state)
{
	struct session *s = *state;
	static struct msg m;
	uint8_t buf[64];

	m_begin(&m, P9_RREADDIR, 0);
	m_le(&m, 24 + 2, 4);
	m_qid(&m, 0, 0, 1);
	m_le(&m, 1, 8);
	m_le(&m, 8, 1);
	m_str(&m, "ok");
	m_end(&m);
	queue(s, m.b, m.n);
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(p9_readdir(&s->c, 4, 0, buf, 25), -EPROTO);
	assert_string_equal(p9_why(&s->c), "server sent more bytes than asked");
	assert_int_equal(buf[0], 0xee);
}

static void test_write_too_much(void **state)
{
	struct session *s = *state;
	static const uint8_t reply[] = { 11, 0, 0, 0, P9_RWRITE, 0, 0, 4, 0, 0, 0 };

	QUEUE(s, reply);
	assert_int_equal(p9_write(&s->c, 2, 0, "abc", 3), -EPROTO);
	assert_string_equal(p9_why(&s->c), "server wrote more bytes than sent");
}

static void test_walk_refusals(void **state)
{
	struct session *s = *state;
	static const uint8_t more_qids[] = {
		35, 0, 0, 0, P9_RWALK, 0, 0, 2, 0,
		0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
	};
	static const uint8_t partial[] = {
		22, 0, 0, 0, P9_RWALK, 1, 0, 1, 0,
		0x80, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
	};
	static const uint8_t cut[] = {
		20, 0, 0, 0, P9_RWALK, 2, 0, 1, 0,
		0x80, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,
	};
	const char *one[] = { "etc" }, *two[] = { "etc", "nothere" };
	const char *many[P9_MAXWELEM + 1];
	uint32_t newfid = 77;

	QUEUE(s, more_qids);
	QUEUE(s, partial);
	QUEUE(s, cut);
	assert_int_equal(p9_walk(&s->c, 0, 1, one, &newfid, NULL), -EPROTO);
	assert_string_equal(p9_why(&s->c), "walk reply has more qids than names");
	assert_int_equal(p9_walk(&s->c, 0, 2, two, &newfid, NULL), -ENOENT);
	assert_string_equal(p9_why(&s->c), "walk stopped before the last name");
	assert_int_equal(p9_walk(&s->c, 0, 1, one, &newfid, NULL), -EPROTO);
	assert_int_equal(newfid, 77);
	for (int i = 0; i <= P9_MAXWELEM; i++)
		many[i] = "x";
	assert_int_equal(p9_walk(&s->c, 0, P9_MAXWELEM + 1, many, &newfid, NULL), -EINVAL);
	/* None of the failed walks kept its fid. */
	assert_int_equal(s->c.fids[0], 0);
}

/* A request that does not fit in msize is not sent. */
static void test_request_too_big(void **state)
{
	struct session *s = *state;
	static char name[BUFSIZE];
	const char *names[] = { name };
	uint32_t newfid;

	memset(name, 'a', sizeof(name) - 1);
	assert_int_equal(p9_walk(&s->c, 0, 1, names, &newfid, NULL), -E2BIG);
	assert_string_equal(p9_why(&s->c), "request does not fit in msize");
	assert_int_equal(s->fake.sent_len, 0);
}

static void test_string_past_end(void **state)
{
	struct session *s = *state;
	static const uint8_t reply[] = {
		12, 0, 0, 0, P9_RREADLINK, 0, 0, 10, 0, 'a', 'b', 'c',
	};
	char buf[16];

	QUEUE(s, reply);
	assert_int_equal(p9_readlink(&s->c, 1, buf, sizeof(buf)), -EPROTO);
	assert_string_equal(p9_why(&s->c), "reply ends inside a field");
}

/* Rreaddir of one entry named name, with count as said. */
static int readdir_of(struct session *s, const char *name, int cut)
{
	static struct msg m;
	uint8_t buf[256];

	m_begin(&m, P9_RREADDIR, s->c.next_tag);
	m_le(&m, 24 + strlen(name) - cut, 4);
	m_qid(&m, 0, 0, 1);
	m_le(&m, 1, 8);
	m_le(&m, 8, 1);
	m_str(&m, name);
	m.n -= cut;
	m_end(&m);
	queue(s, m.b, m.n);
	return p9_readdir(&s->c, 4, 0, buf, sizeof(buf));
}

static void test_readdir_refusals(void **state)
{
	struct session *s = *state;

	assert_int_equal(readdir_of(s, "ok", 0), 24 + 2);
	assert_int_equal(readdir_of(s, "ok", 1), -EPROTO);
	assert_string_equal(p9_why(&s->c), "directory entry broken or badly named");
	assert_int_equal(readdir_of(s, "a/b", 0), -EPROTO);
	assert_int_equal(readdir_of(s, "", 0), -EPROTO);
}

static void test_dirent_iter_stays_broken(void **state)
{
	static const uint8_t entries[] = {
		0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
		1, 0, 0, 0, 0, 0, 0, 0, 8, 1, 0, '/',
		0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
		2, 0, 0, 0, 0, 0, 0, 0, 8, 1, 0, 'b',
	};
	struct p9_dirent_iter it;
	struct p9_dirent d;

	(void)state;
	p9_dirent_start(&it, entries, sizeof(entries));
	assert_int_equal(p9_dirent_next(&it, &d), -EPROTO);
	assert_int_equal(p9_dirent_next(&it, &d), -EPROTO);
	p9_dirent_start(&it, entries, 0);
	assert_int_equal(p9_dirent_next(&it, &d), 0);
}

/* ---- Fids ---- */

static void test_fids(void **state)
{
	struct session *s = *state;
	static uint8_t reply[] = {
		20, 0, 0, 0, P9_RATTACH, 0, 0,
		0x80, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
	};
	static const uint8_t rclunk[] = { 7, 0, 0, 0, P9_RCLUNK, 0, 0 };
	struct p9_qid qid;
	uint32_t fid;

	for (uint32_t i = 0; i < P9_MAX_FIDS; i++) {
		s->fake.next = s->fake.count = 0;
		s->c.next_tag = 0;
		QUEUE(s, reply);
		assert_int_equal(p9_attach(&s->c, "u", "", 0, &fid, &qid), 0);
		assert_int_equal(fid, i);
	}
	assert_int_equal(p9_attach(&s->c, "u", "", 0, &fid, &qid), -ENOSPC);
	/* A clunked fid is the next one given, even if the server refused
	 * the clunk (an error still frees it, as the protocol says). */
	s->fake.next = s->fake.count = 0;
	s->c.next_tag = 0;
	QUEUE(s, rclunk);
	assert_int_equal(p9_clunk(&s->c, 5), 0);
	assert_int_equal(clunk_lerror(s, EIO), -EIO);
	s->fake.next = s->fake.count = 0;
	s->c.next_tag = 0;
	QUEUE(s, reply);
	assert_int_equal(p9_attach(&s->c, "u", "", 0, &fid, &qid), 0);
	assert_int_equal(fid, 1);
}

static void test_tags_skip_notag(void **state)
{
	struct session *s = *state;
	static const uint8_t reply[] = { 7, 0, 0, 0, P9_RCLUNK, 0xfe, 0xff };
	static const uint8_t reply0[] = { 7, 0, 0, 0, P9_RCLUNK, 0, 0 };

	s->c.next_tag = 0xfffe;
	QUEUE(s, reply);
	QUEUE(s, reply0);
	assert_int_equal(p9_clunk(&s->c, 1), 0);
	assert_int_equal(p9_clunk(&s->c, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_version),
		T(test_version_refusals),
		T(test_version_small_buffers),
		T(test_attach),
		T(test_walk),
		T(test_getattr),
		T(test_getattr_short),
		T(test_lopen),
		T(test_lcreate),
		T(test_read),
		T(test_read_cut_to_msize),
		T(test_write),
		T(test_readdir),
		T(test_clunk),
		T(test_readlink),
		T(test_readlink_refusals),
		T(test_lerror),
		T(test_lerror_long),
		T(test_bad_headers),
		T(test_bad_sizes),
		T(test_transport_error),
		T(test_read_too_much),
		T(test_readdir_too_much),
		T(test_write_too_much),
		T(test_walk_refusals),
		T(test_request_too_big),
		T(test_string_past_end),
		T(test_readdir_refusals),
		T(test_dirent_iter_stays_broken),
		T(test_fids),
		T(test_tags_skip_notag),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
