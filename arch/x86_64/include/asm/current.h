/* The running thread on x86_64: this CPU's cpu->current, read with one
 * %gs-relative load. A single instruction cannot be split by the thread
 * moving to another CPU, so the answer is always the caller's own thread,
 * even with interrupts and preemption on. */
#ifndef ASM_CURRENT_H
#define ASM_CURRENT_H

#include "kernel/cpu.h"

static inline struct thread *arch_current_thread(void)
{
	return this_cpu_read(current);
}

/* Nothing more to record: the load above reads the scheduler's own
 * cpu->current. */
static inline void arch_set_current_thread(struct thread *t)
{
	(void)t;
}

#endif
