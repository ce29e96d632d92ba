/* kernel/trace/ring.c with its writer and a reader in two threads at once, built
 * with ThreadSanitizer (tests/host/host.mk): the reader checks every
 * record it gets, whole and in order, while the writer laps a small ring
 * again and again; ThreadSanitizer checks that every word the two share
 * is shared through atomics. Exits 0 if all is well. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/rename.h"
#include "kernel/trace/ring.h"

#define RECORDS 200000
#define RING_BYTES 4096

static uint64_t mem[RING_BYTES / 8];
static struct ring ring;
static int writer_done;

/* Record n has n % 61 bytes, byte i being n * 7 + i, and time n. */
static unsigned char byte_of(uint64_t n, size_t i)
{
	return (unsigned char)(n * 7 + i);
}

static void *writer(void *arg)
{
	unsigned char data[64];

	(void)arg;
	for (uint64_t n = 0; n < RECORDS; n++) {
		size_t len = n % 61;

		for (size_t i = 0; i < len; i++)
			data[i] = byte_of(n, i);
		if (ring_write(&ring, 1, n, data, len) != 0)
			abort();
	}
	__atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int fail(const char *what, uint64_t n)
{
	fprintf(stderr, "test_ring_threads: %s (record %llu)\n", what, (unsigned long long)n);
	return 1;
}

/* Read until the writer is done and the ring is drained. */
static int read_all(uint64_t *seen, uint64_t *last)
{
	struct ring_entry e;
	uint64_t pos = 0;
	int64_t prev = -1;

	for (;;) {
		int done = __atomic_load_n(&writer_done, __ATOMIC_ACQUIRE);
		int got = ring_read(&ring, &pos, &e);

		if (got < 0)
			return fail("ring_read failed", (uint64_t)(prev + 1));
		if (got == 0) {
			if (done)
				break;
			continue;
		}
		if ((int64_t)e.time <= prev)
			return fail("out of order", e.time);
		if (e.type != 1 || e.len != e.time % 61)
			return fail("wrong header", e.time);
		for (size_t i = 0; i < e.len; i++)
			if (((unsigned char *)e.data)[i] != byte_of(e.time, i))
				return fail("torn data", e.time);
		prev = (int64_t)e.time;
		(*seen)++;
	}
	*last = (uint64_t)prev;
	return 0;
}

int main(void)
{
	uint64_t seen = 0, last = 0;
	pthread_t t;
	int bad;

	ring_init(&ring, mem, sizeof(mem));
	if (pthread_create(&t, NULL, writer, NULL) != 0)
		return fail("no thread", 0);
	bad = read_all(&seen, &last);
	pthread_join(t, NULL);
	if (bad)
		return 1;
	if (last != RECORDS - 1)
		return fail("the newest record was not read", last);
	if (ring_written(&ring) != RECORDS)
		return fail("written miscounted", ring_written(&ring));
	printf("test_ring_threads: %llu of %d records read whole and in order, %llu overwritten\n",
	       (unsigned long long)seen, RECORDS, (unsigned long long)ring_overrun(&ring));
	return 0;
}
