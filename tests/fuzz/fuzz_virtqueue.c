/* Fuzz target "virtqueue": what a virtio device hands the driver. The
 * 9p device is brought up by kernel/virtio/virtio_9p.c, included whole
 * so that its static functions run as in the kernel, against the fake
 * device of tests/host/virtq_fake.c, which reads its configuration (the
 * mount tag) and its answers from the input. The fake checks every chain
 * the driver offers against the request's buffers.
 *
 * The input:
 *   flags[1]      bit 0: no mount tag feature; bit 1: a legacy device (no
 *                 VERSION_1); bit 2: FEATURES_OK refused; bit 3: a queue
 *                 smaller than VIRTQ_SIZE
 *   n[1] config[n]  the device configuration: le16 tag_len, the tag
 *   then requests, up to MAX_REQUESTS, each:
 *     shape[1]    bits 0-1: readable buffers, 2-3: writable ones (0-2
 *                 each); bit 4: through virtio_9p_request (one of each);
 *                 bit 5: the device overwrites the descriptor table
 *     answer[1]   bits 0-1: the used id is the head, the chain's last
 *                 descriptor, or id; bit 2: the used len is len; bit 3:
 *                 no answer at all
 *     delay[1]    yields before the answer
 *     idx_extra[2] id[4] len[4]   (struct fake_answer)
 *     4 x { len[2] off[2] }       the buffers, each in its own region
 *     reply_len[2] reply[reply_len]
 * Integers are little-endian; an input that ends early reads as zeros.
 *
 * What must hold: the driver's chains are right; virtq_request gives the
 * result the device's answer calls for (0 only for an honest answer,
 * -EIO for one it may not give, -ETIMEDOUT for none, and the earlier
 * refusals), a success with the bytes the device wrote; after any
 * failure of the device every request is -EIO; after a success every
 * descriptor is free; the mount tag is at most VIRTIO_9P_TAG_MAX
 * printable characters, as is every line printed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void check_failed(const char *what, int line)
{
	fprintf(stderr, "fuzz_virtqueue.c:%d: check failed: %s\n", line, what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) check_failed(#cond, __LINE__); } while (0)

#include "tests/host/rename.h"
#include "kernel/virtio/virtio_9p.c"
#include "lib/format.h"
#include "lib/string.h"
#include "tests/host/virtq_fake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_REQUESTS 8
#define NBUFS 4
/* A buffer of up to 65535 bytes at any offset in a page fits in 17. */
#define REGION_PAGES 17
#define ARENA_SIZE (NBUFS * REGION_PAGES * PAGE_SIZE)
/* Where the buffers are asked to lie: the same address in every run, so
 * that the addresses the driver compares (and the fuzzer traces) are too. */
#define ARENA_HINT ((void *)0x500000000000)

static struct fake_dev dev;
static uint8_t *arena;

/* ---- The kernel services virtio_9p.c calls ---- */

int arch_virtio_find(uint32_t device_id, struct virtio_device *vdev)
{
	CHECK(device_id == VIRTIO_ID_9P);
	*vdev = dev.vdev;
	return 0;
}

static bool printable(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return false;
	return true;
}

int kprintf(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	CHECK(n > 0 && (size_t)n < sizeof(line) && line[n - 1] == '\n');
	CHECK(printable(line, (size_t)n - 1));
	return n;
}

/* ---- Reading the input ---- */

struct input {
	const uint8_t *p;
	size_t left;
};

static uint32_t take(struct input *in, unsigned int bytes)
{
	uint32_t v = 0;

	for (unsigned int i = 0; i < bytes && in->left; i++, in->left--)
		v |= (uint32_t)*in->p++ << (8 * i);
	return v;
}

/* ---- Bringing the device up ---- */

static void device_from_input(struct input *in)
{
	uint8_t flags = (uint8_t)take(in, 1), config_len = (uint8_t)take(in, 1);

	fake_attach(&dev);
	dev.features = VIRTIO_F_VERSION_1 | VIRTIO_9P_F_MOUNT_TAG;
	if (flags & 1)
		dev.features &= ~VIRTIO_9P_F_MOUNT_TAG;
	if (flags & 2)
		dev.features &= ~VIRTIO_F_VERSION_1;
	dev.refuse_features = flags & 4;
	if (flags & 8)
		dev.queue_max = VIRTQ_SIZE / 2;
	dev.config_len = MIN(config_len, FAKE_CONFIG_MAX);
	for (size_t i = 0; i < dev.config_len; i++)
		dev.config[i] = (uint8_t)take(in, 1);
}

/* The driver's state from an earlier input is forgotten, as at boot. */
static void bring_up_from_input(struct input *in)
{
	size_t tag_len;

	device_from_input(in);
	p9_present = false;
	memset(p9_tag, 0, sizeof(p9_tag));
	memset(&p9_dev, 0, sizeof(p9_dev));
	CHECK(virtio_9p_init() == 0);
	CHECK(p9_present == ((dev.status & VIRTIO_STATUS_DRIVER_OK) &&
			     !(dev.status & VIRTIO_STATUS_FAILED)));
	tag_len = strlen(virtio_9p_tag());
	CHECK(tag_len <= VIRTIO_9P_TAG_MAX && printable(virtio_9p_tag(), tag_len));
	if (p9_present && (dev.accepted & VIRTIO_9P_F_MOUNT_TAG) && dev.config_len >= 2)
		CHECK(tag_len == MIN((size_t)(dev.config[0] | dev.config[1] << 8),
				     (size_t)VIRTIO_9P_TAG_MAX));
}

/* ---- One request ---- */

