/* What each CPU says of itself, for /proc/cpuinfo (cpuinfo.c). */
#ifndef ARCH_X86_64_CPUINFO_H
#define ARCH_X86_64_CPUINFO_H

/* Record it; called on CPU id, by arch_cpu_init, as it comes up. */
void cpuinfo_record(unsigned int id);

#endif
