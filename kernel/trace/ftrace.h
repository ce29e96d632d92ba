/* Calls from the compiler's call sites (docs/ftrace.md).
 *
 * A user of the sites (the function tracer, kprobes on a function's
 * entry) registers a struct ftrace_ops: a callback and the sites it
 * wants. A site some ops wants is patched into a call of one of the
 * architecture's two trampolines, which call ftrace_dispatch: one saves
 * the registers as a trap would, for the ops that read them; the other
 * saves only what a C call may clobber. A site no ops wants is the NOP
 * again. All
 * the sites that change with one registration change in one text_poke
 * batch (kernel/mm/text_patch.h), the other CPUs running meanwhile. */
#ifndef KERNEL_TRACE_FTRACE_H
#define KERNEL_TRACE_FTRACE_H

#include "kernel/rcu.h"
#include "lib/list.h"
#include "lib/types.h"

struct pt_regs;
struct ftrace_ops;

/* Called from a site with the site's address (its function's), the
 * return address into the function's caller and, for an ops with
 * FTRACE_OPS_SAVE_REGS or FTRACE_OPS_IPMODIFY, the registers at the
 * function's entry (others get NULL, unless another ops at the same site
 * asked for them: the trampoline that saves them all costs a call about
 * 20 instructions more). regs->ip is where the function goes on: a
 * callback with FTRACE_OPS_IPMODIFY may change it (and the registers) to
 * make the call go elsewhere. Runs with preemption off, interrupts as
 * the traced code had them; must be notrace and reach only notrace
 * code. */
typedef void (*ftrace_func)(uintptr_t ip, uintptr_t parent_ip, struct ftrace_ops *ops,
			    struct pt_regs *regs);

/* A set of sites: count addresses, sorted. Never changed once an ops
 * holds it (a call may be reading it): a change replaces it whole. */
struct ftrace_site_set {
	struct rcu_head rcu;	/* freed after a grace period once replaced */
	size_t count;
	uintptr_t ips[];
};

struct ftrace_ops {
	/* May change while the ops is registered, with one atomic store: a
	 * call meanwhile runs the old callback or the new one. */
	ftrace_func func;
	unsigned int flags;		/* FTRACE_OPS_* */
	/* The sites it wants: those of filter (NULL: every site) not in
	 * exclude (NULL: none); set_ftrace_filter and set_ftrace_notrace. */
	struct ftrace_site_set *filter, *exclude;
	uint64_t missed;		/* calls the recursion guard dropped */
	bool registered;		/* on the list below (under ftrace's lock) */
	struct list_node node;		/* in the list of registered ops */
};
#define FTRACE_OPS_IPMODIFY 1	/* the callback may change regs->ip */
/* The callback guards against its own recursion (Linux's
 * FTRACE_OPS_FL_RECURSION): it is called from a site that its own call
 * reached too, rather than dropped and counted in missed (a kprobe's
 * handler that calls a probed function: kprobes count that hit in the
 * probe's nmissed, as for a breakpoint). */
#define FTRACE_OPS_RECURSION 2
/* The callback reads the registers (Linux's FTRACE_OPS_FL_SAVE_REGS). */
#define FTRACE_OPS_SAVE_REGS 4

/* Start calling ops->func from every site it wants (an ops registered
 * once at a time), or stop and return once no CPU can still be in the
 * callback. 0, -ENOMEM, -EFAULT (a site could not be written), or
 * -EBUSY for an ops registered already.
 * Thread context; they sleep. */
int register_ftrace_function(struct ftrace_ops *ops);
int unregister_ftrace_function(struct ftrace_ops *ops);

/* Replace a registered (or not) ops's filter or exclude set with set
 * (a kmalloc'ed one the ops now owns, or NULL), free the old one once
 * no call reads it, and patch the sites that change. 0 or -ENOMEM. */
int ftrace_set_filter(struct ftrace_ops *ops, struct ftrace_site_set *set);
int ftrace_set_notrace(struct ftrace_ops *ops, struct ftrace_site_set *set);

/* A kmalloc'ed set of the one site ip, for the calls above, or NULL
 * with no memory. */
struct ftrace_site_set *ftrace_site_set_one(uintptr_t ip);

/* How many registered ops want the site ip, in *regs whether one of
 * them reads the registers (the site calls the trampoline that saves
 * them) and in *ipmodify whether one may change regs->ip
 * (enabled_functions): a snapshot, as registrations come and go. */
unsigned int ftrace_site_users(uintptr_t ip, bool *regs, bool *ipmodify);

/* Turn n sites as the compiler built them into sites turned off
 * (arch_ftrace_init_sites), where no other CPU runs them: a module's
 * before it is published. 0 or -EFAULT. Thread context; sleeps. */
int ftrace_init_sites(const uintptr_t *ips, size_t n);

/* The same for the kernel's sites, at boot, before the other CPUs
 * start (kmain); panics if they cannot be written. */
void ftrace_init(void);

/* Patch every site whose state is not what the registered ops want:
 * after a table of sites is added (a module's, before its init runs),
 * so that an ops of every function calls from the module's too. 0,
 * -ENOMEM or -EFAULT. Thread context; sleeps. */
int ftrace_update_sites(void);

/* The trampolines' call: run every registered ops that wants ip (regs
 * NULL from the trampoline that saves none). */
void ftrace_dispatch(uintptr_t ip, uintptr_t parent_ip, struct pt_regs *regs);

/* Called by the breakpoint path for a breakpoint no probe owns: if it
 * is at a site this CPU's patcher is changing in steps (x86_64's int3
 * protocol), resume past the site as if it were the NOP, and return
 * true. */
bool ftrace_site_breakpoint(struct pt_regs *regs, uintptr_t addr);

#endif
