/*
 * The virtio driver core (virtio 1.x, "modern" devices only).
 *
 * A virtio device is reached through a transport, which says where its
 * registers are: PCI on x86_64 (arch/x86_64/virtio_pci.c), memory-mapped
 * registers on aarch64 (arch/aarch64/virtio_mmio.c). The core here and in
 * virtqueue.c knows nothing of either: it talks to a device only through
 * struct virtio_transport, and finds one with arch_virtio_find
 * (kernel/arch.h). docs/virtio.md follows one request from descriptor to
 * completion.
 *
 * Both architectures are little-endian, as virtio 1.x's structures are:
 * the core reads and writes them as plain integers.
 */
#ifndef KERNEL_VIRTIO_VIRTIO_H
#define KERNEL_VIRTIO_VIRTIO_H

#include "lib/types.h"

/* Device types (virtio 1.x section 5). */
#define VIRTIO_ID_9P 9

/* Device status bits (virtio 1.x section 2.1). */
#define VIRTIO_STATUS_ACKNOWLEDGE 1	/* the driver has seen the device */
#define VIRTIO_STATUS_DRIVER      2	/* and knows how to drive it */
#define VIRTIO_STATUS_DRIVER_OK   4	/* the driver is ready */
#define VIRTIO_STATUS_FEATURES_OK 8	/* feature negotiation is over */
#define VIRTIO_STATUS_FAILED      128	/* the driver gave up */

/* The feature bit every modern device offers and the core requires. */
#define VIRTIO_F_VERSION_1 (1ULL << 32)

struct virtio_device;

/*
 * What the core asks of a transport. Queue addresses are physical: the
 * device reaches the rings by DMA, and DMA addresses are physical ones
 * on both machines (no IOMMU).
 */
struct virtio_transport {
	uint8_t (*get_status)(struct virtio_device *dev);
	/* Writing 0 resets the device. */
	void (*set_status)(struct virtio_device *dev, uint8_t status);
	/* All 64 feature bits the device offers. */
	uint64_t (*get_features)(struct virtio_device *dev);
	/* The feature bits the driver accepts. */
	void (*set_features)(struct virtio_device *dev, uint64_t features);
	/* Byte offset of the device-specific configuration. */
	uint8_t (*config_read8)(struct virtio_device *dev, unsigned int offset);
	/* The largest size queue index may have; 0 if there is no such queue. */
	unsigned int (*queue_max)(struct virtio_device *dev, unsigned int index);
	/* Give queue index its size and its three rings, and enable it.
	 * Returns 0 or a negative errno. */
	int (*queue_setup)(struct virtio_device *dev, unsigned int index, unsigned int size,
			   uint64_t desc_pa, uint64_t avail_pa, uint64_t used_pa);
	/* Tell the device that queue index has new available buffers. */
	void (*notify)(struct virtio_device *dev, unsigned int index);
	/* Read and acknowledge the interrupt status (bit 0: a queue was
	 * used; bit 1: the configuration changed). */
	uint32_t (*isr_ack)(struct virtio_device *dev);
};

/* A device a transport found. */
struct virtio_device {
	const struct virtio_transport *transport;
	void *regs;		/* the transport's own state */
	uint32_t device_id;	/* VIRTIO_ID_* */
	char where[32];		/* for messages: "pci 00:04.0", "mmio 0xa003e00" */
};

/* Reset dev and negotiate features: ACKNOWLEDGE, DRIVER, then accept
 * VIRTIO_F_VERSION_1 and those of wanted the device offers, and
 * FEATURES_OK. *accepted gets the features agreed on. Returns 0, or
 * -ENODEV if the device is not a modern one or refuses the features (it
 * is then marked FAILED). The driver then sets up its queues and calls
 * virtio_driver_ok. */
int virtio_negotiate(struct virtio_device *dev, uint64_t wanted, uint64_t *accepted);
/* Tell dev that the driver is ready: DRIVER_OK. */
void virtio_driver_ok(struct virtio_device *dev);
/* Tell dev that the driver gave up on it: FAILED. */
void virtio_fail(struct virtio_device *dev);

#endif
