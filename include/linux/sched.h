/* current: the running thread, as Linux modules name it.
 *
 * Linux's struct task_struct is ProbeOS's struct thread (kernel/sched.h),
 * which answers to Linux's field names where they mean the same thing:
 * current->comm (the name), current->pid (the id) and current->mm,
 * which is always NULL because every thread here is a kernel thread (in
 * Linux too, a kernel thread's mm is NULL: modules test it to skip
 * kernel threads). */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/types.h>
#include "kernel/sched.h"

#define task_struct thread
#define TASK_COMM_LEN (THREAD_NAME_MAX + 1)

/* Last, after kernel/sched.h and the headers it includes, which have a
 * field named current (struct cpu). */
#define current (current_thread())

#endif
