/*
 * The trace rings, and reading them (see trace.h). The `trace` shell
 * command that prints them is kernel/probes/cmd/trace_cmd.c.
 *
 * Writing. Each CPU records into a ring of its own, with interrupts off
 * so that nothing else on that CPU records in between. No other CPU ever
 * writes the ring, so there is no lock, and a probe hit never waits: not
 * even when `trace` itself is what the probe sits in.
 *
 * Reading. `trace` runs on any CPU while the writers go on, so it may
 * meet a record that is being overwritten. Each slot is a seqlock of one
 * record: the writer marks the slot busy (sequence number 0), fills it,
 * then publishes the record's number n as n + 1; the reader reads the
 * number, copies the record, and reads the number again. Only a copy
 * with n + 1 both times is kept; any other is counted as lost.
 *
 * Why `trace` copies everything before it prints anything. Printing goes
 * through vformat, memcpy, strlen..., and a probe there records a hit for
 * every call. Printed straight from the ring, each record printed wrote
 * dozens of new ones over the records not yet printed, so with probes on
 * those functions `trace` showed a handful of records and counted the
 * rest lost. So `trace` first takes a snapshot: every CPU's records up to
 * the moment it started, copied into a buffer of its own. Then it prints
 * from the buffer while recording goes on (what printing records is
 * there for the next `trace`). Allocating the buffer runs the heap's
 * code, and a probe may sit there or in the copy loop itself, so while
 * it plans, allocates and copies, recording is paused on the reading CPU:
 * those few hits are counted as lost, and the next `trace` reports them.
 * Pausing longer (all of printing) or more widely (every CPU) would lose
 * every hit meanwhile; the other CPUs need no pause, as the sequence
 * numbers catch what they overwrite.
 */
#include "kernel/probes/trace.h"
#include "kernel/arch.h"
#include "kernel/cmd_output.h"
#include "kernel/cpu.h"
#include "kernel/mm/heap.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/symtab.h"
#include "kernel/time.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"
#include <asm/irq.h>

/* Records are copied a word at a time with atomic loads and stores, so
 * that a copy racing with an overwrite is well defined (and then thrown
 * away). may_alias: the words are accessed as uint64_t, whereas the
 * record's fields are ints and chars, which the compiler could otherwise
 * assume a uint64_t access never touches. */
typedef uint64_t __attribute__((may_alias)) trace_word;
#define RECORD_WORDS (sizeof(struct trace_record) / sizeof(trace_word))
_Static_assert(sizeof(struct trace_record) % sizeof(trace_word) == 0,
	       "a record is a whole number of words");

struct trace_slot {
	uint64_t seq;	/* n + 1 when record n is here whole; 0 while being written */
	struct trace_record record;
};

struct trace_ring {
	struct trace_slot slot[TRACE_RECORDS];	/* record n is in slot[n % TRACE_RECORDS] */
	/* Written only by the CPU that owns the ring. */
	uint64_t written;	/* records ever written here */
	uint64_t dropped;	/* hits not recorded while recording was paused */
	/* Written only by the reader, and only while it runs on the owning
	 * CPU with interrupts off (take_snapshot). */
	bool paused;
	/* Written and read only by the reader, the shell's `trace`. */
	uint64_t cleared;	/* written at the last `trace clear` */
	uint64_t dropped_cleared;	/* dropped at the last `trace clear` */
};

static struct trace_ring rings[MAX_CPUS];

/* Copy a record word by word. Relaxed: each word moves whole, and the
 * order around the copy is given by the sequence number (see publish
 * and copy_record). */
