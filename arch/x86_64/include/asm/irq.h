/* Interrupt enable/disable for x86_64 (the IF bit of RFLAGS). */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#include "lib/types.h"

#define X86_RFLAGS_IF (1UL << 9)

static inline unsigned long arch_irq_save(void)
{
	unsigned long flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static inline void arch_irq_restore(unsigned long flags)
{
	if (flags & X86_RFLAGS_IF)
		__asm__ volatile("sti" : : : "memory");
}

static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & X86_RFLAGS_IF);
}

static inline void arch_irq_enable(void)  { __asm__ volatile("sti" : : : "memory"); }
static inline void arch_irq_disable(void) { __asm__ volatile("cli" : : : "memory"); }
static inline void arch_cpu_relax(void)   { __asm__ volatile("pause"); }
/* Sleep until the next interrupt. */
static inline void arch_wait_for_interrupt(void) { __asm__ volatile("sti; hlt" : : : "memory"); }
/* With interrupts masked, HLT would wake for nothing but an NMI: spin. */
static inline void arch_wait_masked(void) { arch_cpu_relax(); }

#endif
