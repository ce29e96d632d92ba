/*
 * The virtio PCI transport, modern layout (virtio 1.x section 4.1).
 *
 * A virtio PCI function (vendor 0x1af4) lists, among its PCI
 * capabilities, vendor-specific ones (id 0x09) that each point into one
 * of its memory BARs:
 *   common cfg   feature bits, status, and the queue registers
 *   notify       where writing a queue's number says it has new buffers
 *   ISR          the interrupt status, cleared by reading it
 *   device cfg   the device type's own configuration (9p: its tag)
 * A transitional device (QEMU's default) also has the legacy I/O BAR;
 * only the modern registers are used here.
 */
#include "arch/x86_64/pci.h"
#include "kernel/arch.h"
#include "kernel/virtio/virtio.h"
#include "lib/errno.h"
#include "lib/format.h"
#include <asm/io.h>

#define VIRTIO_PCI_VENDOR          0x1af4
#define VIRTIO_PCI_MODERN_BASE     0x1040	/* + device type */
#define VIRTIO_PCI_TRANSITIONAL_LO 0x1000	/* type in the subsystem id */
#define VIRTIO_PCI_TRANSITIONAL_HI 0x103f

#define PCI_CAP_VENDOR 0x09

/* The vendor capability's fields (struct virtio_pci_cap). */
#define CAP_CFG_TYPE 3
#define CAP_BAR      4
#define CAP_OFFSET   8
#define CAP_LENGTH   12
#define CAP_NOTIFY_MULTIPLIER 16	/* notify's only */

enum { CFG_COMMON = 1, CFG_NOTIFY = 2, CFG_ISR = 3, CFG_DEVICE = 4 };

/* The common configuration (struct virtio_pci_common_cfg). */
#define COMMON_DFSELECT   0x00
#define COMMON_DF         0x04
#define COMMON_GFSELECT   0x08
#define COMMON_GF         0x0c
#define COMMON_STATUS     0x14
#define COMMON_Q_SELECT   0x16
#define COMMON_Q_SIZE     0x18
#define COMMON_Q_ENABLE   0x1c
#define COMMON_Q_NOFF     0x1e
#define COMMON_Q_DESCLO   0x20
#define COMMON_Q_DESCHI   0x24
#define COMMON_Q_AVAILLO  0x28
#define COMMON_Q_AVAILHI  0x2c
#define COMMON_Q_USEDLO   0x30
#define COMMON_Q_USEDHI   0x34

struct virtio_pci {
	uint8_t *common, *notify, *isr, *device;
	uint32_t notify_multiplier;
};

/* The one device arch_virtio_find hands out. */
static struct virtio_pci the_device;

static struct virtio_pci *regs(struct virtio_device *dev)
{
	return dev->regs;
}

static uint8_t get_status(struct virtio_device *dev)
{
	return readb(regs(dev)->common + COMMON_STATUS);
}

static void set_status(struct virtio_device *dev, uint8_t status)
{
	writeb(status, regs(dev)->common + COMMON_STATUS);
}

/* Feature bits come in two 32-bit halves, chosen by a select register. */
static uint64_t get_features(struct virtio_device *dev)
{
	uint8_t *c = regs(dev)->common;
	uint64_t f;

	writel(0, c + COMMON_DFSELECT);
	f = readl(c + COMMON_DF);
	writel(1, c + COMMON_DFSELECT);
	return f | (uint64_t)readl(c + COMMON_DF) << 32;
}

static void set_features(struct virtio_device *dev, uint64_t features)
{
	uint8_t *c = regs(dev)->common;

	writel(0, c + COMMON_GFSELECT);
	writel((uint32_t)features, c + COMMON_GF);
	writel(1, c + COMMON_GFSELECT);
	writel((uint32_t)(features >> 32), c + COMMON_GF);
}

static uint8_t config_read8(struct virtio_device *dev, unsigned int offset)
{
	return readb(regs(dev)->device + offset);
}

static unsigned int queue_max(struct virtio_device *dev, unsigned int index)
{
	uint8_t *c = regs(dev)->common;

	writew((uint16_t)index, c + COMMON_Q_SELECT);
	return readw(c + COMMON_Q_SIZE);
}

static void write64(uint8_t *lo, uint64_t v)
{
	writel((uint32_t)v, lo);
	writel((uint32_t)(v >> 32), lo + 4);
}

