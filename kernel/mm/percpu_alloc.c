/*
 * The per-CPU allocator (percpu_alloc.h).
 *
 * The CPUs' copies of the .percpu section lie PERCPU_UNIT_SIZE apart
 * (kernel/cpu.c), and a per-CPU pointer p reaches CPU n's copy at
 * p + percpu_offset_of(n). So memory laid out the same way - a chunk of
 * MAX_CPUS units of PERCPU_UNIT_SIZE bytes, one per CPU, side by side -
 * is reached with the very same offsets: a piece at byte o of every unit
 * is given out as the pointer (chunk - percpu_offset_of(0) + o), which
 * this_cpu_ptr turns into this CPU's unit + o. A hit then finds its
 * CPU's copy with the offset it may already hold, and no two CPUs' copies
 * share a cache line (the units start on a line and are whole lines long).
 *
 * Within a chunk the units are cut alike into 16-byte granules, and one
 * bitmap per chunk says which are taken: an allocation is the first run
 * of free granules long enough, in the first chunk that has one; a chunk
 * is added when none has, and freed when its last piece is (but one
 * kept spare while others are in use: release_empty_chunks). Allocation
 * and freeing happen when probes are registered and unregistered, under
 * a sleeping lock. The search must not grow with the number of probes
 * (registering one probe among 10,000 costs little more than among none,
 * docs/probes.md): full chunks are kept at the end of the list, where
 * the search stops, and whole taken words of a bitmap are skipped.
 */
#include "kernel/mm/percpu_alloc.h"
#include "kernel/cpu.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/percpu.h"
#include "lib/list.h"
#include "lib/string.h"

#define GRANULE 16
#define GRANULES (PERCPU_UNIT_SIZE / GRANULE)
#define MAP_BITS 64
#define CACHE_LINE 64

struct percpu_chunk {
	struct list_node node;		/* in chunks */
	uintptr_t base;			/* the per-CPU pointer of the unit's byte 0 */
	void *mem;			/* from kmalloc */
	char *units;			/* in it, on a cache line: MAX_CPUS
					   units, one after another */
	uint64_t taken[GRANULES / MAP_BITS];	/* granules given out */
	unsigned int nfree;		/* granules not given out */
	unsigned int sizes[GRANULES];	/* at a piece's first granule: its length */
};

static struct mutex percpu_alloc_lock = MUTEX_INIT(percpu_alloc_lock, "percpu_alloc");
static LIST_HEAD(chunks);

static bool granule_taken(const struct percpu_chunk *c, unsigned int g)
{
	return c->taken[g / MAP_BITS] & (1ULL << (g % MAP_BITS));
}

/* Mark n granules from first taken or free, and keep c's place in the
 * list: a chunk that fills up goes to the end, one that had been full
 * and gets a free granule back goes to the front. */
static void mark(struct percpu_chunk *c, unsigned int first, unsigned int n, bool taken)
{
	bool was_full = c->nfree == 0;

	for (unsigned int g = first; g < first + n; g++) {
		if (taken)
			c->taken[g / MAP_BITS] |= 1ULL << (g % MAP_BITS);
		else
			c->taken[g / MAP_BITS] &= ~(1ULL << (g % MAP_BITS));
	}
	c->nfree = taken ? c->nfree - n : c->nfree + n;
	if (c->nfree == 0) {
		list_del(&c->node);
		list_add_tail(&c->node, &chunks);
	} else if (was_full) {
		list_del(&c->node);
		list_add(&c->node, &chunks);
	}
}

/* The first granule of a free run of n in c, or -1. */
static int find_run(const struct percpu_chunk *c, unsigned int n)
{
	unsigned int run = 0;

	for (unsigned int g = 0; g < GRANULES; g++) {
		if (g % MAP_BITS == 0 && c->taken[g / MAP_BITS] == ~0ULL) {
			run = 0;		/* a whole word taken */
			g += MAP_BITS - 1;
			continue;
		}
		run = granule_taken(c, g) ? 0 : run + 1;
		if (run == n)
			return (int)(g + 1 - n);
	}
	return -1;
}

