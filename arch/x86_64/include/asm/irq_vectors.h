/* Interrupt vectors, past the 32 CPU exceptions. Only #defines, so that
 * trap_entry.S can include it too.
 *
 * 32-47: the two 8259 PICs, remapped there (pic.c); only IRQ 4, COM1,
 * is unmasked, and it reaches the boot CPU alone.
 * 48-50: the local APIC's own interrupts, on every CPU (lapic.c): its
 * timer, the scheduler's tick (timer.c), and the IPIs other CPUs send
 * (ipi.c). IPI_STOP has no vector: it is sent as an NMI (vector 2).
 * 63: the local APIC's spurious vector, which needs no EOI. */
#ifndef ASM_IRQ_VECTORS_H
#define ASM_IRQ_VECTORS_H

#define IRQ_VECTOR_BASE 32
#define IRQ_COM1  4

#define LAPIC_TIMER_VECTOR		48
#define IPI_RESCHEDULE_VECTOR		49
#define IPI_CALL_FUNCTION_VECTOR	50
/* Its low four bits are all ones: some local APICs hardwire them. */
#define SPURIOUS_VECTOR			63

/* The IDT's size: a gate for every vector up to the spurious one. */
#define IDT_VECTORS			64

#endif
