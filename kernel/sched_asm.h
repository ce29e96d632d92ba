/* Where assembly finds a thread's preemption count (raised by aarch64's
 * detour buffer, which finds the thread through asm/current.h). A plain
 * number, so that .S files can include this; kernel/sched.c checks it
 * against the C structure. */
#ifndef KERNEL_SCHED_ASM_H
#define KERNEL_SCHED_ASM_H

#define THREAD_PREEMPT_COUNT_OFFSET	0	/* offsetof(struct thread, preempt_count) */

#endif
