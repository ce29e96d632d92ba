/*
 * ktime_get: the cycle counter (arch_cycles) converted to nanoseconds.
 *
 * Why the counter and not the timer ticks: a tick is 10 ms, and what a
 * module times (one call of vfs_read, say) takes microseconds. The
 * counter ticks at a fixed rate that arch_cycles_frequency gives
 * (aarch64's generic timer states it; x86_64's TSC is measured against
 * the PIT at boot), it never goes backwards, and reading it takes no
 * lock. The conversion is exact integer arithmetic, monotonic in the
 * counter, so ktime_get is monotonic too.
 */
#include "kernel/time.h"
#include "kernel/arch.h"
#include "lib/export.h"
#include "kernel/printk.h"

static uint64_t zero_cycles;	/* the counter at time_init */
static uint64_t cycles_hz;	/* its rate; 0 until time_init */

void time_init(void)
{
	uint64_t hz = arch_cycles_frequency();

	if (!hz) {
		kprintf("time: the cycle counter's rate is unknown; ktime_get stays 0\n");
		return;
	}
	zero_cycles = arch_cycles();
	cycles_hz = hz;
	kprintf("time: cycle counter at %lu.%06lu MHz\n", (unsigned long)(hz / 1000000),
		(unsigned long)(hz % 1000000));
}

uint64_t cycles_to_ns(uint64_t c)
{
	uint64_t hz = cycles_hz;

	if (!hz)
		return 0;
	/* Whole seconds and the rest apart: c * NSEC_PER_SEC would overflow
	 * 64 bits after a few seconds at GHz rates, while the rest (under
	 * hz, a few 10^9) times 10^9 stays below 2^64 for any rate under
	 * 18 GHz. */
	return (c / hz) * NSEC_PER_SEC + (c % hz) * NSEC_PER_SEC / hz;
}

ktime_t ktime_from_cycles(uint64_t cycles)
{
	/* A count read before time_init (a boot message's, in the kernel
	 * log) is time 0, as ktime_get was then. */
	if (cycles < zero_cycles)
		return 0;
	return (ktime_t)cycles_to_ns(cycles - zero_cycles);
}

ktime_t ktime_get(void)
{
	return ktime_from_cycles(arch_cycles());
}
EXPORT_SYMBOL(ktime_get);
