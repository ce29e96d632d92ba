/* The function profiler: see ftrace_profile.h.
 *
 * Each CPU has a table of the functions it has seen, an open-addressing
 * hash from a function's address to its counts, made when profiling
 * starts with room for twice the call sites there are (so it is at most
 * half full and a lookup reads one or two entries). The graph service's
 * entry (profile_entry) finds or claims the function's entry on its CPU
 * and counts a hit; the return (profile_return) adds the call's time
 * and its square, in the counter's cycles, to the entry on the CPU it
 * returns on (a thread may move meanwhile: Linux's does the same).
 * Only the CPU writes its table, with interrupts off, so the hit takes
 * no lock; a reader on another CPU copies the counts word by word, each
 * whole, and converts them to nanoseconds only then. The tables stay
 * after profiling stops, to be read, and are zeroed when it starts
 * again, as Linux's are. */
#include "kernel/trace/ftrace_profile.h"
#include "kernel/cpu.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/nokprobe.h"
#include "kernel/percpu.h"
#include "kernel/time.h"
#include "kernel/trace/fgraph.h"
#include "kernel/trace/ftrace_sites.h"
#include "kernel/trace/graph_format.h"
#include "lib/errno.h"
#include "lib/sort.h"
#include "lib/string.h"

struct profile_rec {
	uintptr_t func;			/* 0: free */
	unsigned long hits;
	uint64_t time, time_sq;		/* cycles, and their squares (saturating) */
};

struct profile_table {
	unsigned int shift;		/* 64 - log2 of the entries */
	size_t mask;			/* the entries, less one */
	size_t used;			/* entries claimed */
	struct profile_rec recs[];
};

static struct mutex profile_mutex = MUTEX_INIT(profile_mutex, "profile");
static bool enabled;			/* under profile_mutex */
static bool graph_time = true;
static DEFINE_PER_CPU(struct profile_table *, table);

/* The entry for func in t; a new one if insert and there is room
 * (never past half full), else NULL. */
static struct profile_rec *notrace lookup(struct profile_table *t, uintptr_t func, bool insert)
{
	size_t i = (size_t)(((uint64_t)func * 0x9e3779b97f4a7c15ull) >> t->shift);

	for (;; i = (i + 1) & t->mask) {
		struct profile_rec *r = &t->recs[i];

		if (r->func == func)
			return r;
		if (r->func)
			continue;
		if (!insert || t->used > t->mask / 2)
			return NULL;
		__atomic_store_n(&t->used, t->used + 1, __ATOMIC_RELAXED);
		/* Its counts are zero: a reader that sees func sees them. */
		__atomic_store_n(&r->func, func, __ATOMIC_RELEASE);
		return r;
	}
}
NOKPROBE_SYMBOL(lookup);

static int notrace profile_entry(const struct fgraph_ent *ent)
{
	struct profile_rec *r = lookup(*this_cpu_ptr(&table), ent->func, true);

	if (!r)
		return -1;	/* a full table: the call is neither counted nor timed */
	__atomic_store_n(&r->hits, r->hits + 1, __ATOMIC_RELAXED);
	return 0;
}
NOKPROBE_SYMBOL(profile_entry);

static void notrace profile_return(const struct fgraph_ret *ret)
{
	uint64_t t = ret->rettime > ret->calltime ? ret->rettime - ret->calltime : 0;
	struct profile_rec *r;
	uint64_t sq;

	/* Without graph-time a call's time is its own: the callees' times
	 * are summed in the frame's user word as each returns. */
	if (!__atomic_load_n(&graph_time, __ATOMIC_RELAXED)) {
		if (ret->depth)
			ret->frames[ret->depth - 1].user += t;
		t -= MIN(t, ret->frames[ret->depth].user);
	}
	r = lookup(*this_cpu_ptr(&table), ret->func, false);
	if (!r)
		return;
	if (__builtin_mul_overflow(t, t, &sq) || __builtin_add_overflow(r->time_sq, sq, &sq))
		sq = UINT64_MAX;
	__atomic_store_n(&r->time, r->time + t, __ATOMIC_RELAXED);
	__atomic_store_n(&r->time_sq, sq, __ATOMIC_RELAXED);
}
NOKPROBE_SYMBOL(profile_return);

static struct fgraph_ops profile_ops = {
	.entryfunc = profile_entry, .retfunc = profile_return,
};

