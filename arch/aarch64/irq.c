/*
 * Interrupts on aarch64: the GIC, the timer, the UART and the IPIs wired
 * together.
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
#include "kernel/smp.h"
#include <asm/gic.h>

static unsigned int timer_intid, uart_intid;

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
	else if (intid == uart_intid)
		uart_handle_irq();
	gic_end_of_interrupt(iar);
}
NOKPROBE_SYMBOL(irq_handle);
