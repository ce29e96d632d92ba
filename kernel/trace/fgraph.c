/* The function graph service: see fgraph.h.
 *
 * At a traced call's entry (fgraph_entry_call, from the call sites) the
 * user's entryfunc decides; a call it wants gets the thread's next
 * frame, whose rethook_node the return service links into the thread's
 * hooked calls. The call returns into fgraph_trampoline, and
 * fgraph_trampoline_handler takes the frame back and calls retfunc.
 * The frames of a thread's stack are used and freed newest first, as
 * its calls return (the return service checks that order): the stack
 * needs only its depth. Only the thread itself touches its stack, with
 * interrupts off, so it takes no lock.
 *
 * Every thread there is gets a stack when a user registers, and each
 * new thread gets one at its clone while a user is registered. When the
 * user goes, a stack with no hooked call is freed at once; the others
 * when their thread's last hooked call returns (a call hooked while
 * the tracer was on may return long after it stopped: a thread asleep
 * inside it), or when the thread ends. Frees wait a grace period
 * (call_rcu): what reads another thread's stack (the walk that frees
 * the idle ones) does so with interrupts off. The pointer in struct
 * thread is NULL while there is no stack, and STACK_GONE once the
 * thread has ended (so that a walk cannot give an ending thread a new
 * one). */
#include "kernel/trace/fgraph.h"
#include "kernel/arch.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/nokprobe.h"
#include "kernel/percpu.h"
#include "kernel/rcu.h"
#include "kernel/rethook.h"
#include "kernel/sched.h"
#include "lib/errno.h"
#include <asm/irq.h>

struct fgraph_stack {
	struct rcu_head rcu;		/* its free, once it is no thread's */
	unsigned int depth;		/* frames in use: frames[0..depth) */
	unsigned int roots, quiet;	/* of those, marked FGRAPH_ROOT, FGRAPH_QUIET */
	struct fgraph_frame frames[FGRAPH_DEPTH];
};

#define STACK_GONE ((struct fgraph_stack *)1)

static struct mutex fgraph_mutex = MUTEX_INIT(fgraph_mutex, "fgraph");
/* The registered user, read on every hit (NULL: none). */
static struct fgraph_ops *graph_user;
static bool count_sleep = true;
static DEFINE_PER_CPU(unsigned long, missed);

extern char fgraph_trampoline[];

static void fgraph_return(struct rethook_node *node, struct pt_regs *regs);
static void drop_stack(struct thread *t, struct fgraph_stack *s);
static void fgraph_reclaim(struct rethook_node *node);

static const struct rethook fgraph_rethook = {
	.handler = fgraph_return,
	.reclaim = fgraph_reclaim,
	.trampoline = fgraph_trampoline,
};

static inline struct fgraph_stack *notrace stack_of(const struct thread *t)
{
	struct fgraph_stack *s = __atomic_load_n(&t->graph_stack, __ATOMIC_ACQUIRE);

	return s == STACK_GONE ? NULL : s;
}

/* Take the frame on top of s: the one whose call returns (or whose
 * thread ends) now. */
static inline struct fgraph_frame *notrace pop(struct fgraph_stack *s)
{
	struct fgraph_frame *f = &s->frames[--s->depth];

	s->roots -= (f->marks & FGRAPH_ROOT) != 0;
	s->quiet -= (f->marks & FGRAPH_QUIET) != 0;
	return f;
}

static void notrace fgraph_entry_call(uintptr_t ip, uintptr_t parent_ip, struct ftrace_ops *ops,
				      struct pt_regs *regs)
{
	struct thread *self = current_thread();
	struct fgraph_stack *s = stack_of(self);
	struct fgraph_ops *user = __atomic_load_n(&graph_user, __ATOMIC_ACQUIRE);
	unsigned long flags;
	struct fgraph_frame *f;
	uint64_t now;
	int marks;

	(void)parent_ip;
	(void)ops;
	if (!user)
		return;
	flags = arch_irq_save();
	if (!s || s->depth == FGRAPH_DEPTH) {
		(*this_cpu_ptr(&missed))++;
		goto out;
	}
	now = arch_cycles();
	marks = user->entryfunc(&(struct fgraph_ent){
		.func = ip, .calltime = now, .depth = s->depth, .roots = s->roots,
		.quiet = s->quiet, .frames = s->frames,
	});
	if (marks < 0)
		goto out;
	f = &s->frames[s->depth++];
	f->func = ip;
	f->calltime = now;
	f->off_cpu = self->off_cpu;
	f->user = 0;
	f->marks = (unsigned int)marks;
	s->roots += (f->marks & FGRAPH_ROOT) != 0;
	s->quiet += (f->marks & FGRAPH_QUIET) != 0;
	f->node.rethook = &fgraph_rethook;
	rethook_hook(&self->rethooks, &fgraph_rethook, &f->node, regs);
out:
	arch_irq_restore(flags);
}
NOKPROBE_SYMBOL(fgraph_entry_call);

