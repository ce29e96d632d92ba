/* The running thread on aarch64: TPIDR_EL0, which the scheduler sets
 * whenever this CPU's thread changes. Reading cpu->current instead takes
 * two instructions (TPIDR_EL1, then a load), and a thread that moved to
 * another CPU between them would get the thread now running on the
 * first; one mrs cannot be split. (Linux keeps `current` in SP_EL0 for
 * the same reason; ours is taken as a scratch register by trap_return.)
 * Nothing runs at EL0, so its thread register is free. */
#ifndef ASM_CURRENT_H
#define ASM_CURRENT_H

struct thread;

static inline struct thread *arch_current_thread(void)
{
	struct thread *t;

	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(t));
	return t;
}

static inline void arch_set_current_thread(struct thread *t)
{
	__asm__ volatile("msr tpidr_el0, %0" : : "r"(t) : "memory");
}

#endif
