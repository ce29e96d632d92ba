/*
 * Kprobes on the call sites: Linux's KPROBES_ON_FTRACE (docs/probes.md).
 *
 * A probe at a function's call site (kernel/trace/ftrace_sites.h: the
 * NOP the compiler leaves at its entry) needs no breakpoint: the site
 * can call. Its point is on_ftrace (probe_point.h), and arming it adds
 * its address to the set of sites that one ftrace_ops of the probes
 * wants; the site's call then runs kprobe_ftrace_handler
 * (kprobe_trap.c), which runs the handlers as a breakpoint hit would,
 * with no trap, nothing to step, and no jump to optimize. The ops is
 * FTRACE_OPS_IPMODIFY: a pre-handler that moves the instruction pointer
 * and returns 1 moves the call (as fault_inject.c's does).
 *
 * Ordering. Arming happens under kprobe_mutex, often inside a text_poke
 * batch (registering many probes at once). The function tracer's core
 * patches sites in batches of its own, under ftrace_lock, which it takes
 * before text_mutex; so the set is only noted here while the batch
 * runs, and handed over by kprobe_ftrace_update_locked once the batch
 * is over, with kprobe_mutex still held: kprobe_mutex, then
 * ftrace_lock, then text_mutex, for every user of the sites. A point is
 * published before it is armed and unpublished only after its disarm
 * was noted: a call that comes from a site in between finds no point
 * and goes on, which is the state the site is about to have anyway.
 *
 * The ops is registered while the set holds a site, so that a kernel
 * with no such probe has no ops to walk on every traced call.
 */
#include "kernel/probes/kprobes_internal.h"
#include "kernel/trace/ftrace.h"
#include "kernel/trace/ftrace_sites.h"
#include "kernel/mm/heap.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/sorted.h"
#include "lib/string.h"

/* Its handler guards itself, as a breakpoint hit does: a hit while this
 * CPU is busy with a probe is counted in the probe's nmissed. */
static struct ftrace_ops kprobe_ftrace_ops = {
	.func = kprobe_ftrace_handler,
	.flags = FTRACE_OPS_SAVE_REGS | FTRACE_OPS_IPMODIFY | FTRACE_OPS_RECURSION,
};

/* The armed sites, sorted, each once (a point has one address); room for
 * one per point on a site. Under kprobe_mutex. */
static uintptr_t *armed;
static size_t armed_count, room, points;
static bool changed, registered;

int __kprobes kprobe_ftrace_reserve_locked(void)
{
	if (points == room) {
		size_t more = room ? 2 * room : 16;
		uintptr_t *bigger = kmalloc(more * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		memcpy(bigger, armed, armed_count * sizeof(*bigger));
		kfree(armed);
		armed = bigger;
		room = more;
	}
	points++;
	return 0;
}

/* With no point on a site left, the room goes too (the heap is back
 * where it was). */
void __kprobes kprobe_ftrace_unreserve_locked(void)
{
	if (--points == 0) {
		kfree(armed);
		armed = NULL;
		room = 0;
	}
}

void __kprobes kprobe_ftrace_arm_locked(struct probe_point *pp, bool arm)
{
	uintptr_t addr = (uintptr_t)pp->addr;
	size_t at = sorted_place(armed, armed_count, addr);
	bool there = at < armed_count && armed[at] == addr;

	if (arm == there)
		return;
	if (arm)
		memmove(&armed[at + 1], &armed[at], (armed_count - at) * sizeof(*armed));
	else
		memmove(&armed[at], &armed[at + 1], (armed_count - at - 1) * sizeof(*armed));
	if (arm)
		armed[at] = addr;
	armed_count += arm ? 1 : -1;
	changed = true;
}

/* The armed sites as a set the ops may own, or NULL with no memory. */
static struct ftrace_site_set __kprobes *armed_set(void)
{
	struct ftrace_site_set *set = kmalloc(sizeof(*set) + armed_count * sizeof(uintptr_t));

	if (set) {
		set->count = armed_count;
		memcpy(set->ips, armed, armed_count * sizeof(uintptr_t));
	}
	return set;
}

/* An error here leaves a probe armed whose site does not call (or the
 * other way round: a disarmed one whose calls find no point, which is
 * harmless): said in the log, and tried again at the next change. */
void __kprobes kprobe_ftrace_update_locked(void)
{
	struct ftrace_site_set *set;
	int err = 0;

	if (!changed)
		return;
	if (!armed_count) {
		if (registered)
			err = unregister_ftrace_function(&kprobe_ftrace_ops);
		registered = false;
		/* Unregistered, the ops wants nothing: its set can go. */
		if (!err)
			err = ftrace_set_filter(&kprobe_ftrace_ops, NULL);
	} else {
		set = armed_set();
		err = set ? ftrace_set_filter(&kprobe_ftrace_ops, set) : -ENOMEM;
		if (!err && !registered) {
			err = register_ftrace_function(&kprobe_ftrace_ops);
			registered = !err;
		}
	}
	changed = err != 0;
	if (err)
		printk(KERN_WARNING "kprobes: the call sites of %zu probes could not be patched: %d\n",
		       armed_count, err);
}
