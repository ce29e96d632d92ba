/* ring: records in a byte ring, one writer, lockless readers (see
 * ring.h).
 *
 * A record is whole 64-bit words: a header word (its size in bytes,
 * header included, in bits 0-31; its type in bits 32-47; its data's
 * length in bits 48-63), a time stamp word unless it is a padding
 * record, then the data, rounded up to a word. A padding record may be a
 * single word: it only says how far to skip.
 *
 * Nothing but lib/'s headers and the never-probe mark is used, so that
 * the host tests build this file as it is. The writer's functions call
 * none but their own inlines, so that their marks keep all of a write
 * out of probes' reach. */
#include "kernel/trace/ring.h"
#include "kernel/nokprobe.h"
#include "lib/errno.h"

#define WORD 8u
#define HEADER_BYTES (2 * WORD)

static inline uint64_t header_word(uint32_t size, uint16_t type, uint16_t len)
{
	return size | (uint64_t)type << 32 | (uint64_t)len << 48;
}

static inline uint32_t header_size(uint64_t h)
{
	return (uint32_t)h;
}

static inline uint16_t header_type(uint64_t h)
{
	return (uint16_t)(h >> 32);
}

static inline uint16_t header_len(uint64_t h)
{
	return (uint16_t)(h >> 48);
}

/* The word at position pos. */
static inline uint64_t *word_at(const struct ring *r, uint64_t pos)
{
	return &r->words[pos % r->size / WORD];
}

/* A record's words are written one at a time with release stores
 * (ring_put, ring.h), and read with acquire loads: a reader that reads a word the writer wrote
 * then sees everything the writer did before - the new head above all.
 * (A release store is a plain store on x86_64 and an stlr on aarch64;
 * fences would do as well but ThreadSanitizer cannot follow them.) A
 * torn record is found by the head test, never a torn word. */
static inline uint64_t get(const uint64_t *w)
{
	return __atomic_load_n(w, __ATOMIC_ACQUIRE);
}

void ring_init(struct ring *r, void *mem, uint64_t size)
{
	r->words = mem;
	r->size = size;
	r->head = r->tail = 0;
	r->written = r->overrun = 0;
}

/* Move head past every record that a write up to end would overwrite,
 * counting them, before any of their words is overwritten: a reader
 * that reads one of the new words sees the new head too (ring_put's
 * release). */
static inline void make_room(struct ring *r, uint64_t end)
{
	uint64_t head = r->head, overrun = r->overrun;

	if (end - head <= r->size)
		return;
	while (end - head > r->size) {
		uint64_t h = get(word_at(r, head));

		if (header_type(h) != RING_TYPE_PAD)
			overrun++;
		head += header_size(h);
	}
	ring_put(&r->head, head);
	ring_put(&r->overrun, overrun);
}

/* Never probed, as ring_commit: a probe inside a write would run its
 * handler's own writes to this ring in the middle of this one. A record
 * never wraps, so its words are consecutive in the memory: one division
 * finds them all. */
uint64_t *notrace ring_reserve(struct ring *r, uint16_t type, uint64_t time, size_t len)
{
	uint32_t size = (uint32_t)ring_record_bytes(len);
	uint64_t pos = r->tail, at = pos % r->size, pad = r->size - at;
	uint64_t *w;

	if (len > RING_DATA_MAX)
		return NULL;
	if (pad >= size)
		pad = 0;	/* it fits before the end */
	make_room(r, pos + pad + size);
	if (pad) {
		ring_put(&r->words[at / WORD], header_word((uint32_t)pad, RING_TYPE_PAD, 0));
		pos += pad;
		at = 0;
	}
	w = &r->words[at / WORD];
	ring_put(&w[0], header_word(size, type, (uint16_t)len));
	ring_put(&w[1], time);
	r->reserved = pos + size;
	return &w[2];
}
NOKPROBE_SYMBOL(ring_reserve);

void notrace ring_commit(struct ring *r)
{
	ring_put(&r->written, r->written + 1);
	/* The record is whole before a reader can see the new tail. */
	__atomic_store_n(&r->tail, r->reserved, __ATOMIC_RELEASE);
}
NOKPROBE_SYMBOL(ring_commit);

int notrace ring_write(struct ring *r, uint16_t type, uint64_t time, const void *data, size_t len)
{
	uint64_t *w = ring_reserve(r, type, time, len);

	if (!w)
		return -E2BIG;
	ring_put_bytes(w, data, len);
	ring_commit(r);
	return 0;
}
NOKPROBE_SYMBOL(ring_write);

/* Whether h can be the header of a record at pos: its size whole words,
 * within the memory's end, and no longer than the longest record. (A
 * header read from bytes being overwritten may be anything; it is only
 * trusted once the head test passes.) */
static bool header_sane(const struct ring *r, uint64_t h, uint64_t pos)
{
	uint32_t size = header_size(h);

	return size >= WORD && size % WORD == 0 && size <= HEADER_BYTES + RING_DATA_MAX &&
	       pos % r->size + size <= r->size &&
	       (header_type(h) == RING_TYPE_PAD ||
		(size >= HEADER_BYTES && header_len(h) <= size - HEADER_BYTES));
}

int ring_read(const struct ring *r, uint64_t *pos, struct ring_entry *e)
{
	for (;;) {
		uint64_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
		uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
		uint64_t p = *pos < head ? head : *pos;
		uint64_t h;
		bool sane;

		if (p >= tail) {
			*pos = p;
			return 0;
		}
		h = get(word_at(r, p));
		sane = header_sane(r, h, p);
		if (sane && header_type(h) != RING_TYPE_PAD) {
			e->time = get(word_at(r, p + WORD));
			for (uint32_t i = 0; i < header_len(h); i += WORD)
				e->data[i / WORD] = get(word_at(r, p + HEADER_BYTES + i));
		}
		/* Did the writer overwrite any of it meanwhile? Had it, one of
		 * the words read was a new one, whose acquire makes the new
		 * head seen here. */
		if (get(&r->head) > p) {
			*pos = get(&r->head);
			continue;
		}
		/* Untouched since tail covered it: the header is the writer's. */
		if (!sane)
			return -EIO;
		*pos = p + header_size(h);
		if (header_type(h) == RING_TYPE_PAD)
			continue;
		e->pos = p;
		e->type = header_type(h);
		e->len = header_len(h);
		return 1;
	}
}

uint64_t ring_oldest(const struct ring *r)
{
	return __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
}

uint64_t ring_end(const struct ring *r)
{
	return __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
}

uint64_t ring_written(const struct ring *r)
{
	return get(&r->written);
}

uint64_t ring_overrun(const struct ring *r)
{
	return get(&r->overrun);
}
