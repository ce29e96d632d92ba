/* Kernel threads and the preemptive round-robin scheduler.
 *
 * Every thread has its own kernel stack and a saved context (its stack
 * pointer while not running). The timer interrupt counts down the running
 * thread's time slice; when it is used up, the scheduler switches threads
 * on the way out of the interrupt. A thread may also give up the CPU
 * itself: yield, sleep for some ticks, or wait on a wait queue until
 * another thread or an interrupt handler wakes it. */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include "kernel/cmd_output.h"
#include "kernel/cpu.h"
#include "lib/list.h"
#include "lib/types.h"
#include <asm/context.h>
#include <asm/current.h>
#include <asm/ptrace.h>

#define THREAD_NAME_MAX 15
#define SCHED_SLICE_TICKS 2

enum thread_state {
	THREAD_RUNNING,
	THREAD_READY,
	THREAD_SLEEPING,	/* until wake_tick */
	THREAD_BLOCKED,		/* on a wait queue */
	THREAD_DEAD,		/* exited; freed after the next switch */
};

struct mm_struct;
struct rethook_node;
struct fgraph_stack;

struct thread {
	/* Above zero: the timer does not preempt this thread (see
	 * preempt_disable). First, at the offset assembly expects
	 * (kernel/sched_asm.h). */
	unsigned int preempt_count;
	/* Each of these unions gives one field a second name: the one
	 * Linux's struct task_struct uses, so that a module's current->pid
	 * and current->comm (include/linux/sched.h) read the same data. */
	union {
		unsigned int id;
		int pid;
	};
	union {
		char name[THREAD_NAME_MAX + 1];
		char comm[THREAD_NAME_MAX + 1];
	};
	enum thread_state state;
	/* The CPU it runs on, or last ran on; a pinned thread's own CPU
	 * from the start. */
	unsigned int cpu;
	/* If pinned, it runs only on CPU pinned_cpu (thread_create_on). */
	bool pinned;
	unsigned int pinned_cpu;
	struct arch_context context;
	void *stack;			/* lowest address of its stack (stack_alloc) */
	size_t stack_size;
	void (*entry)(void *arg);
	void *arg;
	uint64_t wake_tick;
	uint64_t run_ticks;		/* timer ticks spent running */
	/* The cycles (arch_cycles) it has spent switched out, asleep or
	 * waiting for a CPU, and the count when it was last switched out
	 * (0: never). Written by the scheduler as it switches, read by the
	 * thread itself: what a call it made took while it ran is its
	 * time less the growth of off_cpu (the function graph's
	 * sleep-time option, kernel/trace/fgraph.h). */
	uint64_t off_cpu;
	uint64_t switched_out_at;
	unsigned int slice_left;	/* ticks before preemption */
	struct list_node all_node;	/* in the list of all threads */
	/* While preempted by an interrupt: the registers it was stopped with. */
	struct pt_regs *preempted_regs;
	/* Its latest preemption or resumption (sched.c's count), and where
	 * that preemption stopped it: code_in_use's record of threads that
	 * moved while it looked. */
	unsigned long preempt_event;
	uintptr_t stopped_at;
	/* Its pending calls whose return is hooked, newest first
	 * (kernel/rethook.h). Touched only by the thread itself. */
	struct rethook_node *rethooks;
	/* The function graph's stack of this thread's hooked calls
	 * (kernel/trace/fgraph.c, which makes it through the clone hook
	 * below, or for the threads there are when it is first used, and
	 * frees it through the exit hook); NULL until then. */
	struct fgraph_stack *graph_stack;
	/* Where the commands this thread runs write their output and
	 * errors (kernel/cmd_output.h); NULL: the console. Set only by the
	 * thread itself. */
	struct cmd_streams streams;
	/* Its filesystem state, the working directory (kernel/fs/cwd.h),
	 * which kernel/fs/ makes and frees through the clone and exit
	 * hooks below; NULL, meaning "/", for the boot and idle threads
	 * until they change directory. Set only by the thread itself. */
	struct fs_struct *fs;
	struct list_node queue_node;	/* run queue, sleep list or wait queue */
	/* Always NULL: every thread here is a kernel thread, with no user
	 * address space. Linux's current->mm is NULL for kernel threads
	 * too, and modules test it to tell them apart from processes (the
	 * type is never defined: there is nothing to point to). */
	struct mm_struct *mm;
};

struct wait_queue {
	struct list_node waiters;
};

#define WAIT_QUEUE_INIT(name) { LIST_HEAD_INIT((name).waiters) }

struct spinlock;

/* Turn this CPU's flow of control (the boot CPU's boot, another CPU's
 * start in kernel/smp.c) into its idle thread, which the scheduler runs
 * when no thread is ready for this CPU. Interrupts must still be
 * disabled. */
void sched_init(void);
/* Enable interrupts and become the idle loop; never returns. */
__noreturn void sched_run_idle(void);

/* What a new thread is to be: Linux's struct kernel_clone_args by name,
 * ProbeOS's own fields (there are no processes, address spaces or clone
 * flags to copy or share: every thread is a kernel thread). fn and
 * fn_arg are Linux's names. */
struct kernel_clone_args {
	const char *name;
	void (*fn)(void *);
	void *fn_arg;
	bool pinned;		/* run only on CPU cpu */
	unsigned int cpu;
};

/* Make a ready thread as args says. Returns its id, or -ENOMEM. Every
 * thread but the CPUs' idle threads is made here (thread_create and
 * thread_create_on call it), as in Linux, whose name it has: a probe on
 * it sees each one made. */
