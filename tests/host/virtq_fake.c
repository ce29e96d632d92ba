/* The kernel services kernel/virtio/virtqueue.c calls, and a fake virtio
 * device (see virtq_fake.h). */
#include <stdio.h>
#include <stdlib.h>

#include "tests/host/rename.h"
#include "kernel/mm/frame.h"
#include "kernel/mm/paging.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "tests/host/virtq_fake.h"

/* The CPU spinlocks record as their holder (tests/fuzz/host_cpu/asm/
 * percpu.h): none is needed, as no lock is ever contended. */
struct cpu *fuzz_this_cpu;

static struct fake_dev *cur;
static ktime_t now;

/* ---- Kernel services ---- */

uint64_t frame_alloc(void)
{
	void *p;

	if (!cur->frames_left || cur->nframes == sizeof(cur->frames) / sizeof(cur->frames[0]))
		return 0;
	p = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (!p)
		return 0;
	memset(p, 0xa5, PAGE_SIZE);	/* a frame's contents are undefined */
	cur->frames[cur->nframes++] = p;
	cur->frames_left--;
	return (uintptr_t)p ^ FAKE_PHYS_KEY;
}

void *phys_to_virt(uint64_t pa)
{
	return (void *)(uintptr_t)(pa ^ FAKE_PHYS_KEY);
}

int virt_to_phys(uintptr_t va, uint64_t *pa)
{
	if (cur->hole && va / PAGE_SIZE == cur->hole / PAGE_SIZE)
		return -EFAULT;
	*pa = va ^ FAKE_PHYS_KEY;
	return 0;
}

ktime_t ktime_get(void)
{
	return now;
}

void spin_lock_recursion(const struct spinlock *lock)
{
	fprintf(stderr, "spinlock %s taken twice\n", lock->name);
	abort();
}

/* ---- The device's side of a request ---- */

/* Keep the first thing found wrong (what may be NULL: nothing). */
static void problem(struct fake_dev *d, const char *what)
{
	if (!d->problem)
		d->problem = what;
}

/* Where the expected buffers stand: buffer b, off bytes into it. */
struct cursor {
	unsigned int b;
	size_t off;
};

/* The next piece the driver must have made a descriptor of: the rest of
 * the current buffer up to its page's end, empty buffers skipped.
 * False once every buffer is covered. */
static bool next_piece(struct fake_dev *d, struct cursor *c, uintptr_t *va, uint32_t *len,
		       bool *write)
{
	while (c->b < d->nout + d->nin && c->off == d->expect[c->b].len) {
		c->b++;
		c->off = 0;
	}
	if (c->b == d->nout + d->nin)
		return false;
	*va = (uintptr_t)d->expect[c->b].addr + c->off;
	*len = (uint32_t)MIN(d->expect[c->b].len - c->off, PAGE_SIZE - *va % PAGE_SIZE);
	*write = c->b >= d->nout;
	c->off += *len;
	return true;
}

/* Read or write one descriptor's bytes; it has been checked to be the
 * piece expected. */
static void move_bytes(struct fake_dev *d, uint8_t *p, uint32_t len, bool write)
{
	if (!write) {
		memcpy(d->got + d->got_len, p, len);
		d->got_len += len;
		return;
	}
	if (d->wrote < d->answer.reply_len) {
		size_t n = MIN((size_t)len, d->answer.reply_len - d->wrote);

		memcpy(p, d->answer.reply + d->wrote, n);
		d->wrote += n;
	}
}

/* Compare the chain at head with the expected pieces, moving the bytes
 * of each descriptor that matches. Returns what is wrong, or NULL. */
static const char *walk_chain(struct fake_dev *d, uint16_t head)
{
	struct cursor c = { 0, 0 };
	uint16_t i = head;
	uintptr_t va;
	uint32_t len;
	bool write;

	d->ndesc = 0;
	for (;;) {
		struct virtq_desc *desc;

		if (i >= d->size || d->ndesc == d->size)
			return "chain leaves the table or loops";
		desc = &d->desc[i];
		if (!next_piece(d, &c, &va, &len, &write))
			return "chain longer than the buffers";
		if ((uintptr_t)phys_to_virt(desc->addr) != va || desc->len != len)
			return "descriptor is not the next page piece";
		if (!(desc->flags & VIRTQ_DESC_F_WRITE) != !write)
			return "descriptor WRITE flag wrong";
		if (desc->flags & ~(VIRTQ_DESC_F_WRITE | VIRTQ_DESC_F_NEXT))
			return "descriptor has unknown flags";
		move_bytes(d, phys_to_virt(desc->addr), len, write);
		d->ndesc++;
		d->last = i;
		if (!(desc->flags & VIRTQ_DESC_F_NEXT))
			break;
		i = desc->next;
	}
	if (next_piece(d, &c, &va, &len, &write))
		return "chain shorter than the buffers";
	return NULL;
}

