/* Between kernel/thread.c (creating and freeing threads) and
 * kernel/sched.c (running them); nothing else includes this. */
#ifndef KERNEL_SCHED_INTERNAL_H
#define KERNEL_SCHED_INTERNAL_H

#include "kernel/sched.h"

/* Every thread, alive or dead-not-yet-freed; guarded by sched_lock. */
extern struct list_node all_threads;

/* Add a new thread to all_threads and the run queue. */
void sched_enqueue_new(struct thread *t);
/* Free a dead thread's stack and structure. */
void thread_free(struct thread *t);
/* Describe the boot flow of control as a thread (the idle thread); the
 * caller lists it in all_threads. */
struct thread *thread_adopt_boot(const char *name);

#endif
