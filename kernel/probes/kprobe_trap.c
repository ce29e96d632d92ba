/*
 * What happens when a probe is hit: the trap hooks of the probes layer.
 *
 *   breakpoint  -> find the point, run the pre-handlers, then start the
 *                  original instruction (emulate / boost / single-step);
 *   single-step -> finish the instruction, run the post-handlers;
 *   fault       -> give the probe's fault_handler a chance, and if the
 *                  fault came from the stepped copy, make it look as if it
 *                  came from the original instruction.
 *
 * The state between the breakpoint and the single-step trap is per CPU
 * (struct kprobe_ctlblk, a per-CPU variable): which point, which probe's
 * handler runs, the status (kept in struct cpu's handler_context word,
 * kernel/cpu.h), and the flags the back end saved. A hit while that state
 * is in use - a probe inside a handler - is a reentry: its nmissed is counted,
 * no handler runs, and the instruction still runs (with one saved level
 * of state when it must be single-stepped). So is a hit inside a
 * nokprobe_begin() section (kernel/nokprobe.h).
 *
 * No lock is taken on any of these paths: a hit may interrupt code that
 * holds any lock at all, and waiting for it would wait for ever. Points
 * are found as RCU readers (kprobes.c), and the per-CPU state is only
 * this CPU's, touched with interrupts off.
 */
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "lib/export.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/sched.h"
#include "kernel/trace/ftrace.h"
#include <asm/ftrace.h>

DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_cpu_block);

struct kprobe __kprobes *kprobe_running(void)
{
	return kprobe_status() != KPROBE_IDLE ? kprobe_ctlblk()->running : NULL;
}
EXPORT_SYMBOL(kprobe_running);

void __kprobes kprobe_count_missed(struct kprobe_ctlblk *kcb, struct kprobe *p)
{
	unsigned long flags = arch_irq_save();

	count_here(kcb, p->counts_offset, offsetof(struct kprobe_counts, nmissed));
	arch_irq_restore(flags);
}

static __noinline void __kprobes count_missed(struct kprobe_ctlblk *kcb, struct probe_point *pp)
{
	struct kprobe *p;

	list_for_each_entry_rcu(p, &pp->probes, point_node)
		if (kprobe_is_enabled(p))
			kprobe_count_missed(kcb, p);
}

/* Emulation is cheapest, as a rule. Boosting needs no post-handler to
 * run, and an instruction that may fault into a fix-up must fault where
 * the fix-up table expects it, so it is stepped. Stepping always works.
 * Where an emulated instruction also has a boost copy (aarch64's function
 * prologues, arch_boost_before_emulating), the copy is cheaper and is
 * taken when it may be; the emulation then serves the hits with a
 * post-handler, which it spares a step. */
static inline enum probe_exec __kprobes choose_exec(const struct probe_point *pp, bool handlers_run)
{
	/* A point being (or just) patched: the detour buffer's copy runs the
	 * whole region and jumps past it, so nothing resumes inside bytes
	 * the optimizer rewrites - even an emulated first instruction would
	 * return to addr+1. (No post-handler can be here: it forbids this.) */
	if (pp->detour_copy && (pp->opt_state == OPT_READY || pp->opt_state == OPT_OPTIMIZED))
		return PROBE_EXEC_DETOUR;
	if (pp->can_emulate && !(arch_boost_before_emulating() && pp->boost_copy &&
				 !(handlers_run && pp->has_post_handler)))
		return PROBE_EXEC_EMULATE;
	if (pp->boost_copy && !pp->has_fixup && !(handlers_run && pp->has_post_handler))
		return PROBE_EXEC_BOOST;
	return PROBE_EXEC_STEP;
}

const char __kprobes *probe_exec_name(enum probe_exec how)
{
	static const char *const names[PROBE_EXEC_KINDS] = {
		[PROBE_EXEC_EMULATE] = "emulated", [PROBE_EXEC_BOOST] = "boosted",
		[PROBE_EXEC_STEP] = "single-stepped", [PROBE_EXEC_DETOUR] = "detour-copy",
		[PROBE_EXEC_FTRACE] = "ftrace",
	};

	return names[how];
}

