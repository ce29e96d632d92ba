/*
 * The probes API: kprobes, jprobes and kretprobes.
 *
 * Names, fields and meanings follow Linux's Kprobes guide, so a student
 * can read that guide next to this code:
 *
 *   kprobe     runs pre_handler when execution reaches addr, then runs the
 *              original instruction, then post_handler.
 *   jprobe     at a function's entry, runs `entry` with the same arguments
 *              as the function; entry ends by calling jprobe_return().
 *   kretprobe  runs entry_handler at a function's entry and handler when it
 *              returns (with the return value in the registers).
 *
 * Errors are negative errno values (see register_kprobe). Handlers run with
 * interrupts disabled (or, for a probe reached through the jump optimizer
 * on aarch64, with preemption disabled), must not sleep, and may print;
 * a probe hit inside a handler is not reported: its nmissed is
 * incremented instead.
 */
#ifndef KERNEL_PROBES_KPROBES_H
#define KERNEL_PROBES_KPROBES_H

#include "kernel/rethook.h"
#include "lib/list.h"
#include "lib/types.h"
#include <asm/ptrace.h>

struct kprobe;
struct module;
struct probe_point;
struct probe_type;

/* Return non-zero if the handler changed the instruction pointer: the
 * probed instruction is then not run and execution goes where regs says. */
typedef int (*kprobe_pre_handler_t)(struct kprobe *p, struct pt_regs *regs);
typedef void (*kprobe_post_handler_t)(struct kprobe *p, struct pt_regs *regs,
				      unsigned long flags);
/* Return 1 if the fault was handled (regs fixed up), 0 to let the kernel's
 * normal fault handling go on. trapnr is the exception number. */
typedef int (*kprobe_fault_handler_t)(struct kprobe *p, struct pt_regs *regs,
				      int trapnr);

/* kprobe.flags */
#define KPROBE_FLAG_GONE      0x1	/* the probed code is gone */
#define KPROBE_FLAG_DISABLED  0x2	/* registered but not armed */
#define KPROBE_FLAG_OPTIMIZED 0x4	/* reached through a jump, not a trap */
#define KPROBE_FLAG_FTRACE    0x8	/* reached through its function's call site,
					   not a trap (kernel/probes/kprobe_ftrace.c) */

enum kprobe_kind { KPROBE_KIND_K, KPROBE_KIND_J, KPROBE_KIND_R };

/* One CPU's counts of one registered probe (see struct kprobe). */
struct kprobe_counts {
	unsigned long nhit;
	unsigned long nmissed;
};

struct kprobe {
	/* Where: addr, or symbol_name + offset (not both). */
	uint8_t *addr;
	const char *symbol_name;
	unsigned int offset;

	kprobe_pre_handler_t pre_handler;
	kprobe_post_handler_t post_handler;
	kprobe_fault_handler_t fault_handler;

	/* Hits that ran no handler (reentrancy), and hits that ran the
	 * handlers. While the probe is registered each CPU counts in its own
	 * copy of counts, and these two hold only what earlier registrations
	 * counted: they are exact once the probe is unregistered, which adds
	 * the CPUs' counts in. Read a registered probe's with kprobe_nhit()
	 * and kprobe_nmissed(). */
	unsigned long nmissed;
	unsigned long nhit;
	unsigned int flags;	/* KPROBE_FLAG_* */
	/* Its number, which the layer gives it at registration, a new one
	 * each time: what `probe list` and the reports call it. Handlers
	 * may read it (the shell's record it in the trace); hits don't. */
	unsigned int id;

	/* Private to the probes layer. Its per-CPU counts (struct
	 * kprobe_counts, kernel/percpu.h), given as their distance from the
	 * layer's per-CPU control block, which a hit holds already: one add
	 * finds this CPU's copy. 0 while not registered. */
	uintptr_t counts_offset;
	/* What kind of probe it is, and what the core asks of that kind
	 * (kprobes_internal.h): set at registration. */
	const struct probe_type *type;
	struct probe_point *point;	/* the breakpoint this probe shares */
	struct list_node point_node;	/* in point->probes */
	struct list_node all_node;	/* in the list of all probes */
	/* The module it belongs to, or NULL for the kernel's own code (the
	 * shell's probes among them): set at registration, by the rule of
	 * kprobes_owner (kprobes_internal.h). Last, where no hit reads. */
	const struct module *owner;
	/* The event it was made for ("kprobes/myread", a kprobe event of
	 * kernel/trace/trace_kprobe.c), or NULL: `probe list` shows it as
	 * the owner, and the shell leaves such a probe to its event. Set by
	 * the caller before registering; valid while registered. */
	const char *event_name;
};

/* Register a probe. Returns 0 or:
 *   -EINVAL  both symbol_name and addr given, neither, a blacklisted
 *            address, or an instruction that cannot be probed;
 *   -ENOENT  unknown symbol, or an address in no function;
 *   -ERANGE  offset at or past the end of symbol_name;
 *   -EILSEQ  addr is not the start of an instruction;
 *   -EEXIST  this kprobe is already registered;
 *   -ENOMEM  no memory or instruction slot. */
int register_kprobe(struct kprobe *p);
/* Remove a probe; an unregistered one just gets its addr cleared. When
 * it returns, no CPU runs the probe's handlers any more, so p may be
 * freed. It sleeps for that (a grace period, see kernel/rcu.h), so never
 * call it from a handler. The same is true of every unregister_* call
 * and of registration, which may sleep on the probes layer's mutex. */
void unregister_kprobe(struct kprobe *p);
/* Register num probes; on the first failure, unregister those already
 * registered by this call and return that error. */
