/*
 * The jump optimizer: turning breakpoint probes into jumps.
 *
 * A breakpoint probe costs a trap per hit. Where it is safe, the optimizer
 * replaces the probed instruction (and the ones after it, up to the size
 * of a jump) with a jump to a detour buffer that saves the registers,
 * calls the pre-handlers through optprobe_callback, restores the
 * registers, runs copies of the replaced instructions and jumps back.
 *
 * Every probe starts as a breakpoint probe. A point is a candidate while
 * it is armed, has no post-handler and no jprobe (both need the trap), and
 * no other probe sits inside the bytes the jump would replace; the core
 * calls optimizer_update_locked whenever one of those may have changed,
 * and a point that stops being a candidate is unoptimized at once.
 *
 * Candidates are queued, and a kernel thread does the slow part after a
 * short delay, a batch at a time: the back end's safety checks (which read
 * the whole function), building the detour buffer, and then writing the
 * jump - but only once no thread is stopped inside the replaced bytes
 * after the first, since such a thread would resume in the middle of the
 * new jump instruction. That wait is our equivalent of the
 * synchronize_sched() of the Kprobes guide. Hits that arrive while a point
 * waits already go through the detour buffer's copy instead of a step.
 *
 * Locking: the state of every point is guarded by kprobe_mutex, which the
 * thread holds while it checks, allocates and patches, so no point
 * changes or goes away under its feet; it lets go only to sleep while a
 * thread is stopped inside a region. It is a sleeping lock: registering
 * waits meanwhile, and hits, which never take it, go on.
 */
#include "kernel/arch.h"
#include "kernel/code_in_use.h"
#include "kernel/code_range.h"
#include "kernel/mm/insn_slot.h"
#include "kernel/nokprobe.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/optimizer.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/symtab.h"
#include "lib/errno.h"
#include "lib/format.h"
#include <asm/layout.h>

#define OPTIMIZE_DELAY_TICKS 5	/* 50 ms: long enough to batch a burst */

static struct insn_slot_cache detour_buffers =
	INSN_SLOT_CACHE_INIT(detour_buffers, "detour buffers", ARCH_DETOUR_SIZE);
static LIST_HEAD(opt_queue);	/* OPT_QUEUED points, by opt_node */
static LIST_HEAD(opt_ready);	/* OPT_READY points, by opt_node */
static bool optimization_on = true;
/* The thread sleeps on optimizer_wq until work_queued is set; wake_lock
 * makes the check and the sleep one step, so a wake-up is never lost. */
static struct wait_queue optimizer_wq = WAIT_QUEUE_INIT(optimizer_wq);
static struct spinlock wake_lock = SPINLOCK_INIT("optimizer wake-up");
static bool work_queued;

static void __kprobes wake_optimizer(void)
{
	unsigned long flags = spin_lock_irqsave(&wake_lock);

	work_queued = true;
	spin_unlock_irqrestore(&wake_lock, flags);
	wait_queue_wake_all(&optimizer_wq);
}

static void __kprobes set_optimized_flags_locked(struct probe_point *pp)
{
	struct kprobe *p;

	list_for_each_entry(p, &pp->probes, point_node) {
		if (pp->opt_state == OPT_OPTIMIZED)
			p->flags |= KPROBE_FLAG_OPTIMIZED;
		else
			p->flags &= ~KPROBE_FLAG_OPTIMIZED;
	}
}

/* Everything but the back end's checks: why pp may not be optimized
 * now, or NULL if it may. */
static const char __kprobes *not_candidate_locked(struct probe_point *pp)
{
	if (pp->on_ftrace)
		return "it is on ftrace: its function's call site calls the handlers, no trap to replace";
	if (!optimization_on)
		return "optimization is off";
	if (!pp->armed)
		return "not armed";
	if (pp->has_post_handler)
		return "a probe here has a post-handler";
	if (point_jprobe_locked(pp))
		return "a jprobe is here";
	/* Another probe inside the replaced bytes would be overwritten. */
	if (pp->opt_len &&
	    point_inside_locked((uintptr_t)pp->addr, (uintptr_t)pp->addr + pp->opt_len))
		return "another probe is inside its region";
	return NULL;
}

static bool __kprobes candidate_locked(struct probe_point *pp)
{
	return !not_candidate_locked(pp);
}

void __kprobes optimizer_update_locked(struct probe_point *pp)
{
	bool ok = candidate_locked(pp), was_optimized = pp->opt_state == OPT_OPTIMIZED;

	switch (pp->opt_state) {
	case OPT_NONE:
		if (ok) {
			pp->opt_state = OPT_QUEUED;
			list_add_tail(&pp->opt_node, &opt_queue);
			wake_optimizer();
		}
		break;
	case OPT_QUEUED:
	case OPT_READY:
		if (!ok) {
			list_del(&pp->opt_node);
			pp->opt_state = OPT_NONE;
		}
		break;
	case OPT_OPTIMIZED:
		if (!ok) {
			arch_unoptimize(pp);
			pp->opt_state = OPT_NONE;
		}
		break;
	case OPT_REFUSED:
		break;
	}
	/* A point that is not optimized and was not has every probe's flag
	 * clear already (a probe joins with it clear): no walk of what may
	 * be thousands of probes at each change. */
	if (was_optimized || pp->opt_state == OPT_OPTIMIZED)
		set_optimized_flags_locked(pp);
}

