/*
 * The scheduler: one run queue, round robin, preemption by the timer.
 *
 * Several CPUs share the one queue. Each CPU takes the first thread in it
 * that may run there (a pinned thread runs only on its CPU), and runs
 * its own idle thread when there is none. So a thread goes wherever a
 * CPU is free: there is nothing to balance and no migration to decide.
 * The price is one lock for every switch on every CPU, which is cheap at
 * the eight CPUs ProbeOS supports and keeps this file short; a kernel for
 * many CPUs gives each CPU a queue of its own and moves threads between
 * them. A thread that becomes ready while some CPU idles should not wait
 * for that CPU's next tick: the CPU is sent a reschedule IPI.
 *
 * Locking. sched_lock protects the run queue, the sleep list, the wait
 * queues and every thread's state. It is held *across* a context switch:
 * taken by the thread that switches away and released by the thread that
 * resumes (sched_finish_switch). That is what will make it safe for two
 * CPUs: a thread marked blocked or ready cannot be picked up by another
 * CPU until its own CPU has finished saving it and left its stack.
 *
 * Dead threads cannot free their own stack (they are running on it), so
 * the thread that runs next frees it, in sched_finish_switch.
 */
#include "kernel/sched.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/mm/heap.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/rcu.h"
#include "kernel/sched_asm.h"
#include "kernel/sched_internal.h"
#include "kernel/smp.h"
#include "kernel/smp_call.h"
#include "kernel/spinlock.h"

_Static_assert(offsetof(struct thread, preempt_count) == THREAD_PREEMPT_COUNT_OFFSET,
	       "kernel/sched_asm.h");

static struct spinlock sched_lock = SPINLOCK_INIT("sched");
static LIST_HEAD(run_queue);
static LIST_HEAD(sleep_list);
static volatile uint64_t ticks;
/* Counts, under sched_lock, every preemption and every resumption from
 * one; each thread records the count of its latest (kernel/code_in_use.c). */
static unsigned long preempt_events;

extern const struct thread_exit_hook __start_thread_exit_hooks[],
	__stop_thread_exit_hooks[];
/* The thread a CPU just switched away from, for sched_finish_switch. */
static struct thread *switched_from[MAX_CPUS];

uint64_t sched_ticks(void)
{
	return ticks;
}

static bool may_run_on(const struct thread *t, unsigned int cpu)
{
	return !t->pinned || t->pinned_cpu == cpu;
}
NOKPROBE_SYMBOL(may_run_on);

/* Have an idle CPU that may run t look at the run queue now rather than
 * at its next tick: this one, or another through a reschedule IPI. */
static void wake_idle_cpu(const struct thread *t)
{
	struct cpu *self = this_cpu();
	unsigned long running = smp_cpus_running();

	if (self->current == self->idle && may_run_on(t, self->id)) {
		self->need_resched = true;
		return;
	}
	for (unsigned int id = 0; id < MAX_CPUS; id++) {
		struct cpu *cpu = cpu_of(id);

		if (id != self->id && (running & (1UL << id)) && cpu->current == cpu->idle &&
		    may_run_on(t, id)) {
			arch_send_ipi(id, IPI_RESCHEDULE);
			return;
		}
	}
}
NOKPROBE_SYMBOL(wake_idle_cpu);

static void make_ready(struct thread *t)
{
	t->state = THREAD_READY;
	list_add_tail(&t->queue_node, &run_queue);
	wake_idle_cpu(t);
}
NOKPROBE_SYMBOL(make_ready);

/* The first thread in the run queue that may run on cpu, or NULL. */
static struct thread *first_runnable(unsigned int cpu)
{
	struct thread *t;

	list_for_each_entry(t, &run_queue, queue_node)
		if (may_run_on(t, cpu))
			return t;
	return NULL;
}
NOKPROBE_SYMBOL(first_runnable);

/* Free a thread that exited and has been switched away from. The stack
 * goes first, while the thread is still in all_threads: whoever waits for
 * a thread to leave the list (`worker stop`) then finds its memory given
 * back. Unmapping a stack may wait for other CPUs, so no lock is held. */
static void reap(struct thread *t)
{
	unsigned long flags;

	thread_free_stack(t);
	flags = arch_irq_save();
	spin_lock(&sched_lock);
	list_del(&t->all_node);
	spin_unlock(&sched_lock);
	arch_irq_restore(flags);
	thread_free(t);
}

/* Runs on the new thread right after every switch, with sched_lock held
 * by the thread we switched from. */
void sched_finish_switch(void)
{
	struct thread *prev = switched_from[this_cpu()->id];
	bool dead = prev && prev->state == THREAD_DEAD;

	spin_unlock(&sched_lock);
	if (dead)
		reap(prev);
}
NOKPROBE_SYMBOL(sched_finish_switch);

