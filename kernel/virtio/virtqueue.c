/*
 * The split virtqueue: how a request travels to the device and back
 * (see virtqueue.h for the rings, docs/virtio.md for the whole trip).
 *
 * Completion is polled, not interrupt-driven: the driver asks the device
 * for no interrupts (VIRTQ_AVAIL_F_NO_INTERRUPT) and waits, yielding the
 * CPU, until the used ring's index moves. That needs no interrupt
 * routing (an I/O APIC on x86_64, a GIC line from the device tree on
 * aarch64) and works the same with any number of CPUs.
 */
#include "kernel/mm/frame.h"
#include "kernel/mm/paging.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "kernel/virtio/virtqueue.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/layout.h>

/* How long a device may take to answer before the queue is given up. */
#define VIRTQ_TIMEOUT (5 * NSEC_PER_SEC)

/* A zeroed frame for a ring: one frame is physically contiguous, and
 * each ring of VIRTQ_SIZE entries fits in one. */
static void *ring_frame(uint64_t *pa)
{
	void *p;

	*pa = frame_alloc();
	if (!*pa)
		return NULL;
	p = phys_to_virt(*pa);
	memset(p, 0, PAGE_SIZE);
	return p;
}

_Static_assert(sizeof(struct virtq_desc) * VIRTQ_SIZE <= PAGE_SIZE, "desc table > page");
_Static_assert(sizeof(struct virtq_used) <= PAGE_SIZE, "used ring > page");

int virtq_init(struct virtq *vq, struct virtio_device *dev, unsigned int index)
{
	uint64_t desc_pa, avail_pa, used_pa;

	if (dev->transport->queue_max(dev, index) < VIRTQ_SIZE)
		return -ENODEV;
	memset(vq, 0, sizeof(*vq));
	vq->lock = (struct spinlock)SPINLOCK_INIT("virtq");
	vq->dev = dev;
	vq->index = index;
	vq->desc = ring_frame(&desc_pa);
	vq->avail = ring_frame(&avail_pa);
	vq->used = ring_frame(&used_pa);
	if (!vq->desc || !vq->avail || !vq->used)
		return -ENOMEM;	/* a boot-time failure: the frames stay taken */
	/* Every descriptor starts free, each linked to the next. */
	for (unsigned int i = 0; i < VIRTQ_SIZE; i++)
		vq->link[i] = (uint16_t)(i + 1);
	vq->free_head = 0;
	vq->nfree = VIRTQ_SIZE;
	vq->avail->flags = VIRTQ_AVAIL_F_NO_INTERRUPT;
	return dev->transport->queue_setup(dev, index, VIRTQ_SIZE, desc_pa, avail_pa, used_pa);
}

/* The descriptors a buffer needs: one per page it touches. */
static unsigned int pieces(const struct virtq_buf *b)
{
	uintptr_t start = (uintptr_t)b->addr, end = start + b->len;

	if (!b->len)
		return 0;
	return (unsigned int)((end - 1) / PAGE_SIZE - start / PAGE_SIZE + 1);
}

/* Put the n descriptors of the chain at head back on the free list,
 * following our own links (vq->link), not the table's. */
static void free_chain(struct virtq *vq, uint16_t head, unsigned int n)
{
	uint16_t i = head;

	while (n--) {
		uint16_t next = vq->link[i];

		vq->link[i] = vq->free_head;
		vq->free_head = i;
		vq->nfree++;
		i = next;
	}
}

/* Take a free descriptor for the piece at va, chained after *prev (when
 * there is one). */
static int add_piece(struct virtq *vq, uintptr_t va, uint32_t len, uint16_t flags,
		     int *head, int *prev)
{
	uint16_t i = vq->free_head;
	uint64_t pa;

	if (virt_to_phys(va, &pa) < 0)
		return -EFAULT;
	vq->free_head = vq->link[i];
	vq->nfree--;
	vq->desc[i] = (struct virtq_desc){ .addr = pa, .len = len, .flags = flags };
	if (*prev >= 0) {
		vq->desc[*prev].flags |= VIRTQ_DESC_F_NEXT;
		vq->desc[*prev].next = i;
		vq->link[*prev] = i;
	} else {
		*head = i;
	}
	*prev = i;
	return 0;
}

/* Build the request's chain, the device-readable buffers first; the
 * caller has checked there are descriptors enough. Returns the head, or
 * -EFAULT (with nothing taken). */
