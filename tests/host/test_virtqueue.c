/* Host tests for the split virtqueue's bookkeeping (kernel/virtio/virtqueue.c).
 *
 * virtq_request runs against the fake device of virtq_fake.c, which
 * checks every chain the driver offers against the buffers of the
 * request (one descriptor per page piece, readable ones first, WRITE and
 * NEXT right) and answers as each test tells it: at once, late, never,
 * or with a used entry that is not one it may give. The buffers lie in
 * an arena of whole pages, so that a test can place one across page
 * boundaries where it likes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/host/rename.h"
#include "kernel/virtio/virtqueue.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "tests/host/virtq_fake.h"

#define ARENA_PAGES 72
#define NOT_WRITTEN 0xdeadbeefu

struct world {
	struct fake_dev dev;
	struct virtq vq;
	uint8_t *arena;
};

static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	w->arena = aligned_alloc(PAGE_SIZE, ARENA_PAGES * PAGE_SIZE);
	assert_non_null(w->arena);
	memset(w->arena, 0xee, ARENA_PAGES * PAGE_SIZE);
	fake_attach(&w->dev);
	assert_int_equal(virtq_init(&w->vq, &w->dev.vdev, 0), 0);
	*state = w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;

	fake_detach(&w->dev);
	free(w->arena);
	free(w);
	return 0;
}

/* The len bytes at page page, offset off, of the arena. */
static struct virtq_buf at(struct world *w, unsigned int page, unsigned int off, size_t len)
{
	return (struct virtq_buf){ w->arena + page * PAGE_SIZE + off, len };
}

/* Every descriptor is free again: nfree says so, and the free list
 * reaches each exactly once. */
static void assert_all_free(const struct virtq *vq)
{
	bool seen[VIRTQ_SIZE] = { false };
	uint16_t i = vq->free_head;

	assert_int_equal(vq->nfree, VIRTQ_SIZE);
	for (unsigned int n = 0; n < VIRTQ_SIZE; n++) {
		assert_true(i < VIRTQ_SIZE);
		assert_false(seen[i]);
		seen[i] = true;
		i = vq->link[i];
	}
}

/* Make a request the device answers as a says; the device must find
 * nothing wrong with the chain. Returns what virtq_request returned. */
static int request(struct world *w, const struct virtq_buf *bufs, unsigned int nout,
		   unsigned int nin, const struct fake_answer *a, uint32_t *written)
{
	int err;

	*written = NOT_WRITTEN;
	fake_expect(&w->dev, bufs, nout, nin, a);
	err = virtq_request(&w->vq, bufs, nout, nin, written);
	assert_null(w->dev.problem);
	return err;
}

/* ---- Setting the queue up ---- */

static void test_init(void **state)
{
	struct world *w = *state;

	/* The frames came filled with 0xa5: the rings must be zeroed. */
	assert_int_equal(w->dev.size, VIRTQ_SIZE);
	assert_ptr_equal(w->dev.desc, w->vq.desc);
	assert_ptr_equal(w->dev.avail, w->vq.avail);
	assert_ptr_equal(w->dev.used, w->vq.used);
	assert_int_equal(w->vq.avail->flags, VIRTQ_AVAIL_F_NO_INTERRUPT);
	assert_int_equal(w->vq.avail->idx, 0);
	assert_int_equal(w->vq.used->idx, 0);
	assert_int_equal(w->vq.desc[VIRTQ_SIZE - 1].addr, 0);
	assert_false(w->vq.broken);
	assert_all_free(&w->vq);
}

static void test_init_refusals(void **state)
{
	struct world *w = *state;
	struct virtq vq;

	fake_detach(&w->dev);
	fake_attach(&w->dev);
	w->dev.queue_max = VIRTQ_SIZE - 1;
	assert_int_equal(virtq_init(&vq, &w->dev.vdev, 0), -ENODEV);
	assert_int_equal(w->dev.nframes, 0);
	assert_int_equal(virtq_init(&vq, &w->dev.vdev, 1), -ENODEV);
	w->dev.queue_max = VIRTQ_SIZE;
	w->dev.frames_left = 2;
	assert_int_equal(virtq_init(&vq, &w->dev.vdev, 0), -ENOMEM);
	assert_null(w->dev.desc);
}

/* ---- Requests the device answers honestly ---- */

