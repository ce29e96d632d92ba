/*
 * The scheduler's tick on x86_64: each CPU's own local APIC timer, in
 * periodic mode at TIMER_HZ (kernel/arch.h: arch_interrupts_init,
 * arch_timer_cpu_init). Every CPU ticks the same way; the boot CPU's
 * ticks also count the time (sched_ticks).
 *
 * The timer counts at the bus clock divided by 16, a rate no register
 * gives. It is measured once, on the boot CPU, against the TSC, whose
 * rate pic.c has just measured against the PIT: the timer counts down for
 * CALIBRATE_MS of TSC time, and the counts it went through over the
 * cycles that took are its rate. The CPUs share the bus clock, so the
 * count per tick found there serves them all.
 */
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/pic.h"
#include "kernel/arch.h"
#include "kernel/panic.h"
#include "lib/errno.h"

#define CALIBRATE_MS 10

static uint32_t counts_per_tick;

/* Interrupts are off: nothing stretches the wait between the reads. */
static void lapic_timer_calibrate(void)
{
	uint64_t tsc_hz = arch_cycles_frequency();
	uint64_t wait = tsc_hz * CALIBRATE_MS / 1000;
	uint64_t t0, t1;
	uint32_t start;

	lapic_timer_count_down();
	start = lapic_timer_current();
	t0 = arch_cycles();
	do
		t1 = arch_cycles();
	while (t1 - t0 < wait);
	counts_per_tick = (uint32_t)((start - lapic_timer_current()) * tsc_hz / (t1 - t0) / TIMER_HZ);
}

void arch_interrupts_init(void)
{
	int err;

	pic_init();
	if (!arch_cycles_frequency())
		panic("timer: the TSC's rate is unknown, so the local APIC timer cannot be set");
	err = lapic_init();
	if (err)
		panic("timer: the local APIC is off or in x2APIC mode: %s", strerror(err));
	lapic_timer_calibrate();
	arch_timer_cpu_init();
}

void arch_timer_cpu_init(void)
{
	lapic_enable();
	lapic_timer_periodic(counts_per_tick);
}
