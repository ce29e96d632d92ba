/* Shared between the files of the generic probes core; not for users of
 * the probes API (they include kprobes.h). */
#ifndef KERNEL_PROBES_KPROBES_INTERNAL_H
#define KERNEL_PROBES_KPROBES_INTERNAL_H

#include "kernel/probes/probe_point.h"
#include "kernel/spinlock.h"

extern struct spinlock kprobe_lock;
/* Every registered probe, in registration order (by all_node). */
extern struct list_node all_kprobes;

/* The probe points, hashed by address and chained by hash_next. */
#define POINT_HASH_BITS 6
#define POINT_HASH_SIZE (1 << POINT_HASH_BITS)
extern struct probe_point *point_hash[POINT_HASH_SIZE];

static inline struct probe_point **point_hash_bucket(uintptr_t addr)
{
	/* Mix in higher bits: probes often sit at function entries, which
	 * share their low bits through alignment. */
	return &point_hash[(addr ^ (addr >> POINT_HASH_BITS) ^ (addr >> 12)) &
			   (POINT_HASH_SIZE - 1)];
}

/* The point at addr, or NULL. Call with kprobe_lock held. Inline: every
 * breakpoint hit looks its point up. */
static inline struct probe_point *point_lookup_locked(uintptr_t addr)
{
	struct probe_point *pp = *point_hash_bucket(addr);

	while (pp && (uintptr_t)pp->addr != addr)
		pp = pp->hash_next;
	return pp;
}
/* Call fn(pp, ctx) for every probe point. Call with kprobe_lock held. */
void for_each_point_locked(void (*fn)(struct probe_point *pp, void *ctx), void *ctx);
/* True if a probe point lies strictly inside (start, end). Lock held. */
bool point_inside_locked(uintptr_t start, uintptr_t end);
/* Neither disabled nor gone. */
static inline bool kprobe_is_enabled(const struct kprobe *p)
{
	return !(p->flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE));
}
/* register_kprobe for a probe of the given kind (jprobes, kretprobes). */
int register_kprobe_kind(struct kprobe *p, enum kprobe_kind kind);
/* One word naming a way to run the probed instruction ("emulated", ...). */
const char *probe_exec_name(enum probe_exec how);
/* The way pp's instruction runs after a hit that ran the handlers. */
enum probe_exec kprobe_exec_path(const struct probe_point *pp);
/* Wait until no CPU runs one of p's handlers. */
void kprobes_wait_handler_done(struct kprobe *p);
/* Wait until no CPU is handling pp and no thread is stopped in its slot. */
void kprobes_wait_point_unused(struct probe_point *pp);

#endif
