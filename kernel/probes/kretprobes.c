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
 * Instances are allocated at registration (maxactive of them); when all
 * are in use a call is missed and counted in rp->nmissed.
 *
 * Locking: a kretprobe's free list, and which kretprobe an instance
 * belongs to, are shared between CPUs (instance_lock). A thread's list of
 * pending instances is not: only that thread adds to it (at a probed
 * entry), removes from it (at the return, or when it exits) or reads it
 * (its own backtraces), so it needs no lock. Each of those runs with
 * interrupts off, or (an optimized entry on aarch64, which leaves them
 * on) with this CPU busy handling a probe, when an interrupt misses
 * every probe it hits and so neither adds nor removes an instance.
 */
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/heap.h"
#include "kernel/printk.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/sched.h"
#include "lib/errno.h"

/* Guards every kretprobe's free list and instances' ri->rp. */
static struct spinlock instance_lock = SPINLOCK_INIT("kretprobe instances");

static struct kretprobe_instance *take_instance(struct kretprobe *rp)
{
	struct kretprobe_instance *ri;

	spin_lock(&instance_lock);
	ri = rp->free_instances;
	if (ri) {
		rp->free_instances = ri->next;
		ri->in_use = true;
	}
	spin_unlock(&instance_lock);
	return ri;
}

static inline void put_instance(struct kretprobe_instance *ri)
{
	struct kretprobe *rp;

	spin_lock(&instance_lock);
	ri->in_use = false;
	rp = ri->rp;
	if (rp) {
		ri->next = rp->free_instances;
		rp->free_instances = ri;
	}
	spin_unlock(&instance_lock);
	if (!rp)
		kfree(ri);	/* its kretprobe was unregistered meanwhile */
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
	 * its entry and has no instance). rp is read, and published as
	 * running, under the lock: unregister_kretprobe orphans instances
	 * under it, then waits until no CPU runs rp's handler. */
	kcb->status = KPROBE_HIT_ACTIVE;
	spin_lock(&instance_lock);
	rp = ri->rp;
	kcb->running = rp ? &rp->kp : NULL;
	spin_unlock(&instance_lock);
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
	/* Interrupts stay off until every instance is back: put_instance
	 * takes instance_lock without disabling them (its other callers run
	 * with them off), and an interrupt handler hitting a kretprobe while
	 * this thread held the lock would spin on it forever. */
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

/* Free the instances not in use; those tracking a call in flight no
 * longer name rp and are freed when the call returns (put_instance). */
static void release_instances(struct kretprobe *rp)
{
	unsigned long flags = spin_lock_irqsave(&instance_lock);
	struct kretprobe_instance *ri, *tmp;

	rp->free_instances = NULL;
	list_for_each_entry_safe(ri, tmp, &rp->instances, rp_node) {
		list_del(&ri->rp_node);
		if (ri->in_use)
			ri->rp = NULL;
		else
			kfree(ri);
	}
	spin_unlock_irqrestore(&instance_lock, flags);
}

int kretprobe_default_maxactive(void)
{
	return MAX(10, 2 * (int)cpu_count());
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
	rp->free_instances = NULL;
	list_init(&rp->instances);
	rp->nmissed = 0;
	for (int i = 0; i < rp->maxactive; i++) {
		struct kretprobe_instance *ri = kzalloc(sizeof(*ri) + rp->data_size);

		if (!ri) {
			release_instances(rp);
			return -ENOMEM;
		}
		ri->rp = rp;
		ri->next = rp->free_instances;
		rp->free_instances = ri;
		list_add(&ri->rp_node, &rp->instances);
	}
	rp->kp.pre_handler = pre_handler_kretprobe;
	rp->kp.post_handler = NULL;
	err = register_kprobe_kind(&rp->kp, KPROBE_KIND_R);
	if (err)
		release_instances(rp);
	return err;
}

void unregister_kretprobe(struct kretprobe *rp)
{
	bool registered = rp->kp.point != NULL;

	unregister_kprobe(&rp->kp);
	if (registered) {
		release_instances(rp);
		kprobes_wait_handler_done(&rp->kp);
	}
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

void unregister_kretprobes(struct kretprobe **rps, int num)
{
	for (int i = 0; i < num; i++)
		unregister_kretprobe(rps[i]);
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
	unsigned long flags = spin_lock_irqsave(&instance_lock);
	struct kretprobe_instance *ri;
	int n = 0;

	list_for_each_entry(ri, &rp->instances, rp_node)
		n += ri->in_use;
	spin_unlock_irqrestore(&instance_lock, flags);
	return n;
}
