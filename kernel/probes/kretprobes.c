/*
 * kretprobes: a handler when a function returns.
 *
 * At the function's entry, a kprobe (pre_handler_kretprobe) takes a free
 * instance and asks the return service (kernel/rethook.h) to hook the
 * call's return, with the instance as its record. The service keeps the
 * thread's hooked calls, so nested and recursive calls stack up in order
 * (beside the calls other users hooked); when the function returns into
 * its trampoline, it calls kretprobe_return with the instance, which
 * runs the kretprobe's handler and gives the instance back. A call the
 * service has no room for (too deep a nesting) is missed, as is one with
 * no free instance.
 *
 * Instances are allocated at registration, maxactive of them in one block
 * (a pool). The block is cut into parts, one per CPU (as many as there
 * are CPUs, up to maxactive): a hit looks for a free instance in its own
 * CPU's part first, and only then in the others', in turn, stealing one
 * from a part that has one. Only when none is free anywhere is the call
 * missed, counted in this CPU's copy of the pool's missed count (per-CPU
 * memory, added into rp->nmissed at unregistration). So with every CPU
 * calling the probed function, each claims from instances of its own,
 * and no cache line goes back and forth between them; yet no CPU misses
 * while another part has a free instance, and there are never more than
 * maxactive in use. A part is only where a search begins: an instance
 * belongs to its part by its place in the block, so a return gives it
 * back to its own part, whichever CPU the thread returns on.
 *
 * No lock, and no count of instances in use: a hit and a return each
 * change one word of the instance they use, and CPUs never wait for each
 * other, nor a hit for code it interrupted. Each instance has a state:
 *
 *   FREE      in the pool;
 *   IN_USE    tracking a call: a hit claims it from FREE with a
 *             compare-and-swap, the return stores FREE again;
 *   ORPHANED  tracking a call whose kretprobe has been unregistered.
 *
 * The pool must outlive its kretprobe while calls are in flight (a thread
 * may sleep inside the probed function for a long time), and be freed
 * when the last of them returns. Unregistering marks the pool stopped,
 * and waits a grace period: from then on, every return sees the pool
 * stopped and runs no handler, and none still runs that saw it going
 * (returns run with interrupts off, a read-side section). Only then is
 * every instance's rp cleared: a handler that is running may read it
 * (get_kretprobe) to the end. Then each IN_USE instance becomes
 * ORPHANED, counted in the pool's users (plus one for the unregistering
 * thread while it does so). A return that sees rp set gives its instance back with
 * one release store; one that sees it NULL takes the other way,
 * which swaps in FREE and, if it took back an orphan, drops a user. The
 * last user frees the pool - after a grace period, through call_rcu,
 * because it may be a return, which must not call into the heap (its
 * lock may be held by the very code the return interrupted).
 *
 * So the hit and the return of a registered kretprobe pay for one
 * compare-and-swap and one store (and, if the own part is full, the look
 * at the others'); the counting is done only for calls that outlive
 * their kretprobe.
 *
 * The return service calls back with interrupts off, or (an optimized
 * entry on aarch64, which leaves them on) with this CPU busy handling a
 * probe, when an interrupt misses every probe it hits: a hit and the
 * return of the same thread never interleave on one CPU.
 */
#include "kernel/cpu.h"
#include "lib/export.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/percpu_alloc.h"
#include "kernel/nokprobe.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/rethook.h"
#include "kernel/sched.h"
#include "lib/errno.h"

/* An instance's state (struct kretprobe_instance's state field). */
enum {
	INSTANCE_FREE,
	INSTANCE_IN_USE,
	INSTANCE_ORPHANED,
};

struct kretprobe_pool {
	/* Who still needs the pool once its kretprobe is gone: the orphaned
	 * instances, and the unregistering thread while it marks them (the
	 * 1 the pool starts with). Not touched while the kretprobe lives. */
	unsigned long users;
	/* Set when unregistering begins: returns run no handler from then
	 * on, though the instances still name their kretprobe. */
	bool stopped;
	int count;		/* instances */
	size_t stride;		/* bytes from one instance to the next */
	/* Calls missed for want of a free instance, counted by each CPU in
	 * its own copy (per-CPU memory) while the kretprobe is registered. */
	unsigned long *missed;
	/* The first instance of CPU id's part. Written once, when the pool is
	 * made, then only read: every CPU may keep a copy in its cache. */
	int part_start[MAX_CPUS];
	struct rcu_head rcu;
	char instances[] __attribute__((aligned(16)));
};