/* The callback reaches no site (tests/host/check_ftrace_sites.py
 * follows it), so it needs no recursion guard. */
struct ftrace_ops fgraph_ops = {
	.func = fgraph_entry_call, .flags = FTRACE_OPS_SAVE_REGS | FTRACE_OPS_RECURSION,
};

/* The return service's handler (inlined into the trampoline's C half):
 * the call of the thread's top frame returned. */
static void notrace fgraph_return(struct rethook_node *node, struct pt_regs *regs)
{
	uint64_t now = arch_cycles();
	struct thread *self = current_thread();
	struct fgraph_stack *s = stack_of(self);
	struct fgraph_frame *f = pop(s);
	struct fgraph_ops *user = __atomic_load_n(&graph_user, __ATOMIC_ACQUIRE);
	uint64_t calltime = f->calltime;

	(void)node;	/* f, as the order of returns makes it */
	(void)regs;
	/* Without sleep-time, the call began later by its time switched
	 * out (never past its return: that time lies within the call). */
	if (!__atomic_load_n(&count_sleep, __ATOMIC_RELAXED))
		calltime = MIN(calltime + (self->off_cpu - f->off_cpu), now);
	if (user)
		user->retfunc(&(struct fgraph_ret){
			.func = f->func, .depth = s->depth, .marks = f->marks,
			.calltime = calltime, .rettime = now, .frames = s->frames,
		});
	else if (!s->depth)
		drop_stack(current_thread(), s);	/* its last call of a user gone */
}
NOKPROBE_SYMBOL(fgraph_return);

/* The C half of fgraph_trampoline (fgraph_trampoline.S). */
void notrace fgraph_trampoline_handler(struct pt_regs *regs)
{
	rethook_return(&current_thread()->rethooks, &fgraph_rethook, regs);
}
NOKPROBE_SYMBOL(fgraph_trampoline_handler);

/* The thread is ending inside the call: the frame is free again (the
 * service reclaims newest first, as returns come). */
static void notrace fgraph_reclaim(struct rethook_node *node)
{
	(void)node;
	pop(stack_of(current_thread()));
}
NOKPROBE_SYMBOL(fgraph_reclaim);

static void free_stack(struct rcu_head *head)
{
	kfree(container_of(head, struct fgraph_stack, rcu));
}

/* Take s from t, if it is still t's, and free it after a grace period.
 * Safe anywhere (it runs on a return, with interrupts off). */
static void notrace drop_stack(struct thread *t, struct fgraph_stack *s)
{
	if (__atomic_compare_exchange_n(&t->graph_stack, &s, NULL, false, __ATOMIC_ACQ_REL,
					__ATOMIC_RELAXED))
		call_rcu(&s->rcu, free_stack);
}
NOKPROBE_SYMBOL(drop_stack);

/* Give t the stack s unless it has one (or has ended): whether it took
 * s. */
static bool give_stack(struct thread *t, struct fgraph_stack *s)
{
	struct fgraph_stack *none = NULL;

	return __atomic_compare_exchange_n(&t->graph_stack, &none, s, false, __ATOMIC_RELEASE,
					   __ATOMIC_RELAXED);
}

static int fgraph_clone(struct thread *t)
{
	struct fgraph_stack *s;

	if (!__atomic_load_n(&graph_user, __ATOMIC_ACQUIRE))
		return 0;
	s = kzalloc(sizeof(*s));
	if (s && !give_stack(t, s))
		kfree(s);
	return 0;	/* with no memory, the thread's calls are missed */
}
THREAD_CLONE_HOOK(fgraph_clone);

/* Its hooked calls will never return: the return service gives their
 * nodes back now (fgraph_reclaim), before the frames go. The thread's
 * own calls from here on are not hooked (STACK_GONE). */
