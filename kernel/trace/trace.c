/* The tracing instance (see trace.h): the buffer, the writing of a
 * record with its common fields, and the table of kinds. */
#include "kernel/trace/trace.h"
#include "kernel/trace/trace_comm.h"
#include "kernel/mm/heap.h"
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

/* The common fields of a record made now, as the word they fill; and
 * the thread's name kept. */
static inline uint64_t entry_word(unsigned long irq_flags)
{
	const struct thread *self = current_thread();
	struct trace_entry e = {
		.pid = self->id,
		.flags = (arch_irqs_disabled_flags(irq_flags) ? TRACE_FLAG_IRQS_OFF : 0) |
			 (this_cpu_field(irq_depth) ? TRACE_FLAG_HARDIRQ : 0),
		.preempt_count = (uint8_t)MIN(self->preempt_count, 15u),
	};
	uint64_t word;

	trace_comm_save(self->id, self->name);
	__builtin_memcpy(&word, &e, sizeof(word));
	return word;
}

_Static_assert(sizeof(struct trace_entry) == sizeof(uint64_t), "a record's common fields are a word");

/* The record is made in the ring (ring_buffer_reserve), not copied into
 * it: a traced call's cost is mostly its record's. */
bool notrace trace_begin(struct trace_record *rec, enum trace_type type, size_t len)
{
	unsigned long flags;
	uint64_t *w = NULL;

	if (len > TRACE_BODY_MAX)
		return false;
	flags = arch_irq_save();
	if (paused[this_cpu_field(id)]) {
		uint64_t *n = &dropped[this_cpu_field(id)];

		__atomic_store_n(n, *n + 1, __ATOMIC_RELAXED);	/* this CPU alone writes it */
		arch_irq_restore(flags);
		return false;
	}
	rec->rb = __atomic_load_n(&buffer, __ATOMIC_ACQUIRE);
	if (rec->rb)
		w = ring_buffer_reserve(rec->rb, type, sizeof(struct trace_entry) + len);
	if (!w) {
		arch_irq_restore(flags);
		return false;
	}
	ring_put(w, entry_word(flags));
	rec->body = w + 1;
	rec->irq_flags = flags;
	return true;
}
NOKPROBE_SYMBOL(trace_begin);

void notrace trace_end(struct trace_record *rec)
{
	ring_buffer_commit(rec->rb);
	arch_irq_restore(rec->irq_flags);
}
NOKPROBE_SYMBOL(trace_end);

int notrace trace_write(enum trace_type type, const void *body, size_t len)
{
	struct trace_record rec;

	if (len > TRACE_BODY_MAX)
		return -E2BIG;
	if (!trace_begin(&rec, type, len))
		return -EAGAIN;
	ring_put_bytes(rec.body, body, len);
	trace_end(&rec);
	return 0;
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

void trace_clear_cpu_locked(unsigned int cpu)
{
	ring_buffer_clear_cpu(buffer, cpu);
	dropped_before[cpu] = __atomic_load_n(&dropped[cpu], __ATOMIC_RELAXED);
}

void trace_clear_locked(void)
{
	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		trace_clear_cpu_locked(cpu);
}

/* The kinds made at run time, in the order of their types (under
 * lock); the types given since the buffer was last cleared of their
 * records (every one in use among them), which are not given again
 * until it is; and where the search for a free one starts. */
static struct trace_kind **dyn_kinds;
static size_t dyn_count, dyn_room;
static uint64_t given[(UINT16_MAX + 1) / 64];
static unsigned int next_type = TRACE_TYPE_DYNAMIC;

static bool type_given(unsigned int type)
{
	return given[type / 64] >> (type % 64) & 1;
}

static void give_type(unsigned int type, bool on)
{
	if (on)
		given[type / 64] |= 1ULL << (type % 64);
	else
		given[type / 64] &= ~(1ULL << (type % 64));
}

/* Where type is, or would go, in dyn_kinds. */
static size_t dyn_index(unsigned int type)
{
	size_t lo = 0, hi = dyn_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((unsigned int)dyn_kinds[mid]->type < type)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct trace_kind *trace_kind_of(enum trace_type type)
{
	size_t i;

	for (const struct trace_kind *k = __start_trace_kinds; k < __stop_trace_kinds; k++)
		if (k->type == type)
			return k;
	i = dyn_index(type);
	return i < dyn_count && dyn_kinds[i]->type == type ? dyn_kinds[i] : NULL;
}

/* The first type from next_type on that was not given since the last
 * clear, or 0 if none is left. */
static unsigned int free_type(void)
{
	for (unsigned int t = next_type; t <= UINT16_MAX; t++)
		if (!type_given(t))
			return t;
	return 0;
}

/* Every type has been given: clear the buffer of the records of the
 * kinds gone, so that their types can be given again. */
static void reclaim_types_locked(void)
{
	trace_clear_locked();
	memset(given, 0, sizeof(given));
	for (size_t i = 0; i < dyn_count; i++)
		give_type(dyn_kinds[i]->type, true);
	next_type = TRACE_TYPE_DYNAMIC;
}

int trace_kind_add_locked(struct trace_kind *kind)
{
	unsigned int type = free_type();
	size_t at;

	if (!type) {
		reclaim_types_locked();
		type = free_type();
		if (!type)
			return -ENOSPC;
	}
	if (dyn_count == dyn_room) {
		size_t room = dyn_room ? 2 * dyn_room : 64;
		struct trace_kind **grown = kmalloc(room * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		memcpy(grown, dyn_kinds, dyn_count * sizeof(*grown));
		kfree(dyn_kinds);
		dyn_kinds = grown;
		dyn_room = room;
	}
	at = dyn_index(type);
	memmove(&dyn_kinds[at + 1], &dyn_kinds[at], (dyn_count - at) * sizeof(*dyn_kinds));
	kind->type = (enum trace_type)type;
	dyn_kinds[at] = kind;
	dyn_count++;
	give_type(type, true);
	next_type = type + 1;
	return 0;
}

void trace_kind_remove_locked(struct trace_kind *kind)
{
	size_t at = dyn_index(kind->type);

	if (at < dyn_count && dyn_kinds[at] == kind) {
		memmove(&dyn_kinds[at], &dyn_kinds[at + 1], (dyn_count - at - 1) * sizeof(*dyn_kinds));
		dyn_count--;
	}
	if (dyn_count == 0) {	/* none left: nothing kept for them */
		kfree(dyn_kinds);
		dyn_kinds = NULL;
		dyn_room = 0;
	}
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

void notrace trace_set_on_anywhere(bool on)
{
	unsigned long flags = arch_irq_save();	/* a resize frees the old buffer a grace period on */
	struct ring_buffer *rb = __atomic_load_n(&buffer, __ATOMIC_ACQUIRE);

	if (rb)
		ring_buffer_set_on(rb, on);
	arch_irq_restore(flags);
}
NOKPROBE_SYMBOL(trace_set_on_anywhere);

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
