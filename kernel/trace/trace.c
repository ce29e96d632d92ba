/* The tracing instance (see trace.h): the buffer, the writing of a
 * record with its common fields, and the table of kinds. */
#include "kernel/trace/trace.h"
#include "kernel/mutex.h"
#include "kernel/nokprobe.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/initcall.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/irq.h>

/* Each CPU's ring at boot, as buffer_size_kb shows it: 64 KiB, about
 * 1,400 records of a function call (Linux starts at 1,408 KiB). */
#define TRACE_BYTES_DEFAULT (64 * 1024)

/* Writers read it with interrupts off, an RCU read-side section: a
 * resize frees the old buffer only after a grace period. */
static struct ring_buffer *buffer;
static size_t buffer_bytes;
static struct mutex lock = MUTEX_INIT(lock, "trace");

/* Per CPU, each written only on its CPU (interrupts off): whether its
 * records are dropped, and how many were; and the count at the last
 * clear. */
static bool paused[MAX_CPUS];
static uint64_t dropped[MAX_CPUS], dropped_before[MAX_CPUS];

extern const struct trace_kind __start_trace_kinds[], __stop_trace_kinds[];

/* The common fields of a record made now. */
static void notrace fill_entry(struct trace_entry *e, unsigned long irq_flags)
{
	const struct thread *self = current_thread();

	e->pid = self->id;
	e->flags = (arch_irqs_disabled_flags(irq_flags) ? TRACE_FLAG_IRQS_OFF : 0) |
		   (this_cpu_field(irq_depth) ? TRACE_FLAG_HARDIRQ : 0);
	e->preempt_count = (uint8_t)MIN(self->preempt_count, 15u);
	e->unused = 0;
	memcpy(e->comm, self->name, sizeof(e->comm));
}
NOKPROBE_SYMBOL(fill_entry);

int notrace trace_write(enum trace_type type, const void *body, size_t len)
{
	struct {
		struct trace_entry entry;
		unsigned char body[TRACE_BODY_MAX];
	} record;
	struct ring_buffer *rb;
	unsigned long flags;
	int err = -EAGAIN;

	if (len > TRACE_BODY_MAX)
		return -E2BIG;
	flags = arch_irq_save();
	if (paused[this_cpu_field(id)]) {
		uint64_t *n = &dropped[this_cpu_field(id)];

		__atomic_store_n(n, *n + 1, __ATOMIC_RELAXED);	/* this CPU alone writes it */
		arch_irq_restore(flags);
		return -EAGAIN;
	}
	fill_entry(&record.entry, flags);
	memcpy(record.body, body, len);
	rb = __atomic_load_n(&buffer, __ATOMIC_ACQUIRE);
	if (rb)
		err = ring_buffer_write(rb, type, &record, sizeof(record.entry) + len);
	arch_irq_restore(flags);
	return err;
}
NOKPROBE_SYMBOL(trace_write);

uint64_t trace_written_this_cpu(void)
{
	struct ring_buffer *rb = __atomic_load_n(&buffer, __ATOMIC_ACQUIRE);

	return rb ? ring_buffer_written(rb, this_cpu_field(id)) : 0;
}

void trace_pause_this_cpu(bool pause)
{
	/* A probe handler that traps between two of the caller's
	 * instructions reads this on this CPU: the signal fences keep the
	 * compiler from moving the caller's copying across the store. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&paused[this_cpu_field(id)], pause, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}
NOKPROBE_SYMBOL(trace_pause_this_cpu);

uint64_t trace_dropped(unsigned int cpu)
{
	return __atomic_load_n(&dropped[cpu], __ATOMIC_RELAXED) - dropped_before[cpu];
}

void trace_clear_locked(void)
{
	ring_buffer_clear(buffer);
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		dropped_before[cpu] = __atomic_load_n(&dropped[cpu], __ATOMIC_RELAXED);
}

const struct trace_kind *trace_kind_of(enum trace_type type)
{
	for (const struct trace_kind *k = __start_trace_kinds; k < __stop_trace_kinds; k++)
		if (k->type == type)
			return k;
	return NULL;
}

void trace_lock(void)
{
	mutex_lock(&lock);
}

void trace_unlock(void)
{
	mutex_unlock(&lock);
}

struct ring_buffer *trace_buffer_locked(void)
{
	return buffer;
}

size_t trace_buffer_bytes(void)
{
	return buffer_bytes;
}

int trace_resize_locked(size_t bytes)
{
	struct ring_buffer *fresh = ring_buffer_create(bytes), *old = buffer;

	if (!fresh)
		return -ENOMEM;
	ring_buffer_set_on(fresh, ring_buffer_is_on(old));
	__atomic_store_n(&buffer, fresh, __ATOMIC_RELEASE);
	buffer_bytes = bytes;
	synchronize_rcu();	/* no write is still in the old one */
	ring_buffer_destroy(old);
	return 0;
}

bool trace_is_on_locked(void)
{
	return ring_buffer_is_on(buffer);
}

void trace_set_on_locked(bool on)
{
	ring_buffer_set_on(buffer, on);
}

static int trace_init(void)
{
	buffer_bytes = TRACE_BYTES_DEFAULT;
	buffer = ring_buffer_create(buffer_bytes);
	return buffer ? 0 : -ENOMEM;
}
late_initcall(trace_init);
