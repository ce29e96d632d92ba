/* Calls from the call sites: see ftrace.h.
 *
 * State. Which ops are registered is an RCU list, read by every call
 * (ftrace_dispatch) with no lock. Which sites are on - patched into a
 * call - is a byte per site, beside each table, written only under
 * ftrace_lock by update_sites, which compares what the ops want with
 * what is on and hands the differences to the back end in one batch.
 *
 * Order. A new ops is in the list before its sites are patched, so its
 * first calls find it; a removed one leaves the list after its sites
 * are the NOP again, and unregistering waits a grace period, so no CPU
 * is still in its callback when the caller frees it. A call that comes
 * from a site an ops no longer wants (its filter just changed) is
 * checked against the filter and dropped. */
#include "kernel/trace/ftrace.h"
#include "kernel/trace/arch_ftrace.h"
#include "kernel/trace/ftrace_sites.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/text_patch.h"
#include "kernel/mutex.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "lib/errno.h"
#include <asm/ftrace.h>
#include <asm/ptrace.h>

static struct mutex ftrace_lock = MUTEX_INIT(ftrace_lock, "ftrace");
static LIST_HEAD(ops_list);

static notrace bool ops_wants(const struct ftrace_ops *ops, uintptr_t ip)
{
	const struct ftrace_site_set *filter = __atomic_load_n(&ops->filter, __ATOMIC_ACQUIRE);
	const struct ftrace_site_set *exclude = __atomic_load_n(&ops->exclude, __ATOMIC_ACQUIRE);

	return (!filter || ftrace_ips_have(filter->ips, filter->count, ip)) &&
	       !(exclude && ftrace_ips_have(exclude->ips, exclude->count, ip));
}
NOKPROBE_SYMBOL(ops_wants);

/* The recursion guard: one bit per interrupt nesting level on each CPU.
 * A call from a site made inside a callback on the same level (the hit
 * path is notrace, tests/host/check_ftrace_sites.py, but a kprobe's
 * handler may call anything) is dropped and counted, but for the ops
 * that guard themselves (FTRACE_OPS_RECURSION); an interrupt that
 * arrives during a callback is a level of its own, and traced. */
static DEFINE_PER_CPU(unsigned long, ftrace_busy);

static notrace bool guard_enter(unsigned long *busy, unsigned long *bit)
{
	unsigned long depth = this_cpu_field(irq_depth);

	*bit = 1ul << MIN(depth, 8 * sizeof(long) - 1);
	if (*busy & *bit)
		return false;
	*busy |= *bit;
	return true;
}
NOKPROBE_SYMBOL(guard_enter);

/* rcu_read_lock keeps this thread on its CPU (kernel/rcu.h), which the
 * guard and the callbacks' per-CPU state need. */
void notrace ftrace_dispatch(uintptr_t ip, uintptr_t parent_ip, struct pt_regs *regs)
{
	unsigned long *busy, bit;
	struct ftrace_ops *ops;
	bool entered;

	rcu_read_lock();
	busy = this_cpu_ptr(&ftrace_busy);
	entered = guard_enter(busy, &bit);
	list_for_each_entry_rcu(ops, &ops_list, node) {
		if (!ops_wants(ops, ip))
			continue;
		if (entered || (ops->flags & FTRACE_OPS_RECURSION))
			ops->func(ip, parent_ip, ops, regs);
		else
			__atomic_fetch_add(&ops->missed, 1, __ATOMIC_RELAXED);
	}
	if (entered)
		*busy &= ~bit;
	rcu_read_unlock();
}
NOKPROBE_SYMBOL(ftrace_dispatch);

/* Set by the patcher, under ftrace_lock, while sites may hold the
 * intermediate bytes of a change (ftrace_site_breakpoint). */
static bool patching;

static bool wanted(uintptr_t ip)
{
	const struct ftrace_ops *ops;

	list_for_each_entry(ops, &ops_list, node)
		if (ops_wants(ops, ip))
			return true;
	return false;
}

/* Append to changes (of room max) each site of t whose state is not
 * what the ops want; the count, or -ENOMEM. */
static long table_changes(struct ftrace_sites *t, struct ftrace_change *changes, size_t n, size_t max)
{
	size_t count = (size_t)(t->end - t->start);

	if (!t->on && !(t->on = kzalloc(count ? count : 1)))
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		bool want = wanted(t->start[i]);

		if (want != t->on[i] && n < max)
			changes[n++] = (struct ftrace_change){ t->start[i], want };
	}
	return (long)n;
}

static size_t sites_total(void)
{
	const struct ftrace_sites *t;
	size_t n = 0;

	list_for_each_entry(t, ftrace_sites_tables(), node)
		n += (size_t)(t->end - t->start);
	return n;
}

/* Patch every site whose state differs from what the registered ops
 * want, in one batch, and record the new states. Under ftrace_lock and
 * ftrace_sites_lock. */
