/* kernel/virtio/virtqueue.c as a host program (tests/host/test_virtqueue.c,
 * tests/fuzz/fuzz_virtqueue.c): the few kernel services it calls, and a
 * fake virtio device at the other end of the queue.
 *
 * The services (virtq_fake.c): frame_alloc hands out page-aligned heap
 * blocks; physical addresses are kernel addresses with FAKE_PHYS_KEY
 * XORed into the page number, so that neighbouring pages are never
 * neighbours in "physical" memory (a descriptor that crossed a page
 * would point the device at the wrong bytes); ktime_get is a clock that
 * only thread_yield moves, by FAKE_TICK; spin_lock_recursion fails.
 *
 * The device answers one request at a time, as told by the next
 * struct fake_answer. It walks the chain the driver offers and compares
 * it, descriptor by descriptor, with the buffers the request was made
 * of (fake_expect): one descriptor per page piece, in order, readable
 * ones first, NEXT on all but the last. The first thing it finds wrong
 * is kept in problem. Then it writes the answer's reply bytes into the
 * writable pieces and a used entry, honest or not as the answer says.
 *
 * One device at a time (a host test runs one thread): fake_attach makes
 * it the one the services and the transport act on. */
#ifndef TESTS_HOST_VIRTQ_FAKE_H
#define TESTS_HOST_VIRTQ_FAKE_H

#include "kernel/virtio/virtqueue.h"
#include "lib/types.h"
#include <asm/layout.h>

#define FAKE_PHYS_KEY 0x5a5a5000ull
/* The time a thread_yield takes: 10 ms, so that the driver's 5 s of
 * patience are some 500 yields. */
#define FAKE_TICK 10000000LL
#define FAKE_CONFIG_MAX 128
#define FAKE_MAX_BUFS 8

/* What the device does with one request. All zero: answer at once,
 * honestly, writing nothing. */
struct fake_answer {
	const uint8_t *reply;	/* written into the writable buffers, cut to fit */
	size_t reply_len;
	unsigned int delay;	/* the driver's yields before it answers */
	bool never;		/* it never answers */
	enum {
		FAKE_ID_HEAD,	/* used id: the chain's head, as it must be */
		FAKE_ID_LAST,	/* the chain's last descriptor */
		FAKE_ID_GIVEN,	/* id */
	} id_is;
	uint32_t id;
	bool set_len;		/* used len: len, instead of the bytes written */
	uint32_t len;
	uint16_t idx_extra;	/* added to the used idx after the entry's 1 */
	bool scribble;		/* overwrite the whole descriptor table after */
};

struct fake_dev {
	struct virtio_device vdev;
	/* Transport settings. */
	unsigned int queue_max;		/* what queue 0 may have */
	uint64_t features;		/* offered */
	bool refuse_features;		/* clears FEATURES_OK */
	uint8_t config[FAKE_CONFIG_MAX];
	size_t config_len;		/* reads past it give 0xff */
	size_t frames_left;		/* frame_alloc fails once 0 */
	uintptr_t hole;			/* a page virt_to_phys refuses (0: none) */
	/* State the driver set. */
	uint8_t status;
	uint64_t accepted;
	struct virtq_desc *desc;
	struct virtq_avail *avail;
	struct virtq_used *used;
	unsigned int size;
	uint16_t last_avail, used_idx;
	/* The request it waits for, and what to do with it. */
	struct virtq_buf expect[FAKE_MAX_BUFS];
	unsigned int nout, nin;
	struct fake_answer answer;
	bool armed;			/* fake_expect was called, not yet served */
	bool pending;			/* notified, not yet answered */
	unsigned int waited;		/* yields since the notify */
	/* What it saw. */
	const char *problem;		/* the first thing the driver did wrong */
	uint16_t head, last;		/* the last chain's first and last descriptors */
	unsigned int ndesc;		/* and its length */
	uint8_t got[VIRTQ_SIZE * PAGE_SIZE];	/* the readable bytes, in order */
	size_t got_len;
	size_t wrote;			/* reply bytes written */
	unsigned int notifies, isr_acks, answered;
	/* The frames it handed out, freed by fake_detach. */
	void *frames[16];
	size_t nframes;
};

/* Set up dev as a modern 9p device offering a queue of VIRTQ_SIZE and 16
 * frames, and make it the current one. */
void fake_attach(struct fake_dev *dev);
/* Free the frames the driver took; no device is current. */
void fake_detach(struct fake_dev *dev);
/* The next request will be made of these buffers; the device answers
 * it as a says. */
void fake_expect(struct fake_dev *dev, const struct virtq_buf *bufs, unsigned int nout,
		 unsigned int nin, const struct fake_answer *a);

#endif