static struct kretprobe_instance __kprobes *pool_instance(struct kretprobe_pool *pool, int i)
{
	return (struct kretprobe_instance *)(pool->instances + (size_t)i * pool->stride);
}

static void __kprobes pool_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct kretprobe_pool, rcu));
}

/* Drop one user of the pool; the last one frees it. */
static void __kprobes pool_put(struct kretprobe_pool *pool)
{
	if (__atomic_sub_fetch(&pool->users, 1, __ATOMIC_ACQ_REL) == 0)
		call_rcu(&pool->rcu, pool_free_rcu);
}

struct kretprobe_instance __kprobes *kretprobe_pool_take(struct kretprobe_pool *pool,
							 unsigned int cpu)
{
	int i = pool->part_start[cpu];

	/* From the start of cpu's part to the end of the block, then from
	 * the block's start: its own part first, then the others' in turn. */
	for (int n = 0; n < pool->count; n++) {
		struct kretprobe_instance *ri = pool_instance(pool, i);
		uint32_t free = INSTANCE_FREE;

		/* The plain load first keeps a busy instance from being claimed
		 * for nothing (an exclusive access on aarch64); the acquire
		 * orders this hit's use of the instance after the previous
		 * owner's, which ended with a release. */
		if (__atomic_load_n(&ri->state, __ATOMIC_RELAXED) == INSTANCE_FREE &&
		    __atomic_compare_exchange_n(&ri->state, &free, INSTANCE_IN_USE, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return ri;
		if (++i == pool->count)
			i = 0;
	}
	return NULL;
}

/* (See kprobes_internal.h.) The kretprobe was seen registered in the same
 * read-side section: unregistering cannot have marked the instance yet
 * (it waits for a grace period first), so it is IN_USE, and one store
 * frees it, in the part it came from. The store is the last touch of the
 * instance. */
void __kprobes kretprobe_pool_give_back(struct kretprobe_instance *ri)
{
	__atomic_store_n(&ri->state, INSTANCE_FREE, __ATOMIC_RELEASE);
}

/* Give back an instance whose kretprobe may be gone (seen unregistered,
 * or not known): if unregistering had already orphaned it, the pool
 * loses a user. */
static __noinline void __kprobes put_instance(struct kretprobe_instance *ri)
{
	struct kretprobe_pool *pool = ri->pool;	/* before the instance is free */

	if (__atomic_exchange_n(&ri->state, INSTANCE_FREE, __ATOMIC_ACQ_REL) == INSTANCE_ORPHANED)
		pool_put(pool);
}

/* The return service's handler: the call of the instance whose node is
 * node returned, and regs show the real return address.
 *
 * The kretprobe's handler runs with this CPU marked busy, so that probes
 * it hits count as missed. Nothing else is being handled here: a return
 * only reaches the trampoline from the probed function's own code, never
 * from inside a handler (a probed call made by a handler is missed at
 * its entry and has no instance). This runs with interrupts off, a
 * read-side section: unregister_kretprobe stops the pool, then waits a
 * grace period before it clears ri->rp, so an rp seen here, and the
 * handler's own get_kretprobe(ri), stay valid to the end. */
static inline void __kprobes kretprobe_return(struct rethook_node *node, struct pt_regs *regs)
{
	struct kretprobe_instance *ri = container_of(node, struct kretprobe_instance, node);
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();
	struct kretprobe *rp;

	kprobe_set_status(KPROBE_HIT_ACTIVE);
	rp = __atomic_load_n(&ri->pool->stopped, __ATOMIC_RELAXED) ? NULL : get_kretprobe(ri);
	kcb->running = rp ? &rp->kp : NULL;
	if (rp && rp->handler)
		rp->handler(ri, regs);
	reset_ctlblk();
	if (likely(rp))
		kretprobe_pool_give_back(ri);
	else
		put_instance(ri);	/* perhaps an orphan */
}

/* The return service's reclaim: ri's thread is ending inside the call,
 * which will never return. */
static void __kprobes kretprobe_reclaim(struct rethook_node *node)
{
	put_instance(container_of(node, struct kretprobe_instance, node));
}

/* kretprobe_trampoline.S: the kretprobes' own trampoline, into which the
 * probed calls return. */
extern char kretprobe_trampoline[];

static const struct rethook kretprobe_rethook = {
	.handler = kretprobe_return,
	.reclaim = kretprobe_reclaim,
	.trampoline = kretprobe_trampoline,
};

/* The C half of kretprobe_trampoline, called from it with the return's
 * registers: the service takes the call off the thread's list and runs
 * kretprobe_return (inlined here) on its instance. */
void __kprobes kretprobe_trampoline_handler(struct pt_regs *regs)
{
	rethook_return(&current_thread()->rethooks, &kretprobe_rethook, regs);
}

static int __kprobes pre_handler_kretprobe(struct kprobe *p, struct pt_regs *regs)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct thread *self = current_thread();
	struct kretprobe_instance *ri;

	ri = kretprobe_pool_take(rp->pool, this_cpu_field(id));
	if (!ri) {
		/* Interrupts are off, or (an optimized hit on aarch64) this CPU
		 * is busy and an interrupt misses this probe at its entry: no
		 * other increment of this copy can come in between. */
		(*this_cpu_ptr(rp->pool->missed))++;
		return 0;
	}
	ri->task = self;
	if (rp->entry_handler && rp->entry_handler(ri, regs)) {
		kretprobe_pool_give_back(ri);	/* this hit found rp registered */
		return 0;
	}
	rethook_hook(&self->rethooks, &kretprobe_rethook, &ri->node, regs);
	return 0;
}

/* After the pool was stopped and a grace period passed, no handler runs
 * that may read an instance's rp: make the instances belong to no
 * kretprobe, which may be freed once unregistering returns. */
static void __kprobes detach_instances(struct kretprobe_pool *pool)
{
	for (int i = 0; i < pool->count; i++)
		__atomic_store_n(&pool_instance(pool, i)->rp, NULL, __ATOMIC_RELAXED);
}

/* After detach_instances: orphan the instances still
 * in use, one user each, then drop this thread's own use. The pool is
 * freed here if no call is in flight, or else by the return of the
 * last. A return may give its orphan back while this runs: the user is
 * added before the instance is marked, and this thread's own use keeps
 * the count above zero until every instance has been looked at. */
static void __kprobes release_pool(struct kretprobe_pool *pool)
{
	for (int i = 0; i < pool->count; i++) {
		struct kretprobe_instance *ri = pool_instance(pool, i);
		uint32_t in_use = INSTANCE_IN_USE;

		__atomic_fetch_add(&pool->users, 1, __ATOMIC_RELAXED);
		if (!__atomic_compare_exchange_n(&ri->state, &in_use, INSTANCE_ORPHANED, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			__atomic_fetch_sub(&pool->users, 1, __ATOMIC_RELAXED);	/* free */
	}
	pool_put(pool);
}

int __kprobes kretprobe_default_maxactive(void)
{
	return MAX(10, 2 * (int)cpu_count());
}

struct kretprobe_pool __kprobes *kretprobe_pool_create(struct kretprobe *rp, unsigned int parts)
{
	size_t stride = ALIGN_UP(sizeof(struct kretprobe_instance) + rp->data_size, 16);
	struct kretprobe_pool *pool = kzalloc(sizeof(*pool) + rp->maxactive * stride);

	if (!pool)
		return NULL;
	pool->missed = alloc_percpu(unsigned long);
	if (!pool->missed) {
		kfree(pool);
		return NULL;
	}
	pool->users = 1;
	pool->count = rp->maxactive;
	pool->stride = stride;
	/* Part k is instances [k * count / parts, (k + 1) * count / parts):
	 * the parts differ in size by one at most. CPU id's is part id % parts. */
	for (unsigned int id = 0; id < MAX_CPUS; id++)
		pool->part_start[id] = (int)(id % parts * (unsigned int)pool->count / parts);
	for (int i = 0; i < pool->count; i++) {
		pool_instance(pool, i)->pool = pool;
		pool_instance(pool, i)->rp = rp;
		pool_instance(pool, i)->node.rethook = &kretprobe_rethook;
	}
	return pool;
}

void __kprobes kretprobe_pool_destroy(struct kretprobe_pool *pool)
{
	free_percpu(pool->missed);
	kfree(pool);
}

unsigned long __kprobes kretprobe_nmissed(const struct kretprobe *rp)
{
	return rp->nmissed + (rp->pool ? per_cpu_sum(rp->pool->missed) : 0);
}
EXPORT_SYMBOL(kretprobe_nmissed);

static struct kprobe __kprobes *nth_kretprobe(void *array, int i)
{
	return &((struct kretprobe **)array)[i]->kp;
}

static int __kprobes register_kretprobe_of(struct kprobe *p)
{
	return register_kretprobe(container_of(p, struct kretprobe, kp));
}

/* Unregistering, before the kprobe is unlinked: from here on, every
 * return runs no handler. */
static void __kprobes stop_pool_locked(struct kprobe *p)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);

	if (rp->pool)
		__atomic_store_n(&rp->pool->stopped, true, __ATOMIC_RELAXED);
}

/* After the grace period no hit can be taking an instance, nor counting a
 * miss: add the CPUs' missed counts into rp->nmissed, and let go of the
 * pool (freed now, or by the return of its last call in flight). */
static void __kprobes drop_pool(struct kprobe *p)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct kretprobe_pool *pool = rp->pool;

	if (!pool)
		return;
	rp->nmissed = kretprobe_nmissed(rp);
	rp->pool = NULL;
	free_percpu(pool->missed);
	pool->missed = NULL;
	detach_instances(pool);
	release_pool(pool);
}

