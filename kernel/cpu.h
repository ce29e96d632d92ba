/* Per-CPU state. What belongs to "the CPU I am running on" is reached
 * through this_cpu(), never through a global, so that a second CPU only
 * needs a second struct cpu. struct cpu holds what the lowest layers
 * (the scheduler, the trap entry) need; a subsystem above keeps its own
 * per-CPU state in per-CPU variables of its own (kernel/percpu.h). */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include "lib/types.h"
#include <asm/percpu.h>

#define MAX_CPUS 8

struct thread;

/*
 * The state of whatever handles breakpoint traps on this CPU (today the
 * probes layer, kernel/probes/), and the nesting of nokprobe_begin()
 * (kernel/nokprobe.h). Every breakpoint hit must know whether this CPU is
 * already busy handling one or inside nokprobe_begin(); with both halves
 * in one word, one load and one test answer both. The scheduler reads the
 * handler half: a CPU inside a handler must not switch away (sched.c).
 * Each half is only ever written on its own, as a 32-bit store, never
 * through busy: a hit that lands between the load and the store of
 * nokprobe_begin's increment changes the handler half, and must not undo
 * the count.
 */
union handler_context {
	struct {
		uint32_t handler_state;		/* 0: no handler runs here; the
						 * rest is the handler's own */
		uint32_t nokprobe_depth;	/* nesting of nokprobe_begin() */
	};
	uint64_t busy;				/* nonzero if either is */
};

struct cpu {
	struct cpu *self;	/* first: this_cpu() loads it (asm/percpu.h) */
	unsigned int id;
	struct thread *current;	/* the thread running here */
	struct thread *idle;	/* runs when nothing else is ready */
	bool need_resched;	/* set by the timer; acted on at trap exit */
	unsigned long irq_depth;	/* nesting of interrupt handlers (a word:
				 * this_cpu_read reads it in one load) */
	/* Where this CPU's copies of the per-CPU variables lie, from the
	 * linked ones (kernel/percpu.h). A word, so that
	 * this_cpu_ptr reads it in one load. */
	unsigned long percpu_offset;
	/* Here, not in a per-CPU variable, because every hit tests it:
	 * this_cpu_field reaches it with no offset to load first. */
	union handler_context handler_context;
};

/* Read a pointer-sized field of this CPU's struct cpu. On x86_64 this is
 * one instruction where this_cpu()->field is two (load the address, then
 * the field); the probes layer reads such fields on every hit. */
#define this_cpu_read(field) ({							\
	_Static_assert(sizeof(((struct cpu *)0)->field) == sizeof(unsigned long),	\
		       "this_cpu_read reads one word");				\
	(__typeof__(((struct cpu *)0)->field))					\
		arch_this_cpu_read_word(offsetof(struct cpu, field));		\
})

/* A field of this CPU's struct cpu of any size, as an lvalue: read or
 * written in place (on x86_64 one gs-relative instruction, on aarch64
 * through TPIDR_EL1). Unlike this_cpu_read, a read may be reused while
 * nothing intervenes that could change the field: use it with interrupts
 * off, or for fields only this CPU writes. */
#define this_cpu_field(field)							\
	(*arch_this_cpu_field_ptr(__typeof__(((struct cpu *)0)->field),		\
				  offsetof(struct cpu, field)))

/* Make cpus[id] this CPU's struct cpu (sets the per-CPU base register). */
void cpu_init_this(unsigned int id);
/* The struct cpu of CPU number id (< MAX_CPUS), for reading another
 * CPU's state under the lock that guards the field. */
struct cpu *cpu_of(unsigned int id);
/* How many CPUs have been brought up: one more than the highest CPU
 * number that has set itself up. */
unsigned int cpu_count(void);

#endif