int kernel_clone(struct kernel_clone_args *args);
/* Create a ready thread that runs fn(arg). Returns its id, or -ENOMEM.
 * No pointer is handed out: the thread may have run and ended (and been
 * freed) by the time this returns. */
int thread_create(const char *name, void (*fn)(void *), void *arg);
/* Like thread_create, but the thread only ever runs on CPU cpu (which
 * must run threads: kernel/smp.h). */
int thread_create_on(unsigned int cpu, const char *name, void (*fn)(void *), void *arg);
/* End the calling thread. */
__noreturn void thread_exit(void);
/* A new thread's first code: the architecture's context switch
 * (arch_context_init, kernel/arch.h) calls it the first time the thread
 * runs. */
__noreturn void thread_start(void);

/* Work a subsystem must do when a thread ends - give back what the
 * thread's unfinished calls hold, say. THREAD_EXIT_HOOK(fn) makes
 * thread_exit call fn(the ending thread) first, with interrupts on; the
 * linker gathers the hooks into one table (see linker/), so the
 * scheduler names none of them. */
struct thread_exit_hook {
	void (*run)(struct thread *t);
};

#define THREAD_EXIT_HOOK(fn)                                                   \
	static const struct thread_exit_hook thread_exit_hook_##fn            \
		__used __section(".thread_exit_hooks") __aligned(8) = { .run = fn }

/* Work a subsystem does for each new thread: give it a copy of what its
 * maker, current_thread(), has (the working directory, say).
 * THREAD_CLONE_HOOK(fn) makes kernel_clone call fn(the new thread)
 * before the thread is queued; a hook that fails (negative errno) fails
 * the clone, and the exit hooks then run on the thread that never ran,
 * so each must take one whose clone hooks did not all run. Gathered by
 * the linker as the exit hooks are. */
struct thread_clone_hook {
	int (*run)(struct thread *t);
};

#define THREAD_CLONE_HOOK(fn)                                                  \
	static const struct thread_clone_hook thread_clone_hook_##fn          \
		__used __section(".thread_clone_hooks") __aligned(8) = { .run = fn }
/*
 * The lowest word of every created thread's stack holds STACK_END_MAGIC.
 * The guard page below the stack (kernel/mm/stack.h) catches an overflow
 * the moment it happens; this word is the second line of defence, for
 * what writes there without running the stack pointer into the guard (a
 * stray pointer, an array indexed past its end). The scheduler checks
 * the word each time a thread gives up the CPU, so the damage is named
 * at the thread's next switch rather than surfacing later unexplained;
 * the stack tracer checks it at each deeper stack it finds.
 */
#define STACK_END_MAGIC 0x57ac6e9dc0ffee57ULL

/* Whether t's stack still holds its end mark (the boot thread's stack,
 * in .bss, has none, and counts as intact). */
static inline bool thread_stack_end_intact(const struct thread *t)
{
	return !t->stack || *(const uint64_t *)t->stack == STACK_END_MAGIC;
}

/* The thread running on this CPU: safe to call with preemption on (see
 * asm/current.h). */
static inline struct thread *current_thread(void)
{
	return arch_current_thread();
}

/* Keep the running thread on this CPU, interrupts still on, until the
 * matching preempt_enable (they nest). The timer's preemption point
 * leaves a thread whose count is above zero running; the switch it
 * wanted happens at the first preemption point after the count is back
 * to zero. The count is the thread's own, not the CPU's, so it stays
 * right even if the thread is switched between reading and writing it.
 * Code between the two must not sleep (the scheduler panics). */
static inline void preempt_disable(void)
{
	current_thread()->preempt_count++;
	__asm__ volatile("" : : : "memory");
}

static inline void preempt_enable(void)
{
	__asm__ volatile("" : : : "memory");
	current_thread()->preempt_count--;
}

/* Give the CPU to the next ready thread, if there is one. */
void thread_yield(void);
/* Sleep for at least ticks timer ticks. */
void thread_sleep(uint64_t ticks);

/* Wait on wq. Called with lock held (taken with spin_lock_irqsave and
 * flags as returned by it); the lock is released while asleep and held
 * again on return, so a condition checked under the lock cannot be missed. */
void wait_queue_wait(struct wait_queue *wq, struct spinlock *lock);
/* Make every thread waiting on wq ready. Safe in interrupt handlers. */
void wait_queue_wake_all(struct wait_queue *wq);

/* Timer ticks since boot (TIMER_HZ per second). */
uint64_t sched_ticks(void);
/* Timer ticks the CPUs have spent running their idle threads, summed
 * over the CPUs (Linux's idle time in /proc/uptime). */
uint64_t sched_idle_ticks(void);
/* Called by the timer interrupt on every tick. */
void sched_timer_tick(void);
/* How many timer interrupts CPU cpu has taken (/proc/interrupts). */
unsigned long sched_timer_interrupts(unsigned int cpu);
/* Called at the end of every interrupt, with the interrupted registers:
 * switch threads if the slice ran out, unless the interrupted thread
 * disabled preemption. */
void sched_preempt_point(struct pt_regs *regs);
/* Call fn for every thread, under the scheduler lock (fn must not sleep
 * or print through anything that takes that lock). Returns the count of
 * preemptions and resumptions so far, read under the same lock: a
 * thread whose preempt_event is above it moved after the walk. */
unsigned long sched_for_each_thread(void (*fn)(const struct thread *t, void *ctx), void *ctx);

const char *thread_state_name(enum thread_state state);

#endif