/* Take the request the driver published and answer it. */
static void serve(struct fake_dev *d)
{
	const struct fake_answer *a = &d->answer;
	uint16_t avail_idx = __atomic_load_n(&d->avail->idx, __ATOMIC_ACQUIRE);
	struct virtq_used_elem e;

	d->pending = d->armed = false;
	if (avail_idx != (uint16_t)(d->last_avail + 1)) {
		problem(d, "available idx did not move by one");
		return;
	}
	d->head = d->avail->ring[d->last_avail % d->size];
	d->last_avail++;
	d->got_len = d->wrote = 0;
	problem(d, walk_chain(d, d->head));
	e.id = a->id_is == FAKE_ID_GIVEN ? a->id : a->id_is == FAKE_ID_LAST ? d->last : d->head;
	e.len = a->set_len ? a->len : (uint32_t)d->wrote;
	d->used->ring[d->used_idx % d->size] = e;
	d->used_idx = (uint16_t)(d->used_idx + 1 + a->idx_extra);
	__atomic_store_n(&d->used->idx, d->used_idx, __ATOMIC_RELEASE);
	if (a->scribble)
		memset(d->desc, 0xff, d->size * sizeof(*d->desc));
	d->answered++;
}

void thread_yield(void)
{
	now += FAKE_TICK;
	if (cur->pending && !cur->answer.never && ++cur->waited >= cur->answer.delay)
		serve(cur);
}

/* ---- The transport ---- */

/* The driver may copy the struct virtio_device (virtio_9p.c keeps its
 * own): the device is found through regs. */
static struct fake_dev *fake_of(struct virtio_device *vdev)
{
	return vdev->regs;
}

static uint8_t get_status(struct virtio_device *vdev)
{
	return fake_of(vdev)->status;
}

static void set_status(struct virtio_device *vdev, uint8_t status)
{
	struct fake_dev *d = fake_of(vdev);

	if (d->refuse_features)
		status &= (uint8_t)~VIRTIO_STATUS_FEATURES_OK;
	d->status = status;
}

static uint64_t get_features(struct virtio_device *vdev)
{
	return fake_of(vdev)->features;
}

static void set_features(struct virtio_device *vdev, uint64_t features)
{
	struct fake_dev *d = fake_of(vdev);

	if (features & ~d->features)
		problem(d, "driver accepted a feature not offered");
	d->accepted = features;
}

static uint8_t config_read8(struct virtio_device *vdev, unsigned int offset)
{
	struct fake_dev *d = fake_of(vdev);

	return offset < d->config_len ? d->config[offset] : 0xff;
}

static unsigned int queue_max(struct virtio_device *vdev, unsigned int index)
{
	return index == 0 ? fake_of(vdev)->queue_max : 0;
}

static int queue_setup(struct virtio_device *vdev, unsigned int index, unsigned int size,
		       uint64_t desc_pa, uint64_t avail_pa, uint64_t used_pa)
{
	struct fake_dev *d = fake_of(vdev);

	if (index != 0 || size > d->queue_max)
		problem(d, "queue set up beyond what the device has");
	d->size = size;
	d->desc = phys_to_virt(desc_pa);
	d->avail = phys_to_virt(avail_pa);
	d->used = phys_to_virt(used_pa);
	return 0;
}

static void notify(struct virtio_device *vdev, unsigned int index)
{
	struct fake_dev *d = fake_of(vdev);

	d->notifies++;
	if (index != 0 || !d->desc || !d->armed || d->pending) {
		problem(d, "a notify with no request expected on that queue");
		return;
	}
	d->pending = true;
	d->waited = 0;
	if (!d->answer.never && d->answer.delay == 0)
		serve(d);
}

static uint32_t isr_ack(struct virtio_device *vdev)
{
	fake_of(vdev)->isr_acks++;
	return 1;
}

static const struct virtio_transport fake_transport = {
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

void fake_attach(struct fake_dev *dev)
{
	memset(dev, 0, sizeof(*dev));
	dev->vdev.transport = &fake_transport;
	dev->vdev.regs = dev;
	dev->vdev.device_id = VIRTIO_ID_9P;
	strlcpy(dev->vdev.where, "fake", sizeof(dev->vdev.where));
	dev->queue_max = VIRTQ_SIZE;
	dev->features = VIRTIO_F_VERSION_1;
	dev->frames_left = 16;
	cur = dev;
}

void fake_detach(struct fake_dev *dev)
{
	for (size_t i = 0; i < dev->nframes; i++)
		free(dev->frames[i]);
	dev->nframes = 0;
	cur = NULL;
}

void fake_expect(struct fake_dev *dev, const struct virtq_buf *bufs, unsigned int nout,
		 unsigned int nin, const struct fake_answer *a)
{
	if (nout + nin > FAKE_MAX_BUFS)
		abort();
	memcpy(dev->expect, bufs, (nout + nin) * sizeof(*bufs));
	dev->nout = nout;
	dev->nin = nin;
	dev->answer = *a;
	dev->armed = true;
	dev->pending = false;
}