/* A probe at addr can change the candidacy of points whose region holds it. */
static void __kprobes update_if_holds(struct probe_point *pp, void *addr)
{
	uintptr_t a = (uintptr_t)addr, start = (uintptr_t)pp->addr;

	if (a > start && a < start + pp->opt_len)
		optimizer_update_locked(pp);
}

void __kprobes optimizer_update_around_locked(uintptr_t addr)
{
	/* A region is at most ARCH_MAX_PATCH_LEN bytes: only points that
	 * close before addr can hold it. */
	for_each_point_in_locked(addr - ARCH_MAX_PATCH_LEN + 1, addr, update_if_holds, (void *)addr);
}

void __kprobes optimizer_forget_locked(struct probe_point *pp)
{
	list_del(&pp->opt_node);	/* harmless if not queued: it points to itself */
	pp->opt_state = OPT_NONE;
}

uint8_t __kprobes *optimizer_alloc_detour(void)
{
	return insn_slot_alloc(&detour_buffers);
}

void __kprobes optimizer_free_detour(uint8_t *detour)
{
	insn_slot_free(&detour_buffers, detour);
}

/* A detour buffer calls optprobe_callback with the registers it saved
 * below the call: backtraces go on from them (kernel/code_range.h). */
static bool __kprobes in_detour_buffer(uintptr_t addr)
{
	return insn_slot_cache_holds(&detour_buffers, addr);
}
CODE_RANGE("probe code: an optimized probe's detour buffer", in_detour_buffer);

unsigned long __kprobes optimizer_detours_in_use(void)
{
	return detour_buffers.slots_in_use;
}

/* Record what a check found: the region's length (registration reads
 * it, to see which probes lie inside) and, if why is set, the refusal. */
static void __kprobes
record_check(struct probe_point *pp, size_t len, const char *why, uintptr_t where)
{
	if (len)
		pp->opt_len = len;
	if (why) {
		pp->opt_state = OPT_REFUSED;
		pp->opt_refusal = why;
		pp->opt_refusal_addr = where;
	}
}

/* The checks and the detour buffer: they read the whole function and
 * allocate. Returns false if pp was refused. */
static bool __kprobes prepare(struct probe_point *pp)
{
	const char *why = NULL;
	uintptr_t where = 0;
	size_t len = 0;
	int err;

	if (pp->detour)
		return true;
	err = arch_check_optprobe(pp, &len, &why, &where);
	record_check(pp, len, err ? why : NULL, where);
	if (err)
		return false;
	err = arch_prepare_optprobe(pp);
	if (err)
		record_check(pp, 0, err == -ERANGE ? "an operand out of the detour buffer's reach at" :
						     "no executable memory for a detour buffer at",
			     (uintptr_t)pp->addr);
	return !err;
}

/* Could a stopped thread or another CPU resume inside the region after
 * its first byte? Either it stopped there, or it stopped in out-of-line probe code - an
 * instruction slot or a detour buffer, of this point or of any other -
 * which ends with a jump back into kernel text. A boosted slot of this
 * point (a hit from before it was READY) jumps back to the next
 * instruction, inside the region whenever the region is longer than the
 * probed one; so may the slot of a probe that was inside the region and
 * has just been unregistered (its slot is freed only once left), or the
 * detour copy of an unoptimized point whose region overlapped this one.
 * Rather than work out where each of those jumps back to, the patch waits
 * until no thread is stopped, and no CPU interrupted, in probe code at
 * all: threads never sleep there, so they leave at their next turn on
 * the CPU. (Hits since READY
 * run the detour buffer's copy, which jumps past the region.) */
static bool __kprobes thread_may_resume_in_region(const struct probe_point *pp)
{
	uintptr_t tail = (uintptr_t)pp->addr + 1;

	return code_in_use(tail, pp->opt_len - 1) ||
	       code_in_use(EXEC_REGION_BASE, EXEC_REGION_SIZE);
}

/* Write pp's jump if no thread and no CPU can resume inside its region
 * after the first byte; false if one can. Once the check is clear,
 * nothing can enter that part any more: the first byte is the armed
 * breakpoint, whose hits run the detour buffer's copy and come back
 * past the region, and code_in_use (kernel/sched.h) waited for every
 * CPU, so the patch may follow with interrupts on and other CPUs
 * running. */
static bool __kprobes try_patch_locked(struct probe_point *pp)
{
	if (thread_may_resume_in_region(pp))
		return false;
	arch_optimize(pp);
	list_del(&pp->opt_node);
	pp->opt_state = OPT_OPTIMIZED;
	set_optimized_flags_locked(pp);
	return true;
}

