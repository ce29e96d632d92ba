/* NR_CPUS, where Linux defines it: the most CPUs the kernel runs on
 * (kernel/cpu.h's MAX_CPUS). Linux sets it from CONFIG_NR_CPUS; modules
 * size per-CPU arrays with it. */
#ifndef _LINUX_THREADS_H
#define _LINUX_THREADS_H

#include "kernel/cpu.h"

#define NR_CPUS MAX_CPUS

#endif
