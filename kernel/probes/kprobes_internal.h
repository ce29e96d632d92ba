/* Shared between the files of the generic probes core; not for users of
 * the probes API (they include kprobes.h). */
#ifndef KERNEL_PROBES_KPROBES_INTERNAL_H
#define KERNEL_PROBES_KPROBES_INTERNAL_H

#include "kernel/probes/probe_point.h"
#include "kernel/mutex.h"
#include "kernel/rcu.h"

/* Serializes registration, enabling, disabling, the optimizer and
 * everything that reads or changes the lists below. A probe hit never
 * takes it: hits find their point through the hash table without a lock. */
extern struct mutex kprobe_mutex;
/* Every registered probe, in registration order (by all_node). */
extern struct list_node all_kprobes;
/* Every probe point (by all_node), for the few changes that concern
 * them all. */
extern struct list_node all_points;

/*
 * The probe points, hashed by address and chained by hash_next: read by
 * every hit without a lock (kernel/rcu.h), changed under kprobe_mutex. A
 * fixed 8192 buckets keep the chains short up to the 10,000 points the
 * layer is sized for, so the table never has to grow under its readers.
 */
#define POINT_HASH_BITS 13
#define POINT_HASH_SIZE (1 << POINT_HASH_BITS)
extern struct probe_point *point_hash[POINT_HASH_SIZE];

/* Multiplicative hashing of the address's low 32 bits, which are the
 * bits that differ within the kernel's text; the product's top bits mix
 * all of them. */
static inline struct probe_point **point_hash_bucket(uintptr_t addr)
{
	return &point_hash[((uint32_t)addr * 0x9e3779b9u) >> (32 - POINT_HASH_BITS)];
}

/* The point at addr, or NULL. Lock-free: call in a read-side section
 * (every probe hit is one) or with kprobe_mutex held. Inline: every
 * breakpoint hit looks its point up. */
static inline struct probe_point *point_lookup(uintptr_t addr)
{
	struct probe_point *pp = rcu_dereference(*point_hash_bucket(addr));

	while (pp && (uintptr_t)pp->addr != addr)
		pp = rcu_dereference(pp->hash_next);
	return pp;
}

/*
 * The same points filed a second time, by the 64-byte block of text
 * their address is in (chained by block_next, in as many buckets), for
 * the questions registration asks about a range of text: which points
 * patch bytes in it, which jump regions hold an address. A range looks
 * only at the buckets of its own blocks, so the answer costs the same
 * however many points there are elsewhere. Only ever used with
 * kprobe_mutex held: hits never read it.
 */
#define POINT_BLOCK_SHIFT 6
extern struct probe_point *point_blocks[POINT_HASH_SIZE];

/* Call fn(pp, ctx) for every probe point. Call with kprobe_mutex held;
 * fn may unlink pp. For the rare changes that concern every point (the
 * optimizer switched on or off): registration never walks them all. */
void for_each_point_locked(void (*fn)(struct probe_point *pp, void *ctx), void *ctx);
/* Call fn(pp, ctx) for every probe point whose address is in [start,
 * end), visiting only the blocks of text the range covers. Mutex held;
 * fn must not unlink pp. */
void for_each_point_in_locked(uintptr_t start, uintptr_t end,
			      void (*fn)(struct probe_point *pp, void *ctx), void *ctx);
/* True if a probe point lies strictly inside (start, end). Mutex held. */
bool point_inside_locked(uintptr_t start, uintptr_t end);
/* report.c: name the place addr is at, as reports do: "fn+0x4" (or the
 * bare address, in no function) into where (size bytes), and the name
 * of its module, or "" in the kernel, into module (MODULE_NAME_LEN
 * bytes). */
void kprobes_name_place(uintptr_t addr, char *where, size_t size, char *module);
/* Mark every probe on a point in [start, end) gone (KPROBE_FLAG_GONE):
 * disarm the points while their code still exists, unpublish them, and
 * never touch their text again. why says what happened to the code. */
void kprobes_kill_range_locked(uintptr_t start, uintptr_t end, const char *why);

/* module_probes.c: whether addr may be probed as far as modules go:
 * 0, -EINVAL if its module marks it never to be probed, -ENOENT if its
 * module is being removed. */
int kprobes_check_module_address(uintptr_t addr);
/* The module p belongs to, or NULL: the one whose memory holds p itself
 * or a handler a hit on p would call, that is, the module whose removal
 * takes p with it (its exit unregisters p, or rmmod does, with a
 * warning). Its type must be set. For kprobe.owner, at registration. */
const struct module *kprobes_owner(const struct kprobe *p);
/* Follow modules coming and going (at boot). */
void kprobes_modules_init(void);

/* Registered, and not yet being unregistered: on all_kprobes. (A probe
 * being unregistered keeps its point until the grace period is over, for
 * the hits that saw it, so p->point alone does not tell.) Mutex held. */
static inline bool kprobe_registered_locked(const struct kprobe *p)
{
	return p->point && !list_empty(&p->all_node);
}

