/* The local APIC: each CPU's own interrupt controller, which also sends
 * interrupts to other CPUs (inter-processor interrupts, IPIs), and has a
 * timer of its own.
 *
 * The registers are reached in xAPIC mode, through memory. Every CPU
 * enables its own local APIC (lapic_enable, from arch_timer_cpu_init);
 * its timer is the scheduler's tick (timer.c), and the IPIs other CPUs
 * send arrive through it (ipi.c). The 8259 PIC's interrupts (COM1) still
 * reach the boot CPU, through its LINT0 pin (pic.c). The functions other
 * than lapic_init act on the local APIC of the CPU that calls them. */
#ifndef ARCH_X86_64_LAPIC_H
#define ARCH_X86_64_LAPIC_H

#include "lib/types.h"

/* Map the local APIC's registers, at the address the IA32_APIC_BASE MSR
 * gives (paging must be up); once, on the boot CPU. Returns 0, or -ENODEV
 * if the local APIC is disabled or in x2APIC mode, where the
 * memory-mapped registers do not answer. */
int lapic_init(void);
/* The physical address lapic_init mapped. */
uint64_t lapic_phys_base(void);
/* Software-enable this CPU's local APIC, with SPURIOUS_VECTOR
 * (asm/irq_vectors.h) as its spurious vector; on the boot CPU, also let
 * the 8259 PIC's interrupts through (LINT0 in ExtINT mode). */
void lapic_enable(void);
/* The local APIC id of the CPU running this. */
uint32_t lapic_id(void);
/* End of interrupt: the local APIC may deliver the next interrupt of the
 * same or a lower priority. Every vector it delivered needs one, except
 * the spurious vector. */
void lapic_eoi(void);

/* Send an INIT IPI to the CPU with local APIC id apic_id, asserted then
 * deasserted: it resets the CPU into a wait for a STARTUP IPI. Returns 0,
 * or -EIO if the local APIC never reports an IPI delivered. (So do the
 * other senders.) */
int lapic_send_init(uint32_t apic_id);
/* Send a STARTUP IPI: the CPU apic_id starts in real mode at CS:IP =
 * (start_pa >> 4):0, where start_pa is a page-aligned address below
 * 1 MiB. Returns 0, -EINVAL for a start_pa that cannot be one, or -EIO. */
int lapic_send_startup(uint32_t apic_id, uint64_t start_pa);
/* Send interrupt vector to the CPU apic_id (fixed delivery). */
int lapic_send_fixed(uint32_t apic_id, uint8_t vector);
/* Send a non-maskable interrupt (vector 2) to the CPU apic_id. */
int lapic_send_nmi(uint32_t apic_id);

/* Start this CPU's timer counting down from 0xffffffff, once, with its
 * interrupt masked: read it with lapic_timer_current to measure its
 * rate. */
void lapic_timer_count_down(void);
/* The timer's current count. */
uint32_t lapic_timer_current(void);
/* Make this CPU's timer interrupt on LAPIC_TIMER_VECTOR every count
 * counts, for good. Both use the same divider, so a rate measured with
 * lapic_timer_count_down holds here. */
void lapic_timer_periodic(uint32_t count);

#endif
