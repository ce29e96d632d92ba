/* The local APIC: each CPU's own interrupt controller, which also sends
 * interrupts to other CPUs (inter-processor interrupts, IPIs).
 *
 * Only what starting the other CPUs needs is here: the registers are
 * reached in xAPIC mode, through memory at the address ACPI's MADT gives,
 * and the boot CPU sends INIT and STARTUP IPIs. The timer and device
 * interrupts still come from the 8259 PIC and the PIT (pic.c). */
#ifndef ARCH_X86_64_LAPIC_H
#define ARCH_X86_64_LAPIC_H

#include "lib/types.h"

/* Map the local APIC's registers, at physical address base (paging must
 * be up). Returns 0, or -ENODEV if this CPU's local APIC is disabled or
 * in x2APIC mode, where the memory-mapped registers do not answer. */
int lapic_init(uint64_t base);
/* The local APIC id of the CPU running this (after lapic_init). */
uint32_t lapic_id(void);
/* Send an INIT IPI to the CPU with local APIC id apic_id, asserted then
 * deasserted: it resets the CPU into a wait for a STARTUP IPI. Returns 0,
 * or -EIO if the local APIC never reports an IPI delivered. */
int lapic_send_init(uint32_t apic_id);
/* Send a STARTUP IPI: the CPU apic_id starts in real mode at CS:IP =
 * (start_pa >> 4):0, where start_pa is a page-aligned address below
 * 1 MiB. Returns 0, -EINVAL for a start_pa that cannot be one, or -EIO. */
int lapic_send_startup(uint32_t apic_id, uint64_t start_pa);

#endif