/* Make t this CPU's running thread, where the scheduler and where
 * current_thread() look (the latter may be a register: asm/current.h). */
static void set_current(struct cpu *cpu, struct thread *t)
{
	cpu->current = t;
	arch_set_current_thread(t);
}

/* t was preempted at regs, or resumes from that: note when, under
 * sched_lock, and where it stopped (code_in_use). */
static void note_preempt_event(struct thread *t, const struct pt_regs *regs)
{
	t->preempt_event = ++preempt_events;
	t->stopped_at = instruction_pointer(regs);
}
NOKPROBE_SYMBOL(note_preempt_event);

/* prev leaves the CPU and next takes it (the same thread, when it
 * alone can run): next's time switched out ends now. */
static void note_off_cpu(struct thread *prev, struct thread *next)
{
	uint64_t now = arch_cycles();

	prev->switched_out_at = now;
	if (next->switched_out_at)
		next->off_cpu += now - next->switched_out_at;
}
NOKPROBE_SYMBOL(note_off_cpu);

/* Pick the next thread and switch to it. Interrupts off, sched_lock held;
 * returns (with the lock released) when this thread runs again. */
static void schedule_locked(void)
{
	struct cpu *cpu = this_cpu();
	struct thread *prev = cpu->current;
	struct thread *next;

	/* Only a thread that gives up the CPU itself gets here with its
	 * count up (the preemption point checks it), or inside a handler
	 * that runs at trap time (a probe's: with interrupts off or the
	 * count up, and its CPU marked in handler_context, cpu.h):
	 * code that must not be switched away from tried to sleep. The
	 * handler is named first: one reached from a call site runs with
	 * the count up too (kernel/trace/ftrace.c). */
	if (unlikely(this_cpu_field(handler_context.handler_state)))
		panic("sched: thread %s would sleep inside a handler run at trap time",
		      prev->name);
	if (unlikely(prev->preempt_count))
		panic("sched: thread %s would switch away with preemption disabled",
		      prev->name);
	thread_check_stack(prev);
	if (prev->state == THREAD_RUNNING) {
		if (prev == cpu->idle)
			prev->state = THREAD_READY;	/* never queued: the fallback */
		else
			make_ready(prev);
	}
	next = first_runnable(cpu->id);
	if (next)
		list_del(&next->queue_node);
	else
		next = cpu->idle;
	if (next->preempted_regs)
		note_preempt_event(next, next->preempted_regs);	/* resumes */
	next->state = THREAD_RUNNING;
	next->cpu = cpu->id;
	next->slice_left = SCHED_SLICE_TICKS;
	cpu->need_resched = false;
	note_off_cpu(prev, next);
	set_current(cpu, next);
	switched_from[cpu->id] = prev;
	if (next != prev)
		arch_context_switch(&prev->context, &next->context);
	sched_finish_switch();
}
NOKPROBE_SYMBOL(schedule_locked);

void thread_yield(void)
{
	unsigned long flags = arch_irq_save();

	spin_lock(&sched_lock);
	schedule_locked();
	arch_irq_restore(flags);
}

void thread_sleep(uint64_t n)
{
	unsigned long flags = arch_irq_save();
	struct thread *self = current_thread();

	spin_lock(&sched_lock);
	self->state = THREAD_SLEEPING;
	self->wake_tick = ticks + n;
	list_add_tail(&self->queue_node, &sleep_list);
	schedule_locked();
	arch_irq_restore(flags);
}

void wait_queue_wait(struct wait_queue *wq, struct spinlock *lock)
{
	struct thread *self = current_thread();

	spin_lock(&sched_lock);
	self->state = THREAD_BLOCKED;
	list_add_tail(&self->queue_node, &wq->waiters);
	spin_unlock(lock);
	schedule_locked();
	spin_lock(lock);
}

void wait_queue_wake_all(struct wait_queue *wq)
{
	unsigned long flags = arch_irq_save();
	struct thread *t, *tmp;

	spin_lock(&sched_lock);
	list_for_each_entry_safe(t, tmp, &wq->waiters, queue_node) {
		list_del(&t->queue_node);
		make_ready(t);
	}
	spin_unlock(&sched_lock);
	arch_irq_restore(flags);
}
NOKPROBE_SYMBOL(wait_queue_wake_all);

/* Never traced nor probed: the hooks give back the thread's hooked
 * returns (kernel/rethook.h), this call's own among them if it had one,
 * and its return would then find nothing to return to. */
