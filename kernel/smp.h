/* Several CPUs (kernel/smp.c).
 *
 * The boot CPU is CPU 0. smp_boot_cpus finds the others through the
 * architecture (ACPI's MADT on x86_64, the device tree on aarch64),
 * starts each on a stack of its own, and waits until it reports in from
 * smp_secondary_entry. A started CPU sets up its own struct cpu, per-CPU
 * data, trap vectors, idle thread and timer, says it is online, and then
 * runs threads from the scheduler's run queue like the boot CPU
 * (docs/smp.md). */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "kernel/arch.h"
#include "lib/types.h"

struct boot_info;
struct pt_regs;

/* Bring up every CPU the machine has (after sched_init and
 * arch_interrupts_init). Prints one line; returns how many are online. */
unsigned int smp_boot_cpus(const struct boot_info *bi);
/* Where a started CPU's architecture code hands over, on its own stack,
 * with interrupts off and the kernel's page tables in use. */
__noreturn void smp_secondary_entry(unsigned int id);
/* What an IPI asks (enum ipi_kind, kernel/arch.h), done on the CPU it
 * reached, in interrupt context; regs are the registers the IPI
 * interrupted. IPI_STOP never returns. */
void smp_handle_ipi(enum ipi_kind kind, struct pt_regs *regs);
/* The CPUs that run threads, a bit per CPU number: those an IPI meant
 * for "every other CPU" must reach. */
unsigned long smp_cpus_running(void);
/* Send IPI_STOP to every other CPU that runs threads, without waiting
 * (a panic: they halt where they are). */
void smp_stop_others(void);
/* How many IPIs of a kind CPU cpu has taken (/proc/interrupts). */
unsigned long smp_ipis_taken(unsigned int cpu, enum ipi_kind kind);
/* How many CPUs the architecture found, started or not: CPU numbers
 * run from 0 to this minus one. */
unsigned int smp_cpus_found(void);
/* Whether CPU id has come up, and its hardware id (x86_64: local APIC
 * id; aarch64: MPIDR affinity). */
bool cpu_online(unsigned int id);
uint64_t cpu_hw_id(unsigned int id);

#endif
