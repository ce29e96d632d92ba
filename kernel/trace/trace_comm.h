/* The names of the threads that wrote records (Linux's saved_cmdlines).
 *
 * A record holds its thread's id only, not its name: copying sixteen
 * bytes into every record would cost a traced call more than the rest
 * of its record does. The name goes into a small table instead, a slot
 * per id (the id modulo TRACE_COMMS), written when a record's thread is
 * not the one its slot holds, and read when a line of `trace` is made.
 * A thread whose slot another has taken since prints as "<...>", as on
 * Linux. */
#ifndef KERNEL_TRACE_TRACE_COMM_H
#define KERNEL_TRACE_TRACE_COMM_H

#include "lib/types.h"

#define TRACE_COMMS 512
#define TRACE_COMM_LEN 16	/* the name's bytes kept, its NUL included */

/* The slots (trace_comm.c): a sequence count, the thread's id (~0 for
 * none yet) and its name. */
struct trace_comm_slot {
	uint64_t seq;
	uint64_t pid;
	uint64_t name[TRACE_COMM_LEN / 8];
};
extern struct trace_comm_slot trace_comm_slots[TRACE_COMMS];

/* Keep the name of thread pid in its slot (trace_comm_save); for the
 * writer of a record, on any CPU, interrupts off. Never waits: a slot
 * another CPU is writing is left alone this time. */
void trace_comm_store(uint32_t pid, const char *name);

/* trace_comm_store unless the slot holds pid already: inline, as a
 * record's writer calls it for every record, and almost always the
 * slot holds it. */
static inline void trace_comm_save(uint32_t pid, const char *name)
{
	if (__atomic_load_n(&trace_comm_slots[pid % TRACE_COMMS].pid, __ATOMIC_RELAXED) != pid)
		trace_comm_store(pid, name);
}

/* The name kept for thread pid, in comm (TRACE_COMM_LEN bytes, ending
 * in a NUL); false if its slot holds another thread's. Calls nothing a
 * probe may sit in (the `trace` command reads with recording paused). */
bool trace_comm_find(uint32_t pid, char *comm);

#endif