static int queue_setup(struct virtio_device *dev, unsigned int index, unsigned int size,
		       uint64_t desc_pa, uint64_t avail_pa, uint64_t used_pa)
{
	uint8_t *c = regs(dev)->common;

	writew((uint16_t)index, c + COMMON_Q_SELECT);
	writew((uint16_t)size, c + COMMON_Q_SIZE);
	write64(c + COMMON_Q_DESCLO, desc_pa);
	write64(c + COMMON_Q_AVAILLO, avail_pa);
	write64(c + COMMON_Q_USEDLO, used_pa);
	writew(1, c + COMMON_Q_ENABLE);
	return 0;
}

/* Each queue has its own notify address: its queue_notify_off times
 * the capability's multiplier into the notify region. */
static void notify(struct virtio_device *dev, unsigned int index)
{
	struct virtio_pci *r = regs(dev);
	uint16_t off;

	writew((uint16_t)index, r->common + COMMON_Q_SELECT);
	off = readw(r->common + COMMON_Q_NOFF);
	writew((uint16_t)index, r->notify + (size_t)off * r->notify_multiplier);
}

static uint32_t isr_ack(struct virtio_device *dev)
{
	return readb(regs(dev)->isr);
}

static const struct virtio_transport virtio_pci_transport = {
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

/* Is the function at a a virtio device of type *arg? */
static bool is_virtio_type(struct pci_addr a, void *arg)
{
	uint32_t type = *(uint32_t *)arg;
	uint16_t id;

	if (pci_read16(a, PCI_VENDOR_ID) != VIRTIO_PCI_VENDOR)
		return false;
	id = pci_read16(a, PCI_VENDOR_ID + 2);
	if (id == VIRTIO_PCI_MODERN_BASE + type)
		return true;
	return id >= VIRTIO_PCI_TRANSITIONAL_LO && id <= VIRTIO_PCI_TRANSITIONAL_HI &&
	       pci_read16(a, PCI_SUBSYSTEM_ID) == type;
}

/* Map the region a vendor capability at cap points to; NULL if its BAR
 * is not a memory BAR with an address. */
static uint8_t *map_cap(struct pci_addr a, unsigned int cap)
{
	uint64_t bar = pci_bar_address(a, pci_read8(a, cap + CAP_BAR));

	if (!bar)
		return NULL;
	return ioremap(bar + pci_read32(a, cap + CAP_OFFSET), pci_read32(a, cap + CAP_LENGTH));
}

/* Walk the capability list for the four regions. The list comes from
 * the device: the walk is bounded, in case it loops. */
static int map_regions(struct pci_addr a, struct virtio_pci *r)
{
	unsigned int cap = pci_read8(a, PCI_CAP_PTR) & 0xfc;

	if (!(pci_read16(a, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return -ENODEV;
	for (int n = 0; cap && n < 48; n++, cap = pci_read8(a, cap + 1) & 0xfc) {
		if (pci_read8(a, cap) != PCI_CAP_VENDOR)
			continue;
		switch (pci_read8(a, cap + CAP_CFG_TYPE)) {
		case CFG_COMMON:
			r->common = r->common ? r->common : map_cap(a, cap);
			break;
		case CFG_NOTIFY:
			if (!r->notify) {
				r->notify = map_cap(a, cap);
				r->notify_multiplier = pci_read32(a, cap + CAP_NOTIFY_MULTIPLIER);
			}
			break;
		case CFG_ISR:
			r->isr = r->isr ? r->isr : map_cap(a, cap);
			break;
		case CFG_DEVICE:
			r->device = r->device ? r->device : map_cap(a, cap);
			break;
		}
	}
	return r->common && r->notify && r->isr && r->device ? 0 : -ENODEV;
}

int arch_virtio_find(uint32_t device_id, struct virtio_device *dev)
{
	struct pci_addr a;
	int err;

	if (!pci_find(is_virtio_type, &device_id, &a))
		return -ENODEV;
	snprintf(dev->where, sizeof(dev->where), "pci %02x:%02x.%x", a.bus, a.dev, a.fn);
	err = map_regions(a, &the_device);
	if (err < 0)
		return err;	/* a legacy-only device: no modern registers */
	pci_write16(a, PCI_COMMAND,
		    pci_read16(a, PCI_COMMAND) | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	dev->transport = &virtio_pci_transport;
	dev->regs = &the_device;
	dev->device_id = device_id;
	return 0;
}