static void notrace fgraph_thread_exit(struct thread *t)
{
	struct fgraph_stack *s;

	rethook_thread_reclaim(t);
	s = __atomic_exchange_n(&t->graph_stack, STACK_GONE, __ATOMIC_ACQ_REL);
	if (s)
		call_rcu(&s->rcu, free_stack);
}
NOKPROBE_SYMBOL(fgraph_thread_exit);
THREAD_EXIT_HOOK(fgraph_thread_exit);

/* A round of make_stacks: threads with no stack yet are counted, and
 * given one of the spares while there are some (under the scheduler's
 * lock, which keeps a thread from being freed meanwhile). */
struct stack_round {
	struct fgraph_stack **spare;
	size_t have, needed, given;
};

static void count_or_give(const struct thread *ct, void *arg)
{
	struct thread *t = (struct thread *)ct;	/* only its graph_stack is written */
	struct stack_round *r = arg;

	if (__atomic_load_n(&t->graph_stack, __ATOMIC_ACQUIRE))
		return;
	r->needed++;
	if (r->have && give_stack(t, r->spare[r->have - 1])) {
		r->have--;
		r->given++;
	}
}

static void free_spares(struct stack_round *r)
{
	while (r->have)
		kfree(r->spare[--r->have]);
	kfree(r->spare);
	r->spare = NULL;
}

/* Give every thread there is a stack, with a user registered: threads
 * made from now on get theirs at clone; a round that found a spare for
 * each thread that had none is the last. */
static int make_stacks(void)
{
	struct stack_round r = { 0 };

	for (;;) {
		size_t want;

		r.needed = r.given = 0;
		sched_for_each_thread(count_or_give, &r);
		if (r.needed == r.given)
			break;
		want = r.needed - r.given + 4;	/* and a few for threads made meanwhile */
		free_spares(&r);
		r.spare = kzalloc(want * sizeof(*r.spare));
		if (!r.spare)
			return -ENOMEM;
		while (r.have < want && (r.spare[r.have] = kzalloc(sizeof(struct fgraph_stack))))
			r.have++;
		if (r.have < want) {
			free_spares(&r);
			return -ENOMEM;
		}
	}
	free_spares(&r);
	return 0;
}

/* Free the stack of a thread with no hooked call, after the user went:
 * no entry runs any more, so a depth of 0 stays 0. */
static void drop_if_idle(const struct thread *ct, void *arg)
{
	struct thread *t = (struct thread *)ct;	/* only its graph_stack is written */
	struct fgraph_stack *s = __atomic_load_n(&t->graph_stack, __ATOMIC_ACQUIRE);

	(void)arg;
	if (s && s != STACK_GONE && !__atomic_load_n(&s->depth, __ATOMIC_RELAXED))
		drop_stack(t, s);
}

int register_ftrace_graph(struct fgraph_ops *gops)
{
	int err = 0;

	mutex_lock(&fgraph_mutex);
	if (graph_user) {
		mutex_unlock(&fgraph_mutex);
		return -EBUSY;
	}
	__atomic_store_n(&graph_user, gops, __ATOMIC_SEQ_CST);
	/* A return that saw no user may be dropping its thread's stack:
	 * after a grace period every such drop is done, and the walk sees
	 * the threads without one. */
	synchronize_rcu();
	err = make_stacks();
	if (!err)
		err = register_ftrace_function(&fgraph_ops);
	if (err) {
		__atomic_store_n(&graph_user, NULL, __ATOMIC_RELEASE);
		synchronize_rcu();
		sched_for_each_thread(drop_if_idle, NULL);
	}
	mutex_unlock(&fgraph_mutex);
	return err;
}

void unregister_ftrace_graph(struct fgraph_ops *gops)
{
	mutex_lock(&fgraph_mutex);
	if (graph_user == gops) {
		unregister_ftrace_function(&fgraph_ops);
		__atomic_store_n(&graph_user, NULL, __ATOMIC_RELEASE);
		/* A return runs with interrupts off, a read-side section:
		 * after this none still calls gops. */
		synchronize_rcu();
		sched_for_each_thread(drop_if_idle, NULL);
	}
	mutex_unlock(&fgraph_mutex);
}

void fgraph_sleep_time_control(bool on)
{
	__atomic_store_n(&count_sleep, on, __ATOMIC_RELAXED);
}

uint64_t fgraph_missed(void)
{
	return per_cpu_sum(&missed);
}

unsigned int fgraph_depth(void)
{
	unsigned long flags = arch_irq_save();
	const struct fgraph_stack *s = stack_of(current_thread());
	unsigned int depth = s ? s->depth : 0;

	arch_irq_restore(flags);
	return depth;
}