static void test_one_request(void **state)
{
	struct world *w = *state;
	static const char req[] = "size type tag msize version";
	static const uint8_t reply[] = { 19, 0, 0, 0, 101, 0xff, 0xff, 0, 0x20 };
	struct virtq_buf bufs[2] = { at(w, 0, 100, sizeof(req)), at(w, 2, 0, 64) };
	struct fake_answer a = { .reply = reply, .reply_len = sizeof(reply) };
	uint32_t written;

	memcpy(bufs[0].addr, req, sizeof(req));
	assert_int_equal(request(w, bufs, 1, 1, &a, &written), 0);
	assert_int_equal(written, sizeof(reply));
	assert_memory_equal(bufs[1].addr, reply, sizeof(reply));
	assert_int_equal(((uint8_t *)bufs[1].addr)[sizeof(reply)], 0xee);
	assert_int_equal(w->dev.got_len, sizeof(req));
	assert_memory_equal(w->dev.got, req, sizeof(req));
	assert_int_equal(w->dev.ndesc, 2);
	assert_int_equal(w->dev.notifies, 1);
	assert_int_equal(w->dev.isr_acks, 1);
	assert_int_equal(w->vq.avail->idx, 1);
	assert_all_free(&w->vq);
}

/* Buffers across page boundaries: one descriptor per piece, an empty
 * buffer none, the reply spread over the writable pieces in order. */
static void test_page_pieces(void **state)
{
	struct world *w = *state;
	struct virtq_buf bufs[5] = {
		at(w, 0, PAGE_SIZE - 10, 5000),	/* 10 + 4096 + 894 */
		at(w, 4, 0, 0),
		at(w, 5, 0, PAGE_SIZE),		/* exactly one page */
		at(w, 8, 4000, 200),		/* 96 + 104 */
		at(w, 10, 0, 2 * PAGE_SIZE),	/* 4096 + 4096 */
	};
	uint8_t reply[300], sent[5000 + PAGE_SIZE];
	struct fake_answer a = { .reply = reply, .reply_len = sizeof(reply) };
	uint32_t written;

	for (size_t i = 0; i < sizeof(reply); i++)
		reply[i] = (uint8_t)(i * 7 + 1);
	for (size_t i = 0; i < sizeof(sent); i++)
		sent[i] = (uint8_t)(i * 13 + 5);
	memcpy(bufs[0].addr, sent, 5000);
	memcpy(bufs[2].addr, sent + 5000, PAGE_SIZE);
	assert_int_equal(request(w, bufs, 3, 2, &a, &written), 0);
	assert_int_equal(w->dev.ndesc, 8);
	assert_int_equal(w->dev.got_len, sizeof(sent));
	assert_memory_equal(w->dev.got, sent, sizeof(sent));
	assert_int_equal(written, 300);
	assert_memory_equal(bufs[3].addr, reply, 200);
	assert_memory_equal(bufs[4].addr, reply + 200, 100);
	assert_all_free(&w->vq);
}

/* Requests one after another, with chains of changing lengths: the
 * available and used indexes wrap past VIRTQ_SIZE and past 65535, and
 * each request still gets its own answer. */
static void test_many_requests(void **state)
{
	struct world *w = *state;
	uint8_t reply[300] = { 0 };
	uint32_t written;

	for (unsigned int i = 0; i < 70000; i++) {
		struct virtq_buf bufs[2] = {
			at(w, 0, (i * 37) % PAGE_SIZE, 1 + i % 5000),
			at(w, 4, (i * 101) % PAGE_SIZE, 1 + i % 300),
		};
		struct fake_answer a = { .reply = reply, .reply_len = i % 301 };

		reply[0] = (uint8_t)i;
		assert_int_equal(request(w, bufs, 1, 1, &a, &written), 0);
		assert_int_equal(written, MIN(i % 301, 1 + i % 300));
		if (written)
			assert_int_equal(*(uint8_t *)bufs[1].addr, (uint8_t)i);
		assert_int_equal(w->vq.nfree, VIRTQ_SIZE);
	}
	assert_int_equal(w->vq.avail->idx, (uint16_t)70000);
	assert_int_equal(w->vq.last_used, (uint16_t)70000);
	assert_int_equal(w->dev.answered, 70000);
	assert_all_free(&w->vq);
}

