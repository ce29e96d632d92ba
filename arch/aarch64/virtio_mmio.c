/*
 * The virtio-mmio transport, version 2 (virtio 1.x section 4.2): each
 * device is a block of 32-bit registers, its configuration at 0x100. The
 * slots come from the device tree (boot/aarch64/fdt_boot.c); an empty
 * slot reads device id 0.
 *
 * QEMU 7.2's virt machine presents version 1 (legacy) slots unless
 * started with -global virtio-mmio.force-legacy=false; only version 2 is
 * driven here, and a legacy device found says so (-ENOSYS).
 */
#include "boot/aarch64/fdt_boot.h"
#include "kernel/arch.h"
#include "kernel/virtio/virtio.h"
#include "lib/errno.h"
#include "lib/format.h"
#include <asm/io.h>

#define MMIO_MAGIC          0x000	/* "virt" */
#define MMIO_VERSION        0x004
#define MMIO_DEVICE_ID      0x008
#define MMIO_DEV_FEATURES   0x010
#define MMIO_DEV_FEAT_SEL   0x014
#define MMIO_DRV_FEATURES   0x020
#define MMIO_DRV_FEAT_SEL   0x024
#define MMIO_QUEUE_SEL      0x030
#define MMIO_QUEUE_NUM_MAX  0x034
#define MMIO_QUEUE_NUM      0x038
#define MMIO_QUEUE_READY    0x044
#define MMIO_QUEUE_NOTIFY   0x050
#define MMIO_INT_STATUS     0x060
#define MMIO_INT_ACK        0x064
#define MMIO_STATUS         0x070
#define MMIO_QUEUE_DESC     0x080	/* low, then high at +4 */
#define MMIO_QUEUE_DRIVER   0x090
#define MMIO_QUEUE_DEVICE   0x0a0
#define MMIO_CONFIG         0x100

#define MMIO_MAGIC_VALUE    0x74726976
#define MMIO_SLOT_SIZE      0x200

static uint32_t rd(struct virtio_device *dev, unsigned int reg)
{
	return readl((uint8_t *)dev->regs + reg);
}

static void wr(struct virtio_device *dev, unsigned int reg, uint32_t v)
{
	writel(v, (uint8_t *)dev->regs + reg);
}

static uint8_t get_status(struct virtio_device *dev)
{
	return (uint8_t)rd(dev, MMIO_STATUS);
}

static void set_status(struct virtio_device *dev, uint8_t status)
{
	wr(dev, MMIO_STATUS, status);
}

/* Feature bits come in two 32-bit halves, chosen by a select register. */
static uint64_t get_features(struct virtio_device *dev)
{
	uint64_t f;

	wr(dev, MMIO_DEV_FEAT_SEL, 0);
	f = rd(dev, MMIO_DEV_FEATURES);
	wr(dev, MMIO_DEV_FEAT_SEL, 1);
	return f | (uint64_t)rd(dev, MMIO_DEV_FEATURES) << 32;
}

static void set_features(struct virtio_device *dev, uint64_t features)
{
	wr(dev, MMIO_DRV_FEAT_SEL, 0);
	wr(dev, MMIO_DRV_FEATURES, (uint32_t)features);
	wr(dev, MMIO_DRV_FEAT_SEL, 1);
	wr(dev, MMIO_DRV_FEATURES, (uint32_t)(features >> 32));
}

static uint8_t config_read8(struct virtio_device *dev, unsigned int offset)
{
	return readb((uint8_t *)dev->regs + MMIO_CONFIG + offset);
}

static unsigned int queue_max(struct virtio_device *dev, unsigned int index)
{
	wr(dev, MMIO_QUEUE_SEL, index);
	return rd(dev, MMIO_QUEUE_NUM_MAX);
}

static void write64(struct virtio_device *dev, unsigned int reg, uint64_t v)
{
	wr(dev, reg, (uint32_t)v);
	wr(dev, reg + 4, (uint32_t)(v >> 32));
}

static int queue_setup(struct virtio_device *dev, unsigned int index, unsigned int size,
		       uint64_t desc_pa, uint64_t avail_pa, uint64_t used_pa)
{
	wr(dev, MMIO_QUEUE_SEL, index);
	if (rd(dev, MMIO_QUEUE_READY))
		return -EBUSY;	/* set up already: virtio_negotiate resets first */
	wr(dev, MMIO_QUEUE_NUM, size);
	write64(dev, MMIO_QUEUE_DESC, desc_pa);
	write64(dev, MMIO_QUEUE_DRIVER, avail_pa);
	write64(dev, MMIO_QUEUE_DEVICE, used_pa);
	wr(dev, MMIO_QUEUE_READY, 1);
	return 0;
}

static void notify(struct virtio_device *dev, unsigned int index)
{
	wr(dev, MMIO_QUEUE_NOTIFY, index);
}

static uint32_t isr_ack(struct virtio_device *dev)
{
	uint32_t status = rd(dev, MMIO_INT_STATUS);

	wr(dev, MMIO_INT_ACK, status);
	return status;
}

static const struct virtio_transport virtio_mmio_transport = {
	.get_status = get_status,
	.set_status = set_status,
	.get_features = get_features,
	.set_features = set_features,
	.config_read8 = config_read8,
	.queue_max = queue_max,
	.queue_setup = queue_setup,
	.notify = notify,
	.isr_ack = isr_ack,
};

int arch_virtio_find(uint32_t device_id, struct virtio_device *dev)
{
	const struct fdt_devices *d = fdt_devices();

	for (unsigned int i = 0; i < d->nvirtio_mmio; i++) {
		uint64_t pa = d->virtio_mmio_base[i];
		uint8_t *regs = ioremap(pa, MMIO_SLOT_SIZE);

		if (readl(regs + MMIO_MAGIC) != MMIO_MAGIC_VALUE ||
		    readl(regs + MMIO_DEVICE_ID) != device_id)
			continue;
		snprintf(dev->where, sizeof(dev->where), "mmio 0x%lx", (unsigned long)pa);
		if (readl(regs + MMIO_VERSION) != 2)
			return -ENOSYS;	/* legacy: see the top of this file */
		dev->transport = &virtio_mmio_transport;
		dev->regs = regs;
		dev->device_id = device_id;
		return 0;
	}
	return -ENODEV;
}
