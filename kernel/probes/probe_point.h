/*
 * Inside the probes layer: the probe point and the per-CPU control block.
 * The interface between the generic core (kernel/probes/) and an
 * architecture's back end (arch/<name>/kprobes.c, optprobe.c) is
 * kernel/probes/arch_probes.h, included here.
 *
 * A probe point is one patched address. Any number of kprobes (and at most
 * one jprobe) share it: one breakpoint, one copy of the original
 * instruction, and the list of probes whose handlers run when it is hit.
 */
#ifndef KERNEL_PROBES_PROBE_POINT_H
#define KERNEL_PROBES_PROBE_POINT_H

#include "kernel/probes/kprobes.h"
#include "kernel/probes/arch_probes.h"
#include "kernel/probes/probe_report.h"	/* enum opt_state */
#include "kernel/cpu.h"
#include "kernel/percpu.h"
#include "kernel/rcu.h"
#include <asm/kprobes.h>

struct probe_point {
	uint8_t *addr;
	struct probe_point *hash_next;	/* next in its hash bucket */
	struct probe_point *block_next;	/* next in its block's bucket */
	struct list_node all_node;	/* in all_points */
	/* struct kprobe, by point_node: walked by hits without a lock, so
	 * changed with the list's _rcu calls. */
	struct list_node probes;
	/* The one enabled probe when exactly one is, else NULL (none, or
	 * several: walk the list). A hit on the common single-probe point
	 * calls its handler without the walk. */
	struct kprobe *sole;
	bool armed;			/* the breakpoint is in the text, or
					   (on_ftrace) the call site calls */
	/* At a function's call site (kernel/trace/ftrace_sites.h): hits
	 * come from the site's call (kprobe_ftrace.c), never a trap, and
	 * nothing of the instruction is prepared, copied or stepped. */
	bool on_ftrace;
	bool has_post_handler;		/* some probe here has one: must step */
	bool has_fixup;			/* may fault into an exception fix-up:
					   must step, so the fault is seen here */
	uint8_t *slot;			/* out-of-line copy, or NULL */
	/* Set by arch_prepare_kprobe: which ways the instruction can run.
	 * Emulation and boosting are used when possible, stepping always
	 * works. Fields, not hooks, because every hit asks. */
	bool can_emulate;		/* emulated on the saved registers */
	uint8_t *boost_copy;		/* boosting: where the copy that jumps
					   back starts (in the slot); NULL if
					   the instruction cannot be boosted */
	struct arch_probe_insn insn;	/* the back end's part */
	uintptr_t func_start;		/* the function the point is in */
	size_t func_size;
	/* How its hits ran (struct point_counts): per-CPU memory, given as
	 * its distance from kprobe_cpu_block, as a kprobe's counts are. */
	uintptr_t counts_offset;

	/* The jump optimizer's part, guarded by kprobe_mutex. */
	enum opt_state opt_state;
	struct list_node opt_node;	/* in the optimizer's queue */
	size_t opt_len;			/* bytes the jump replaces; 0 = unknown */
	uint8_t *detour;		/* the detour buffer, or NULL */
	uint8_t *detour_copy;		/* in it: the copied region, which
					   jumps back past the region */
	const char *opt_refusal;	/* OPT_REFUSED: the failed check... */
	uintptr_t opt_refusal_addr;	/* ...and the address it is about */
	struct arch_opt_insn opt;	/* the back end's part */

	struct rcu_head rcu;		/* its deferred free, once unregistered */
	/* Set when the code under the point went away (a module removed, or
	 * its init code freed): the point is disarmed and unpublished, and
	 * its text is never read or written again. */
	struct point_gone *gone;
};

/* How a point's hits ran, one copy per CPU (counts.c): a hit on every
 * CPU at once writes only its own CPU's words, never a line that the
 * others read on their hits. */
struct point_counts {
	unsigned long exec[PROBE_EXEC_KINDS];	/* hits that ran the instruction each way */
	unsigned long opt_hits;			/* hits that came through the jump */
};

/* What a report (probe_report.h) says about a gone point. */
struct point_gone {
	char where[96];		/* "fn+0x4", named while it existed */
	char module[MODULE_NAME_LEN];	/* the module alone */
	char why[96];		/* "module m was removed" */
};

/* Per-CPU state of the probe being handled on this CPU. */
enum kprobe_status {
	KPROBE_IDLE,
	KPROBE_HIT_ACTIVE,	/* running pre-handlers */
	KPROBE_HIT_OPTIMIZED,	/* running pre-handlers, reached by a jump */
	KPROBE_HIT_SS,		/* single-stepping the original instruction */
	KPROBE_HIT_SSDONE,	/* running post-handlers */
	KPROBE_REENTER,		/* stepping a probe hit inside a handler */
	KPROBE_JPROBE,		/* a jprobe entry function is running */
};

