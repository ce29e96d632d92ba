/* The lists of threads the function tracer traces: see ftrace_pid.h. */
#include "kernel/mm/heap.h"
#include "kernel/nokprobe.h"
#include "kernel/sched.h"
#include "kernel/trace/ftrace_pid.h"
#include "lib/sorted.h"

static struct ftrace_pid_set *lists[FTRACE_PID_LISTS];

static void set_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct ftrace_pid_set, rcu));
}

void ftrace_pid_replace(enum ftrace_pid_list which, struct ftrace_pid_set *set)
{
	struct ftrace_pid_set *old = lists[which];

	rcu_assign_pointer(lists[which], set);
	if (old)
		call_rcu(&old->rcu, set_free_rcu);
}

const struct ftrace_pid_set *ftrace_pid_get(enum ftrace_pid_list which)
{
	return rcu_dereference(lists[which]);
}

/* Asked on each call by function_graph: notrace, and with no call. */
bool notrace ftrace_pid_filtering(void)
{
	return rcu_dereference(lists[FTRACE_PIDS]) || rcu_dereference(lists[FTRACE_NO_PIDS]);
}

/* What it calls is all inline: a traced call reaches no site here. */
bool notrace ftrace_pid_traced(void)
{
	const struct ftrace_pid_set *only = rcu_dereference(lists[FTRACE_PIDS]);
	const struct ftrace_pid_set *never = rcu_dereference(lists[FTRACE_NO_PIDS]);
	uintptr_t id = current_thread()->id;

	if (only && !sorted_have(only->ids, only->count, id))
		return false;
	return !never || !sorted_have(never->ids, never->count, id);
}
NOKPROBE_SYMBOL(ftrace_pid_traced);