/* A device that takes its time is waited for, yielding. */
static void test_slow_device(void **state)
{
	struct world *w = *state;
	struct virtq_buf bufs[2] = { at(w, 0, 0, 8), at(w, 1, 0, 8) };
	struct fake_answer a = { .delay = 400 };
	uint32_t written;

	assert_int_equal(request(w, bufs, 1, 1, &a, &written), 0);
	assert_int_equal(written, 0);
	assert_int_equal(w->dev.waited, 400);
	assert_all_free(&w->vq);
}

/* ---- Requests refused before the device sees them ---- */

/* 64 descriptors fit, 65 do not; nothing is published then. */
static void test_too_many_descriptors(void **state)
{
	struct world *w = *state;
	struct virtq_buf fits[2] = { at(w, 0, 0, 1), at(w, 1, 0, 63 * PAGE_SIZE) };
	struct virtq_buf over[2] = { at(w, 0, 0, 1), at(w, 1, 0, 63 * PAGE_SIZE + 1) };
	struct virtq_buf unaligned[1] = { at(w, 0, 1, 64 * PAGE_SIZE) };
	struct fake_answer a = { 0 };
	uint32_t written;

	assert_int_equal(request(w, fits, 1, 1, &a, &written), 0);
	assert_int_equal(w->dev.ndesc, VIRTQ_SIZE);
	assert_int_equal(request(w, over, 1, 1, &a, &written), -E2BIG);
	assert_int_equal(request(w, unaligned, 1, 0, &a, &written), -E2BIG);
	assert_int_equal(written, NOT_WRITTEN);
	assert_int_equal(w->dev.notifies, 1);
	assert_all_free(&w->vq);
}

static void test_all_empty(void **state)
{
	struct world *w = *state;
	struct virtq_buf bufs[3] = { at(w, 0, 0, 0), at(w, 1, 5, 0), at(w, 2, 0, 0) };
	struct fake_answer a = { 0 };
	uint32_t written;

	assert_int_equal(request(w, bufs, 1, 2, &a, &written), -EINVAL);
	assert_int_equal(request(w, bufs, 0, 0, &a, &written), -EINVAL);
	assert_int_equal(written, NOT_WRITTEN);
	assert_int_equal(w->dev.notifies, 0);
	assert_all_free(&w->vq);
}

/* A page that is not mapped: the descriptors taken for the pieces
 * before it go back, nothing is published, the queue stays usable. */
static void test_unmapped(void **state)
{
	struct world *w = *state;
	struct virtq_buf bufs[2] = { at(w, 0, 0, 2 * PAGE_SIZE), at(w, 2, 0, 3 * PAGE_SIZE) };
	struct fake_answer a = { 0 };
	uint32_t written;

	w->dev.hole = (uintptr_t)w->arena + 3 * PAGE_SIZE;
	assert_int_equal(request(w, bufs, 1, 1, &a, &written), -EFAULT);
	assert_int_equal(w->dev.notifies, 0);
	assert_all_free(&w->vq);
	w->dev.hole = 0;
	assert_int_equal(request(w, bufs, 1, 1, &a, &written), 0);
	assert_all_free(&w->vq);
}

/* ---- A device that breaks the rules ---- */

/* The queue is broken: a request fails with -EIO, and the device is not
 * even told of it. */
static void assert_broken(struct world *w)
{
	struct virtq_buf bufs[2] = { at(w, 0, 0, 8), at(w, 1, 0, 8) };
	struct fake_answer a = { 0 };
	unsigned int notifies = w->dev.notifies;
	uint32_t written;

	assert_true(w->vq.broken);
	assert_int_equal(request(w, bufs, 1, 1, &a, &written), -EIO);
	assert_int_equal(written, NOT_WRITTEN);
	assert_int_equal(w->dev.notifies, notifies);
}

/* An honest request first, so that the rings are not at their start,
 * then one the device answers as a says, which must fail with err and
 * leave the queue broken. The second request's chain has three
 * descriptors, the last writable one 100 bytes long. */
static void expect_refused(struct world *w, const struct fake_answer *a, int err)
{
	struct virtq_buf bufs[2] = { at(w, 0, 0, 16), at(w, 1, PAGE_SIZE - 50, 150) };
	struct fake_answer honest = { 0 };
	uint32_t written;

	assert_int_equal(request(w, bufs, 1, 1, &honest, &written), 0);
	assert_int_equal(request(w, bufs, 1, 1, a, &written), err);
	assert_int_equal(written, NOT_WRITTEN);
	assert_int_equal(w->dev.ndesc, 3);
	assert_broken(w);
}

