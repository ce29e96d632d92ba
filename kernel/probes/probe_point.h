/*
 * Inside the probes layer: the probe point, the per-CPU control block, and
 * the narrow interface between the generic core (kernel/probes/) and an
 * architecture's back end (arch/<arch>/kprobes.c).
 *
 * A probe point is one patched address. Any number of kprobes (and at most
 * one jprobe) share it: one breakpoint, one copy of the original
 * instruction, and the list of probes whose handlers run when it is hit.
 *
 * The core owns lists, the hash table, registration, enable/disable and the
 * order in which handlers run. The back end owns everything about the
 * instruction: decoding it, copying it to a slot, writing and removing the
 * breakpoint, and running the original instruction afterwards (emulated,
 * boosted or single-stepped). Neither reaches into the other's part.
 */
#ifndef KERNEL_PROBES_PROBE_POINT_H
#define KERNEL_PROBES_PROBE_POINT_H

#include "kernel/probes/kprobes.h"
#include "kernel/cpu.h"
#include "kernel/percpu.h"
#include "kernel/rcu.h"
#include <asm/kprobes.h>

/* How the original instruction runs after the pre-handlers. */
enum probe_exec {
	PROBE_EXEC_EMULATE,	/* simulated on the saved registers: no slot */
	PROBE_EXEC_BOOST,	/* run from the slot, which jumps back */
	PROBE_EXEC_STEP,	/* run from the slot with a single-step trap */
	PROBE_EXEC_DETOUR,	/* run the copy in the prepared detour buffer */
};
#define PROBE_EXEC_KINDS (PROBE_EXEC_DETOUR + 1)

/* Where a point stands with the jump optimizer (kernel/probes/optimizer.c). */
enum opt_state {
	OPT_NONE,	/* not a candidate now */
	OPT_QUEUED,	/* a candidate, waiting for the optimizer thread */
	OPT_READY,	/* checked, detour buffer built, jump not written yet */
	OPT_OPTIMIZED,	/* the jump to the detour buffer is in the text */
	OPT_REFUSED,	/* a safety check failed: never optimized */
};

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
	bool armed;			/* the breakpoint is in the text */
	bool has_post_handler;		/* some probe here has one: must step */
	bool has_fixup;			/* may fault into an exception fix-up:
					   must step, so the fault is seen here */
	uint8_t *slot;			/* out-of-line copy, or NULL */
	/* Set by arch_prepare_kprobe: which ways the instruction can run.
	 * Emulation and boosting are used when possible, stepping always
	 * works. Fields, not hooks, because every hit asks. */
	bool can_emulate;		/* simulated on the saved registers */
	uint8_t *boost_copy;		/* boosting: where the copy that jumps
					   back starts (in the slot); NULL if
					   the instruction cannot be boosted */
	struct arch_probe_insn insn;	/* the back end's part */
	uintptr_t func_start;		/* the function the point is in */
	size_t func_size;
	/* How many hits took each path (shown by `probe show`). */
	unsigned long exec_count[PROBE_EXEC_KINDS];

	/* The jump optimizer's part, guarded by kprobe_mutex. */
	enum opt_state opt_state;
	struct list_node opt_node;	/* in the optimizer's queue */
	size_t opt_len;			/* bytes the jump replaces; 0 = unknown */
	uint8_t *detour;		/* the detour buffer, or NULL */
	uint8_t *detour_copy;		/* in it: the copied region, which
					   jumps back past the region */
	const char *opt_refusal;	/* OPT_REFUSED: the failed check... */
	uintptr_t opt_refusal_addr;	/* ...and the address it is about */
	unsigned long opt_hits;		/* hits that came through the jump */
	struct arch_opt_insn opt;	/* the back end's part */

	struct rcu_head rcu;		/* its deferred free, once unregistered */
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
	struct probe_point *point;	/* being handled */
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

/* ---- Implemented by the back end (arch/<arch>/kprobes.c) ---- */

/* Decide whether the instruction at pp->addr can be probed, and prepare
 * pp->insn (copy it, allocate a slot if one is needed) and
 * pp->can_emulate / pp->boost_copy. func_start and
 * func_size describe the enclosing function, for the boundary check.
 * Returns 0, -EILSEQ (not an instruction boundary), -EINVAL (an
 * instruction that cannot be probed) or -ENOMEM (no slot). */
int arch_prepare_kprobe(struct probe_point *pp, uintptr_t func_start, size_t func_size);
/* Write / remove the breakpoint at pp->addr (through text_poke). */
void arch_arm_kprobe(struct probe_point *pp);
void arch_disarm_kprobe(struct probe_point *pp);
/* Where buf (a copy of the text at buf_addr, len bytes) holds bytes that
 * pp patched, put the original bytes back. */
void arch_unpatched_bytes(const struct probe_point *pp, uint8_t *buf,
			  uintptr_t buf_addr, size_t len);
/* arch_breakpoint_addr(regs), the address of the breakpoint that trapped,
 * is a static inline of <asm/kprobes.h>: it is on every hit's path. */
