/* Interrupts, for kernel code that the fuzzer or a host test runs as a
 * host program (see asm/percpu.h here): a host program has none to turn
 * off, and may not run cli or sti, so these do nothing. */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

static inline unsigned long arch_irq_save(void) { return 0; }
static inline void arch_irq_restore(unsigned long flags) { (void)flags; }
static inline void arch_irq_enable(void) {}
static inline void arch_irq_disable(void) {}
static inline void arch_cpu_relax(void) {}

#endif
