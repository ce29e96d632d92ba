/*
 * A split virtqueue (virtio 1.x section 2.7): three rings in memory the
 * driver and the device share.
 *
 *   descriptor table  one entry per buffer: physical address, length,
 *                     whether the device writes it, and the next entry
 *                     of its chain
 *   available ring    the driver puts the first descriptor of each
 *                     request here, then advances its index
 *   used ring         the device puts back the first descriptor of each
 *                     request it finished, with the bytes it wrote
 *
 * A request is one chain: the buffers the device reads, then those it
 * writes. Each ring lives in a frame of its own from the frame allocator
 * (physically contiguous, as the device needs), and a caller's buffer
 * is cut at page boundaries, one descriptor per piece, since the pages
 * of kernel memory need not be contiguous in physical memory.
 */
#ifndef KERNEL_VIRTIO_VIRTQUEUE_H
#define KERNEL_VIRTIO_VIRTQUEUE_H

#include "kernel/spinlock.h"
#include "kernel/virtio/virtio.h"
#include "lib/types.h"
#include <asm/layout.h>

/* Descriptors per queue. A request's buffers are cut at page boundaries,
 * one descriptor per piece, so this bounds how large they may be: the
 * users of a queue check their largest request against it (virtio_9p.c
 * does, for VIRTIO_9P_MSG_MAX). */
#define VIRTQ_SIZE 64

/* The most descriptors a buffer of len bytes (len > 0) can need, wherever
 * in a page it starts: the pages its first and last byte may span. */
#define VIRTQ_MAX_PIECES(len) (((len) + PAGE_SIZE - 2) / PAGE_SIZE + 1)

struct virtq_desc {
	uint64_t addr;		/* physical */
	uint32_t len;
	uint16_t flags;		/* VIRTQ_DESC_F_* */
	uint16_t next;		/* with VIRTQ_DESC_F_NEXT */
};
#define VIRTQ_DESC_F_NEXT  1	/* the chain goes on at next */
#define VIRTQ_DESC_F_WRITE 2	/* the device writes this buffer */

struct virtq_avail {
	uint16_t flags;		/* VIRTQ_AVAIL_F_* */
	uint16_t idx;		/* where the driver puts the next entry (mod size) */
	uint16_t ring[VIRTQ_SIZE];
};
#define VIRTQ_AVAIL_F_NO_INTERRUPT 1	/* we poll: no interrupt wanted */

struct virtq_used_elem {
	uint32_t id;		/* first descriptor of the finished chain */
	uint32_t len;		/* bytes the device wrote into it */
};

struct virtq_used {
	uint16_t flags;
	uint16_t idx;		/* where the device puts the next entry */
	struct virtq_used_elem ring[VIRTQ_SIZE];
};

struct virtq {
	struct virtio_device *dev;
	unsigned int index;		/* the queue's number on its device */
	struct virtq_desc *desc;	/* the three rings, through the direct map */
	struct virtq_avail *avail;
	struct virtq_used *used;
	/* The free list and each chain's links, kept here and never read
	 * back from desc[]: the device can write the table too, and a
	 * link it made up would send us past its end. */
	uint16_t link[VIRTQ_SIZE];
	uint16_t free_head;		/* free descriptors, chained by link */
	unsigned int nfree;
	uint16_t avail_idx;		/* the available ring's idx, as we wrote it */
	uint16_t last_used;		/* the used ring's entries seen so far */
	bool broken;			/* the device failed us: descriptors lost */
	struct spinlock lock;		/* guards all of the above */
};

/* A buffer of a request, by kernel address (any mapped memory: the
 * direct map, the heap, a stack). */
struct virtq_buf {
	void *addr;
	size_t len;
};

/* Allocate the rings of queue index of dev and give them to the device.
 * Returns 0, -ENODEV if the device has no such queue or one smaller
 * than VIRTQ_SIZE, or -ENOMEM. */
int virtq_init(struct virtq *vq, struct virtio_device *dev, unsigned int index);

/* Send one request, the nout buffers of bufs the device reads, then the
 * nin after them it writes, and wait for the device to finish it,
 * polling the used ring. *written gets the bytes the device says it
 * wrote. The caller must have no other request in flight on vq (the
 * queue's lock keeps the rings consistent, not the completions apart).
 * Returns 0, -EINVAL if all buffers are empty, -E2BIG if the buffers
 * need more descriptors than the queue has, -EFAULT if a buffer is not
 * mapped, -ETIMEDOUT if the device did not answer within a few seconds,
 * or -EIO if its answer is not one it may give (a used entry that is
 * not this chain's, a length beyond the writable buffers, more entries
 * than requests in flight). After -ETIMEDOUT or -EIO the queue is
 * broken: the device may still own the descriptors, and every later
 * request fails with -EIO. */
int virtq_request(struct virtq *vq, const struct virtq_buf *bufs, unsigned int nout,
		  unsigned int nin, uint32_t *written);

#endif