/* True if the breakpoint instruction is at addr (someone else's int3). */
bool arch_is_breakpoint(uintptr_t addr);
/* Begin running the original instruction after the pre-handlers, in one
 * of the two ways only the back end knows: EMULATE completes it on regs;
 * STEP sets regs to step it from the slot, and arch_finish_step completes
 * it at the single-step trap. (BOOST and DETOUR need no hook: the core
 * points the instruction pointer at pp->boost_copy or pp->detour_copy.) */
void arch_exec_probed_insn(struct probe_point *pp, enum probe_exec how,
			   struct pt_regs *regs, struct arch_kprobe_state *saved);
/* Fix the registers after the single-step trap: resume after the
 * original instruction as if it had run in place. Returns false if the
 * instruction is not finished yet (a repeated string instruction traps
 * after each iteration): it is then stepped again. */
bool arch_finish_step(struct probe_point *pp, struct pt_regs *regs,
		      const struct arch_kprobe_state *saved);

/* If a single-step faulted: put regs back at the probed instruction. */
void arch_abort_step(struct probe_point *pp, struct pt_regs *regs,
		     const struct arch_kprobe_state *saved);
/* kretprobes: arch_prepare_kretprobe(ri, regs) swaps the return address
 * of the call just entered for the trampoline's, keeping it in ri;
 * arch_kretprobe_matches(ri, regs) says whether the trampoline's regs are
 * the return of ri's call; arch_kretprobe_trampoline_addr() is where the
 * trampoline is. All three are static inlines of <asm/kprobes.h>: they
 * run on every probed call. */

/* jprobes. arch_jprobe_enter(regs, entry, copy, saved) makes regs, the
 * trap frame of a hit at a function's entry, resume in the jprobe's entry
 * function: with interrupts off (like any handler, so that it cannot be
 * preempted while this CPU's state is in use), the argument registers
 * unchanged, and the stack pointer at copy - below the frame, so that the
 * frame outlives the entry function - where the top
 * JPROBE_STACK_COPY_SIZE bytes of the probed stack are copied once the
 * trap has returned. What it changes in regs it keeps in *saved;
 * arch_jprobe_leave(regs, saved) puts that back.
 * Both are static inlines of <asm/kprobes.h>: they run on every hit. The
 * back end's jprobe_return() (kprobes.h) calls jprobe_return_regs(),
 * below, then resumes the frame it returns as the trap return path would
 * - its own stack pointer included - leaving the entry function's stack
 * behind. */

/* ---- The jump optimizer's back end (arch/<arch>/optprobe.c) ---- */

/* Run the safety checks for replacing the instructions at pp->addr with a
 * jump, and set *len to the bytes the jump would replace (0 if the checks
 * stopped before knowing; the core stores it in pp->opt_len under the
 * lock). Returns 0, or -EINVAL / -ENOMEM with *why (a short phrase) and
 * *where (the address it is about) set. Reads the text without other
 * probes' breakpoints. */
int arch_check_optprobe(struct probe_point *pp, size_t *len, const char **why, uintptr_t *where);
/* Build pp's detour buffer (ARCH_DETOUR_SIZE bytes from
 * optimizer_alloc_detour): save registers, call optprobe_callback(pp,
 * regs), restore, run the copied instructions, jump back. The call must
 * not be preempted, from before it to after it returns (a preempted
 * thread must never hold a return address into a buffer): interrupts off
 * or the thread's preemption count raised, as the back end prefers. Sets
 * pp->detour and pp->detour_copy (where the copied instructions start).
 * -ENOMEM if no executable memory is left. */
int arch_prepare_optprobe(struct probe_point *pp);
/* Write the jump over the region (breakpoint first, then the tail, then
 * the first byte), or put the original bytes back with the breakpoint
 * still first. */
void arch_optimize(struct probe_point *pp);
void arch_unoptimize(struct probe_point *pp);

/* An instruction slot of ARCH_PROBE_SLOT_SIZE bytes for pp->slot (the
 * core frees it with the point), or NULL when none is left. */
uint8_t *kprobe_alloc_slot(void);
/* Instruction slots in use (tests check none leak). */
unsigned long kprobe_slots_in_use(void);

/* Human-readable description of the probed instruction for `probe show`. */
void arch_describe_probe(const struct probe_point *pp, char *buf, size_t size);
/* How many bytes the probed instruction takes: the next instruction
 * boundary is that far past pp->addr (the bench walks a function's
 * instructions with it, without trying every byte). */
size_t arch_probe_insn_length(const struct probe_point *pp);

/* ---- Implemented by the core ---- */

/* Copy len bytes of text at addr as they were before any probe patched
 * them (for decoding next to other probes). */
void kprobes_read_text(uintptr_t addr, uint8_t *buf, size_t len);

/* The detour buffer's C half: run the pre-handlers of pp. Called with
 * preemption disabled; interrupts may be on (see arch_prepare_optprobe). */
void optprobe_callback(struct probe_point *pp, struct pt_regs *regs);

/* jprobe_return()'s C half, with the entry function's work done: put the
 * hit's trap frame back as it was, start the probed instruction, and
 * return the frame to resume. */
struct pt_regs *jprobe_return_regs(void);

/* The trampoline's C half: find the instance of the returning call, run
 * its handler, and return the real return address. */
uintptr_t kretprobe_trampoline_handler(struct pt_regs *regs);


#endif
