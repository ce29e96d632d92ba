/*
 * The virtio 9P transport (virtio 1.x section 5.11): a host folder,
 * shared by QEMU, reached by 9P2000.L messages over one virtqueue.
 *
 * This file is the transport only: it moves one message to the device
 * and its reply back, whatever the bytes say. Building and reading 9P
 * messages is the 9P client's work.
 *
 * At boot (a late initcall) the first virtio 9p device the architecture
 * finds is brought up, and one line says what was found:
 *   virtio: 9p device 'host' (pci 00:04.0)
 *   virtio: no 9p device: no host folder shared
 */
#ifndef KERNEL_VIRTIO_VIRTIO_9P_H
#define KERNEL_VIRTIO_VIRTIO_9P_H

#include "lib/types.h"

/* The longest mount tag kept; a longer one is cut. */
#define VIRTIO_9P_TAG_MAX 64

/* The largest buffer, each way, that virtio_9p_request is made for: one
 * 9P message, so the filesystem's msize (kernel/fs/ninepfs.c). The queue
 * must hold a request and a reply of this size at any page offsets,
 * which virtio_9p.c asserts. */
#define VIRTIO_9P_MSG_MAX (60 * 1024)

/* True once a 9p device is up and able to take requests. */
bool virtio_9p_present(void);

/* The device's mount tag (QEMU's mount_tag=), NUL-terminated; "" when no
 * device is present. */
const char *virtio_9p_tag(void);

/* What the transport has carried since boot: the requests answered, and
 * the bytes of their messages each way (a reply's as the device wrote
 * it). /sys/kernel/debug/9p/stats shows them (virtio_9p_stats.c). */
struct virtio_9p_stats {
	uint64_t requests;
	uint64_t bytes_sent, bytes_received;
};

/* The counts so far, read together. May sleep. */
struct virtio_9p_stats virtio_9p_stats(void);

/*
 * Send one 9P message, req[0..req_len), and wait for the device's reply,
 * written to reply[0..reply_cap); *reply_len gets its length. One request
 * at a time goes to the device: callers from several threads or CPUs
 * take turns (a mutex; the caller may sleep). The bytes are the caller's
 * to check: this checks only that the device wrote no more than
 * reply_cap. The buffers may be any mapped kernel memory of up to
 * VIRTIO_9P_MSG_MAX bytes each (the queue's descriptors, one per page
 * touched, bound the total).
 *
 * Returns 0, -ENODEV if no device is present, -EINVAL if a buffer is
 * empty, -E2BIG if the buffers are too large, -ETIMEDOUT if the device
 * did not answer (the device is then given up: later calls fail with
 * -EIO), or -EIO.
 */
int virtio_9p_request(const void *req, size_t req_len, void *reply, size_t reply_cap,
		      size_t *reply_len);

#endif
