/* ring: a byte ring of variable-length records with one writer and any
 * number of readers, none of them taking a lock.
 *
 * The tracing ring buffer (kernel/trace/ring_buffer.h) keeps one ring
 * per CPU, whose only writer is that CPU with its interrupts off; the
 * readers (`cat trace`, `trace_pipe`) run on any CPU at the same time.
 * The writer never waits and never fails for want of room: when the ring
 * is full it overwrites the oldest records, and counts them (overrun).
 *
 * Positions are byte counts since the ring was made, 64 bits wide so
 * they never wrap; a record at position p sits at byte p % size. The
 * ring holds the records from head (the oldest still whole) to tail (the
 * end of the newest). A record never wraps around the end of the
 * memory: one that would is preceded by a padding record that fills the
 * end, and starts again at byte 0.
 *
 * How a reader never sees a torn record: the writer moves head past the
 * records it is about to overwrite before it writes a word of theirs,
 * and a reader copies a record, then looks at head again: if head has
 * passed the record, the copy may be torn and is thrown away. Every word
 * the two share is written with a release store and read with an
 * acquire load, which orders the two steps on each side, so the race is
 * a defined one (and ThreadSanitizer agrees:
 * tests/host/test_ring_threads.c). */
#ifndef KERNEL_TRACE_RING_H
#define KERNEL_TRACE_RING_H

#include "lib/types.h"

/* The longest record's data, in bytes; a write of more is refused. A
 * page: room for a probe event's 3,072 bytes of fields (Linux's most,
 * kernel/trace/trace_probe.h) with its head and strings. */
#define RING_DATA_MAX 4096

/* A record's type 0 is the padding's: writers use 1 and up. */
#define RING_TYPE_PAD 0

struct ring {
	uint64_t *words;	/* the memory, size bytes */
	uint64_t size;		/* a multiple of 8 */
	uint64_t head;		/* position of the oldest whole record */
	uint64_t tail;		/* position after the newest record */
	uint64_t written;	/* records ever written (padding not counted) */
	uint64_t overrun;	/* records of those overwritten since */
	uint64_t reserved;	/* the writer's: the end of the record it writes */
};

/* One record as a reader copies it out. */
struct ring_entry {
	uint64_t pos;		/* its position */
	uint64_t time;		/* the writer's time stamp */
	uint16_t type;
	uint32_t len;		/* bytes of data */
	uint64_t data[RING_DATA_MAX / 8];
};

/* Make r an empty ring over mem, size bytes (a multiple of 8, at least
 * twice the largest record: 2 * (16 + RING_DATA_MAX)). */
void ring_init(struct ring *r, void *mem, uint64_t size);

/* The writer (only one at a time, ever): append a record of type
 * (1 and up), time stamp time and len bytes of data, overwriting the
 * oldest records if there is no room. 0, or -E2BIG if len is over
 * RING_DATA_MAX. Never blocks, never allocates. */
int ring_write(struct ring *r, uint16_t type, uint64_t time, const void *data, size_t len);

/* ring_write in three steps, for a writer that builds a record in place
 * rather than copying it from elsewhere (Linux's reserve and commit):
 * ring_reserve makes room for a record of len bytes of data and returns
 * its data words (NULL if len is over RING_DATA_MAX); the writer stores
 * each of the ALIGN_UP(len, 8) / 8 words, with ring_put or
 * ring_put_bytes; ring_commit makes the record seen. Nothing else may
 * write to r in between. */
uint64_t *ring_reserve(struct ring *r, uint16_t type, uint64_t time, size_t len);
void ring_commit(struct ring *r);

/* Store one data word of a reserved record: a release store, which
 * readers' acquire loads pair with. */
static inline void ring_put(uint64_t *w, uint64_t v)
{
	__atomic_store_n(w, v, __ATOMIC_RELEASE);
}

/* Store len bytes of data at w, a word at a time, the last one's unused
 * bytes zero. Inline, as ring_put: the writer's path calls nothing a
 * probe could sit in but the marked functions above. */
static inline void ring_put_bytes(uint64_t *w, const void *data, size_t len)
{
	const unsigned char *bytes = data;
	uint64_t word;

	for (; len >= 8; len -= 8, bytes += 8) {
		__builtin_memcpy(&word, bytes, 8);	/* a load, in line */
		ring_put(w++, word);
	}
	if (len) {
		word = 0;
		for (size_t i = 0; i < len; i++)
			word |= (uint64_t)bytes[i] << (8 * i);	/* little-endian, as memcpy */
		ring_put(w, word);
	}
}

/* A reader: copy the first record at or after *pos into e and set *pos
 * past it. 1 if there was one; 0 if the ring holds nothing from *pos on
 * (*pos is then where the next record will be). A reader that fell
 * behind the writer skips to the oldest record still whole; *pos starts
 * at 0 (or any position seen before). -EIO if the bytes at *pos are no
 * record, which only a bug can make. */
int ring_read(const struct ring *r, uint64_t *pos, struct ring_entry *e);

/* Where the ring's records begin and end now (head and tail), for a
 * reader that starts at the oldest, or that skips all there is now. */
uint64_t ring_oldest(const struct ring *r);
uint64_t ring_end(const struct ring *r);

/* The bytes a record of len bytes of data takes in a ring: its header,
 * its time stamp and its data in whole words. */
static inline uint64_t ring_record_bytes(size_t len)
{
	return 16 + ALIGN_UP((uint64_t)len, (uint64_t)8);
}

/* The counts, as the writer left them: records written, and of those
 * overwritten. */
uint64_t ring_written(const struct ring *r);
uint64_t ring_overrun(const struct ring *r);

#endif
