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
#include "kernel/trace/ftrace_site_map.h"
#include "kernel/code_range.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/text_patch.h"
#include "kernel/mutex.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "lib/errno.h"
#include "lib/sorted.h"
#include <asm/ftrace.h>
#include <asm/ptrace.h>

static struct mutex ftrace_lock = MUTEX_INIT(ftrace_lock, "ftrace");
static LIST_HEAD(ops_list);

static notrace bool ops_wants(const struct ftrace_ops *ops, uintptr_t ip)
{
	const struct ftrace_site_set *filter = __atomic_load_n(&ops->filter, __ATOMIC_ACQUIRE);
	const struct ftrace_site_set *exclude = __atomic_load_n(&ops->exclude, __ATOMIC_ACQUIRE);

	return (!filter || sorted_have(filter->ips, filter->count, ip)) &&
	       !(exclude && sorted_have(exclude->ips, exclude->count, ip));
}
NOKPROBE_SYMBOL(ops_wants);

/* The recursion guard: one bit per interrupt nesting level on each CPU.
 * A call from a site made inside a guarded callback on the same level
 * (the hit path is notrace, tests/host/check_ftrace_sites.py, but a
 * kprobe's handler may call anything) is dropped and counted, but for
 * the ops that guard themselves (FTRACE_OPS_RECURSION); an interrupt
 * that arrives during a callback is a level of its own, and traced. An
 * ops that guards itself, called alone from a site, is called outside
 * the guard: what its callback calls is then traced by the others. */
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

/* The sites one ops alone wants (ftrace_site_map.h): rebuilt by every
 * change, under ftrace_lock, and read by every call. */
static struct ftrace_site_map *one_ops_sites;

/* Whether ops reads the registers, and so needs the trampoline that
 * saves them. */
static inline bool needs_regs(const struct ftrace_ops *ops)
{
	return (ops->flags & (FTRACE_OPS_SAVE_REGS | FTRACE_OPS_IPMODIFY)) != 0;
}

/* Call ops, or count the call missed if this CPU is in a callback
 * already (entered false) and ops does not guard itself. A call with no
 * registers (regs NULL) for an ops that reads them comes from a site
 * still being patched for it, as it registers: it is not its call yet. */
static inline void call_ops(struct ftrace_ops *ops, bool entered, uintptr_t ip,
			    uintptr_t parent_ip, struct pt_regs *regs)
{
	if (!regs && needs_regs(ops))
		return;
	if (entered || (ops->flags & FTRACE_OPS_RECURSION))
		ops->func(ip, parent_ip, ops, regs);
	else
		__atomic_fetch_add(&ops->missed, 1, __ATOMIC_RELAXED);
}

/* A site that more than one ops wants, or one that an ops stopped
 * wanting a moment ago: every ops whose filters take it. Out of line, so
 * that the one-ops path saves no more registers than it needs. */
static __noinline notrace void call_every_wanting(uintptr_t ip, uintptr_t parent_ip,
						struct pt_regs *regs, bool entered)
{
	struct ftrace_ops *ops;

	list_for_each_entry_rcu(ops, &ops_list, node)
		if (ops_wants(ops, ip))
			call_ops(ops, entered, ip, parent_ip, regs);
}
NOKPROBE_SYMBOL(call_every_wanting);

/* The recursion guard around the callbacks of ops (NULL: every ops that
 * wants ip). */
static __noinline notrace void call_guarded(struct ftrace_ops *ops, uintptr_t ip,
					    uintptr_t parent_ip, struct pt_regs *regs)
{
	unsigned long *busy = this_cpu_ptr(&ftrace_busy), bit;
	bool entered = guard_enter(busy, &bit);

	if (ops)
		call_ops(ops, entered, ip, parent_ip, regs);
	else
		call_every_wanting(ip, parent_ip, regs, entered);
	if (entered)
		*busy &= ~bit;
}
NOKPROBE_SYMBOL(call_guarded);

/* rcu_read_lock keeps this thread on its CPU (kernel/rcu.h), which the
 * guard and the callbacks' per-CPU state need. A site in the map goes
 * straight to its one ops: the map only holds sites that ops wants now
 * (a site it stops wanting leaves the map before it is patched); and an
 * ops that guards itself needs no guard here (a kprobe on a function's
 * entry: the shortest path there is from a site to a callback). */
void notrace ftrace_dispatch(uintptr_t ip, uintptr_t parent_ip, struct pt_regs *regs)
{
	struct ftrace_ops *ops;

	rcu_read_lock();
	ops = ftrace_site_map_find(__atomic_load_n(&one_ops_sites, __ATOMIC_ACQUIRE), ip);
	if (ops && (ops->flags & FTRACE_OPS_RECURSION) && (regs || !needs_regs(ops)))
		ops->func(ip, parent_ip, ops, regs);
	else
		call_guarded(ops, ip, parent_ip, regs);
	rcu_read_unlock();
}
NOKPROBE_SYMBOL(ftrace_dispatch);

/* The regs trampoline calls ftrace_dispatch with the traced function's
 * registers saved below the call, as a trap's entry calls its handler:
 * a backtrace from a callback goes on from them, to the function at its
 * site and then its caller (kernel/code_range.h). */
