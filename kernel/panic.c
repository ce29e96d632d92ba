/* Stopping the kernel with as much information as it still has. */
#include "kernel/arch.h"
#include "kernel/backtrace.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/symtab.h"
#include "kernel/trap.h"
#include <asm/irq.h>

extern bool console_panicking;

void panic(const char *fmt, ...)
{
	va_list ap;

	arch_irq_disable();
	console_panicking = true;
	kprintf("\nPANIC: ");
	va_start(ap, fmt);
	vkprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	backtrace_print(arch_current_frame());
	kprintf("--- end of panic: the kernel is halted ---\n");
	arch_halt();
}

void trap_panic(const char *what, struct pt_regs *regs)
{
	char where[96];

	arch_irq_disable();
	console_panicking = true;
	sym_format(arch_trap_address(regs), where, sizeof(where));
	kprintf("\nPANIC: %s at %s\n", what, where);
	arch_dump_regs(regs);
	backtrace_print_regs(regs);
	kprintf("--- end of panic: the kernel is halted ---\n");
	arch_halt();
}
NOKPROBE_SYMBOL(panic);
NOKPROBE_SYMBOL(trap_panic);