enum probe_exec __kprobes kprobe_exec_path(const struct probe_point *pp)
{
	return pp->on_ftrace ? PROBE_EXEC_FTRACE : choose_exec(pp, true);
}

static inline void __kprobes run_post_handler(struct kprobe_ctlblk *kcb, struct kprobe *p,
				    struct pt_regs *regs)
{
	if (p->post_handler) {
		kcb->running = p;
		p->post_handler(p, regs, 0);
	}
}

static __noinline void __kprobes
run_listed_post_handlers(struct kprobe_ctlblk *kcb, struct probe_point *pp, struct pt_regs *regs)
{
	struct kprobe *p;

	list_for_each_entry_rcu(p, &pp->probes, point_node)
		if (kprobe_is_enabled(p))
			run_post_handler(kcb, p, regs);
}

/* As for the pre-handlers: a sole probe is called without the walk. */
static __attribute__((always_inline)) inline void __kprobes
run_post_handlers(struct kprobe_ctlblk *kcb, struct probe_point *pp, struct pt_regs *regs)
{
	struct kprobe *p = rcu_dereference(pp->sole);

	kprobe_set_status(KPROBE_HIT_SSDONE);
	if (likely(p))
		run_post_handler(kcb, p, regs);
	else
		run_listed_post_handlers(kcb, pp, regs);
}

/* Start the original instruction the chosen way. A boosted instruction
 * and the detour's copy only need the instruction pointer moved to code
 * that jumps back by itself; emulating and stepping need the back end. */
static __attribute__((always_inline)) inline void __kprobes
start_probed_insn(struct probe_point *pp, enum probe_exec how, struct pt_regs *regs,
		  struct arch_kprobe_state *saved)
{
	if (how == PROBE_EXEC_BOOST)
		instruction_pointer_set(regs, (uintptr_t)pp->boost_copy);
	else if (how == PROBE_EXEC_DETOUR)
		instruction_pointer_set(regs, (uintptr_t)pp->detour_copy);
	else
		arch_exec_probed_insn(pp, how, regs, saved);
}

/* Start the original instruction; finish at once unless it is stepped.
 * Inlined into the breakpoint handler (and jprobe_return_regs): it is
 * half of every hit. */
static __attribute__((always_inline)) inline void __kprobes
exec_original(struct kprobe_ctlblk *kcb, struct probe_point *pp, struct pt_regs *regs)
{
	enum probe_exec how;

	if (pp->on_ftrace) {	/* a jprobe's return: the site is a NOP to skip */
		instruction_pointer_set(regs, (uintptr_t)pp->addr + ARCH_FTRACE_SITE_SIZE);
		if (pp->has_post_handler)
			run_post_handlers(kcb, pp, regs);
		reset_ctlblk();
		return;
	}
	how = choose_exec(pp, true);
	count_here(kcb, pp->counts_offset,	/* interrupts off */
		   offsetof(struct point_counts, exec) + how * sizeof(unsigned long));
	start_probed_insn(pp, how, regs, &kcb->arch);
	if (how == PROBE_EXEC_STEP) {
		kcb->point = pp;	/* for the single-step and fault hooks */
		kprobe_set_status(KPROBE_HIT_SS);
		return;
	}
	if (how == PROBE_EXEC_EMULATE && pp->has_post_handler)
		run_post_handlers(kcb, pp, regs);
	reset_ctlblk();
}

/* The end of a jprobe hit, called by the back end's jprobe_return() once
 * the entry function is done (see jprobes.c). */
struct pt_regs __kprobes *jprobe_return_regs(void)
{
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();
	struct pt_regs *regs = kcb->jprobe_regs;

	if (kprobe_status() != KPROBE_JPROBE)
		panic("jprobe_return() called outside a jprobe's entry function");
	arch_jprobe_leave(regs, &kcb->jprobe_saved);
	kprobe_set_status(KPROBE_HIT_ACTIVE);
	exec_original(kcb, kcb->point, regs);
	return regs;
}

/* Run p's pre-handler; true if it redirected execution. */
static __attribute__((always_inline)) inline bool __kprobes
run_pre_handler(struct kprobe_ctlblk *kcb, struct kprobe *p, struct pt_regs *regs)
{
	/* Interrupts off, or see kprobe_count_missed. */
	count_here(kcb, p->counts_offset, offsetof(struct kprobe_counts, nhit));
	kcb->running = p;
	return p->pre_handler && p->pre_handler(p, regs);
}

