/* The tracing ring buffer: one kernel/trace/ring.h ring per CPU, written by that
 * CPU alone, read from any.
 *
 * This is what Linux's kernel/trace/ring_buffer.c is to its tracers (see
 * its Documentation/trace/ring-buffer-design.rst), much smaller: a
 * record is written whole with this CPU's interrupts off, from its
 * reserve to its commit, so an interrupt's records come before or after
 * another's, never inside.
 * Nothing here takes a lock or allocates on the way of a write: the
 * function tracer and probe handlers call it on any CPU, at any time.
 * When a CPU's ring is full its oldest records are overwritten and
 * counted, as Linux's overwrite mode does.
 *
 * Readers keep a cursor, a position in every CPU's ring, and get the
 * records of all CPUs merged in the order of their time stamps (the
 * cycle counter, arch_cycles(), which ktime_from_cycles turns into
 * nanoseconds). A clear moves the point readers start from; it takes no
 * part of a write either. */
#ifndef KERNEL_TRACE_RING_BUFFER_H
#define KERNEL_TRACE_RING_BUFFER_H

#include "kernel/cpu.h"
#include "kernel/trace/ring.h"

struct ring_buffer {
	struct ring cpu[MAX_CPUS];	/* every possible CPU's, written by it alone */
	uint64_t start[MAX_CPUS];	/* where readers begin, after the last clear */
	uint64_t written_before[MAX_CPUS];	/* each ring's written count at the clear */
	/* Overwrites that lose nothing, per ring: of the records before
	 * start (cleared or consumed), overwritten already or still to be. */
	uint64_t overrun_hidden[MAX_CPUS];
	uint64_t read[MAX_CPUS];	/* records consumed since the last clear */
	bool off;			/* writes are dropped (tracing_on is 0) */
};

/* Where a reader is in every CPU's ring, and the next record of each it
 * has looked at but not yet returned. */
struct ring_buffer_cursor {
	uint64_t pos[MAX_CPUS];
	uint64_t end[MAX_CPUS];		/* records from here on are not its */
	bool have[MAX_CPUS];
	struct ring_entry next[MAX_CPUS];
};

/* A buffer of bytes_per_cpu bytes for each possible CPU (rounded up to a
 * word, at least RING_BYTES_MIN), or NULL with no memory. May sleep. */
#define RING_BYTES_MIN (4 * (16 + RING_DATA_MAX))
struct ring_buffer *ring_buffer_create(size_t bytes_per_cpu);
/* Free rb, which nothing may write or read any more. May sleep. */
void ring_buffer_destroy(struct ring_buffer *rb);

/* Append a record of type (1 and up) and len bytes of data to this
 * CPU's ring, time-stamped now. 0; -E2BIG if len is over RING_DATA_MAX;
 * -EAGAIN if writes are off (the record is dropped, as Linux drops it
 * with tracing_on 0). Safe anywhere, interrupts on or off. */
int ring_buffer_write(struct ring_buffer *rb, uint16_t type, const void *data, size_t len);

/* ring_buffer_write in steps (ring.h's ring_reserve), for a writer that
 * builds its record in place, with interrupts off from the reserve to
 * the commit: the data words of a record of len bytes on this CPU's
 * ring, time-stamped now, or NULL if writes are off or len is over
 * RING_DATA_MAX; then ring_buffer_commit. */
uint64_t *ring_buffer_reserve(struct ring_buffer *rb, uint16_t type, size_t len);
static inline void ring_buffer_commit(struct ring_buffer *rb)
{
	ring_commit(&rb->cpu[this_cpu_field(id)]);	/* inline: on every record's way */
}

/* Turn writes on or off (tracing_on); whether they are on. */
void ring_buffer_set_on(struct ring_buffer *rb, bool on);
bool ring_buffer_is_on(const struct ring_buffer *rb);

/* Make every record written so far unseen by readers from now on (`echo
 * > trace`), or every one of cpu's (`echo > per_cpu/cpuN/trace`).
 * Writers go on meanwhile. */
void ring_buffer_clear(struct ring_buffer *rb);
void ring_buffer_clear_cpu(struct ring_buffer *rb, unsigned int cpu);

/* Set c to the start of every CPU's records (the oldest still there,
 * or the last clear's point), with no end. c is large (about 4 KiB):
 * allocate it. */
void ring_buffer_cursor_start(const struct ring_buffer *rb, struct ring_buffer_cursor *c);
/* Take c back to where ring_buffer_cursor_start put it, keeping its
 * end: to read the same records again. */
void ring_buffer_cursor_rewind(const struct ring_buffer *rb, struct ring_buffer_cursor *c);
/* Make c see cpu's records only (the per_cpu/cpuN files). */
void ring_buffer_cursor_only(struct ring_buffer_cursor *c, unsigned int cpu);
/* End c at the records there are now: a reader that must end though the
 * writers go on (the trace file) sees none written after this. */
void ring_buffer_cursor_bound(const struct ring_buffer *rb, struct ring_buffer_cursor *c);
/* The next record, of any CPU, in time-stamp order, and its CPU in
 * *cpu; NULL when c has seen every record written so far (or up to its
 * end). The record is in c, valid until the next call with c: it is not
 * copied out, so that a reader calls no function a probe may sit in
 * (the `trace` command's snapshot, kernel/probes/trace.c). */
const struct ring_entry *ring_buffer_next(const struct ring_buffer *rb,
					  struct ring_buffer_cursor *c, unsigned int *cpu);

/* Make the record ring_buffer_next just returned from c, of cpu, and
 * every one before it in cpu's ring, unseen by readers from now on (a
 * consuming read, trace_pipe): as a clear, but only up to there. */
void ring_buffer_consume(struct ring_buffer *rb, const struct ring_buffer_cursor *c,
			 unsigned int cpu);

/* Records written to cpu's ring since the last clear (or since it was
 * made; dropped ones not counted), and those overwritten before a reader
 * could see them (records already cleared or consumed do not count):
 * Linux's "entries-written" and "overrun". */
uint64_t ring_buffer_written(const struct ring_buffer *rb, unsigned int cpu);
uint64_t ring_buffer_overrun(const struct ring_buffer *rb, unsigned int cpu);
/* Records of cpu's consumed since the last clear (Linux's "read
 * events"). */
uint64_t ring_buffer_read_count(const struct ring_buffer *rb, unsigned int cpu);

#endif
