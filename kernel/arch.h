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
/* The frame pointer of the function that calls this, for backtraces
 * (whose first line is then the return address into that function's
 * caller). */
uintptr_t arch_current_frame(void);
/* Backtraces across a trap (kernel/backtrace.c). True if ret is the
 * return address of a call the trap entry code makes with the struct
 * pt_regs of the code the trap stopped. */
bool arch_is_trap_call_return(uintptr_t ret);
/* The address of the struct pt_regs passed by such a call (or by an
 * optimized probe's detour buffer), from the callee's frame pointer and
 * the caller's frame pointer saved in its frame record. */
uintptr_t arch_call_regs(uintptr_t frame, uintptr_t caller_frame);
/* The instruction at which a trap stopped the code of regs (x86_64's
 * int3 traps after itself; the others stop at or before the instruction
 * they name). */
uintptr_t arch_trap_address(const struct pt_regs *regs);
/* At a function's first instruction, before it has saved anything: the
 * return address into its caller, which no frame record holds yet, and
 * the stack slot where a backtrace would find it once the function saved
 * it (as kretprobe_real_return expects). False if it cannot be read. */
bool arch_entry_return_address(const struct pt_regs *regs, uintptr_t *ret, uintptr_t *slot);
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