struct request {
	struct virtq_buf bufs[NBUFS];
	unsigned int nout, nin;
	bool via_9p;
	struct fake_answer a;
};

static void request_from_input(struct input *in, struct request *r)
{
	uint8_t shape = (uint8_t)take(in, 1), answer = (uint8_t)take(in, 1);
	size_t reply_len;

	memset(r, 0, sizeof(*r));
	r->nout = (shape & 3) % 3;
	r->nin = (shape >> 2 & 3) % 3;
	r->via_9p = shape & 0x10;
	if (r->via_9p)
		r->nout = r->nin = 1;
	r->a.scribble = shape & 0x20;
	r->a.id_is = (answer & 3) % 3;
	r->a.set_len = answer & 4;
	r->a.never = answer & 8;
	r->a.delay = take(in, 1);
	r->a.idx_extra = (uint16_t)take(in, 2);
	r->a.id = take(in, 4);
	r->a.len = take(in, 4);
	for (unsigned int b = 0; b < NBUFS; b++) {
		size_t len = take(in, 2), off = take(in, 2) % PAGE_SIZE;

		r->bufs[b] = (struct virtq_buf){ arena + b * REGION_PAGES * PAGE_SIZE + off, len };
	}
	reply_len = take(in, 2);
	r->a.reply_len = MIN(reply_len, in->left);
	r->a.reply = in->p;
	in->p += r->a.reply_len;
	in->left -= r->a.reply_len;
}

/* The descriptors the buffers need: one per page each touches. */
static size_t pieces(const struct request *r)
{
	size_t n = 0;

	for (unsigned int b = 0; b < r->nout + r->nin; b++) {
		uintptr_t start = (uintptr_t)r->bufs[b].addr, len = r->bufs[b].len;

		if (len)
			n += (start + len - 1) / PAGE_SIZE - start / PAGE_SIZE + 1;
	}
	return n;
}

static size_t writable(const struct request *r)
{
	size_t n = 0;

	for (unsigned int b = r->nout; b < r->nout + r->nin; b++)
		n += r->bufs[b].len;
	return n;
}

/* What the request must give, found before it is made, or 1 if that
 * depends on the device's answer. */
static int refused_before(const struct request *r)
{
	size_t need = pieces(r);

	if (r->via_9p && !p9_present)
		return -ENODEV;
	if (r->via_9p && (!r->bufs[0].len || !r->bufs[1].len))
		return -EINVAL;
	if (need == 0)
		return -EINVAL;
	if (need > VIRTQ_SIZE)
		return -E2BIG;
	if (p9_queue.broken)
		return -EIO;
	return 1;
}

/* What an answer to the chain the device saw calls for. */
static int answer_calls_for(const struct request *r)
{
	const struct fake_answer *a = &r->a;
	uint16_t ready = (uint16_t)(1 + a->idx_extra);
	uint32_t id = a->id_is == FAKE_ID_GIVEN ? a->id : a->id_is == FAKE_ID_LAST ? dev.last : dev.head;

	if (a->never || ready == 0)
		return -ETIMEDOUT;
	if (ready > 1 || id != dev.head || (a->set_len && a->len > writable(r)))
		return -EIO;
	return 0;
}

/* The device read the readable buffers and wrote the reply's first
 * bytes into the writable ones, in order. */
static void check_bytes(const struct request *r)
{
	size_t at = 0;

	for (unsigned int b = 0; b < r->nout; b++) {
		CHECK(memcmp(dev.got + at, r->bufs[b].addr, r->bufs[b].len) == 0);
		at += r->bufs[b].len;
	}
	CHECK(at == dev.got_len);
	at = 0;
	for (unsigned int b = r->nout; b < r->nout + r->nin && at < dev.wrote; b++) {
		size_t n = MIN(r->bufs[b].len, dev.wrote - at);

		CHECK(memcmp(r->bufs[b].addr, r->a.reply + at, n) == 0);
		at += n;
	}
}

static int make_request(struct request *r, uint32_t *written)
{
	size_t reply_len = 0;
	int err;

	fake_expect(&dev, r->bufs, r->nout, r->nin, &r->a);
	if (!r->via_9p)
		return virtq_request(&p9_queue, r->bufs, r->nout, r->nin, written);
	err = virtio_9p_request(r->bufs[0].addr, r->bufs[0].len, r->bufs[1].addr,
				r->bufs[1].len, &reply_len);
	*written = (uint32_t)reply_len;
	return err;
}

static void one_request(struct input *in)
{
	struct request r;
	unsigned int notifies = dev.notifies;
	uint32_t written = 0;
	int want, err;

	request_from_input(in, &r);
	if (!r.via_9p && !p9_present)
		return;		/* no queue to send it on */
	want = refused_before(&r);
	err = make_request(&r, &written);
	CHECK(dev.problem == NULL);
	if (want != 1) {
		CHECK(err == want && dev.notifies == notifies);
		return;
	}
	CHECK(dev.notifies == notifies + 1);
	CHECK(err == answer_calls_for(&r));
	CHECK(p9_queue.broken == (err != 0));
	if (err)
		return;
	CHECK(written == (r.a.set_len ? r.a.len : dev.wrote));
	CHECK(p9_queue.nfree == VIRTQ_SIZE);
	check_bytes(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };

	if (!arena) {
		arena = mmap(ARENA_HINT, ARENA_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHECK(arena != MAP_FAILED);
	}
	bring_up_from_input(&in);
	for (unsigned int i = 0; i < MAX_REQUESTS && in.left; i++)
		one_request(&in);
	fake_detach(&dev);
	return 0;
}