void notrace thread_run_exit_hooks(struct thread *t)
{
	for (const struct thread_exit_hook *h = __start_thread_exit_hooks;
	     h < __stop_thread_exit_hooks; h++)
		h->run(t);
}
NOKPROBE_SYMBOL(thread_run_exit_hooks);

void thread_exit(void)
{
	thread_run_exit_hooks(current_thread());
	arch_irq_disable();
	spin_lock(&sched_lock);
	current_thread()->state = THREAD_DEAD;
	schedule_locked();
	__builtin_unreachable();
}

/* The timer interrupts each CPU has taken, counted by the CPU alone, in
 * its own copy and before sched_lock: the count shares nothing with the
 * other CPUs. */
static DEFINE_PER_CPU(unsigned long, timer_interrupts);

unsigned long sched_timer_interrupts(unsigned int cpu)
{
	return __atomic_load_n(per_cpu_ptr(&timer_interrupts, cpu), __ATOMIC_RELAXED);
}

void sched_timer_tick(void)
{
	struct cpu *cpu = this_cpu();
	struct thread *t, *tmp;

	(*this_cpu_ptr(&timer_interrupts))++;
	spin_lock(&sched_lock);
	if (cpu->id == 0)
		ticks++;
	list_for_each_entry_safe(t, tmp, &sleep_list, queue_node) {
		if (t->wake_tick <= ticks) {
			list_del(&t->queue_node);
			make_ready(t);
		}
	}
	cpu->current->run_ticks++;
	if (cpu->current->slice_left > 0)
		cpu->current->slice_left--;
	if (cpu->current->slice_left == 0 && first_runnable(cpu->id))
		cpu->need_resched = true;
	spin_unlock(&sched_lock);
	/* The tick interrupted a thread, not another interrupt, that had
	 * preemption on: it was in no read-side section. */
	rcu_timer_tick(cpu->irq_depth == 1 && cpu->current->preempt_count == 0);
}
NOKPROBE_SYMBOL(sched_timer_tick);

void sched_preempt_point(struct pt_regs *regs)
{
	struct cpu *cpu = this_cpu();

	if (!cpu->need_resched || cpu->irq_depth || cpu->current->preempt_count)
		return;
	spin_lock(&sched_lock);
	cpu->current->preempted_regs = regs;
	note_preempt_event(cpu->current, regs);
	schedule_locked();
	current_thread()->preempted_regs = NULL;
}
NOKPROBE_SYMBOL(sched_preempt_point);

/* Called by the arch code on a new thread's first run. */
void thread_start(void)
{
	struct thread *self = current_thread();

	sched_finish_switch();
	arch_irq_enable();
	self->entry(self->arg);
	thread_exit();
}

void sched_enqueue_new(struct thread *t)
{
	unsigned long flags = arch_irq_save();

	spin_lock(&sched_lock);
	list_add_tail(&t->all_node, &all_threads);
	make_ready(t);
	spin_unlock(&sched_lock);
	arch_irq_restore(flags);
}

unsigned long sched_for_each_thread(void (*fn)(const struct thread *t, void *ctx), void *ctx)
{
	unsigned long flags = arch_irq_save();
	unsigned long events;
	struct thread *t;

	spin_lock(&sched_lock);
	list_for_each_entry(t, &all_threads, all_node)
		fn(t, ctx);
	events = preempt_events;
	spin_unlock(&sched_lock);
	arch_irq_restore(flags);
	return events;
}

/* Read under sched_lock, which the tick holds as it counts run_ticks. */
uint64_t sched_idle_ticks(void)
{
	unsigned long flags = arch_irq_save();
	uint64_t sum = 0;

	spin_lock(&sched_lock);
	for (unsigned int id = 0; id < MAX_CPUS; id++)
		if (cpu_of(id)->idle)
			sum += cpu_of(id)->idle->run_ticks;
	spin_unlock(&sched_lock);
	arch_irq_restore(flags);
	return sum;
}

void sched_init(void)
{
	struct cpu *cpu = this_cpu();
	unsigned long flags;

	/* Under the lock, as every change to all_threads: other CPUs will
	 * adopt their idle threads while threads are created and listed. */
	cpu->idle = thread_adopt_boot("idle");
	if (!cpu->idle)
		panic("sched: no memory for the idle thread");
	flags = arch_irq_save();
	spin_lock(&sched_lock);
	list_add_tail(&cpu->idle->all_node, &all_threads);
	spin_unlock(&sched_lock);
	arch_irq_restore(flags);
	cpu->idle->cpu = cpu->id;
	set_current(cpu, cpu->idle);
}

void sched_run_idle(void)
{
	/* Ready threads are switched to on the way out of the interrupt
	 * that made them ready (sched_preempt_point). */
	for (;;)
		arch_wait_for_interrupt();
}