/* Neither disabled nor gone. */
static inline bool kprobe_is_enabled(const struct kprobe *p)
{
	return !(p->flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE));
}
/*
 * kprobe_trap.c: the trap hooks (kernel/trap.h) through which every hit
 * arrives. kprobes_init installs them in trap_hooks[], and no C code
 * calls them by name, so grep finds no caller. Who does:
 *
 *   kprobe_breakpoint_handler  the trap entry's assembly, before any C:
 *       x86_64's breakpoint_common for int3, aarch64's sync_common for a
 *       BRK (arch/ARCH/trap_entry.S), through
 *       trap_hooks[TRAP_HOOK_BREAKPOINT];
 *   kprobe_singlestep_handler  the end of a stepped instruction:
 *       x86_64's debug trap, through trap_dispatch (arch/x86_64/traps.c);
 *       aarch64's BRK after the slot's copy, from sync_common's assembly
 *       like the breakpoint;
 *   kprobe_fault_handler  any other exception, from trap_dispatch
 *       (arch/ARCH/traps.c), before the fix-up table or a panic.
 *
 * Each returns true if it handled the trap (the interrupted code resumes
 * with *regs, which it may have changed), false to pass it on.
 */
bool kprobe_breakpoint_handler(struct pt_regs *regs);
bool kprobe_singlestep_handler(struct pt_regs *regs);
bool kprobe_fault_handler(struct pt_regs *regs);

/* Kprobes on the call sites (kprobe_ftrace.c). A point at a site is
 * armed by adding its address to the set the probes' ftrace_ops wants;
 * each point created there first reserves room in the set (0 or
 * -ENOMEM), so that arming never allocates, and gives it back when
 * destroyed. The set reaches the sites when kprobe_ftrace_update_locked
 * runs, which every change of arming calls before it drops
 * kprobe_mutex, outside any text_poke batch (it patches in a batch of
 * its own). The call from a site runs kprobe_ftrace_handler
 * (kprobe_trap.c), the ops' callback. */
int kprobe_ftrace_reserve_locked(void);
void kprobe_ftrace_unreserve_locked(void);
void kprobe_ftrace_arm_locked(struct probe_point *pp, bool arm);
void kprobe_ftrace_update_locked(void);
struct ftrace_ops;
void kprobe_ftrace_handler(uintptr_t ip, uintptr_t parent_ip, struct ftrace_ops *ops,
			   struct pt_regs *regs);
/* counts.c: give p zeroed per-CPU counts and zero its public ones, at
 * registration: 0 or -ENOMEM. */
int kprobe_counts_alloc(struct kprobe *p);
/* Once p is unregistered and a grace period has passed (no hit can count
 * any more): add the CPUs' counts into p->nhit and p->nmissed, and free
 * them. */
void kprobe_counts_fold(struct kprobe *p);
/* counts.c: give pp its zeroed per-CPU counts (struct point_counts), as
 * it is made: 0 or -ENOMEM. */
int point_counts_alloc(struct probe_point *pp);
/* Free them, when the point is freed (no hit can count any more). */
void point_counts_free(struct probe_point *pp);
/* How many of pp's hits ran its instruction the way how, summed over
 * the CPUs (`probe show`, the selftests). */
unsigned long point_exec_count(const struct probe_point *pp, enum probe_exec how);
/* How many of pp's hits came through the optimizer's jump. */
unsigned long point_opt_hits(const struct probe_point *pp);
/*
 * kretprobes.c: a kretprobe's pool of instances, cut into parts (one per
 * CPU when registered). Apart from registration, the selftests use these
 * to look at the pool with several parts on any number of CPUs.
 */
/* A pool of rp->maxactive instances for rp, cut into parts (1 <= parts
 * <= maxactive), all free; NULL when out of memory. */
struct kretprobe_pool *kretprobe_pool_create(struct kretprobe *rp, unsigned int parts);
/* Free a pool that no hit can reach (never registered, or the test's). */
void kretprobe_pool_destroy(struct kretprobe_pool *pool);
/* Claim a free instance for a call on CPU cpu: from cpu's part if one is
 * free there, else stolen from another part; NULL if none is free. */
struct kretprobe_instance *kretprobe_pool_take(struct kretprobe_pool *pool, unsigned int cpu);
/* Give back an instance of a live kretprobe, to the part it belongs to. */
void kretprobe_pool_give_back(struct kretprobe_instance *ri);
/* register_kprobe for a probe of the given type (jprobes, kretprobes);
 * inside register_probes, with kprobe_mutex already held. */
int register_kprobe_kind(struct kprobe *p, const struct probe_type *type);
/*
 * What the core needs to know about one type of probe (kprobes.c,
 * jprobes.c, kretprobes.c each define theirs), so that it handles the
 * three alike without naming any: the batch calls (register_kprobes,
 * register_jprobes, ...) share one register loop and one unregister
 * loop, and a listing asks a probe's type (kprobe->type) for what only
 * the type knows.
 */
struct probe_type {
	enum kprobe_kind kind;
	/* The kprobe of the i-th probe of an array of pointers to the type. */
	struct kprobe *(*nth)(void *array, int i);
	/* Register one probe, given its kprobe. */
	int (*register_one)(struct kprobe *p);
	/* For a type that holds more than its kprobe (a kretprobe's
	 * instances), or NULL: called with kprobe_mutex held just before
	 * the kprobe is unlinked, and once the grace period has passed. */
	void (*before_unlink_locked)(struct kprobe *p);
	void (*after_grace_period)(struct kprobe *p);
	/* For a type that knows more than its kprobe does (a kretprobe's
	 * calls missed for want of an instance, its instances), or NULL:
	 * add that to the report of p, a registered probe of the type, with
	 * kprobe_mutex held. */
	void (*report_locked)(const struct kprobe *p, struct kprobe_info *info);
};
/* Register the num probes of array, in order; if one fails, unregister
 * those already registered and return its error, as the Kprobes guide
 * asks of the batch calls. */
int register_probes(void *array, int num, const struct probe_type *type);
/* Unregister the num probes of array, sharing one grace period. */
void unregister_probes(void *array, int num, const struct probe_type *type);

#endif