/* The call sites there are now, the kernel's and the modules'. */
static size_t count_sites(void)
{
	struct ftrace_sites *s;
	size_t n = 0;

	ftrace_sites_lock();
	list_for_each_entry(s, ftrace_sites_tables(), node)
		n += (size_t)(s->end - s->start);
	ftrace_sites_unlock();
	return n;
}

/* Every CPU's table, zeroed, each with room for twice the sites there
 * are now: the old ones are kept if large enough. Not profiling. */
static int reset_tables(void)
{
	unsigned int bits = 6;

	while (((size_t)1 << bits) < 2 * count_sites())
		bits++;
	for (unsigned int cpu = 0; cpu < cpu_count(); cpu++) {
		struct profile_table **tp = per_cpu_ptr(&table, cpu);
		size_t bytes = sizeof(**tp) + ((size_t)1 << bits) * sizeof((*tp)->recs[0]);

		if (*tp && (*tp)->mask + 1 < ((size_t)1 << bits)) {
			kfree(*tp);
			*tp = NULL;
		}
		if (!*tp) {
			*tp = kmalloc(bytes);
			if (!*tp)
				return -ENOMEM;
			(*tp)->shift = 64 - bits;
			(*tp)->mask = ((size_t)1 << bits) - 1;
		}
		(*tp)->used = 0;
		memset((*tp)->recs, 0, ((*tp)->mask + 1) * sizeof((*tp)->recs[0]));
	}
	return 0;
}

int ftrace_profile_set_enabled(bool on)
{
	int err = 0;

	mutex_lock(&profile_mutex);
	if (on && !enabled) {
		err = reset_tables();
		if (!err)
			err = register_ftrace_graph(&profile_ops);
		enabled = !err;
	} else if (!on && enabled) {
		/* When it returns, no callback of profile_ops runs. */
		unregister_ftrace_graph(&profile_ops);
		enabled = false;
	}
	mutex_unlock(&profile_mutex);
	return err;
}

bool ftrace_profile_enabled(void)
{
	return __atomic_load_n(&enabled, __ATOMIC_RELAXED);
}

void ftrace_profile_graph_time_control(bool on)
{
	__atomic_store_n(&graph_time, on, __ATOMIC_RELAXED);
}

static int longer_first(const void *a, const void *b)
{
	const struct ftrace_profile_stat *x = a, *y = b;

	return x->time_ns < y->time_ns ? 1 : x->time_ns > y->time_ns ? -1 : 0;
}

/* A span of cycles² in ns²: the conversion's factor, twice. */
static uint64_t square_cycles_to_ns2(uint64_t c2)
{
	return cycles_to_ns(cycles_to_ns(c2));
}

size_t ftrace_profile_copy(unsigned int cpu, struct ftrace_profile_stat **stats)
{
	const struct profile_table *t;
	size_t n = 0, room = 0;

	*stats = NULL;
	mutex_lock(&profile_mutex);	/* the table stays, and stays this size */
	t = cpu < cpu_count() ? *per_cpu_ptr(&table, cpu) : NULL;
	/* Room for the functions claimed now; any claimed after are left
	 * for the next read. */
	if (t)
		room = __atomic_load_n(&t->used, __ATOMIC_RELAXED);
	if (room)
		*stats = kmalloc(room * sizeof(**stats));
	for (size_t i = 0; *stats && i <= t->mask && n < room; i++) {
		const struct profile_rec *r = &t->recs[i];
		uintptr_t func = __atomic_load_n(&r->func, __ATOMIC_ACQUIRE);
		unsigned long hits = func ? __atomic_load_n(&r->hits, __ATOMIC_RELAXED) : 0;
		uint64_t time, time_sq;

		if (!hits)
			continue;
		time = __atomic_load_n(&r->time, __ATOMIC_RELAXED);
		time_sq = __atomic_load_n(&r->time_sq, __ATOMIC_RELAXED);
		(*stats)[n++] = (struct ftrace_profile_stat){
			.func = func, .hits = hits, .time_ns = cycles_to_ns(time),
			.variance_ns2 = square_cycles_to_ns2(graph_profile_variance(hits, time,
										    time_sq)),
		};
	}
	mutex_unlock(&profile_mutex);
	if (!n) {
		kfree(*stats);
		*stats = NULL;
		return 0;
	}
	sort(*stats, n, sizeof(**stats), longer_first, NULL);
	return n;
}