/* Several probes (or none enabled) at the point: walk them in order. */
static __noinline bool __kprobes
run_listed_pre_handlers(struct kprobe_ctlblk *kcb, struct probe_point *pp, struct pt_regs *regs)
{
	struct kprobe *p;

	kcb->running = NULL;	/* none, if none is enabled */
	list_for_each_entry_rcu(p, &pp->probes, point_node)
		if (kprobe_is_enabled(p) && run_pre_handler(kcb, p, regs))
			return true;
	return false;
}

/* Run the pre-handlers (the caller has set the status to
 * KPROBE_HIT_ACTIVE or KPROBE_HIT_OPTIMIZED); true if one redirected
 * execution. Most points have one probe, whose handler is called without
 * walking the list. */
static __attribute__((always_inline)) inline bool __kprobes
run_pre_handlers(struct kprobe_ctlblk *kcb, struct probe_point *pp, struct pt_regs *regs)
{
	struct kprobe *p = rcu_dereference(pp->sole);

	if (likely(p))
		return run_pre_handler(kcb, p, regs);
	return run_listed_pre_handlers(kcb, pp, regs);
}

/* A hit while this CPU is already handling a probe. */
static void __kprobes
reenter(struct kprobe_ctlblk *kcb, struct probe_point *pp, struct pt_regs *regs)
{
	enum probe_exec how = choose_exec(pp, false);
	struct arch_kprobe_state unused;

	count_missed(kcb, pp);
	if (how != PROBE_EXEC_STEP) {
		start_probed_insn(pp, how, regs, &unused);
		return;
	}
	if (kprobe_status() == KPROBE_HIT_SS || kprobe_status() == KPROBE_REENTER)
		panic("kprobes: probe at %p hit while single-stepping another", pp->addr);
	kcb->prev.point = kcb->point;
	kcb->prev.running = kcb->running;
	kcb->prev.status = kprobe_status();
	kcb->prev.arch = kcb->arch;
	kcb->point = pp;
	kcb->running = NULL;
	kprobe_set_status(KPROBE_REENTER);
	start_probed_insn(pp, how, regs, &kcb->arch);
}

/* Back to the hit the reentry interrupted. */
static void __kprobes restore_prev(struct kprobe_ctlblk *kcb)
{
	kcb->point = kcb->prev.point;
	kcb->running = kcb->prev.running;
	kprobe_set_status(kcb->prev.status);
	kcb->arch = kcb->prev.arch;
	kcb->prev.point = NULL;
	kcb->prev.running = NULL;
}

/* A hit on pp while this CPU handles no other probe: the pre-handlers,
 * then the original instruction. Inlined into the breakpoint handler,
 * whose fast path it is. */
static __attribute__((always_inline)) inline void __kprobes
handle_hit(struct kprobe_ctlblk *kcb, struct probe_point *pp, struct pt_regs *regs)
{
	kprobe_set_status(KPROBE_HIT_ACTIVE);
	if (run_pre_handlers(kcb, pp, regs)) {
		/* A handler moved the instruction pointer: the original
		 * instruction is skipped (a jprobe sets its own status). */
		if (kprobe_status() != KPROBE_JPROBE)
			reset_ctlblk();
		return;
	}
	exec_original(kcb, pp, regs);
}

/*
 * A breakpoint with no point at its address when the handler looked.
 * If the text no longer holds a breakpoint, another CPU disarmed it
 * after this one trapped: run the real instruction. (Under an emulator,
 * that the CPU then fetches it and not the breakpoint again is owed to
 * text_poke's second write, kernel/mm/text_patch.c.) If the text still
 * holds one, look again: the breakpoint this CPU ran may be older than
 * the text it reads now. A breakpoint runs from the CPU's view of the
 * text, which may lag behind memory until the patcher's sync reaches it
 * (an emulator's translated code can lag longer): so a trap can come
 * from a probe unregistered a moment ago, while a new registration at
 * the same address publishes its point and arms its own breakpoint
 * before this CPU reads the text. Publishing comes before arming, so a
 * breakpoint read from the text has its point published by then, and
 * the hit is that point's. Only a breakpoint that no point owns even
 * then is not the probes' (false: the trap goes on, to a panic).
 */
