/* Per-CPU variables.
 *
 * A subsystem that needs state of its own on every CPU declares it where
 * it lives, with DEFINE_PER_CPU, instead of adding a field named after
 * itself to struct cpu. The linker gathers these variables into the
 * .percpu section (linker/), which holds their initial values and is
 * never written. Every CPU gets a copy of the whole section of its own
 * when it is brought up, and its struct cpu records how far that copy
 * lies from the linked one (percpu_offset), so that one offset reaches
 * every variable.
 *
 * this_cpu_ptr(&var) is this CPU's copy: one load of the offset (on
 * x86_64 a single gs-relative instruction) added to var's link address.
 * That is a load and an add more than reaching a field of struct cpu
 * (this_cpu_field, kernel/cpu.h), so a hot path finds a variable once
 * and passes the pointer down. Use it with interrupts off or preemption
 * disabled, so that the thread stays on the CPU whose copy it holds. */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include "kernel/cpu.h"

#define DEFINE_PER_CPU(type, name) __section(".percpu") __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name

/* The empty asm hides how the address was made: the compiler keeps it in
 * one register, instead of the variable's link address and the offset in
 * two that it would have to save across every call. */
#define this_cpu_ptr(ptr) ({							\
	uintptr_t addr__ = (uintptr_t)(ptr) + this_cpu_field(percpu_offset);	\
	__asm__("" : "+r"(addr__));						\
	(__typeof__(ptr))addr__;						\
})

#endif
