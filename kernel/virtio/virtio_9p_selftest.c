/* Selftest of the virtio 9P transport, end to end without the 9P client:
 * a Tversion built by hand must come back as an Rversion. With no
 * device (no host folder shared) there is nothing to test, and the case
 * passes. */
#include "kernel/selftest.h"
#include "kernel/virtio/virtio_9p.h"
#include "lib/errno.h"
#include "lib/string.h"

#define P9_TVERSION 100
#define P9_RVERSION 101
#define P9_NOTAG    0xffff

/* Put v little-endian at p, n bytes. */
static void put_le(uint8_t *p, uint32_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* (An msize of 8 KiB or less makes QEMU warn of slow transfers.)
 * size[4] type[1] tag[2] msize[4] version[s], s being len[2] then bytes. */
static size_t build_tversion(uint8_t *m, uint32_t msize, const char *version)
{
	size_t vlen = strlen(version), size = 4 + 1 + 2 + 4 + 2 + vlen;

	put_le(m, (uint32_t)size, 4);
	m[4] = P9_TVERSION;
	put_le(m + 5, P9_NOTAG, 2);
	put_le(m + 7, msize, 4);
	put_le(m + 11, (uint32_t)vlen, 2);
	memcpy(m + 13, version, vlen);
	return size;
}

static void tversion_gets_rversion(void)
{
	uint8_t req[32], reply[64];
	size_t len, n;

	if (!virtio_9p_present())
		return;
	len = build_tversion(req, 65536, "9P2000.L");
	EXPECT_EQ(virtio_9p_request(req, len, reply, sizeof(reply), &n), 0);
	EXPECT(n >= 7);
	EXPECT_EQ(reply[4], P9_RVERSION);
	EXPECT_EQ(reply[5] | reply[6] << 8, P9_NOTAG);
	EXPECT_EQ(reply[0] | reply[1] << 8 | reply[2] << 16 | (uint32_t)reply[3] << 24, n);
}

/* A buffer across a page boundary takes two descriptors. */
static void request_across_pages(void)
{
	static uint8_t pages[2 * 4096] __aligned(4096);
	uint8_t *req = pages + 4096 - 5, reply[64];
	size_t len, n;

	if (!virtio_9p_present())
		return;
	len = build_tversion(req, 65536, "9P2000.L");
	EXPECT_EQ(virtio_9p_request(req, len, reply, sizeof(reply), &n), 0);
	EXPECT_EQ(reply[4], P9_RVERSION);
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
	SELFTEST_CASE(tversion_gets_rversion),
	SELFTEST_CASE(request_across_pages),
	SELFTEST_CASE(empty_request_refused),
};
SELFTEST_SUITE("virtio_9p", virtio_9p_cases);
