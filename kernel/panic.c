/* Stopping the kernel with as much information as it still has. */
#include "kernel/arch.h"
#include "kernel/backtrace.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/symtab.h"
#include "kernel/trap.h"
#include <asm/irq.h>

extern bool console_panicking;

/* The CPU that panicked, plus one; 0 while none has. */
static unsigned int panicking_cpu;

/* Interrupts off, the other CPUs stopped, the console ours. Only the
 * first CPU to panic reports: one that panics meanwhile (perhaps because
 * the first one broke something they share) halts in silence. */
static void panic_begin(void)
{
	unsigned int none = 0;

	arch_irq_disable();
	if (!__atomic_compare_exchange_n(&panicking_cpu, &none, this_cpu()->id + 1, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		arch_halt();
	smp_stop_others();
	console_panicking = true;
}
NOKPROBE_SYMBOL(panic_begin);

/* Which CPU panicked, after the PANIC line (whose form tests read). */
static void panic_name_cpu(void)
{
	kprintf("on CPU %u%s\n", this_cpu()->id,
		cpu_count() > 1 ? "; the other CPUs are stopped" : "");
}
NOKPROBE_SYMBOL(panic_name_cpu);

void panic(const char *fmt, ...)
{
	va_list ap;

	panic_begin();
	kprintf("\nPANIC: ");
	va_start(ap, fmt);
	vkprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	panic_name_cpu();
	backtrace_print(arch_current_frame());
	kprintf("--- end of panic: the kernel is halted ---\n");
	arch_halt();
}
NOKPROBE_SYMBOL(panic);

void trap_panic(const char *what, struct pt_regs *regs)
{
	char where[96];

	panic_begin();
	sym_format(arch_trap_address(regs), where, sizeof(where));
	kprintf("\nPANIC: %s at %s\n", what, where);
	panic_name_cpu();
	arch_dump_regs(regs);
	backtrace_print_regs(regs);
	kprintf("--- end of panic: the kernel is halted ---\n");
	arch_halt();
}
NOKPROBE_SYMBOL(trap_panic);
