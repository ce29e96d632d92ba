/* Time as Linux modules read it: ktime_t nanoseconds since boot
 * (kernel/time.h), with the helpers that keep code from assuming the
 * unit. */
#ifndef _LINUX_KTIME_H
#define _LINUX_KTIME_H

#include <linux/types.h>
#include "kernel/time.h"	/* ktime_t, ktime_get */

static inline ktime_t ktime_sub(ktime_t later, ktime_t earlier)
{
	return later - earlier;
}

static inline ktime_t ktime_add(ktime_t a, ktime_t b)
{
	return a + b;
}

static inline s64 ktime_to_ns(ktime_t t)
{
	return t;
}

static inline s64 ktime_to_us(ktime_t t)
{
	return t / NSEC_PER_USEC;
}

static inline ktime_t ns_to_ktime(u64 ns)
{
	return (ktime_t)ns;
}

static inline u64 ktime_get_ns(void)
{
	return (u64)ktime_get();
}

#endif
