/*
 * The shell's probe records (see trace.h), in the one tracing buffer.
 * The `trace` shell command that prints them is kernel/probes/cmd/trace_cmd.c.
 *
 * Writing. A hit is a record of type TRACE_TYPE_PROBE_HIT, written by
 * trace_write (kernel/trace/trace.c) into the ring of the CPU that took
 * it, with interrupts off: no lock, so a probe hit never waits, not even
 * when `trace` itself is what the probe sits in. The record's common
 * fields say the thread and the CPU; its body (struct probe_hit) the
 * probe, where it hit, and the values.
 *
 * Reading. `trace` runs on any CPU while the writers go on; the rings
 * make sure it never sees a torn record (kernel/trace/ring.h).
 *
 * Why `trace` copies everything before it prints anything. Printing goes
 * through vformat, memcpy, strlen..., and a probe there records a hit for
 * every call. Printed straight from the rings, each record printed wrote
 * dozens of new ones over the records not yet printed, so with probes on
 * those functions `trace` showed a handful of records and counted the
 * rest lost. So `trace` first takes a snapshot: every probe record there
 * is at the moment it starts, copied into a buffer of its own. Then it
 * prints from the buffer while recording goes on (what printing records
 * is there for the next `trace`). Allocating the buffer runs the heap's
 * code, and a probe may sit there or in the copy loop itself, so while
 * it counts, allocates and copies, recording is paused on the reading
 * CPU (trace_pause_this_cpu): those few records are dropped, and counted
 * as lost. Pausing longer (all of printing) or more widely (every CPU)
 * would lose every hit meanwhile; the other CPUs need no pause, as the
 * rings' readers skip what is overwritten while they read.
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
#include "kernel/trace/trace.h"
#include "kernel/trace/trace_comm.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"
#include <asm/irq.h>

/* A hit record's body. */
struct probe_hit {
	int32_t probe_id;		/* the shell's probe number */
	uint32_t kind;			/* enum kprobe_kind */
	uint64_t addr;
	uint64_t values[TRACE_VALUES];
};

/* A hit as `trace` prints it: the body, and the common fields it shows. */
struct hit_line {
	uint64_t cycles;		/* the cycle counter when recorded */
	unsigned int cpu;
	unsigned int thread_id;
	char thread[TRACE_COMM_LEN];
	struct probe_hit hit;
};

void trace_record(int probe_id, enum kprobe_kind kind, uintptr_t addr,
		  const uint64_t values[TRACE_VALUES])
{
	struct probe_hit h = { .probe_id = probe_id, .kind = kind, .addr = addr };

	memcpy(h.values, values, sizeof(h.values));
	trace_write(TRACE_TYPE_PROBE_HIT, &h, sizeof(h));
}
NOKPROBE_SYMBOL(trace_record);

/* One hit, one line, printed by one call of print: kprintf for a hit as
 * it happens (a kernel message), cmd_printf for `trace`'s records (the
 * command's output). A hit that printk has to defer (a printing probe on
 * the console's own path) then comes out between two lines, never inside
 * one, and is kept or dropped whole.
 * The line starts with the time since boot in seconds, to the
 * microsecond (enough to tell apart calls of a function that takes
 * microseconds, as vfs_read does), then the CPU that recorded it. */
static void print_hit(int (*print)(const char *fmt, ...), const struct hit_line *l)
{
	static const char kinds[] = { 'k', 'j', 'r' };
	char where[80], what[128];
	const uint64_t *v = l->hit.values;
	ktime_t t = ktime_from_cycles(l->cycles);

	sym_format(l->hit.addr, where, sizeof(where));
	if (l->hit.kind == KPROBE_KIND_R)
		snprintf(what, sizeof(what), "ret=0x%lx (%ld) after %lu cycles",
			 (unsigned long)v[0], (long)v[0], (unsigned long)v[1]);
	else
		snprintf(what, sizeof(what), "args 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx",
			 (unsigned long)v[0], (unsigned long)v[1], (unsigned long)v[2],
			 (unsigned long)v[3], (unsigned long)v[4], (unsigned long)v[5]);
	print("%6lu.%06lu  [cpu %u]  %s(%u)  #%d %c %s  %s\n",
	      (unsigned long)(t / NSEC_PER_SEC), (unsigned long)(t % NSEC_PER_SEC / NSEC_PER_USEC),
	      l->cpu, l->thread, l->thread_id, l->hit.probe_id, kinds[l->hit.kind], where, what);
}

void trace_print_hit(int probe_id, enum kprobe_kind kind, uintptr_t addr,
		     const uint64_t values[TRACE_VALUES])
{
	struct hit_line l = {
		.cycles = arch_cycles(), .cpu = this_cpu()->id, .thread_id = current_thread()->id,
		.hit = { .probe_id = probe_id, .kind = kind, .addr = addr },
	};

	strlcpy(l.thread, current_thread()->name, sizeof(l.thread));
	memcpy(l.hit.values, values, sizeof(l.hit.values));
	print_hit(kprintf, &l);
}

/* The line /sys/kernel/tracing/trace shows of a hit, after the common
 * columns, in the manner of Linux's kprobe events ("NAME: (WHERE)
 * FIELDS"), the probe named by its shell number. */