static int patch_sites(void)
{
	size_t max = sites_total(), n = 0;
	struct ftrace_change *changes = kmalloc(max ? max * sizeof(*changes) : 1);
	struct ftrace_sites *t;
	int err = 0;

	if (!changes)
		return -ENOMEM;
	list_for_each_entry(t, ftrace_sites_tables(), node) {
		long got = table_changes(t, changes, n, max);

		if (got < 0) {
			kfree(changes);
			return (int)got;
		}
		n = (size_t)got;
	}
	if (n) {
		text_poke_batch_begin();
		__atomic_store_n(&patching, true, __ATOMIC_RELEASE);
		err = arch_ftrace_apply(changes, n);
		text_poke_batch_end();
		__atomic_store_n(&patching, false, __ATOMIC_RELEASE);
	}
	list_for_each_entry(t, ftrace_sites_tables(), node)
		for (size_t i = 0; i < (size_t)(t->end - t->start); i++)
			t->on[i] = wanted(t->start[i]);
	kfree(changes);
	return err;
}

/* patch_sites with the tables held still. Under ftrace_lock. */
static int update_sites(void)
{
	int err;

	ftrace_sites_lock();
	err = patch_sites();
	ftrace_sites_unlock();
	return err;
}

unsigned int ftrace_site_users(uintptr_t ip, bool *ipmodify)
{
	const struct ftrace_ops *ops;
	unsigned int n = 0;

	*ipmodify = false;
	rcu_read_lock();
	list_for_each_entry_rcu(ops, &ops_list, node) {
		if (ops_wants(ops, ip)) {
			n++;
			*ipmodify |= (ops->flags & FTRACE_OPS_IPMODIFY) != 0;
		}
	}
	rcu_read_unlock();
	return n;
}

int ftrace_init_sites(const uintptr_t *ips, size_t n)
{
	int err;

	text_poke_batch_begin();
	err = arch_ftrace_init_sites(ips, n);
	text_poke_batch_end();
	return err;
}

/* The kernel's sites, the only table at boot, before the other CPUs
 * start: no other CPU is running them. Their states are allocated here,
 * once, rather than by the first change (as a module's are), so that a
 * test comparing the heap before and after its first tracing does not
 * count them. */
void ftrace_init(void)
{
	struct ftrace_sites *t;

	list_for_each_entry(t, ftrace_sites_tables(), node) {
		size_t count = (size_t)(t->end - t->start);

		t->on = kzalloc(count ? count : 1);
		if (!t->on || ftrace_init_sites(t->start, count))
			panic("ftrace: cannot set up the kernel's call sites");
	}
}

int ftrace_update_sites(void)
{
	int err;

	mutex_lock(&ftrace_lock);
	err = update_sites();
	mutex_unlock(&ftrace_lock);
	return err;
}

bool notrace ftrace_site_breakpoint(struct pt_regs *regs, uintptr_t addr)
{
	if (!__atomic_load_n(&patching, __ATOMIC_ACQUIRE) || !ftrace_site_at(addr))
		return false;
	instruction_pointer_set(regs, addr + ARCH_FTRACE_SITE_SIZE);
	return true;
}
NOKPROBE_SYMBOL(ftrace_site_breakpoint);

/* ops is off the list: once no CPU can still be in ops->func or reading
 * its sets, it is unregistered (set_sites then frees a set at once). */
static void unregistered(struct ftrace_ops *ops)
{
	synchronize_rcu();
	mutex_lock(&ftrace_lock);
	ops->registered = false;
	mutex_unlock(&ftrace_lock);
}

int register_ftrace_function(struct ftrace_ops *ops)
{
	int err;

	mutex_lock(&ftrace_lock);
	if (ops->registered) {	/* on the list already: a second link would break it */
		mutex_unlock(&ftrace_lock);
		return -EBUSY;
	}
	list_add_tail_rcu(&ops->node, &ops_list);
	ops->registered = true;
	err = update_sites();
	if (err) {
		list_del_rcu(&ops->node);
		update_sites();
	}
	mutex_unlock(&ftrace_lock);
	if (err)
		unregistered(ops);
	return err;
}

int unregister_ftrace_function(struct ftrace_ops *ops)
{
	int err;

	mutex_lock(&ftrace_lock);
	list_del_rcu(&ops->node);
	err = update_sites();
	mutex_unlock(&ftrace_lock);
	unregistered(ops);
	return err;
}

static void set_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct ftrace_site_set, rcu));
}

/* Replace *slot, one of ops' sets, with set, patch what changes, and
 * free the old set once no call can still be reading it: after a grace
 * period if ops is registered, with no wait (kprobes change the set of
 * their ops once for each probe registered alone), or at once if not
 * (unregistering waited for the last call). */
static int set_sites(struct ftrace_ops *ops, struct ftrace_site_set **slot,
		     struct ftrace_site_set *set)
{
	struct ftrace_site_set *old;
	bool in_use;
	int err;

	mutex_lock(&ftrace_lock);
	old = *slot;
	__atomic_store_n(slot, set, __ATOMIC_RELEASE);
	in_use = ops->registered;
	err = update_sites();
	mutex_unlock(&ftrace_lock);
	if (old && in_use)
		call_rcu(&old->rcu, set_free_rcu);
	else
		kfree(old);
	return err;
}

int ftrace_set_filter(struct ftrace_ops *ops, struct ftrace_site_set *set)
{
	return set_sites(ops, &ops->filter, set);
}

int ftrace_set_notrace(struct ftrace_ops *ops, struct ftrace_site_set *set)
{
	return set_sites(ops, &ops->exclude, set);
}
