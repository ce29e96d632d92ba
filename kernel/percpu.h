/* Per-CPU variables.
 *
 * A subsystem that needs state of its own on every CPU declares it where
 * it lives, with DEFINE_PER_CPU, instead of adding a field named after
 * itself to struct cpu. The linker gathers these variables into the
 * .percpu section (linker/): that copy is CPU 0's. Every other CPU gets a
 * copy of the whole section of its own when it is brought up, and its
 * struct cpu records how far that copy lies from the linked one
 * (percpu_offset), so that one offset reaches every variable.
 *
 * this_cpu_ptr(&var) is this CPU's copy: one load of the offset (on
 * x86_64 a single gs-relative instruction) added to var's link address,
 * which the compiler folds into the access. The compiler may reuse one
 * load of the offset for every per-CPU variable a function touches, so a
 * block split between two variables costs no more than one. Use it with
 * interrupts off or preemption disabled, so that the thread stays on the
 * CPU whose copy it holds. */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include "kernel/cpu.h"

#define DEFINE_PER_CPU(type, name) __section(".percpu") __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name

#define this_cpu_ptr(ptr)                                                      \
	((__typeof__(ptr))((uintptr_t)(ptr) +                                  \
			   arch_this_cpu_read_stable_word(offsetof(struct cpu, percpu_offset))))

#endif