static void copy_words(void *dst, const void *src)
{
	trace_word *to = dst;
	const trace_word *from = src;

	for (size_t i = 0; i < RECORD_WORDS; i++)
		__atomic_store_n(&to[i], __atomic_load_n(&from[i], __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
}
NOKPROBE_SYMBOL(copy_words);

/* Append r to ring, this CPU's, with interrupts off. */
static void publish(struct trace_ring *ring, const struct trace_record *r)
{
	/* Relaxed: no other CPU writes written. */
	uint64_t n = __atomic_load_n(&ring->written, __ATOMIC_RELAXED);
	struct trace_slot *slot = &ring->slot[n % TRACE_RECORDS];

	/* The busy mark must be seen before any word of the new record:
	 * the release fence orders it before the stores of copy_words. A
	 * reader that copied one of those words then sees the mark (or a
	 * later number) when it reads seq again (its acquire fence pairs
	 * with this fence). */
	__atomic_store_n(&slot->seq, 0, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	copy_words(&slot->record, r);
	/* Release: a reader that reads n + 1 also sees the whole record. */
	__atomic_store_n(&slot->seq, n + 1, __ATOMIC_RELEASE);
	/* Release: a reader that reads written == n + 1 finds record n
	 * published (or already overwritten), not the slot's older number. */
	__atomic_store_n(&ring->written, n + 1, __ATOMIC_RELEASE);
}
NOKPROBE_SYMBOL(publish);

/* A record of this hit on CPU cpu: the values, stamped with the time,
 * the CPU and the thread. The time is the cycle counter, not the timer
 * tick: a tick is 10 ms, far too coarse to tell which of two CPUs' hits
 * came first, while the counter is one fine clock for all of them (see
 * oldest_part). It is kept as read, not in nanoseconds: arch_cycles is
 * one instruction (two on aarch64) and may not be probed, whereas
 * ktime_get adds divisions and may be. `trace` converts it when it
 * prints. */
static void fill_record(struct trace_record *r, unsigned int cpu, int probe_id,
			enum kprobe_kind kind, uintptr_t addr,
			const uint64_t values[TRACE_VALUES])
{
	struct thread *self = current_thread();

	r->cpu = cpu;
	r->cycles = arch_cycles();
	r->thread_id = self->id;
	strlcpy(r->thread, self->name, sizeof(r->thread));
	r->probe_id = probe_id;
	r->kind = kind;
	r->addr = addr;
	memcpy(r->values, values, sizeof(r->values));
}
NOKPROBE_SYMBOL(fill_record);

void trace_record(int probe_id, enum kprobe_kind kind, uintptr_t addr,
		  const uint64_t values[TRACE_VALUES])
{
	unsigned long flags = arch_irq_save();
	unsigned int cpu = this_cpu()->id;
	struct trace_ring *ring = &rings[cpu];

	/* Relaxed: paused is only ever written on this CPU (by a reader
	 * whose copy loop this handler interrupted), so program order is all
	 * that matters. dropped has no other writer, hence the plain read. */
	if (__atomic_load_n(&ring->paused, __ATOMIC_RELAXED)) {
		__atomic_store_n(&ring->dropped, ring->dropped + 1, __ATOMIC_RELAXED);
	} else {
		struct trace_record r;

		fill_record(&r, cpu, probe_id, kind, addr, values);
		publish(ring, &r);
	}
	arch_irq_restore(flags);
}
NOKPROBE_SYMBOL(trace_record);

/* ---- reading, for the `trace` command ---- */

/* One CPU's share of a snapshot. */
struct trace_part {
	uint64_t from, to;		/* record numbers to copy: [from, to) */
	struct trace_record *records;	/* the copies, oldest first */
	size_t count;			/* how many were copied */
	size_t printed;			/* how many of them were printed */
};

struct trace_snapshot {
	struct trace_part part[MAX_CPUS];
	unsigned int ncpus;
	uint64_t lost;
};

/* Copy record n of ring into *out. False if the slot no longer holds it
 * whole: the slot's number must be n + 1 before and after the copy. */
static bool copy_record(const struct trace_ring *ring, uint64_t n, struct trace_record *out)
{
	const struct trace_slot *slot = &ring->slot[n % TRACE_RECORDS];

	/* Acquire: pairs with publish's release of n + 1, so the copy below
	 * sees at least record n's words. */
	if (__atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE) != n + 1)
		return false;
	copy_words(out, &slot->record);
	/* Acquire fence: the copy's loads come before the second read of
	 * seq; if one of them saw a later record's word, publish's release
	 * fence pairs with this one and seq no longer reads n + 1. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&slot->seq, __ATOMIC_RELAXED) == n + 1;
}

/* Decide what a snapshot takes: on each CPU, the records since the last
 * `trace clear` that its ring holds now. Records overwritten before now,
 * and hits dropped while recording was paused, are lost. Returns how many
 * records to copy. */
static size_t plan_snapshot(struct trace_snapshot *s)
{
	size_t total = 0;

	s->ncpus = cpu_count();
	s->lost = 0;
	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++) {
		struct trace_ring *ring = &rings[cpu];
		struct trace_part *p = &s->part[cpu];

		/* Acquire: pairs with publish's release of written. */
		p->to = __atomic_load_n(&ring->written, __ATOMIC_ACQUIRE);
		p->from = MAX(ring->cleared, p->to > TRACE_RECORDS ? p->to - TRACE_RECORDS : 0);
		/* Relaxed: dropped is only a count. */
		s->lost += p->from - ring->cleared +
			   __atomic_load_n(&ring->dropped, __ATOMIC_RELAXED) - ring->dropped_cleared;
		total += p->to - p->from;
	}
	return total;
}

/* Tell trace_record on this CPU whether to record. It runs in a probe
 * handler that traps between two of our instructions, on this CPU, so a
 * relaxed store is enough; the signal fences keep the compiler from
 * moving the copy's loads across it. */
static void set_paused(struct trace_ring *ring, bool paused)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&ring->paused, paused, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* Copy the planned records into buffer, part after part. */
static void copy_snapshot(struct trace_snapshot *s, struct trace_record *buffer)
{
	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++) {
		struct trace_part *p = &s->part[cpu];

		p->records = buffer;
		p->count = 0;
		p->printed = 0;
		for (uint64_t n = p->from; n < p->to; n++) {
			if (copy_record(&rings[cpu], n, &p->records[p->count]))
				p->count++;
			else
				s->lost++;	/* overwritten before we copied it */
		}
		buffer += p->count;
	}
}

/* Plan the snapshot, allocate its buffer (*buffer, NULL if it is empty)
 * and copy it, with recording paused on this CPU (see the top of the
 * file): the heap's code may be probed too, and its hits would otherwise
 * overwrite the records being copied. Interrupts are off, so that this
 * stays the CPU that is paused and so that interrupt handlers here
 * record afterwards instead of being dropped; the copy is at most a ring
 * per CPU, a few thousand word moves each. Returns 0 or -ENOMEM. */
static int take_snapshot(struct trace_snapshot *s, struct trace_record **buffer)
{
	unsigned long flags = arch_irq_save();
	struct trace_ring *own = &rings[this_cpu()->id];
	size_t total;
	int err = 0;

	set_paused(own, true);
	total = plan_snapshot(s);
	*buffer = total > 0 ? kmalloc(total * sizeof(**buffer)) : NULL;
	if (total > 0 && !*buffer)
		err = -ENOMEM;
	else
		copy_snapshot(s, *buffer);
	set_paused(own, false);
	arch_irq_restore(flags);
	return err;
}

/* One record, one line, printed by one call of print: kprintf for a hit
 * as it happens (a kernel message), cmd_printf for `trace`'s records (the
 * command's output). A hit that printk has to defer (a printing probe on
 * the console's own path) then comes out between two lines, never inside
 * one, and is kept or dropped whole.
 * The line starts with the time since boot in seconds, to the
 * microsecond (enough to tell apart calls of a function that takes
 * microseconds, as vfs_read does), then the CPU that recorded it. */
static void print_record(int (*print)(const char *fmt, ...), const struct trace_record *r)
{
	static const char kinds[] = { 'k', 'j', 'r' };
	char where[80], what[128];
	const uint64_t *v = r->values;
	ktime_t t = ktime_from_cycles(r->cycles);

	sym_format(r->addr, where, sizeof(where));
	if (r->kind == KPROBE_KIND_R)
		snprintf(what, sizeof(what), "ret=0x%lx (%ld) after %lu cycles",
			 (unsigned long)v[0], (long)v[0], (unsigned long)v[1]);
	else
		snprintf(what, sizeof(what), "args 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx",
			 (unsigned long)v[0], (unsigned long)v[1], (unsigned long)v[2],
			 (unsigned long)v[3], (unsigned long)v[4], (unsigned long)v[5]);
	print("%6lu.%06lu  [cpu %u]  %s(%u)  #%d %c %s  %s\n",
	      (unsigned long)(t / NSEC_PER_SEC), (unsigned long)(t % NSEC_PER_SEC / NSEC_PER_USEC),
	      r->cpu, r->thread, r->thread_id, r->probe_id, kinds[r->kind], where, what);
}

void trace_print_hit(int probe_id, enum kprobe_kind kind, uintptr_t addr,
		     const uint64_t values[TRACE_VALUES])
{
	struct trace_record r;

	fill_record(&r, this_cpu()->id, probe_id, kind, addr, values);
	print_record(kprintf, &r);
}

/* The part whose next record to print is the oldest, or NULL when all
 * are printed. Each part is in order already, as a CPU stamps and
 * publishes a record with interrupts off. Records of different CPUs
 * compare by their counts because the CPUs share one counter: QEMU keeps
 * the x86_64 CPUs' TSCs in step, and aarch64's virtual count is the
 * system's, not a CPU's. On a tie the lower-numbered CPU goes first. */
static struct trace_part *oldest_part(struct trace_snapshot *s)
{
	struct trace_part *oldest = NULL;

	for (unsigned int cpu = 0; cpu < s->ncpus; cpu++) {
		struct trace_part *p = &s->part[cpu];

		if (p->printed < p->count &&
		    (!oldest || p->records[p->printed].cycles < oldest->records[oldest->printed].cycles))
			oldest = p;
	}
	return oldest;
}

/* Print the snapshot, merged oldest first across CPUs, as the command's
 * output. */
static void print_snapshot(struct trace_snapshot *s)
{
	struct trace_part *p;
	size_t shown = 0;

	while ((p = oldest_part(s)) != NULL) {
		print_record(cmd_printf, &p->records[p->printed++]);
		shown++;
	}
	cmd_printf("trace: %lu records, %lu lost\n", (unsigned long)shown, (unsigned long)s->lost);
}

int trace_print(void)
{
	struct trace_snapshot s;
	struct trace_record *buffer;
	int err = take_snapshot(&s, &buffer);

	if (err)
		return err;
	print_snapshot(&s);
	kfree(buffer);
	return 0;
}

/* A hit racing with this lands on either side of the mark. */
void trace_clear(void)
{
	/* Relaxed: written and dropped are only counts here. */
	for (unsigned int cpu = 0; cpu < cpu_count(); cpu++) {
		rings[cpu].cleared = __atomic_load_n(&rings[cpu].written, __ATOMIC_RELAXED);
		rings[cpu].dropped_cleared = __atomic_load_n(&rings[cpu].dropped, __ATOMIC_RELAXED);
	}
}
