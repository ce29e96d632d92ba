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

/* Every switch away checks the thread's end mark (sched.h). */
static inline void thread_check_stack(const struct thread *t)
{
	if (unlikely(!thread_stack_end_intact(t)))
		panic("sched: thread %s ran past the end of its %zu-byte stack", t->name,
		      t->stack_size);
}

#endif
