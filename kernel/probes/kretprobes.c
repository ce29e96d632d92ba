/*
 * kretprobes: a handler when a function returns.
 *
 * At the function's entry, a kprobe (pre_handler_kretprobe) takes a free
 * instance, lets the back end swap the return address on the stack (or in
 * the link register) for the address of an assembly trampoline, and
 * records the real one in the instance. The instance goes at the head of
 * the calling thread's list, so nested and recursive calls stack up in
 * order. When the function returns, it "returns" into the trampoline,
 * which saves the registers and calls kretprobe_trampoline_handler: the
 * newest instance of this thread belongs to this return, its handler runs,
 * and the trampoline jumps to the real return address.
 *
 * Instances are allocated at registration, maxactive of them in one block
 * (a pool); when all are in use a call is missed and counted in
 * rp->nmissed.
 *
 * No lock. Taking an instance claims its in_use flag with a
 * compare-and-swap, and giving it back clears the flag, so CPUs never
 * wait for each other, and a hit never waits for code it interrupted.
 * The pool outlives the kretprobe while calls are in flight (a thread may
 * sleep inside the probed function for a long time): it counts its users,
 * one for the registration and one per instance in use, and whoever drops
 * the last frees it - after a grace period, through call_rcu, because
 * the last may be a return, which must not call into the heap (its lock
 * may be held by the very code the return interrupted).
 *
 * A thread's list of pending instances needs no lock: only that thread
 * adds to it (at a probed entry), removes from it (at the return, or
 * when it exits) or reads it (its own backtraces). Each of those runs
 * with interrupts off, or (an optimized entry on aarch64, which leaves
 * them on) with this CPU busy handling a probe, when an interrupt misses
 * every probe it hits and so neither adds nor removes an instance.
 */
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/heap.h"
#include "kernel/printk.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/sched.h"
#include "lib/errno.h"

struct kretprobe_pool {
	unsigned long users;	/* the registration + instances in use */
	int count;		/* instances */
	size_t stride;		/* bytes from one instance to the next */
	struct rcu_head rcu;
	char instances[] __attribute__((aligned(16)));
};

static struct kretprobe_instance *pool_instance(struct kretprobe_pool *pool, int i)
{
	return (struct kretprobe_instance *)(pool->instances + (size_t)i * pool->stride);
}

static void pool_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct kretprobe_pool, rcu));
}

/* Drop one user of the pool; the last one frees it. */
static void pool_put(struct kretprobe_pool *pool)
{
	if (__atomic_sub_fetch(&pool->users, 1, __ATOMIC_ACQ_REL) == 0)
		call_rcu(&pool->rcu, pool_free_rcu);
}

static struct kretprobe_instance *take_instance(struct kretprobe *rp)
{
	struct kretprobe_pool *pool = rp->pool;

	for (int i = 0; i < pool->count; i++) {
		struct kretprobe_instance *ri = pool_instance(pool, i);
		uint32_t free = 0;

		if (!__atomic_load_n(&ri->in_use, __ATOMIC_RELAXED) &&
		    __atomic_compare_exchange_n(&ri->in_use, &free, 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			__atomic_fetch_add(&pool->users, 1, __ATOMIC_RELAXED);
			return ri;
		}
	}
	return NULL;
}

static inline void put_instance(struct kretprobe_instance *ri)
{
	struct kretprobe_pool *pool = ri->pool;

	__atomic_store_n(&ri->in_use, 0, __ATOMIC_RELEASE);
	pool_put(pool);
}

static int pre_handler_kretprobe(struct kprobe *p, struct pt_regs *regs)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct kretprobe_instance *ri = take_instance(rp);
	struct thread *self;

	if (!ri) {
		__atomic_fetch_add(&rp->nmissed, 1, __ATOMIC_RELAXED);
		return 0;
	}
	self = current_thread();
	ri->task = self;
	if (rp->entry_handler && rp->entry_handler(ri, regs)) {
		put_instance(ri);
		return 0;
	}
	arch_prepare_kretprobe(ri, regs);
	ri->next = self->kretprobe_instances;
	self->kretprobe_instances = ri;
	return 0;
}

/* The trampoline met a return that is not the newest pending call of this
 * thread: the stack was unwound past a probed call, or corrupted. */
static __noreturn __noinline void kretprobe_bug(const struct thread *self,
						const struct kretprobe_instance *ri)
{
	if (!ri)
		panic("kretprobe BUG!: trampoline reached with no pending call in thread %s",
		      self->name);
	panic("kretprobe BUG!: Processing kretprobe %p @ %p", (void *)ri->rp, (void *)ri->ret_addr);
}

uintptr_t kretprobe_trampoline_handler(struct pt_regs *regs)
{
	struct thread *self = current_thread();
	struct kretprobe_instance *ri = self->kretprobe_instances;
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();
	struct kretprobe *rp;
	uintptr_t ret;

	/* Returns come newest first. */
	if (unlikely(!ri || !arch_kretprobe_matches(ri, regs)))
		kretprobe_bug(self, ri);
	self->kretprobe_instances = ri->next;

	/* The handler runs with this CPU marked busy, so that probes it hits
	 * count as missed. Nothing else is being handled here: a return only
	 * reaches the trampoline from the probed function's own code, never
	 * from inside a handler (a probed call made by a handler is missed at
	 * its entry and has no instance). This runs with interrupts off, a
	 * read-side section: unregister_kretprobe clears ri->rp, then waits a
	 * grace period, so an rp read here stays valid to the end. */
	kcb->status = KPROBE_HIT_ACTIVE;
	rp = get_kretprobe(ri);
	kcb->running = rp ? &rp->kp : NULL;
	if (rp && rp->handler) {
		/* It sees the real return address. */
		instruction_pointer_set(regs, (uintptr_t)ri->ret_addr);
		rp->handler(ri, regs);
	}
	reset_ctlblk(kcb);
	ret = (uintptr_t)ri->ret_addr;	/* before the instance is given back */
	put_instance(ri);
	return ret;
}

