/* Per-CPU variables.
 *
 * A subsystem that needs state of its own on every CPU declares it where
 * it lives, with DEFINE_PER_CPU, instead of adding a field named after
 * itself to struct cpu. The linker gathers these variables into the
 * .percpu section (linker/): that copy is the template. Every CPU, CPU 0
 * too, gets a copy of the whole section of its own when it is brought up,
 * and its struct cpu records how far that copy lies from the linked one
 * (percpu_offset), so that one offset reaches every variable. The copies
 * lie PERCPU_UNIT_SIZE apart, so that memory from alloc_percpu
 * (kernel/mm/percpu_alloc.h) is reached with the same offsets.
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

/* The distance between two CPUs' copies: the most the .percpu section may
 * hold, and the most one alloc_percpu may ask for. */
#define PERCPU_UNIT_SIZE 4096

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

/* CPU id's copy of a per-CPU variable, or of memory from alloc_percpu,
 * from any CPU: for reading another CPU's copy (summing counters, say). */
#define per_cpu_ptr(ptr, id) \
	((__typeof__(ptr))((uintptr_t)(ptr) + percpu_offset_of(id)))

/* The sum of every CPU's copy of a per-CPU counter (each copy counted by
 * its own CPU alone), read from any CPU. Each copy is read whole, but
 * not all at one instant: a total that counters still being incremented
 * make is only a moment's. */
static inline unsigned long per_cpu_sum(const unsigned long *counter)
{
	unsigned long sum = 0;

	for (unsigned int id = 0; id < MAX_CPUS; id++)
		sum += __atomic_load_n(per_cpu_ptr(counter, id), __ATOMIC_RELAXED);
	return sum;
}

#endif