static int hit_print(const struct trace_kind *kind, char *line, size_t size, const void *body,
		     size_t len)
{
	(void)kind;
	const struct probe_hit *h = body;
	const uint64_t *v = h->values;
	char where[80];

	if (len < sizeof(*h))
		return snprintf(line, size, "probe: (a record too short)");
	sym_format(h->addr, where, sizeof(where));
	if (h->kind == KPROBE_KIND_R)
		return snprintf(line, size, "probe_%d: (%s) ret=0x%lx cycles=%lu", h->probe_id,
				where, (unsigned long)v[0], (unsigned long)v[1]);
	return snprintf(line, size, "probe_%d: (%s) arg1=0x%lx arg2=0x%lx arg3=0x%lx arg4=0x%lx"
			" arg5=0x%lx arg6=0x%lx", h->probe_id, where, (unsigned long)v[0],
			(unsigned long)v[1], (unsigned long)v[2], (unsigned long)v[3],
			(unsigned long)v[4], (unsigned long)v[5]);
}
TRACE_KIND(TRACE_TYPE_PROBE_HIT, hit_print);

/* ---- reading, for the `trace` command ---- */

/* Whether e is a probe hit, and if so its line's fields in *l. With no
 * call: it runs while recording is paused, and a probe in memcpy would
 * drop a record for every hit copied. (__builtin_memcpy of a constant
 * size is moves in line; a loop the compiler may turn into a memcpy.) */
static bool hit_of(const struct ring_entry *e, unsigned int cpu, struct hit_line *l)
{
	const struct trace_entry *t = (const void *)e->data;
	const struct probe_hit *h = (const void *)(t + 1);

	if (e->type != TRACE_TYPE_PROBE_HIT || e->len < sizeof(*t) + sizeof(*h))
		return false;
	l->cycles = e->time;
	l->cpu = cpu;
	l->thread_id = t->pid;
	if (!trace_comm_find(t->pid, l->thread))
		__builtin_memcpy(l->thread, "<...>", sizeof("<...>"));
	__builtin_memcpy(&l->hit, h, sizeof(l->hit));
	return true;
}

/* A snapshot: the hits there were when it was taken, oldest first. */
struct snapshot {
	struct ring_buffer_cursor cursor;
	struct hit_line *lines;
	size_t count;
	uint64_t lost;
};

/* The hits c will return, from where it is (up to its end). */
static size_t count_hits(struct ring_buffer *rb, struct snapshot *s)
{
	const struct ring_entry *e;
	struct hit_line l;
	unsigned int cpu;
	size_t n = 0;

	while ((e = ring_buffer_next(rb, &s->cursor, &cpu)) != NULL)
		n += hit_of(e, cpu, &l);
	return n;
}

/* Copy at most max hits from where s's cursor is into s->lines. */
static void copy_hits(struct ring_buffer *rb, struct snapshot *s, size_t max)
{
	const struct ring_entry *e;
	unsigned int cpu;

	s->count = 0;
	while (s->count < max && (e = ring_buffer_next(rb, &s->cursor, &cpu)) != NULL)
		s->count += hit_of(e, cpu, &s->lines[s->count]);
}

/* What a snapshot of rb lost since the last clear: the records of any
 * kind overwritten, and those dropped while a `trace` paused a CPU. */
static uint64_t lost_since_clear(struct ring_buffer *rb)
{
	uint64_t lost = 0;

	for (unsigned int cpu = 0; cpu < MAX_CPUS; cpu++)
		lost += ring_buffer_overrun(rb, cpu) + trace_dropped(cpu);
	return lost;
}

/* Count the hits there are, allocate s->lines and copy them, with
 * recording paused on this CPU (see the top of the file), so that
 * nothing this does overwrites what it copies. Interrupts are off, so
 * that this stays the CPU that is paused and so that interrupt handlers
 * here record afterwards instead of being dropped. Under trace_lock.
 * 0 or -ENOMEM. */
static int take_snapshot(struct ring_buffer *rb, struct snapshot *s)
{
	unsigned long flags = arch_irq_save();
	size_t total;
	int err = 0;

	trace_pause_this_cpu(true);
	ring_buffer_cursor_start(rb, &s->cursor);
	ring_buffer_cursor_bound(rb, &s->cursor);
	total = count_hits(rb, s);
	s->lines = total ? kmalloc(total * sizeof(*s->lines)) : NULL;
	s->count = 0;
	if (total && !s->lines) {
		err = -ENOMEM;
	} else {
		ring_buffer_cursor_rewind(rb, &s->cursor);
		copy_hits(rb, s, total);
	}
	s->lost = lost_since_clear(rb);
	trace_pause_this_cpu(false);
	arch_irq_restore(flags);
	return err;
}

int trace_print(void)
{
	struct snapshot *s = kzalloc(sizeof(*s));
	struct ring_buffer *rb;
	int err;

	if (!s)
		return -ENOMEM;
	trace_lock();
	rb = trace_buffer_locked();
	err = rb ? take_snapshot(rb, s) : -ENODEV;
	trace_unlock();
	if (!err) {
		for (size_t i = 0; i < s->count; i++)
			print_hit(cmd_printf, &s->lines[i]);
		cmd_printf("trace: %lu records, %lu lost\n", (unsigned long)s->count,
			   (unsigned long)s->lost);
	}
	kfree(s->lines);
	kfree(s);
	return err;
}

void trace_clear(void)
{
	trace_lock();
	if (trace_buffer_locked())
		trace_clear_locked();
	trace_unlock();
}
