/* The names of the threads that wrote records: see trace_comm.h.
 *
 * Each slot is a sequence count and three words (the id and the name),
 * written by one CPU at a time and read by any: the writer makes the
 * count odd (a compare-and-swap, which also picks the one writer), then
 * stores the words, then makes it even again; a reader that sees the
 * same even count before and after its loads has a whole slot. */
#include "kernel/trace/trace_comm.h"
#include "kernel/nokprobe.h"

struct trace_comm_slot trace_comm_slots[TRACE_COMMS] = {
	[0 ... TRACE_COMMS - 1] = { .pid = ~0ull },
};

void notrace trace_comm_store(uint32_t pid, const char *name)
{
	struct trace_comm_slot *s = &trace_comm_slots[pid % TRACE_COMMS];
	uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), words[TRACE_COMM_LEN / 8];

	if ((seq & 1) || !__atomic_compare_exchange_n(&s->seq, &seq, seq + 1, false,
						      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	__atomic_thread_fence(__ATOMIC_RELEASE);	/* odd before the words */
	__builtin_memcpy(words, name, sizeof(words));
	words[sizeof(words) / 8 - 1] &= ~(0xffull << 56);	/* a NUL at the end */
	__atomic_store_n(&s->pid, pid, __ATOMIC_RELAXED);
	for (size_t i = 0; i < sizeof(words) / 8; i++)
		__atomic_store_n(&s->name[i], words[i], __ATOMIC_RELAXED);
	__atomic_store_n(&s->seq, seq + 2, __ATOMIC_RELEASE);
}
NOKPROBE_SYMBOL(trace_comm_store);

/* A writer holds a slot for a few stores: a reader that meets one tries
 * again, this many times at most. */
#define READ_TRIES 1000

bool notrace trace_comm_find(uint32_t pid, char *comm)
{
	const struct trace_comm_slot *s = &trace_comm_slots[pid % TRACE_COMMS];

	for (int tries = 0; tries < READ_TRIES; tries++) {
		uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), words[TRACE_COMM_LEN / 8];
		uint64_t id = __atomic_load_n(&s->pid, __ATOMIC_RELAXED);

		for (size_t i = 0; i < sizeof(words) / 8; i++)
			words[i] = __atomic_load_n(&s->name[i], __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);	/* the words before the count */
		if ((seq & 1) || __atomic_load_n(&s->seq, __ATOMIC_RELAXED) != seq)
			continue;
		if (id != pid)
			return false;
		__builtin_memcpy(comm, words, sizeof(words));
		return true;
	}
	return false;
}
NOKPROBE_SYMBOL(trace_comm_find);
