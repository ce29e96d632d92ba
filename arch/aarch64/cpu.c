/*
 * Per-CPU set-up on aarch64: the exception vector base, FP/SIMD access,
 * debug exceptions, the GIC's CPU interface and the per-CPU base
 * register. Every CPU runs arch_cpu_init for itself: these are all its
 * own registers (the GIC's CPU interface is banked per CPU).
 *
 * There are no descriptor tables as on x86: VBAR_EL1 names the vector
 * table and that is all. Debug exceptions are prepared so that software
 * step (used by the trap selftests, and by a probes back end that steps
 * an instruction) works at EL1: the OS lock, set at reset, is released,
 * and MDSCR_EL1.KDE allows debug exceptions at the kernel's own level.
 * Nothing steps until someone sets MDSCR_EL1.SS, and BRK traps regardless.
 *
 * Each CPU also has an overflow stack, where the exception entry moves
 * when the interrupted stack has run into its guard (trap_entry.S). The
 * entry has no register to spare for finding it, so TPIDRRO_EL0 - which
 * only user code would read, and there is none - holds its top. The
 * overflow stacks are in .bss, so that the check works from the first
 * instruction of kmain, and are laid out like every kernel stack: the
 * upper half of a block twice their size, the lower half the guard.
 */
#include "arch/aarch64/cpuinfo.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/mm/stack.h"
#include "kernel/nokprobe.h"
#include <asm/gic.h>
#include <asm/sysreg.h>

extern char exception_vectors[];

static struct overflow_stack {
	uint8_t guard[KERNEL_STACK_SIZE];
	uint8_t stack[KERNEL_STACK_SIZE];
} overflow_stacks[MAX_CPUS] __aligned(2 * KERNEL_STACK_SIZE);
STATIC_STACK_GUARDS(overflow, overflow_stacks[0].guard, KERNEL_STACK_SIZE,
		    sizeof(struct overflow_stack), MAX_CPUS);

void arch_cpu_init(unsigned int id)
{
	write_sysreg(overflow_stacks[id].stack + KERNEL_STACK_SIZE, tpidrro_el0);
	/* Every CPU shares the vector table. */
	write_sysreg(exception_vectors, vbar_el1);
	/* FP/SIMD stays trapped (the kernel is built without it): said
	 * here rather than left to each CPU's reset value. */
	write_sysreg(0, cpacr_el1);
	write_sysreg(0, oslar_el1);
	write_sysreg(MDSCR_KDE, mdscr_el1);
	isb();
	/* Unmask debug exceptions and SErrors; interrupts stay masked until
	 * the scheduler starts. */
	__asm__ volatile("msr daifclr, #0xc" : : : "memory");
	/* Another CPU's GIC interface; the boot CPU's comes with gic_init. */
	gic_cpu_init();
	cpuinfo_record(id);
}

void arch_set_percpu_base(struct cpu *cpu)
{
	write_sysreg(cpu, tpidr_el1);
}
NOKPROBE_SYMBOL(arch_set_percpu_base);