/* A report of a kretprobe (probe_report.h) counts the calls missed for
 * want of an instance among its misses, and tells of its instances. */
static void __kprobes report_pool_locked(const struct kprobe *p, struct kprobe_info *info)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);

	info->nmissed += kretprobe_nmissed(rp);
	info->instances_in_use = kretprobe_instances_in_use(rp);
	info->maxactive = rp->maxactive;
}

static const struct probe_type kretprobe_type = {
	.kind = KPROBE_KIND_R,
	.nth = nth_kretprobe,
	.register_one = register_kretprobe_of,
	.before_unlink_locked = stop_pool_locked,
	.after_grace_period = drop_pool,
	.report_locked = report_pool_locked,
};

int __kprobes register_kretprobe(struct kretprobe *rp)
{
	int err;

	/* Before anything is reset: the fields below belong to the live
	 * registration if there is one. */
	if (rp->kp.point)
		return -EEXIST;
	if (rp->maxactive <= 0)
		rp->maxactive = kretprobe_default_maxactive();
	rp->nmissed = 0;
	/* One part per CPU, and at least one instance in each. */
	rp->pool = kretprobe_pool_create(rp, MIN(cpu_count(), (unsigned int)rp->maxactive));
	if (!rp->pool)
		return -ENOMEM;
	rp->kp.pre_handler = pre_handler_kretprobe;
	rp->kp.post_handler = NULL;
	err = register_kprobe_kind(&rp->kp, &kretprobe_type);
	if (err) {
		kretprobe_pool_destroy(rp->pool);	/* never reachable by a hit */
		rp->pool = NULL;
	}
	return err;
}
EXPORT_SYMBOL(register_kretprobe);

