/* Between kernel/thread.c (creating and freeing threads) and
 * kernel/sched.c (running them); nothing else includes this. */
#ifndef KERNEL_SCHED_INTERNAL_H
#define KERNEL_SCHED_INTERNAL_H

#include "kernel/panic.h"
#include "kernel/sched.h"

/* Every thread, alive or dead-not-yet-freed; guarded by sched_lock. */
extern struct list_node all_threads;

/* Add a new thread to all_threads and the run queue. */
void sched_enqueue_new(struct thread *t);
/* Run every THREAD_EXIT_HOOK on t: as it ends, or when its clone failed. */
void thread_run_exit_hooks(struct thread *t);
/* Give a dead thread's stack back; t->stack is NULL after. */
void thread_free_stack(struct thread *t);
/* Free a dead thread's stack, if it still has one, and structure. */
void thread_free(struct thread *t);
/* Describe the boot flow of control as a thread (the idle thread); the
 * caller lists it in all_threads. */
struct thread *thread_adopt_boot(const char *name);

/*
 * The lowest word of every created thread's stack holds STACK_END_MAGIC.
 * The guard page below the stack (kernel/mm/stack.h) catches an overflow
 * the moment it happens; this word is the second line of defence, for
 * what writes there without running the stack pointer into the guard (a
 * stray pointer, an array indexed past its end). The scheduler checks
 * the word each time a thread gives up the CPU, so the damage is named
 * at the thread's next switch rather than surfacing later unexplained.
 */
#define STACK_END_MAGIC 0x57ac6e9dc0ffee57ULL

static inline void thread_check_stack(const struct thread *t)
{
	/* The boot thread's stack is in .bss and carries no mark. */
	if (t->stack && unlikely(*(const uint64_t *)t->stack != STACK_END_MAGIC))
		panic("sched: thread %s ran past the end of its %zu-byte stack", t->name,
		      t->stack_size);
}

#endif
