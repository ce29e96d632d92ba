/* What the portable kernel asks of an architecture. Every function here
 * is implemented once per arch/<name>/ directory; nothing else in kernel/
 * names a register, an instruction or a device. */
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include "lib/types.h"
#include <asm/context.h>
#include <asm/ptrace.h>

/* Descriptor tables and trap vectors of CPU number id. */
void arch_cpu_init(unsigned int id);
struct cpu;
/* Point this CPU's per-CPU base register at cpu (see this_cpu()). */
void arch_set_percpu_base(struct cpu *cpu);
/* Interrupt controller, timer at TIMER_HZ and the console's receive
 * interrupt. Interrupts stay disabled until the scheduler starts. */
void arch_interrupts_init(void);
#define TIMER_HZ 100

/* Set up the console UART (polled output, interrupt-driven input). */
void arch_console_init(void);
/* Write one byte to the console UART, waiting while it is busy. */
void arch_console_putc(char c);

/* Page tables are built and walked by portable code (kernel/paging.h),
 * with each architecture's entry encoding in asm/pgtable.h. Called after
 * the entry for va changed: make the CPU use the new entry and forget any
 * cached translation of va. */
void arch_flush_tlb_page(uintptr_t va);
/* Switch this CPU to the final kernel page tables rooted at root_pa, which
 * map everything the kernel uses so far; called once by paging_init. */
void arch_paging_switch(uint64_t root_pa);

/* Make instructions written at [addr, addr+len) visible to instruction
 * fetch on this CPU. */
void arch_sync_icache(uintptr_t addr, size_t len);

/* Threads: prepare a new stack so that the first switch to it calls
 * thread_start(); switch from one saved context to another. */
void arch_context_init(struct arch_context *ctx, void *stack_top);
void arch_context_switch(struct arch_context *from, struct arch_context *to);
/* Called by arch code the first time a new thread runs. */
__noreturn void thread_start(void);

/* A monotonically increasing cycle counter (TSC / CNTVCT). */
uint64_t arch_cycles(void);
/* The caller's frame pointer, for backtraces. */
uintptr_t arch_current_frame(void);
/* Print the registers of a trap frame. */
void arch_dump_regs(const struct pt_regs *regs);
/* Leave QEMU with the given status code (isa-debug-exit / PSCI). */
__noreturn void arch_poweroff(int status);
/* Crash in an architecture-specific way named kind (for the crash tests
 * of kernel/crash_test.c); false if the architecture has no such kind. */
bool arch_crash_test(const char *kind);
/* Stop this CPU for good. */
__noreturn void arch_halt(void);

#endif
