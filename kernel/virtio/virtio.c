/*
 * Bringing a virtio device up: the status handshake of virtio 1.x
 * section 3.1.1. Each step sets one more status bit, keeping the earlier
 * ones, so that the device always knows how far the driver got.
 */
#include "kernel/virtio/virtio.h"
#include "lib/errno.h"
#include <asm/irq.h>

static void add_status(struct virtio_device *dev, uint8_t bit)
{
	const struct virtio_transport *t = dev->transport;

	t->set_status(dev, t->get_status(dev) | bit);
}

/* Writing 0 resets the device; it reads 0 again once the reset is over. */
static void reset(struct virtio_device *dev)
{
	dev->transport->set_status(dev, 0);
	while (dev->transport->get_status(dev) != 0)
		arch_cpu_relax();
}

int virtio_negotiate(struct virtio_device *dev, uint64_t wanted, uint64_t *accepted)
{
	const struct virtio_transport *t = dev->transport;
	uint64_t offered;

	reset(dev);
	add_status(dev, VIRTIO_STATUS_ACKNOWLEDGE);
	add_status(dev, VIRTIO_STATUS_DRIVER);
	offered = t->get_features(dev);
	if (!(offered & VIRTIO_F_VERSION_1)) {
		virtio_fail(dev);	/* a legacy-only device: not ours */
		return -ENODEV;
	}
	*accepted = offered & (wanted | VIRTIO_F_VERSION_1);
	t->set_features(dev, *accepted);
	add_status(dev, VIRTIO_STATUS_FEATURES_OK);
	/* The device clears FEATURES_OK if it cannot work with our choice. */
	if (!(t->get_status(dev) & VIRTIO_STATUS_FEATURES_OK)) {
		virtio_fail(dev);
		return -ENODEV;
	}
	return 0;
}

void virtio_driver_ok(struct virtio_device *dev)
{
	add_status(dev, VIRTIO_STATUS_DRIVER_OK);
}

void virtio_fail(struct virtio_device *dev)
{
	add_status(dev, VIRTIO_STATUS_FAILED);
}
