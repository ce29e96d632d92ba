/* Selftest of the virtio 9P transport, end to end without the 9P client:
 * a request built by hand must come back as a reply with its tag. The
 * request is a Tclunk of a fid the client never hands out (lib/ninep.h
 * uses fids below P9_MAX_FIDS), which the server refuses with an
 * Rlerror: harmless to the session the 9p filesystem holds, which a
 * Tversion would end (the server forgets every fid). With no device (no
 * host folder shared) there is nothing to test, and the case passes. */
#include "kernel/selftest.h"
#include "kernel/virtio/virtio_9p.h"
#include "lib/errno.h"
#include "lib/ninep_wire.h"
#include "lib/string.h"

#define UNUSED_FID 0xfffffffeu
#define TEST_TAG   0x5a5a

/* Put v little-endian at p, n bytes. */
static void put_le(uint8_t *p, uint32_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le(const uint8_t *p, unsigned int n)
{
	uint32_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

/* size[4] type[1] tag[2] fid[4] */
static size_t build_tclunk(uint8_t *m)
{
	put_le(m, 11, 4);
	m[4] = P9_TCLUNK;
	put_le(m + 5, TEST_TAG, 2);
	put_le(m + 7, UNUSED_FID, 4);
	return 11;
}

/* The reply is an Rlerror (size[4] type[1] tag[2] ecode[4]) with our tag. */
static void expect_refusal(const uint8_t *reply, size_t n)
{
	EXPECT_EQ(n, 11);
	EXPECT_EQ(get_le(reply, 4), n);
	EXPECT_EQ(reply[4], P9_RLERROR);
	EXPECT_EQ(get_le(reply + 5, 2), TEST_TAG);
	EXPECT(get_le(reply + 7, 4) != 0);
}

/* Send the Tclunk from req, and check the refusal comes back. */
static void send_from(uint8_t *req)
{
	uint8_t reply[64];
	size_t len = build_tclunk(req), n = 0;

	EXPECT_EQ(virtio_9p_request(req, len, reply, sizeof(reply), &n), 0);
	expect_refusal(reply, n);
}

static void request_gets_reply(void)
{
	uint8_t req[16];

	if (virtio_9p_present())
		send_from(req);
}

/* A buffer across a page boundary takes two descriptors. */
static void request_across_pages(void)
{
	static uint8_t pages[2 * 4096] __aligned(4096);

	if (virtio_9p_present())
		send_from(pages + 4096 - 5);
}

static void empty_request_refused(void)
{
	uint8_t reply[8];
	size_t n;

	if (!virtio_9p_present())
		return;
	EXPECT_EQ(virtio_9p_request(reply, 0, reply, sizeof(reply), &n), -EINVAL);
}

static const struct selftest_case virtio_9p_cases[] = {
	SELFTEST_CASE(request_gets_reply),
	SELFTEST_CASE(request_across_pages),
	SELFTEST_CASE(empty_request_refused),
};
SELFTEST_SUITE("virtio_9p", virtio_9p_cases);
