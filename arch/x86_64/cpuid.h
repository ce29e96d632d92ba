/* The CPUID instruction: what the CPU running it says of itself. */
#ifndef ARCH_X86_64_CPUID_H
#define ARCH_X86_64_CPUID_H

#include "lib/types.h"

/* The four registers CPUID leaf leaf (subleaf 0) answers with. */
struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid(uint32_t leaf)
{
	struct cpuid_regs r = { .eax = leaf, .ecx = 0 };

	__asm__ volatile("cpuid" : "+a"(r.eax), "=b"(r.ebx), "+c"(r.ecx), "=d"(r.edx));
	return r;
}

#endif
