/* Interrupt enable/disable for aarch64: the I bit of PSTATE.DAIF. The
 * other mask bits (D: debug, A: SError, F: FIQ) are left alone here. */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#include "lib/types.h"

#define DAIF_I (1UL << 7)	/* as read from the DAIF register */

static inline unsigned long arch_irq_save(void)
{
	unsigned long flags;

	__asm__ volatile("mrs %0, daif\n\tmsr daifset, #2" : "=r"(flags) : : "memory");
	return flags;
}

/* Like x86's: enable if they were enabled, never disable. */
static inline void arch_irq_restore(unsigned long flags)
{
	if (!(flags & DAIF_I))
		__asm__ volatile("msr daifclr, #2" : : : "memory");
}

static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return flags & DAIF_I;
}

static inline void arch_irq_enable(void)  { __asm__ volatile("msr daifclr, #2" : : : "memory"); }
static inline void arch_irq_disable(void) { __asm__ volatile("msr daifset, #2" : : : "memory"); }
static inline void arch_cpu_relax(void)   { __asm__ volatile("yield" : : : "memory"); }

/* Sleep until the next interrupt, then take it. WFI wakes up on a pending
 * interrupt even while interrupts are masked, so waiting first and
 * unmasking second cannot miss one that arrives in between (the job
 * "sti; hlt" does on x86). */
static inline void arch_wait_for_interrupt(void)
{
	__asm__ volatile("wfi\n\tmsr daifclr, #2" : : : "memory");
}

/* Interrupts masked: sleep until one is pending, which WFI wakes for
 * anyway, and leave it pending. (WFE would be the textbook wait, but
 * QEMU's multi-threaded TCG runs it as a NOP, so the waiting CPU would
 * keep a host core busy.) */
static inline void arch_wait_masked(void)
{
	__asm__ volatile("wfi" : : : "memory");
}

#endif
