/* Where assembly finds the running thread's preemption count: this CPU's
 * struct cpu (asm/percpu.h) -> its current thread -> preempt_count. Plain
 * numbers, so that .S files can include this; kernel/sched.c checks them
 * against the C structures. */
#ifndef KERNEL_SCHED_ASM_H
#define KERNEL_SCHED_ASM_H

#define CPU_CURRENT_OFFSET		16	/* offsetof(struct cpu, current) */
#define THREAD_PREEMPT_COUNT_OFFSET	0	/* offsetof(struct thread, preempt_count) */

#endif
