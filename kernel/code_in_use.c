/* Is anyone running this code? (code_in_use.h) Three looks, over the
 * scheduler's threads and, through an IPI, the other CPUs.
 *
 * A thread stopped in the range; then a CPU running in it. Between the
 * two a thread may have moved: been preempted after the first look on a
 * CPU the IPI then found running another thread, or resumed after the
 * IPI had passed its new CPU. Such a thread stopped somewhere, and can
 * only be in the range now if that is where it stopped (nothing enters
 * the range any more): the third look asks every thread that was
 * preempted or resumed meanwhile where it stopped. */
#include "kernel/code_in_use.h"
#include "kernel/nokprobe.h"
#include "kernel/sched.h"
#include "kernel/smp_call.h"

struct range {
	uintptr_t start;
	size_t len;
	bool found;
	const struct thread *self;	/* the caller: not looked at */
	unsigned long since;		/* the third look: events after this */
};

static bool in_range(const struct range *r, uintptr_t ip)
{
	return ip >= r->start && ip < r->start + r->len;
}
NOKPROBE_SYMBOL(in_range);

/* On every other CPU, through smp_call_on_others: is what this CPU's IPI
 * interrupted inside the range? */
static void check_interrupted_in(void *arg)
{
	struct range *r = arg;

	if (in_range(r, instruction_pointer(smp_call_regs())))
		__atomic_store_n(&r->found, true, __ATOMIC_RELAXED);
}
NOKPROBE_SYMBOL(check_interrupted_in);

/* The first look: a thread stopped (preempted) in the range now. */
static void stopped_in(const struct thread *t, void *arg)
{
	struct range *r = arg;

	if (t != r->self && t->preempted_regs && in_range(r, instruction_pointer(t->preempted_regs)))
		r->found = true;
}

/* The third look: a thread preempted or resumed since the first, which
 * had stopped in the range. */
static void moved_from(const struct thread *t, void *arg)
{
	struct range *r = arg;

	if (t != r->self && t->preempt_event > r->since && in_range(r, t->stopped_at))
		r->found = true;
}

bool code_in_use(uintptr_t start, size_t len)
{
	struct range r = { .start = start, .len = len, .self = current_thread() };

	r.since = sched_for_each_thread(stopped_in, &r);
	if (r.found)
		return true;
	smp_call_on_others(check_interrupted_in, &r);
	if (r.found)
		return true;
	sched_for_each_thread(moved_from, &r);
	return r.found;
}
