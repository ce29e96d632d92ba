/* Running a probe event's fetch programs at a hit (trace_probe.h): the
 * values they name, from the registers the probe saw and the memory
 * they point to, stored into the event's record.
 *
 * A record's body is the event's own fields (the probed address, or a
 * return's function and caller) at its start, then each argument's
 * field at its offset in the arguments' part, then the bytes of its
 * strings, each the __data_loc word of its field counts from the body's
 * start. Memory is read only through the fault-tolerant accesses of
 * kernel/mm/nofault.h: a bad address stores 0 in a number, and "(fault)"
 * for a string. Nothing here locks, sleeps or allocates. */
#ifndef KERNEL_TRACE_PROBE_FETCH_H
#define KERNEL_TRACE_PROBE_FETCH_H

#include "kernel/trace/trace_probe.h"
#include <asm/ptrace.h>

/* What the arguments read at one hit: the registers, and the name of
 * the thread that hit ($comm). */
struct probe_hit_regs {
	const struct pt_regs *regs;
	const char *comm;
};

/* Store the nr arguments of args into body, of room bytes: their fields
 * from body + fields on, their strings from body + dyn on (dyn past
 * every field). The length of the body, dyn included: at most room
 * (strings cut short, or recorded as faulted, to fit). */
size_t probe_fetch_args(const struct probe_arg *args, int nr, const struct probe_hit_regs *hit,
			uint8_t *body, size_t fields, size_t dyn, size_t room);

#endif