static struct percpu_chunk *chunk_create(void)
{
	struct percpu_chunk *c = kzalloc(sizeof(*c));

	if (!c)
		return NULL;
	c->mem = kmalloc((size_t)MAX_CPUS * PERCPU_UNIT_SIZE + CACHE_LINE);
	if (!c->mem) {
		kfree(c);
		return NULL;
	}
	c->units = (char *)ALIGN_UP((uintptr_t)c->mem, CACHE_LINE);
	c->base = (uintptr_t)c->units - percpu_offset_of(0);
	c->nfree = GRANULES;
	list_add(&c->node, &chunks);
	return c;
}

/* Every CPU's copy of the piece at granule first, n granules long, zeroed:
 * a freed piece may be given out again. */
static void zero_piece(struct percpu_chunk *c, unsigned int first, unsigned int n)
{
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		memset(c->units + (size_t)cpu * PERCPU_UNIT_SIZE + first * GRANULE, 0,
		       n * GRANULE);
}

void *alloc_percpu_bytes(size_t size)
{
	unsigned int n = (unsigned int)(ALIGN_UP(size, GRANULE) / GRANULE);
	struct percpu_chunk *c, *found = NULL;
	int first = -1;

	if (size == 0 || size > PERCPU_UNIT_SIZE)
		return NULL;
	mutex_lock(&percpu_alloc_lock);
	list_for_each_entry(c, &chunks, node) {
		if (c->nfree == 0)
			break;		/* the full chunks, at the end */
		if (c->nfree < n)
			continue;
		first = find_run(c, n);
		if (first >= 0) {
			found = c;
			break;
		}
	}
	if (!found && (found = chunk_create()) != NULL)
		first = 0;
	if (found) {
		mark(found, (unsigned int)first, n, true);
		found->sizes[first] = n;
		zero_piece(found, (unsigned int)first, n);
	}
	mutex_unlock(&percpu_alloc_lock);
	return found ? (void *)(found->base + (uintptr_t)first * GRANULE) : NULL;
}

static void chunk_destroy(struct percpu_chunk *c)
{
	list_del(&c->node);
	kfree(c->mem);
	kfree(c);
}

/* Give back the empty chunks, but one while another chunk is in use
 * (keep_spare): a piece allocated and freed again and again at the edge
 * of a full chunk (a probe registered and unregistered among thousands)
 * would otherwise take a chunk from the heap and give it back each
 * time. Once nothing is in use, every chunk goes, and the heap is as
 * before the first allocation. */
static void release_empty_chunks(bool keep_spare)
{
	struct percpu_chunk *c, *next;
	bool in_use = false, spare_kept = !keep_spare;

	list_for_each_entry(c, &chunks, node)
		in_use |= c->nfree < GRANULES;
	list_for_each_entry_safe(c, next, &chunks, node) {
		if (c->nfree < GRANULES)
			continue;
		if (in_use && !spare_kept)
			spare_kept = true;
		else
			chunk_destroy(c);
	}
}

void free_percpu(void *ptr)
{
	struct percpu_chunk *c;

	if (!ptr)
		return;
	mutex_lock(&percpu_alloc_lock);
	list_for_each_entry(c, &chunks, node) {
		uintptr_t off = (uintptr_t)ptr - c->base;

		if (off < PERCPU_UNIT_SIZE) {
			unsigned int first = (unsigned int)(off / GRANULE);

			mark(c, first, c->sizes[first], false);
			c->sizes[first] = 0;
			if (c->nfree == GRANULES)
				release_empty_chunks(true);
			break;
		}
	}
	mutex_unlock(&percpu_alloc_lock);
}

void percpu_release_spare(void)
{
	mutex_lock(&percpu_alloc_lock);
	release_empty_chunks(false);
	mutex_unlock(&percpu_alloc_lock);
}
