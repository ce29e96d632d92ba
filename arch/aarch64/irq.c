/*
 * Interrupts on aarch64: the GIC, the timer, the UART and the IPIs wired
 * together, and counted (/proc/interrupts).
 *
 * Two device interrupts are enabled: the EL1 virtual timer, programmed to
 * TIMER_HZ on every CPU, which drives the scheduler's tick, and the PL011
 * UART's receive interrupt (arch/aarch64/uart.c), on the boot CPU. Their
 * numbers come from the device tree (boot/aarch64/fdt_boot.c). The IPIs
 * other CPUs send (arch_send_ipi, arch/aarch64/smp.c) arrive as SGIs.
 */
#include "boot/aarch64/fdt_boot.h"
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "lib/format.h"
#include <asm/gic.h>

static unsigned int timer_intid, uart_intid;
/* The UART interrupts each CPU has handled: only the CPU itself counts,
 * interrupts off, in its own copy. (The timer's are the scheduler's
 * count, the IPIs' kernel/smp.c's: kernel/arch.h's irq_source.) */
static DEFINE_PER_CPU(unsigned long, uart_irqs);

void arch_interrupts_init(void)
{
	const struct fdt_devices *dev = fdt_devices();

	timer_intid = dev->timer_irq;
	uart_intid = dev->uart_irq;
	gic_init(dev->gicd_base, dev->gicc_base);
	timer_init(timer_intid);
	gic_enable_irq(uart_intid);
}

/* Acknowledge, handle, end. The device handlers only note work (a tick,
 * bytes of input), an IPI's runs what another CPU asked for; a thread
 * switch, if one is due, happens after the end of the interrupt, in
 * trap_dispatch, so the GIC is never left waiting. An IPI is ended
 * before it is handled: until then the GIC signals nothing of its
 * priority to this CPU, not even to wake it from WFI, and a handler may
 * wait for another IPI (stop_machine's hold_here) or never return
 * (IPI_STOP). Interrupts stay masked meanwhile, so nothing nests. */
void irq_handle(struct pt_regs *regs)
{
	uint32_t iar = gic_acknowledge();
	unsigned int intid = iar & GIC_INTID_MASK;

	if (intid >= GIC_FIRST_SPECIAL)
		return;		/* spurious: already gone, nothing to end */
	if (intid < IPI_KINDS) {
		gic_end_of_interrupt(iar);
		smp_handle_ipi((enum ipi_kind)intid, regs);	/* SGI n is IPI kind n */
		return;
	}
	if (intid == timer_intid)
		timer_handle_irq();
	else if (intid == uart_intid) {
		(*this_cpu_ptr(&uart_irqs))++;
		uart_handle_irq();
	}
	gic_end_of_interrupt(iar);
}
NOKPROBE_SYMBOL(irq_handle);

/* ---- /proc/interrupts ---- */

unsigned long arch_irq_count(unsigned int cpu, unsigned int which)
{
	return which == uart_intid ? __atomic_load_n(per_cpu_ptr(&uart_irqs, cpu), __ATOMIC_RELAXED)
				   : 0;
}

/* A device's row, in Linux's columns: the number, then the controller
 * in 8, the number in 3, the trigger in 8, two spaces, the driver
 * (Linux's names for the timer's and the PL011's). */
static bool line_row(struct irq_row *row, unsigned int intid, const char *driver,
		     enum irq_source source)
{
	snprintf(row->label, sizeof(row->label), "%u", intid);
	snprintf(row->text, sizeof(row->text), " %8s %3u %-8s  %s", "GICv2", intid, "Level",
		 driver);
	row->source = source;
	row->which = intid;
	return true;
}

/* An IPI's row: IPIn, n being the SGI (the kind), and what it asks. */
static bool ipi_row(struct irq_row *row, enum ipi_kind kind, const char *what)
{
	snprintf(row->label, sizeof(row->label), "IPI%u", (unsigned int)kind);
	snprintf(row->text, sizeof(row->text), "      %s", what);
	row->source = IRQ_SOURCE_IPI;
	row->which = kind;
	return true;
}

/* Linux's arm64 rows: the device lines by number (the timer's PPI comes
 * before the UART's SPI), then one per IPI. */
bool arch_irq_row(unsigned int i, struct irq_row *row)
{
	switch (i) {
	case 0:
		return line_row(row, timer_intid, "arch_timer", IRQ_SOURCE_TIMER);
	case 1:
		return line_row(row, uart_intid, "uart-pl011", IRQ_SOURCE_DEVICE);
	case 2:
		return ipi_row(row, IPI_RESCHEDULE, "Rescheduling interrupts");
	case 3:
		return ipi_row(row, IPI_CALL_FUNCTION, "Function call interrupts");
	case 4:
		return ipi_row(row, IPI_STOP, "CPU stop interrupts");
	default:
		return false;
	}
}