static void test_never_answers(void **state)
{
	struct fake_answer a = { .never = true };

	expect_refused(*state, &a, -ETIMEDOUT);
}

/* The used entry's id must be the chain's head: not another descriptor
 * of the chain, nor a free one, nor one past the table. */
static void test_used_id_last(void **state)
{
	struct fake_answer a = { .id_is = FAKE_ID_LAST };

	expect_refused(*state, &a, -EIO);
}

static void test_used_id_free_descriptor(void **state)
{
	struct fake_answer a = { .id_is = FAKE_ID_GIVEN, .id = VIRTQ_SIZE - 1 };

	expect_refused(*state, &a, -EIO);
}

static void test_used_id_past_table(void **state)
{
	struct fake_answer a = { .id_is = FAKE_ID_GIVEN, .id = VIRTQ_SIZE };

	expect_refused(*state, &a, -EIO);
}

static void test_used_id_huge(void **state)
{
	struct fake_answer a = { .id_is = FAKE_ID_GIVEN, .id = 0xffffffffu };

	expect_refused(*state, &a, -EIO);
}

/* The used len may be as large as the writable buffers, not larger. */
static void test_used_len(void **state)
{
	struct world *w = *state;
	struct virtq_buf bufs[2] = { at(w, 0, 0, 16), at(w, 1, 0, 150) };
	struct fake_answer all = { .set_len = true, .len = 150 };
	struct fake_answer more = { .set_len = true, .len = 151 };
	uint32_t written;

	assert_int_equal(request(w, bufs, 1, 1, &all, &written), 0);
	assert_int_equal(written, 150);
	expect_refused(w, &more, -EIO);
}

static void test_used_len_huge(void **state)
{
	struct fake_answer a = { .set_len = true, .len = 0xffffffffu };

	expect_refused(*state, &a, -EIO);
}

/* Writing into a request with no writable buffer at all. */
static void test_used_len_no_writable(void **state)
{
	struct world *w = *state;
	struct virtq_buf bufs[1] = { at(w, 0, 0, 16) };
	struct fake_answer a = { .set_len = true, .len = 1 };
	uint32_t written;

	assert_int_equal(request(w, bufs, 1, 0, &a, &written), -EIO);
	assert_broken(w);
}

/* One request in flight: a used idx two ahead would make the next
 * request take a stale slot of the ring for its answer. */
static void test_used_idx_jumps(void **state)
{
	struct fake_answer a = { .idx_extra = 1 };

	expect_refused(*state, &a, -EIO);
}

static void test_used_idx_backwards(void **state)
{
	struct fake_answer a = { .idx_extra = 0xfffe };	/* 1 + 0xfffe: one back */

	expect_refused(*state, &a, -EIO);
}

/* A device that writes over the descriptor table (it may only read it):
 * the driver's own links still free the chain, and the next chains are
 * built right. */
static void test_descriptor_table_overwritten(void **state)
{
	struct world *w = *state;
	struct fake_answer a = { .scribble = true };
	uint32_t written;

	for (unsigned int i = 0; i < 3 * VIRTQ_SIZE; i++) {
		struct virtq_buf bufs[2] = {
			at(w, 0, (i * 61) % PAGE_SIZE, 1 + (i * 977) % (5 * PAGE_SIZE)),
			at(w, 8, 0, 1 + (i * 331) % (3 * PAGE_SIZE)),
		};

		assert_int_equal(request(w, bufs, 1, 1, &a, &written), 0);
		assert_all_free(&w->vq);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_init),
		T(test_init_refusals),
		T(test_one_request),
		T(test_page_pieces),
		T(test_many_requests),
		T(test_slow_device),
		T(test_too_many_descriptors),
		T(test_all_empty),
		T(test_unmapped),
		T(test_never_answers),
		T(test_used_id_last),
		T(test_used_id_free_descriptor),
		T(test_used_id_past_table),
		T(test_used_id_huge),
		T(test_used_len),
		T(test_used_len_huge),
		T(test_used_len_no_writable),
		T(test_used_idx_jumps),
		T(test_used_idx_backwards),
		T(test_descriptor_table_overwritten),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