struct kprobe_ctlblk {
	/* Both stale while the status is idle (see reset_ctlblk). */
	struct probe_point *point;	/* being stepped, or whose jprobe's
					   entry runs: set only then, as
					   nothing else reads it */
	struct kprobe *running;		/* whose handler runs (for faults) */
	/* The status is not here: it is the handler half of this CPU's
	 * handler_context word in struct cpu (kernel/cpu.h), beside the
	 * count of nokprobe_begin(), so that a hit tests both with one load
	 * and needs no per-CPU offset to do it, and the scheduler sees a
	 * handler running here without asking this layer. kprobe_status()
	 * and kprobe_set_status() reach it. */
	struct arch_kprobe_state arch;	/* saved flags during a step */
	/* The interrupt nesting an optimized hit began at: its handler may
	 * run with interrupts on (aarch64), and a fault in an interrupt
	 * that came in meanwhile is not the handler's. */
	unsigned long irq_depth;
	/* One level of nesting: the state a reentered hit interrupted. */
	struct {
		struct probe_point *point;
		struct kprobe *running;
		enum kprobe_status status;
		struct arch_kprobe_state arch;
	} prev;
	/* A jprobe hit's trap frame, which outlives the entry function
	 * (it runs below it), and what arch_jprobe_enter changed in it. */
	struct pt_regs *jprobe_regs;
	struct arch_jprobe_state jprobe_saved;
};

_Static_assert(KPROBE_IDLE == 0, "an idle CPU outside nokprobe_begin has busy == 0");

DECLARE_PER_CPU(struct kprobe_ctlblk, kprobe_cpu_block);

/* This CPU's control block. Finding it costs a load of the per-CPU
 * offset and an add (more on aarch64): a hit finds it once and hands it
 * down to what it calls. */
static inline struct kprobe_ctlblk *kprobe_ctlblk(void)
{
	return this_cpu_ptr(&kprobe_cpu_block);
}

/* The per-CPU memory (the pointer per_cpu_ptr takes) at offset from
 * kprobe_cpu_block: how a probe's or a point's counts are kept. */
static inline void *percpu_counts_at(uintptr_t offset)
{
	return (void *)((uintptr_t)&kprobe_cpu_block + offset);
}

/* p's per-CPU counts (the pointer per_cpu_ptr takes), p registered. */
static inline struct kprobe_counts *kprobe_counts_of(const struct kprobe *p)
{
	return percpu_counts_at(p->counts_offset);
}

/*
 * Add one to a count in per-CPU memory, on this CPU: the word at byte
 * field of the block at offset (a probe's kprobe_counts, or a point's
 * point_counts, given as their distance from kprobe_cpu_block), found
 * from this CPU's control block: both are per-CPU memory, so they lie as
 * far apart on every CPU, and a hit has the control block already.
 * Count with interrupts off, or the CPU busy with the hit: only this CPU
 * writes its copy, so a plain increment is enough (a reader elsewhere
 * sees the word before or after it, whole), and nothing is shared
 * between CPUs. The address is written as control block + (offset +
 * field), which an add can take as base, index and displacement: on
 * x86_64 a count is the offset's load and one add.
 */
static inline void count_here(struct kprobe_ctlblk *kcb, uintptr_t offset, size_t field)
{
	(*(unsigned long *)((char *)kcb + (offset + field)))++;
}

/* Count a missed hit of p on this CPU. Interrupts may be on (aarch64's
 * optimized hits), and an interrupt's hit on p would be missed and
 * counted too, so they are masked around the increment: the miss path
 * is rare, and the count stays exact. */
void kprobe_count_missed(struct kprobe_ctlblk *kcb, struct kprobe *p);

/* This CPU's status (see struct kprobe_ctlblk). */
static inline enum kprobe_status kprobe_status(void)
{
	return (enum kprobe_status)this_cpu_field(handler_context.handler_state);
}

static inline void kprobe_set_status(enum kprobe_status status)
{
	this_cpu_field(handler_context.handler_state) = status;
}

/* True if a hit on this CPU must be missed: a probe is being handled
 * here, or the CPU is inside nokprobe_begin(). One load, one test. */
static inline bool kprobe_cpu_busy(void)
{
	return this_cpu_field(handler_context.busy) != 0;
}

/* Back to idle: this CPU handles no probe. Only the status is written:
 * point and running mean something only while it is not idle, and every
 * hit sets them before they are read. */
static inline void reset_ctlblk(void)
{
	kprobe_set_status(KPROBE_IDLE);
}

/* An instruction slot of ARCH_PROBE_SLOT_SIZE bytes for pp->slot (the
 * core frees it with the point), or NULL when none is left. */
uint8_t *kprobe_alloc_slot(void);

#endif