void __kprobes unregister_kretprobe(struct kretprobe *rp)
{
	unregister_kretprobes(&rp, 1);
}
EXPORT_SYMBOL(unregister_kretprobe);

int __kprobes register_kretprobes(struct kretprobe **rps, int num)
{
	return register_probes(rps, num, &kretprobe_type);
}
EXPORT_SYMBOL(register_kretprobes);

void __kprobes unregister_kretprobes(struct kretprobe **rps, int num)
{
	unregister_probes(rps, num, &kretprobe_type);
}
EXPORT_SYMBOL(unregister_kretprobes);

int __kprobes disable_kretprobe(struct kretprobe *rp)
{
	return disable_kprobe(&rp->kp);
}
EXPORT_SYMBOL(disable_kretprobe);

int __kprobes enable_kretprobe(struct kretprobe *rp)
{
	return enable_kprobe(&rp->kp);
}
EXPORT_SYMBOL(enable_kretprobe);

int __kprobes kretprobe_instances_in_use(struct kretprobe *rp)
{
	struct kretprobe_pool *pool = rp->pool;
	int n = 0;

	for (int i = 0; pool && i < pool->count; i++)
		n += __atomic_load_n(&pool_instance(pool, i)->state, __ATOMIC_RELAXED) != INSTANCE_FREE;
	return n;
}