static bool notrace is_dispatch_return(uintptr_t addr)
{
	return addr == (uintptr_t)ftrace_dispatch_return;
}
NOKPROBE_SYMBOL(is_dispatch_return);
CODE_RANGE_STOPPED("ftrace's regs trampoline", is_dispatch_return, arch_ftrace_regs_site);

/* Set by the patcher, under ftrace_lock, while sites may hold the
 * intermediate bytes of a change (ftrace_site_breakpoint). */
static bool patching;

/* How many registered ops want the site ip; the one in *only, if one;
 * and in *call what the site must do for them. */
static unsigned int users_of(uintptr_t ip, struct ftrace_ops **only, enum ftrace_site_call *call)
{
	struct ftrace_ops *ops;
	unsigned int n = 0;

	*only = NULL;
	*call = FTRACE_SITE_NOP;
	list_for_each_entry(ops, &ops_list, node) {
		if (!ops_wants(ops, ip))
			continue;
		if (n++ == 0)
			*only = ops;
		if (needs_regs(ops))
			*call = FTRACE_SITE_CALL_REGS;
		else if (*call == FTRACE_SITE_NOP)
			*call = FTRACE_SITE_CALL;
	}
	return n;
}

static enum ftrace_site_call site_call(uintptr_t ip)
{
	struct ftrace_ops *only;
	enum ftrace_site_call call;

	users_of(ip, &only, &call);
	return call;
}

/* The changes and the sites with one ops of a patch_sites, each array
 * of room for every site. */
struct site_plan {
	struct ftrace_change *changes;
	struct ftrace_site_map_entry *solo;
	size_t changes_count, solo_count, max;
};

/* Add to plan each site of t whose state is not what the ops want, and
 * each site one ops alone wants. 0, or -ENOMEM. */
static int table_changes(struct ftrace_sites *t, struct site_plan *plan)
{
	size_t count = (size_t)(t->end - t->start);

	if (!t->call && !(t->call = kzalloc(count ? count : 1)))
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		struct ftrace_ops *only;
		enum ftrace_site_call want;
		unsigned int users = users_of(t->start[i], &only, &want);

		if (users == 1 && plan->solo_count < plan->max)
			plan->solo[plan->solo_count++] = (struct ftrace_site_map_entry){ t->start[i], only };
		if (want != t->call[i] && plan->changes_count < plan->max)
			plan->changes[plan->changes_count++] = (struct ftrace_change){ t->start[i], want };
	}
	return 0;
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
 * want, in one batch, and record the new states. The new map of sites
 * with one ops is published first: a call from a site that an ops just
 * stopped wanting then finds no entry, and is checked against the
 * filters (and dropped) rather than sent to the ops. Under ftrace_lock
 * and ftrace_sites_lock. */
static int patch_sites(void)
{
	struct site_plan plan = { .max = sites_total() };
	size_t n = plan.max ? plan.max : 1;
	struct ftrace_site_map *map = NULL, *old;
	struct ftrace_sites *t;
	int err = -ENOMEM;

	plan.changes = kmalloc(n * sizeof(plan.changes[0]));
	plan.solo = kmalloc(n * sizeof(plan.solo[0]));
	if (!plan.changes || !plan.solo)
		goto out;
	list_for_each_entry(t, ftrace_sites_tables(), node)
		if ((err = table_changes(t, &plan)))
			goto out;
	if (plan.solo_count) {
		err = -ENOMEM;
		if (!(map = ftrace_site_map_create(plan.solo_count)))
			goto out;
		for (size_t i = 0; i < plan.solo_count; i++)
			ftrace_site_map_add(map, plan.solo[i].ip, plan.solo[i].ops);
	}
	old = __atomic_exchange_n(&one_ops_sites, map, __ATOMIC_ACQ_REL);
	ftrace_site_map_free_rcu(old);
	err = 0;
	if (plan.changes_count) {
		text_poke_batch_begin();
		__atomic_store_n(&patching, true, __ATOMIC_RELEASE);
		err = arch_ftrace_apply(plan.changes, plan.changes_count);
		text_poke_batch_end();
		__atomic_store_n(&patching, false, __ATOMIC_RELEASE);
	}
	list_for_each_entry(t, ftrace_sites_tables(), node)
		for (size_t i = 0; i < (size_t)(t->end - t->start); i++)
			t->call[i] = (uint8_t)site_call(t->start[i]);
out:
	kfree(plan.changes);
	kfree(plan.solo);
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

unsigned int ftrace_site_users(uintptr_t ip, bool *regs, bool *ipmodify)
{
	const struct ftrace_ops *ops;
	unsigned int n = 0;

	*regs = *ipmodify = false;
	rcu_read_lock();
	list_for_each_entry_rcu(ops, &ops_list, node) {
		if (ops_wants(ops, ip)) {
			n++;
			*regs |= needs_regs(ops);
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

		t->call = kzalloc(count ? count : 1);
		if (!t->call || ftrace_init_sites(t->start, count))
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

struct ftrace_site_set *ftrace_site_set_one(uintptr_t ip)
{
	struct ftrace_site_set *set = kmalloc(sizeof(*set) + sizeof(uintptr_t));

	if (set) {
		set->count = 1;
		set->ips[0] = ip;
	}
	return set;
}