static __noinline bool __kprobes
no_point_hit(struct kprobe_ctlblk *kcb, struct pt_regs *regs, uintptr_t addr, bool busy)
{
	struct probe_point *pp;

	if (!arch_is_breakpoint(addr)) {
		/* A call site being patched is passed as the NOP it was, not
		 * run again: this CPU's view of it may still hold the int3
		 * (an emulator's translated copy can), and, with interrupts
		 * off here, that loop would last as long as the patcher waits
		 * for this CPU to take its sync (seen: x86_64, the function
		 * tracer toggled under load, every CPU stuck). */
		if (!ftrace_site_breakpoint(regs, addr))
			instruction_pointer_set(regs, addr);
		return true;
	}
	/* The text's breakpoint was read before the point is looked for
	 * again (point_publish_locked's fence is the other half). */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	pp = point_lookup(addr);
	if (!pp)	/* a call site's int3 while it changes, or none of ours */
		return ftrace_site_breakpoint(regs, addr);
	if (busy)
		reenter(kcb, pp, regs);
	else
		handle_hit(kcb, pp, regs);
	return true;
}

/* A breakpoint while this CPU is already handling a probe (a probe hit
 * inside a handler, or a jprobe's entry function), or inside a
 * nokprobe_begin() section: a missed hit. */
static __noinline bool __kprobes
busy_hit(struct kprobe_ctlblk *kcb, struct pt_regs *regs, uintptr_t addr)
{
	struct probe_point *pp = point_lookup(addr);

	if (!pp)
		return no_point_hit(kcb, regs, addr, true);
	reenter(kcb, pp, regs);
	return true;
}

/*
 * The breakpoint hook: no C code calls it. The trap entry's assembly
 * does, through trap_hooks[TRAP_HOOK_BREAKPOINT], where kprobes_init put
 * it (see kprobes_internal.h): breakpoint_common for int3 on x86_64,
 * sync_common for a BRK on aarch64.
 *
 * The point is looked up without a lock: this runs with interrupts off,
 * a read-side section, so a point found here is not freed before the
 * hit is over (unregistering waits a grace period), and nothing the
 * interrupted code holds is needed.
 */
bool __kprobes kprobe_breakpoint_handler(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();
	uintptr_t addr = arch_breakpoint_addr(regs);
	struct probe_point *pp;

	/* Busy with another probe, or inside nokprobe_begin(): one test. */
	if (unlikely(kprobe_cpu_busy()))
		return busy_hit(kcb, regs, addr);
	pp = point_lookup(addr);
	if (unlikely(!pp))
		return no_point_hit(kcb, regs, addr, false);
	handle_hit(kcb, pp, regs);
	return true;
}

/* The single-step hook, called through trap_hooks[TRAP_HOOK_SINGLESTEP]
 * (see kprobes_internal.h): the end of a stepped instruction. */
bool __kprobes kprobe_singlestep_handler(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();

	if (kprobe_status() != KPROBE_HIT_SS && kprobe_status() != KPROBE_REENTER)
		return false;
	if (!arch_finish_step(kcb->point, regs, &kcb->arch))
		return true;	/* step it again */
	if (kprobe_status() == KPROBE_REENTER) {
		restore_prev(kcb);
		return true;
	}
	if (kcb->point->has_post_handler)
		run_post_handlers(kcb, kcb->point, regs);
	reset_ctlblk();
	return true;
}

/* The fault hook, called through trap_hooks[TRAP_HOOK_FAULT] (see
 * kprobes_internal.h) for any other exception, before the fix-up table. */
