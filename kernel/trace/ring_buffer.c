/* The tracing ring buffer (see ring_buffer.h). The writer's half runs
 * on every traced event and is never probed; the readers' half runs in
 * the thread of whoever reads. */
#include "kernel/trace/ring_buffer.h"
#include "kernel/arch.h"
#include "kernel/mm/heap.h"
#include "kernel/nokprobe.h"
#include "lib/errno.h"
#include <asm/irq.h>

struct ring_buffer *ring_buffer_create(size_t bytes_per_cpu)
{
	struct ring_buffer *rb = kzalloc(sizeof(*rb));
	size_t bytes = ALIGN_UP(MAX(bytes_per_cpu, (size_t)RING_BYTES_MIN), (size_t)8);

	if (!rb)
		return NULL;
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		void *mem = kmalloc(bytes);

		if (!mem) {
			ring_buffer_destroy(rb);
			return NULL;
		}
		ring_init(&rb->cpu[cpu], mem, bytes);
	}
	return rb;
}

void ring_buffer_destroy(struct ring_buffer *rb)
{
	if (!rb)
		return;
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		kfree(rb->cpu[cpu].words);	/* NULL for those never made */
	kfree(rb);
}

/* With interrupts off this CPU is its ring's one writer: no other write
 * can start on it between a reserve and its commit. */
uint64_t *notrace ring_buffer_reserve(struct ring_buffer *rb, uint16_t type, size_t len)
{
	if (__atomic_load_n(&rb->off, __ATOMIC_RELAXED))
		return NULL;
	return ring_reserve(&rb->cpu[this_cpu_field(id)], type, arch_cycles(), len);
}
NOKPROBE_SYMBOL(ring_buffer_reserve);

int notrace ring_buffer_write(struct ring_buffer *rb, uint16_t type, const void *data, size_t len)
{
	unsigned long flags;
	uint64_t *w;

	if (len > RING_DATA_MAX)
		return -E2BIG;
	flags = arch_irq_save();
	w = ring_buffer_reserve(rb, type, len);
	if (w) {
		ring_put_bytes(w, data, len);
		ring_buffer_commit(rb);
	}
	arch_irq_restore(flags);
	return w ? 0 : -EAGAIN;
}
NOKPROBE_SYMBOL(ring_buffer_write);

void ring_buffer_set_on(struct ring_buffer *rb, bool on)
{
	__atomic_store_n(&rb->off, !on, __ATOMIC_RELAXED);
}

bool ring_buffer_is_on(const struct ring_buffer *rb)
{
	return !__atomic_load_n(&rb->off, __ATOMIC_RELAXED);
}

void ring_buffer_clear_cpu(struct ring_buffer *rb, unsigned int cpu)
{
	uint64_t written = ring_written(&rb->cpu[cpu]);

	/* The count first: a record written in between is counted and
	 * shown, rather than shown and not counted. Every record written so
	 * far is overwritten already or will be before any later one (the
	 * oldest go first): none of those overwrites loses a record a
	 * reader could still see. */
	__atomic_store_n(&rb->written_before[cpu], written, __ATOMIC_RELAXED);
	__atomic_store_n(&rb->overrun_hidden[cpu], written, __ATOMIC_RELAXED);
	__atomic_store_n(&rb->start[cpu], ring_end(&rb->cpu[cpu]), __ATOMIC_RELAXED);
	__atomic_store_n(&rb->read[cpu], 0, __ATOMIC_RELAXED);
}

void ring_buffer_clear(struct ring_buffer *rb)
{
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		ring_buffer_clear_cpu(rb, cpu);
}

void ring_buffer_cursor_rewind(const struct ring_buffer *rb, struct ring_buffer_cursor *c)
{
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++) {
		c->pos[cpu] = __atomic_load_n(&rb->start[cpu], __ATOMIC_RELAXED);
		c->have[cpu] = false;
	}
}

void ring_buffer_cursor_start(const struct ring_buffer *rb, struct ring_buffer_cursor *c)
{
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		c->end[cpu] = UINT64_MAX;
	ring_buffer_cursor_rewind(rb, c);
}

void ring_buffer_cursor_only(struct ring_buffer_cursor *c, unsigned int cpu)
{
	for (unsigned int i = 0; i < MAX_CPUS; i++)
		if (i != cpu)
			c->end[i] = 0;	/* no record is before position 0 */
}

void ring_buffer_cursor_bound(const struct ring_buffer *rb, struct ring_buffer_cursor *c)
{
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		c->end[cpu] = MIN(c->end[cpu], ring_end(&rb->cpu[cpu]));
}

/* Make sure c holds cpu's next record if it has one; whether it does. A
 * record from before a clear made since c started is skipped too. */
static bool peek(const struct ring_buffer *rb, struct ring_buffer_cursor *c, unsigned int cpu)
{
	uint64_t start = __atomic_load_n(&rb->start[cpu], __ATOMIC_RELAXED);

	if (c->have[cpu] && c->next[cpu].pos >= start)
		return true;
	if (c->pos[cpu] < start)
		c->pos[cpu] = start;
	c->have[cpu] = ring_read(&rb->cpu[cpu], &c->pos[cpu], &c->next[cpu]) > 0 &&
		       c->next[cpu].pos < c->end[cpu];
	return c->have[cpu];
}

const struct ring_entry *ring_buffer_next(const struct ring_buffer *rb,
					  struct ring_buffer_cursor *c, unsigned int *cpu)
{
	int oldest = -1;

	for (unsigned int i = 0; i < MAX_CPUS; i++) {
		if (peek(rb, c, i) && (oldest < 0 || c->next[i].time < c->next[oldest].time))
			oldest = (int)i;
	}
	if (oldest < 0)
		return NULL;
	*cpu = (unsigned int)oldest;
	c->have[oldest] = false;
	return &c->next[oldest];
}

void ring_buffer_consume(struct ring_buffer *rb, const struct ring_buffer_cursor *c,
			 unsigned int cpu)
{
	/* Its overwrite, one day, loses nothing. */
	__atomic_store_n(&rb->overrun_hidden[cpu], rb->overrun_hidden[cpu] + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&rb->start[cpu], c->pos[cpu], __ATOMIC_RELAXED);
	__atomic_store_n(&rb->read[cpu], rb->read[cpu] + 1, __ATOMIC_RELAXED);
}

uint64_t ring_buffer_read_count(const struct ring_buffer *rb, unsigned int cpu)
{
	return __atomic_load_n(&rb->read[cpu], __ATOMIC_RELAXED);
}

uint64_t ring_buffer_written(const struct ring_buffer *rb, unsigned int cpu)
{
	return ring_written(&rb->cpu[cpu]) -
	       __atomic_load_n(&rb->written_before[cpu], __ATOMIC_RELAXED);
}

uint64_t ring_buffer_overrun(const struct ring_buffer *rb, unsigned int cpu)
{
	uint64_t overrun = ring_overrun(&rb->cpu[cpu]);
	uint64_t hidden = __atomic_load_n(&rb->overrun_hidden[cpu], __ATOMIC_RELAXED);

	/* Below hidden while cleared records are still being overwritten. */
	return overrun > hidden ? overrun - hidden : 0;
}