int register_kprobes(struct kprobe **kps, int num);
/* Remove num probes, waiting one grace period for all of them. */
void unregister_kprobes(struct kprobe **kps, int num);
/* unregister_kprobe in two halves, for a caller that lets many probes
 * share one grace period of its own choosing (the bench's timed pairs).
 * The first disarms and unlinks p (freeing its point, if p was the last
 * probe there, once no CPU can be using it): after it, no new hit reaches
 * p. Once a grace period has passed (synchronize_rcu or rcu_barrier,
 * kernel/rcu.h), the second adds p's counts into p->nhit and
 * p->nmissed; then p may be freed. For kprobes and jprobes: a
 * kretprobe's instances need unregister_kretprobe. */
void unregister_kprobe_begin(struct kprobe *p);
void unregister_kprobe_finish(struct kprobe *p);
/* Disarm or re-arm one probe without unregistering it. -EINVAL if it is
 * not registered. */
int disable_kprobe(struct kprobe *p);
int enable_kprobe(struct kprobe *p);

/* p->nhit and p->nmissed as they stand now: while p is registered, with
 * every CPU's counts added in. Call it while p is registered (by whoever
 * registered it, so that it is not unregistered meanwhile), or after. */
unsigned long kprobe_nhit(const struct kprobe *p);
unsigned long kprobe_nmissed(const struct kprobe *p);

/* The probe whose handler is running on this CPU, or NULL (a jprobe's
 * entry function uses it to know which jprobe called it). */
struct kprobe *kprobe_running(void);

/* The global knob: disarm every probe (each keeps its own enabled or
 * disabled state) or arm again those that are enabled. */
void kprobes_global_disarm(void);
void kprobes_global_arm(void);
bool kprobes_globally_armed(void);

/* The jump optimizer's switch (`probe optimize on|off`): off takes every
 * jump out and leaves all probes breakpoints until it is on again. */
void kprobes_set_optimization(bool on);
/* The setting kprobes_set_optimization made last (on at boot). */
bool kprobes_optimization_enabled(void);
/* Sleep until the optimizer has no point waiting for it, or at most
 * ticks; true if it has none. For tests and the bench: the text is
 * final once it returns true. */
bool optimizer_wait_idle(uint64_t ticks);

/* ---- jprobes ---- */
struct jprobe {
	struct kprobe kp;
	void *entry;	/* same signature as the probed function */
};

/* How much of the top of the probed function's stack (its stack
 * arguments) the entry function gets a copy of, as in Linux. */
#define JPROBE_STACK_COPY_SIZE 64

/* Register a jprobe on a function entry. -EBUSY if that function already
 * has one; otherwise the errors of register_kprobe. */
int register_jprobe(struct jprobe *jp);
void unregister_jprobe(struct jprobe *jp);
int register_jprobes(struct jprobe **jps, int num);
void unregister_jprobes(struct jprobe **jps, int num);
int disable_jprobe(struct jprobe *jp);
int enable_jprobe(struct jprobe *jp);
/* Called at the end of every jprobe entry function instead of returning:
 * resumes the probed function with its own registers and stack. */
__noreturn void jprobe_return(void);

/* ---- kretprobes ---- */
struct kretprobe;
struct thread;

struct kretprobe_pool;

struct kretprobe_instance {
	/* The return service's record of the call: first, so that an
	 * instance and its node are one address. */
	struct rethook_node node;
	struct kretprobe_pool *pool;	/* the block it was allocated in */
	uint32_t state;			/* free, in use or orphaned (kretprobes.c) */
	struct kretprobe *rp;		/* NULL once the kretprobe is gone */
	struct thread *task;		/* the thread making the call */
	char data[] __attribute__((aligned(16)));	/* data_size bytes for the handlers */
};

typedef int (*kretprobe_handler_t)(struct kretprobe_instance *ri, struct pt_regs *regs);

struct kretprobe {
	struct kprobe kp;
	kretprobe_handler_t handler;		/* at return */
	kretprobe_handler_t entry_handler;	/* at entry; non-zero: skip this call */
	int maxactive;		/* instances; <= 0 selects the default */
	size_t data_size;
	/* Calls missed for want of a free instance: like a kprobe's counts,
	 * counted per CPU while registered and exact once unregistered; use
	 * kretprobe_nmissed() before. */
	unsigned long nmissed;

	/* Private: its maxactive instances, or NULL when not registered. */
	struct kretprobe_pool *pool;
};

/* The kretprobe an instance belongs to, or NULL once it is unregistered
 * (a call in flight then returns without running a handler). A handler
 * always sees its own: it is cleared only after the handlers that may
 * have seen the kretprobe registered are over. */
static inline struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return __atomic_load_n(&ri->rp, __ATOMIC_RELAXED);
}

/* The maxactive given to a kretprobe registered with maxactive <= 0: as
 * the guide says for a preemptive kernel, max(10, 2 * number of CPUs). */
int kretprobe_default_maxactive(void);

int register_kretprobe(struct kretprobe *rp);
void unregister_kretprobe(struct kretprobe *rp);
int register_kretprobes(struct kretprobe **rps, int num);
void unregister_kretprobes(struct kretprobe **rps, int num);
int disable_kretprobe(struct kretprobe *rp);
int enable_kretprobe(struct kretprobe *rp);
/* rp->nmissed as it stands now, every CPU's count added in (called as
 * kprobe_nhit is). */
unsigned long kretprobe_nmissed(const struct kretprobe *rp);
/* Instances of rp currently tracking a call (0 if rp is not registered). */
int kretprobe_instances_in_use(struct kretprobe *rp);
/* Claim the breakpoint, single-step and fault trap hooks (at boot). */
void kprobes_init(void);

#endif