void kretprobe_thread_exit(struct thread *t)
{
	/* Interrupts stay off while the list is emptied: an interrupt hitting
	 * a kretprobe would push onto this thread's list meanwhile. */
	unsigned long flags = arch_irq_save();
	struct kretprobe_instance *ri = t->kretprobe_instances;

	/* Calls that will never return: the thread ends inside them. */
	t->kretprobe_instances = NULL;
	while (ri) {
		struct kretprobe_instance *next = ri->next;

		put_instance(ri);
		ri = next;
	}
	arch_irq_restore(flags);
}

uintptr_t kretprobe_real_return(uintptr_t ret, uintptr_t stack_slot)
{
	struct kretprobe_instance *ri;
	uintptr_t real = ret;
	unsigned long flags;

	if (ret != arch_kretprobe_trampoline_addr())
		return ret;
	flags = arch_irq_save();
	for (ri = current_thread()->kretprobe_instances; ri; ri = ri->next) {
		if (arch_kretprobe_slot_matches(ri, stack_slot)) {
			real = (uintptr_t)ri->ret_addr;
			break;
		}
	}
	arch_irq_restore(flags);
	return real;
}

/* Make the pool's instances belong to no kretprobe: calls in flight
 * return without a handler. */
static void detach_instances(struct kretprobe_pool *pool)
{
	for (int i = 0; i < pool->count; i++)
		__atomic_store_n(&pool_instance(pool, i)->rp, NULL, __ATOMIC_RELAXED);
}

int kretprobe_default_maxactive(void)
{
	return MAX(10, 2 * (int)cpu_count());
}

/* maxactive instances of data_size bytes of data each, all free. */
static struct kretprobe_pool *pool_create(struct kretprobe *rp)
{
	size_t stride = ALIGN_UP(sizeof(struct kretprobe_instance) + rp->data_size, 16);
	struct kretprobe_pool *pool = kzalloc(sizeof(*pool) + rp->maxactive * stride);

	if (!pool)
		return NULL;
	pool->users = 1;
	pool->count = rp->maxactive;
	pool->stride = stride;
	for (int i = 0; i < pool->count; i++) {
		pool_instance(pool, i)->pool = pool;
		pool_instance(pool, i)->rp = rp;
	}
	return pool;
}

int register_kretprobe(struct kretprobe *rp)
{
	int err;

	/* Before anything is reset: the fields below belong to the live
	 * registration if there is one. */
	if (rp->kp.point)
		return -EEXIST;
	if (rp->maxactive <= 0)
		rp->maxactive = kretprobe_default_maxactive();
	rp->nmissed = 0;
	rp->pool = pool_create(rp);
	if (!rp->pool)
		return -ENOMEM;
	rp->kp.pre_handler = pre_handler_kretprobe;
	rp->kp.post_handler = NULL;
	err = register_kprobe_kind(&rp->kp, KPROBE_KIND_R);
	if (err) {
		kfree(rp->pool);	/* never reachable by a hit */
		rp->pool = NULL;
	}
	return err;
}

void unregister_kretprobe(struct kretprobe *rp)
{
	unregister_kretprobes(&rp, 1);
}

int register_kretprobes(struct kretprobe **rps, int num)
{
	for (int i = 0; i < num; i++) {
		int err = register_kretprobe(rps[i]);

		if (err) {
			unregister_kretprobes(rps, i);
			return err;
		}
	}
	return 0;
}

/* As unregister_kprobes: unlink all, then one grace period, after which
 * no hit can be taking an instance; then let go of the pools (each freed
 * now, or by the return of its last call in flight). */
void unregister_kretprobes(struct kretprobe **rps, int num)
{
	mutex_lock(&kprobe_mutex);
	for (int i = 0; i < num; i++) {
		if (rps[i]->pool)
			detach_instances(rps[i]->pool);
		unregister_kprobe_locked(&rps[i]->kp);
	}
	mutex_unlock(&kprobe_mutex);
	synchronize_rcu();
	for (int i = 0; i < num; i++) {
		struct kretprobe_pool *pool = rps[i]->pool;

		rps[i]->pool = NULL;
		if (pool)
			pool_put(pool);
	}
}

int disable_kretprobe(struct kretprobe *rp)
{
	return disable_kprobe(&rp->kp);
}

int enable_kretprobe(struct kretprobe *rp)
{
	return enable_kprobe(&rp->kp);
}

int kretprobe_instances_in_use(struct kretprobe *rp)
{
	struct kretprobe_pool *pool = rp->pool;
	int n = 0;

	for (int i = 0; pool && i < pool->count; i++)
		n += __atomic_load_n(&pool_instance(pool, i)->in_use, __ATOMIC_RELAXED);
	return n;
}
