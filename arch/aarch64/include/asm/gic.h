/* The interrupt controller (a GICv2) and the devices whose interrupts it
 * delivers, as arch/aarch64 wires them together. Interrupts are named by
 * their GIC INTID: 0-15 are sent by CPUs to CPUs (SGIs, the IPIs: SGI n
 * is enum ipi_kind n, kernel/arch.h), 16-31 are per-CPU (PPIs, the
 * timer), 32 and up shared (SPIs, the UART). */
#ifndef ASM_GIC_H
#define ASM_GIC_H

#include <stdint.h>

struct pt_regs;

#define GIC_INTID_MASK 0x3ff
#define GIC_NR_SGIS 16
#define GIC_FIRST_SPECIAL 1020	/* 1020-1023: no interrupt to handle */

/* Set up the distributor and this CPU's interface (the boot CPU). */
void gic_init(uint64_t dist_phys, uint64_t cpu_phys);
/* Set up this CPU's interface (priority mask, enable), record its
 * interface number for gic_send_sgi and give the IPIs' SGIs their
 * priority: every other CPU, from arch_cpu_init. Does nothing before
 * gic_init. */
void gic_cpu_init(void);
/* Let intid through to this CPU (level-triggered, one priority for all;
 * a shared interrupt goes to the boot CPU). */
void gic_enable_irq(unsigned int intid);
/* Send SGI sgi to the CPU numbered cpu (which has run gic_cpu_init),
 * after every store this CPU made before. Never waits. */
void gic_send_sgi(unsigned int cpu, unsigned int sgi);
/* Start handling the highest-priority pending interrupt: its IAR value
 * (INTID in the low bits; for an SGI, the sending interface above them),
 * to be handed back whole to gic_end_of_interrupt. */
uint32_t gic_acknowledge(void);
void gic_end_of_interrupt(uint32_t iar);

/* The generic timer, ticking at TIMER_HZ (arch/aarch64/timer.c):
 * timer_init notes its PPI and period and starts the boot CPU's tick;
 * every other CPU starts its own with arch_timer_cpu_init. */
void timer_init(unsigned int intid);
void timer_handle_irq(void);
/* The PL011's receive interrupt (arch/aarch64/uart.c). */
void uart_handle_irq(void);

/* Handle one interrupt, which stopped the code of regs; called from
 * trap_dispatch (arch/aarch64/irq.c). */
void irq_handle(struct pt_regs *regs);

#endif
