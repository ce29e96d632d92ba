/* /proc/uptime: how long the machine has run, and how long its CPUs have
 * idled, in seconds with two decimals, as Linux prints them:
 *
 *	12.34 45.67
 *
 * The idle time is summed over the CPUs (Linux's too), so on four idle
 * CPUs it grows four times as fast as the uptime. The uptime comes from
 * the cycle counter (ktime_get), the idle time from the timer ticks the
 * scheduler counts in each CPU's idle thread (sched_idle_ticks). */

#include "kernel/arch.h"
#include "kernel/fs/procfs.h"
#include "kernel/initcall.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "lib/errno.h"

static int uptime_show(struct seq_file *m, void *v)
{
	uint64_t up = (uint64_t)ktime_get(), idle = sched_idle_ticks();

	(void)v;
	seq_printf(m, "%lu.%02lu %lu.%02lu\n", (unsigned long)(up / NSEC_PER_SEC),
		   (unsigned long)(up % NSEC_PER_SEC / (NSEC_PER_SEC / 100)),
		   (unsigned long)(idle / TIMER_HZ), (unsigned long)(idle % TIMER_HZ * 100 / TIMER_HZ));
	return 0;
}

static int proc_uptime_init(void)
{
	return proc_create_single("uptime", 0444, NULL, uptime_show) ? 0 : -ENOMEM;
}
late_initcall(proc_uptime_init);
