/*
 * Inter-processor interrupts on x86_64 (kernel/arch.h, arch_send_ipi),
 * sent through the sender's local APIC to the receiver's, whose id is
 * cpu_hw_id(cpu).
 *
 * IPI_RESCHEDULE and IPI_CALL_FUNCTION are fixed interrupts, on a vector
 * each (asm/irq_vectors.h). Like any interrupt they wait until the
 * receiver has interrupts on, which is what their handlers need
 * (kernel/smp_call.h); trap_dispatch (traps.c) hands them to
 * smp_handle_ipi.
 *
 * IPI_STOP is a non-maskable interrupt, which no cli holds back: a panic
 * must also stop a CPU that spins with interrupts off, on a lock the
 * panicking CPU holds, say. An NMI brings no vector to tell why it came,
 * so the sender first sets the receiver's flag in stop_requested; the NMI
 * handler (traps.c) asks ipi_stop_requested, and treats an NMI nobody
 * asked for as before (a panic).
 *
 * An IPI the local APIC never sends (lapic.c's -EIO) is lost: the callers,
 * a panic among them, have nothing better to do than go on.
 */
#include "arch/x86_64/ipi.h"
#include "arch/x86_64/lapic.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/nokprobe.h"
#include "kernel/smp.h"
#include <asm/irq_vectors.h>

static bool stop_requested[MAX_CPUS];

static const uint8_t ipi_vectors[IPI_KINDS] = {
	[IPI_RESCHEDULE] = IPI_RESCHEDULE_VECTOR,
	[IPI_CALL_FUNCTION] = IPI_CALL_FUNCTION_VECTOR,
};

void arch_send_ipi(unsigned int cpu, enum ipi_kind kind)
{
	uint32_t apic_id = (uint32_t)cpu_hw_id(cpu);

	if (kind == IPI_STOP) {
		/* Set before the NMI leaves, seen by the time it lands. */
		__atomic_store_n(&stop_requested[cpu], true, __ATOMIC_RELEASE);
		lapic_send_nmi(apic_id);
	} else {
		lapic_send_fixed(apic_id, ipi_vectors[kind]);
	}
}
NOKPROBE_SYMBOL(arch_send_ipi);

bool notrace ipi_stop_requested(void)
{
	return __atomic_load_n(&stop_requested[this_cpu()->id], __ATOMIC_ACQUIRE);
}
NOKPROBE_SYMBOL(ipi_stop_requested);
