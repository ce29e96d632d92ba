/* Reaching this CPU's struct cpu on x86_64: the GS base register holds
 * its address, and the structure's first field points to itself, so one
 * gs-relative load gives it. Each CPU will set its own GS base when SMP
 * arrives; nothing else needs to change. */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

struct cpu;

static inline struct cpu *this_cpu(void)
{
	struct cpu *cpu;

	__asm__ volatile("movq %%gs:0, %0" : "=r"(cpu));
	return cpu;
}

/* One word of this CPU's struct cpu at byte offset off (a constant), in
 * a single gs-relative load: used by this_cpu_read (kernel/cpu.h). */
#define arch_this_cpu_read_word(off) ({						\
	unsigned long word__;							\
	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(word__) : "i"(off));	\
	word__;									\
})

/* A pointer to the field of the given type at byte offset off of this
 * CPU's struct cpu, in GCC's gs address space: reads and writes through
 * it are gs-relative instructions (used by this_cpu_field). */
#define arch_this_cpu_field_ptr(type, off) ((type __seg_gs *)(off))

#endif
