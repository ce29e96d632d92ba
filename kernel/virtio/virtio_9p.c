/*
 * The virtio 9P transport: find the device, read its mount tag, and carry
 * one message at a time over its only queue, queue 0 ("requests").
 */
#include "kernel/arch.h"
#include "kernel/initcall.h"
#include "kernel/mutex.h"
#include "kernel/printk.h"
#include "kernel/virtio/virtio_9p.h"
#include "kernel/virtio/virtqueue.h"
#include "lib/errno.h"

/* A request and its reply, each of the largest size and at any page
 * offsets, fit in the queue at once: virtq_request refuses no message
 * within the bound virtio_9p.h promises. */
_Static_assert(2 * VIRTQ_MAX_PIECES(VIRTIO_9P_MSG_MAX) <= VIRTQ_SIZE,
	       "a largest 9P request and reply need more descriptors than the queue has");

/* The device puts its mount tag in its configuration (feature bit 0). */
#define VIRTIO_9P_F_MOUNT_TAG (1ULL << 0)

static struct virtio_device p9_dev;
static struct virtq p9_queue;
static bool p9_present;
static char p9_tag[VIRTIO_9P_TAG_MAX + 1];
/* One request in flight: virtq_request waits for its own completion. */
static struct mutex p9_lock = MUTEX_INIT(p9_lock, "virtio_9p");
/* What went over the queue, under p9_lock. */
static struct virtio_9p_stats p9_stats;

/*
 * The configuration is le16 tag_len, then tag_len bytes, not
 * NUL-terminated. It comes from the device: a tag longer than we keep
 * is cut, and a byte that is not printable ASCII is shown as '?', since
 * the tag is printed and compared as text.
 */
static void read_tag(struct virtio_device *dev)
{
	const struct virtio_transport *t = dev->transport;
	unsigned int len = t->config_read8(dev, 0) | (unsigned int)t->config_read8(dev, 1) << 8;

	if (len > VIRTIO_9P_TAG_MAX)
		len = VIRTIO_9P_TAG_MAX;
	for (unsigned int i = 0; i < len; i++) {
		uint8_t c = t->config_read8(dev, 2 + i);

		p9_tag[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	p9_tag[len] = '\0';
}

static int bring_up(struct virtio_device *dev)
{
	uint64_t features;
	int err = virtio_negotiate(dev, VIRTIO_9P_F_MOUNT_TAG, &features);

	if (err < 0)
		return err;
	err = virtq_init(&p9_queue, dev, 0);
	if (err < 0) {
		virtio_fail(dev);
		return err;
	}
	if (features & VIRTIO_9P_F_MOUNT_TAG)
		read_tag(dev);
	virtio_driver_ok(dev);
	return 0;
}

static int virtio_9p_init(void)
{
	int err = arch_virtio_find(VIRTIO_ID_9P, &p9_dev);

	if (err == -ENODEV) {
		kprintf("virtio: no 9p device: no host folder shared\n");
		return 0;
	}
	if (err == -ENOSYS) {
		kprintf("virtio: 9p device (%s) is a legacy one (before virtio 1.0): "
			"not supported, no host folder shared\n", p9_dev.where);
		return 0;
	}
	if (err == 0)
		err = bring_up(&p9_dev);
	if (err < 0) {
		kprintf("virtio: 9p device (%s) not usable: %s\n",
			p9_dev.where[0] ? p9_dev.where : "?", strerror(err));
		return 0;
	}
	p9_present = true;
	kprintf("virtio: 9p device '%s' (%s)\n", p9_tag, p9_dev.where);
	return 0;
}
late_initcall(virtio_9p_init);

bool virtio_9p_present(void)
{
	return p9_present;
}

struct virtio_9p_stats virtio_9p_stats(void)
{
	struct virtio_9p_stats stats;

	mutex_lock(&p9_lock);
	stats = p9_stats;
	mutex_unlock(&p9_lock);
	return stats;
}

const char *virtio_9p_tag(void)
{
	return p9_tag;
}

int virtio_9p_request(const void *req, size_t req_len, void *reply, size_t reply_cap,
		      size_t *reply_len)
{
	/* The device only reads the first buffer: casting const away is safe. */
	struct virtq_buf bufs[2] = {
		{ (void *)req, req_len },
		{ reply, reply_cap },
	};
	uint32_t written;
	int err;

	if (!p9_present)
		return -ENODEV;
	if (!req_len || !reply_cap)
		return -EINVAL;
	mutex_lock(&p9_lock);
	err = virtq_request(&p9_queue, bufs, 1, 1, &written);
	if (err == 0) {
		p9_stats.requests++;
		p9_stats.bytes_sent += req_len;
		p9_stats.bytes_received += written;
	}
	mutex_unlock(&p9_lock);
	if (err < 0)
		return err;
	*reply_len = written;
	return 0;
}
