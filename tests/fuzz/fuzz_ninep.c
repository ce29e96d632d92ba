/* Fuzz target "ninep": the 9P2000.L client's checks of a server's replies
 * (lib/ninep.c, lib/ninep_wire.c).
 *
 * The input is one reply. Every client call is made with a fake transport
 * that answers with it, twice: once as it is, and once with its size and
 * tag fields set right, so that most inputs get past the header to the
 * body's checks. The bytes of the reply buffer after the reply are
 * poisoned, so ASan reports a read of anything the server did not send.
 * What must always hold: a call returns success or a negative errno with
 * a reason; a read or readdir returns no more than asked, a readlink a
 * NUL-terminated string of the length it says; every readdir entry is
 * inside what was returned; a call that fails keeps no new fid. */
#include <sanitizer/asan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_ninep.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

#include "tests/host/rename.h"
#include "lib/errno.h"
#include "lib/ninep.h"
#include "lib/string.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BUFSIZE P9_MIN_MSIZE

struct fake {
	const uint8_t *reply;
	size_t len;
	bool fix;	/* set the size and tag fields to what the client wants */
};

static int fake_rpc(void *ctx, const void *req, size_t req_len,
		    void *reply, size_t cap, size_t *reply_len)
{
	struct fake *f = ctx;
	uint8_t *out = reply;
	size_t n = f->len < cap ? f->len : cap;

	CHECK(req_len >= P9_HDR_SIZE && req_len <= cap);
	ASAN_UNPOISON_MEMORY_REGION(out, cap);
	memcpy(out, f->reply, n);
	if (f->fix && n >= P9_HDR_SIZE) {
		for (int i = 0; i < 4; i++)
			out[i] = (uint8_t)(n >> (8 * i));
		memcpy(out + 5, (const uint8_t *)req + 5, 2);
	}
	ASAN_POISON_MEMORY_REGION(out + n, cap - n);
	*reply_len = n;
	return 0;
}

static struct p9_client c;
static uint8_t *req_buf, *reply_buf;

static void fresh(struct fake *f)
{
	p9_client_init(&c, fake_rpc, f, req_buf, reply_buf, BUFSIZE);
}

/* A failed call says why and gives a negative errno. */
static void check_err(int err)
{
	CHECK(err <= 0);
	if (err)
		CHECK(p9_why(&c) != NULL && p9_why(&c)[0] != '\0');
}

static void fid_calls(void)
{
	const char *names[] = { "etc", "motd", "x" };
	uint32_t before = c.fids[0], fid = 1000;
	struct p9_qid qids[3];
	int err;

	err = p9_attach(&c, "root", "", 0, &fid, qids);
	check_err(err);
	CHECK(err ? c.fids[0] == before && fid == 1000 : fid == 0);
	fresh(c.ctx);
	err = p9_walk(&c, 0, 3, names, &fid, qids);
	check_err(err);
	CHECK(err ? c.fids[0] == before : fid == 0);
	fresh(c.ctx);
	check_err(p9_clunk(&c, 0));
}

static void io_calls(void)
{
	static uint8_t buf[BUFSIZE];
	struct p9_dirent_iter it;
	struct p9_dirent d;
	struct p9_attr attr;
	char link[64], *end;
	int n;

	fresh(c.ctx);
	n = p9_read(&c, 1, 0, buf, 100);
	check_err(n < 0 ? n : 0);
	CHECK(n <= 100);
	fresh(c.ctx);
	n = p9_readdir(&c, 1, 0, buf, 200);
	check_err(n < 0 ? n : 0);
	CHECK(n <= 200);
	end = (char *)buf + (n > 0 ? n : 0);
	p9_dirent_start(&it, buf, n > 0 ? (size_t)n : 0);
	while ((n = p9_dirent_next(&it, &d)) > 0)
		CHECK(d.name >= (char *)buf && d.name + d.name_len <= end);
	CHECK(n == 0);
	fresh(c.ctx);
	n = p9_readlink(&c, 1, link, sizeof(link));
	check_err(n < 0 ? n : 0);
	CHECK(n < 0 || (size_t)n == strlen(link));
	fresh(c.ctx);
	n = p9_write(&c, 1, 0, "abc", 3);
	check_err(n < 0 ? n : 0);
	CHECK(n <= 3);
	fresh(c.ctx);
	check_err(p9_getattr(&c, 1, P9_GETATTR_BASIC, &attr));
	fresh(c.ctx);
	check_err(p9_lopen(&c, 1, 0, NULL, NULL));
	fresh(c.ctx);
	check_err(p9_lcreate(&c, 1, "new", 0x41, 0644, 0, NULL, NULL));
}

static void all_calls(struct fake *f)
{
	int err;

	fresh(f);
	err = p9_version(&c);
	check_err(err);
	CHECK(err || (c.msize >= P9_MIN_MSIZE && c.msize <= BUFSIZE));
	fresh(f);
	fid_calls();
	io_calls();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Exactly the input's bytes, so that ASan sees a read past them. */
	uint8_t *reply = malloc(size ? size : 1);
	struct fake f = { reply, size, false };

	if (!req_buf) {
		req_buf = malloc(BUFSIZE);
		reply_buf = malloc(BUFSIZE);
	}
	memcpy(reply, data, size);
	all_calls(&f);
	f.fix = true;
	all_calls(&f);
	ASAN_UNPOISON_MEMORY_REGION(reply_buf, BUFSIZE);
	free(reply);
	return 0;
}
