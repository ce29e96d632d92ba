/* Reaching this CPU's struct cpu on aarch64: TPIDR_EL1, a register the
 * architecture leaves to the kernel, holds its address. (The structure's
 * first field also points to itself, as x86 needs; here the register is
 * already the pointer.) Each CPU will set its own TPIDR_EL1 when SMP
 * arrives; nothing else needs to change. */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

struct cpu;

static inline struct cpu *this_cpu(void)
{
	struct cpu *cpu;

	__asm__ volatile("mrs %0, tpidr_el1" : "=r"(cpu));
	return cpu;
}

/* One word of this CPU's struct cpu at byte offset off (a constant): used
 * by this_cpu_read (kernel/cpu.h). Here it is a load through TPIDR_EL1. */
#define arch_this_cpu_read_word(off) (*(unsigned long *)((char *)this_cpu() + (off)))

/* A pointer to the field of the given type at byte offset off of this
 * CPU's struct cpu (used by this_cpu_field). The read of TPIDR_EL1 is not
 * volatile, unlike this_cpu()'s: it never changes while the thread stays
 * on its CPU, so a function may read it once for every field it touches. */
#define arch_this_cpu_field_ptr(type, off) ({					\
	char *cpu__;								\
	__asm__("mrs %0, tpidr_el1" : "=r"(cpu__));				\
	(type *)(cpu__ + (off));						\
})

#endif