static int build_chain(struct virtq *vq, const struct virtq_buf *bufs, unsigned int nout,
		       unsigned int nin)
{
	unsigned int before = vq->nfree;
	int head = -1, prev = -1;

	for (unsigned int b = 0; b < nout + nin; b++) {
		uintptr_t va = (uintptr_t)bufs[b].addr, end = va + bufs[b].len;
		uint16_t flags = b < nout ? 0 : VIRTQ_DESC_F_WRITE;

		while (va < end) {
			uintptr_t page_end = (va | (PAGE_SIZE - 1)) + 1;
			uintptr_t piece_end = page_end < end ? page_end : end;
			int err = add_piece(vq, va, (uint32_t)(piece_end - va), flags, &head, &prev);

			if (err < 0) {
				if (head >= 0)
					free_chain(vq, (uint16_t)head, before - vq->nfree);
				return err;
			}
			va = piece_end;
		}
	}
	return head;
}

/* Offer the chain at head to the device: the ring entry must be visible
 * before the index that publishes it, and the index before the notify.
 * The index is our own count (avail_idx), not read back from the ring,
 * which the device could have changed. */
static void publish(struct virtq *vq, uint16_t head)
{
	vq->avail->ring[vq->avail_idx % VIRTQ_SIZE] = head;
	vq->avail_idx++;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&vq->avail->idx, vq->avail_idx, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	vq->dev->transport->notify(vq->dev, vq->index);
}

/* The next used entry into *e: 1, or 0 if the device has put none back
 * since we last looked, or -EIO if its index claims more entries than
 * requests in flight (the entries past ours would be stale slots). The
 * device writes the entry before the index, so the entry is read only
 * after the index (the acquire). */
static int take_used(struct virtq *vq, struct virtq_used_elem *e)
{
	uint16_t idx = __atomic_load_n(&vq->used->idx, __ATOMIC_ACQUIRE);
	uint16_t ready = (uint16_t)(idx - vq->last_used);

	if (ready == 0)
		return 0;
	if (ready > (uint16_t)(vq->avail_idx - vq->last_used))
		return -EIO;
	*e = vq->used->ring[vq->last_used % VIRTQ_SIZE];
	vq->last_used++;
	return 1;
}

/* Poll for the completion of the chain of n descriptors at head; size
 * is what the device may write. The entry comes from the device: it is
 * checked before use. */
static int wait_used(struct virtq *vq, uint16_t head, unsigned int n, size_t size,
		     uint32_t *written)
{
	ktime_t deadline = ktime_get() + VIRTQ_TIMEOUT;
	struct virtq_used_elem e;
	int got;

	for (;;) {
		spin_lock(&vq->lock);
		got = take_used(vq, &e);
		if (got)
			break;
		if (ktime_get() > deadline) {
			vq->broken = true;
			spin_unlock(&vq->lock);
			return -ETIMEDOUT;
		}
		spin_unlock(&vq->lock);
		thread_yield();
	}
	vq->dev->transport->isr_ack(vq->dev);
	if (got < 0 || e.id != head || e.len > size) {
		/* The device and we disagree: it may still own the chain,
		 * which is therefore never reused. */
		vq->broken = true;
		spin_unlock(&vq->lock);
		return -EIO;
	}
	free_chain(vq, head, n);
	spin_unlock(&vq->lock);
	*written = e.len;
	return 0;
}

int virtq_request(struct virtq *vq, const struct virtq_buf *bufs, unsigned int nout,
		  unsigned int nin, uint32_t *written)
{
	unsigned int need = 0;
	size_t size = 0;
	int head;

	for (unsigned int b = 0; b < nout + nin; b++)
		need += pieces(&bufs[b]);
	for (unsigned int b = nout; b < nout + nin; b++)
		size += bufs[b].len;
	if (need == 0)
		return -EINVAL;
	if (need > VIRTQ_SIZE)
		return -E2BIG;
	spin_lock(&vq->lock);
	if (vq->broken || vq->nfree < need) {
		spin_unlock(&vq->lock);
		return -EIO;
	}
	head = build_chain(vq, bufs, nout, nin);
	if (head >= 0)
		publish(vq, (uint16_t)head);
	spin_unlock(&vq->lock);
	if (head < 0)
		return head;
	return wait_used(vq, (uint16_t)head, need, size, written);
}