/* Take pp off the queue and make it READY, unless a check refuses it.
 * The checks may have found the region longer than was known when pp
 * was queued, with another probe inside: then it waits until that probe
 * goes (optimizer_update_around_locked queues it again). */
static void __kprobes prepare_one_locked(struct probe_point *pp)
{
	list_del(&pp->opt_node);
	if (!prepare(pp))
		return;
	if (!candidate_locked(pp)) {
		pp->opt_state = OPT_NONE;
		return;
	}
	pp->opt_state = OPT_READY;
	list_add_tail(&pp->opt_node, &opt_ready);
}

/* Patch every READY point whose region is clear; true if some still
 * wait for a thread to leave theirs. */
static bool __kprobes patch_ready_locked(void)
{
	struct probe_point *pp, *next;

	list_for_each_entry_safe(pp, next, &opt_ready, opt_node)
		try_patch_locked(pp);
	return !list_empty(&opt_ready);
}

/* The optimizer thread: after a wake-up, a short delay to let a burst of
 * registrations arrive, then the whole queue in one batch. It lets go of
 * kprobe_mutex between two points, and between tries while a thread is
 * stopped inside a READY point's region (that thread may take any time
 * to run again): registration and `probe list` never wait for a whole
 * batch. Whatever changes meanwhile (a point unregistered, no longer a
 * candidate) takes the point off opt_queue or opt_ready under the mutex,
 * so the thread never sees it again. */
static void __kprobes optimizer_main(void *unused)
{
	(void)unused;
	for (;;) {
		unsigned long flags = spin_lock_irqsave(&wake_lock);

		while (!work_queued)
			wait_queue_wait(&optimizer_wq, &wake_lock);
		work_queued = false;
		spin_unlock_irqrestore(&wake_lock, flags);
		thread_sleep(OPTIMIZE_DELAY_TICKS);
		mutex_lock(&kprobe_mutex);
		for (;;) {
			while (!list_empty(&opt_queue)) {
				prepare_one_locked(list_first_entry(&opt_queue, struct probe_point,
								    opt_node));
				/* A batch of thousands takes a while: let a
				 * registration or `probe list` that waits for
				 * the mutex go first, between two points. */
				mutex_unlock(&kprobe_mutex);
				thread_yield();
				mutex_lock(&kprobe_mutex);
			}
			if (!patch_ready_locked())
				break;
			mutex_unlock(&kprobe_mutex);
			thread_sleep(1);
			mutex_lock(&kprobe_mutex);
		}
		mutex_unlock(&kprobe_mutex);
	}
}

void __kprobes optimizer_init(void)
{
	if (thread_create("optimizer", optimizer_main, NULL) < 0)
		panic("kprobes: cannot start the optimizer thread");
}

static void __kprobes update_point(struct probe_point *pp, void *unused)
{
	(void)unused;
	optimizer_update_locked(pp);
}

bool __kprobes kprobes_optimization_enabled(void)
{
	return __atomic_load_n(&optimization_on, __ATOMIC_RELAXED);
}

void __kprobes kprobes_set_optimization(bool on)
{
	mutex_lock(&kprobe_mutex);
	optimization_on = on;
	for_each_point_locked(update_point, NULL);
	mutex_unlock(&kprobe_mutex);
}

bool __kprobes optimizer_idle_locked(void)
{
	return list_empty(&opt_queue) && list_empty(&opt_ready);
}

bool __kprobes optimizer_wait_idle(uint64_t ticks)
{
	uint64_t end = sched_ticks() + ticks;
	bool idle;

	for (;;) {
		mutex_lock(&kprobe_mutex);
		idle = optimizer_idle_locked();
		mutex_unlock(&kprobe_mutex);
		if (idle || sched_ticks() >= end)
			return idle;
		thread_sleep(1);
	}
}

void __kprobes optimizer_describe_locked(struct probe_point *pp, char *buf, size_t size)
{
	const char *why = not_candidate_locked(pp), *refusal = pp->opt_refusal;
	uintptr_t detour = (uintptr_t)pp->detour, where = pp->opt_refusal_addr;
	char at[80];

	switch (pp->opt_state) {
	case OPT_OPTIMIZED:
		snprintf(buf, size, "optimized: jump to detour buffer 0x%016lx, %lu hits through it",
			 (unsigned long)detour, point_opt_hits(pp));
		break;
	case OPT_REFUSED:
		sym_format_offset(where, at, sizeof(at));
		snprintf(buf, size, "not optimized: %s %s", refusal, at);
		break;
	case OPT_QUEUED:
		snprintf(buf, size, "not optimized yet: queued for the optimizer");
		break;
	case OPT_READY:
		snprintf(buf, size, "not optimized yet: waiting for a thread to leave its region");
		break;
	case OPT_NONE:
		snprintf(buf, size, "not optimized: %s", why ? why : "not yet examined");
		break;
	}
}
