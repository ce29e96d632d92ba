/* This CPU, for kernel code that the fuzzer or a host test runs as a
 * host program (tests/fuzz/fuzz.mk, and test_virtqueue in
 * tests/host/host.mk: an -I before the architecture's own headers, so
 * that this one is found first). The kernel's asm/percpu.h reads %gs,
 * which a host program does not have: here "this CPU" is the struct cpu
 * the harness points fuzz_this_cpu at, and its fields are read through
 * that pointer. */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

struct cpu;

extern struct cpu *fuzz_this_cpu;

static inline struct cpu *this_cpu(void)
{
	return fuzz_this_cpu;
}

#define arch_this_cpu_read_word(off) (*(unsigned long *)((char *)fuzz_this_cpu + (off)))
#define arch_this_cpu_field_ptr(type, off) ((type *)((char *)fuzz_this_cpu + (off)))

#endif
