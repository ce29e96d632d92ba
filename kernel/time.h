/* Time since boot in nanoseconds, from the cycle counter.
 *
 * ktime_get() is Linux's name (modules time things with it, see
 * include/linux/ktime.h); the kernel's own code may use it too. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "lib/types.h"

/* Nanoseconds. long long, as Linux's s64, so that a module may print one
 * with %lld. */
typedef long long ktime_t;

#define NSEC_PER_SEC  1000000000LL
#define NSEC_PER_USEC 1000LL

/* Record the counter's rate and the time zero; called once at boot,
 * after arch_interrupts_init (which measures the rate on x86_64). */
void time_init(void);
/* Nanoseconds since time_init, monotonic (never smaller than an earlier
 * result on this CPU); 0 before time_init. Safe anywhere, probe
 * handlers included: it reads the counter and takes no lock. */
ktime_t ktime_get(void);
/* The time since time_init at which the cycle counter read cycles (a
 * value of arch_cycles()), in nanoseconds; 0 before time_init, and for
 * a count read before it. What
 * ktime_get returns for the counter now: code that must only read the
 * counter (the trace's recording) keeps the raw count and converts it
 * later with this. */
ktime_t ktime_from_cycles(uint64_t cycles);
/* A span of c counts of the cycle counter in nanoseconds (0 before
 * time_init). */
uint64_t cycles_to_ns(uint64_t c);

#endif
