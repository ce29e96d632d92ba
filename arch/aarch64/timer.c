/*
 * The scheduler's tick from the ARM generic timer.
 *
 * Each CPU has its own timers, compared against a system-wide counter
 * that runs at CNTFRQ_EL0 Hz. The kernel uses the EL1 virtual timer: it
 * raises its (per-CPU) interrupt while the counter is at or past the
 * compare value CNTV_CVAL_EL0. Each tick moves the compare value one
 * period on, so ticks do not drift with the handler's latency; after a
 * long stall the next tick is a full period away instead of a burst of
 * late ones. The compare value lives only in that per-CPU register, so
 * each CPU keeps its own deadline with no shared state; the period is
 * the same everywhere.
 */
#include "kernel/arch.h"
#include "kernel/nokprobe.h"
#include "kernel/sched.h"
#include <asm/gic.h>
#include <asm/sysreg.h>

#define CNTV_CTL_ENABLE BIT(0)

static uint64_t period;	/* counter ticks per scheduler tick */
static unsigned int timer_ppi;	/* the same INTID on every CPU */

static uint64_t counter(void)
{
	isb();
	return read_sysreg(cntvct_el0);
}

/* Set once, by the boot CPU, before any other CPU starts. */
void timer_init(unsigned int intid)
{
	period = read_sysreg(cntfrq_el0) / TIMER_HZ;
	timer_ppi = intid;
	arch_timer_cpu_init();
}

/* The compare value, the control register and the PPI's enable bit in
 * the distributor are all this CPU's own copies. */
void arch_timer_cpu_init(void)
{
	write_sysreg(counter() + period, cntv_cval_el0);
	write_sysreg(CNTV_CTL_ENABLE, cntv_ctl_el0);
	gic_enable_irq(timer_ppi);
}

void timer_handle_irq(void)
{
	uint64_t now = counter();
	uint64_t deadline = read_sysreg(cntv_cval_el0) + period;

	if (deadline <= now)
		deadline = now + period;
	/* A compare value in the future also lowers the interrupt line. */
	write_sysreg(deadline, cntv_cval_el0);
	isb();
	sched_timer_tick();
}
NOKPROBE_SYMBOL(timer_handle_irq);