bool __kprobes kprobe_fault_handler(struct pt_regs *regs)
{
	enum kprobe_status status = kprobe_status();
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();
	struct kprobe *p = kcb->running;
	int trapnr = (int)regs->vector;

	if (status == KPROBE_IDLE)
		return false;
	if (status == KPROBE_HIT_SS || status == KPROBE_REENTER) {
		/* The copy in the slot faulted. End the step and make the
		 * fault look as if it came from the original instruction,
		 * where fix-ups and backtraces expect it; then the probe's
		 * fault_handler may handle it (a reentered hit has none). */
		arch_abort_step(kcb->point, regs, &kcb->arch);
		if (status == KPROBE_REENTER) {
			restore_prev(kcb);
			return false;
		}
		reset_ctlblk();
		return p && p->fault_handler && p->fault_handler(p, regs, trapnr);
	}
	/* A fault inside a handler - unless an interrupt arrived during an
	 * optimized hit's handler (aarch64 leaves them on there) and the
	 * fault is in that interrupt's code, which the probe does not own. */
	if (status == KPROBE_HIT_OPTIMIZED && this_cpu_read(irq_depth) != kcb->irq_depth)
		return false;
	return p && p->fault_handler && p->fault_handler(p, regs, trapnr);
}

/*
 * A hit from a call site (kprobe_ftrace.c): the site's call reached
 * ftrace_dispatch, which calls this with the registers as a breakpoint
 * at the function's first instruction would have saved them, and the
 * instruction pointer past the site. The handlers run as on a trap: with
 * interrupts off, the pre-handlers seeing the instruction pointer where
 * the breakpoint would have left it (ARCH_BREAKPOINT_IP_AFTER past the
 * address), the post-handlers seeing it past the site, as after the NOP
 * a step would have run. A pre-handler that moved it and returned 1 is
 * obeyed (the ops is FTRACE_OPS_IPMODIFY): the trampoline goes where it
 * points, a jprobe's entry function among them. A call while this CPU
 * is busy with another probe is a missed hit, as a trap would be.
 */
void __kprobes kprobe_ftrace_handler(uintptr_t ip, uintptr_t parent_ip, struct ftrace_ops *ops,
				     struct pt_regs *regs)
{
	uintptr_t past_site = instruction_pointer(regs);
	unsigned long flags = arch_irq_save();
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();
	struct probe_point *pp = point_lookup(ip);

	(void)parent_ip;
	(void)ops;
	if (!pp || !pp->on_ftrace)	/* unregistered a moment ago */
		goto out;
	if (kprobe_cpu_busy()) {
		count_missed(kcb, pp);
		goto out;
	}
	count_here(kcb, pp->counts_offset,
		   offsetof(struct point_counts, exec) + PROBE_EXEC_FTRACE * sizeof(unsigned long));
	instruction_pointer_set(regs, ip + ARCH_BREAKPOINT_IP_AFTER);
	kprobe_set_status(KPROBE_HIT_ACTIVE);
	if (run_pre_handlers(kcb, pp, regs)) {
		/* A jprobe's entry function runs with interrupts off, as its
		 * frame says (arch_jprobe_enter), and this CPU stays busy with
		 * it until it returns: an interrupt in the trampoline between
		 * here and there would find a handler running, and could
		 * preempt the thread in the middle of it. */
		if (kprobe_status() == KPROBE_JPROBE)
			return;
		reset_ctlblk();
		goto out;
	}
	instruction_pointer_set(regs, past_site);
	if (pp->has_post_handler)
		run_post_handlers(kcb, pp, regs);
	reset_ctlblk();
out:
	arch_irq_restore(flags);
}

/*
 * A hit through an optimized point's jump: the detour buffer saved the
 * registers as a trap would and calls this. The pre-handlers run; the
 * instruction pointer they see is where the breakpoint would have left it
 * (x86_64: just past the probed address; aarch64: at it), and any change
 * they make to it is ignored: the detour goes on to the copied
 * instructions regardless, as the Kprobes guide says of optimized probes.
 */
void __kprobes optprobe_callback(struct probe_point *pp, struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = kprobe_ctlblk();

	if (kprobe_cpu_busy()) {	/* as in kprobe_breakpoint_handler */
		count_missed(kcb, pp);
		return;
	}
	/* Busy first, then the point. On aarch64 interrupts stay on here: an
	 * interrupt hitting a probe between the two would reset the control
	 * block under us; once the status is set, it misses that probe. */
	kprobe_set_status(KPROBE_HIT_OPTIMIZED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* the compiler keeps the order */
	kcb->irq_depth = this_cpu_field(irq_depth);
	/* Busy: no hit here can race it. */
	count_here(kcb, pp->counts_offset, offsetof(struct point_counts, opt_hits));
	run_pre_handlers(kcb, pp, regs);
	reset_ctlblk();
}
