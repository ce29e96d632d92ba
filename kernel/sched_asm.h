/* Offsets that code outside C needs: where this CPU's struct cpu
 * (asm/percpu.h) holds its current thread (read by x86_64's
 * asm/current.h), and where a thread holds its preemption count (raised
 * by aarch64's detour buffer). Plain numbers, so that .S files can
 * include this; kernel/sched.c checks them against the C structures. */
#ifndef KERNEL_SCHED_ASM_H
#define KERNEL_SCHED_ASM_H

#define CPU_CURRENT_OFFSET		16	/* offsetof(struct cpu, current) */
#define THREAD_PREEMPT_COUNT_OFFSET	0	/* offsetof(struct thread, preempt_count) */

#endif
