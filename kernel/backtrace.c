/* Walking and printing the frame-pointer chain (see backtrace.h). */
#include "kernel/backtrace.h"
#include "kernel/nofault.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "kernel/probes/kprobes.h"
#include "kernel/symtab.h"

int backtrace_collect(uintptr_t frame, uintptr_t *addrs, int max)
{
	int n = 0;

	while (frame && n < max) {
		uintptr_t record[2];	/* caller's frame, return address */

		if (frame & 7 || copy_from_kernel_nofault(record, (void *)frame, sizeof(record)))
			break;
		if (!record[1])
			break;
		/* A kretprobed call shows the trampoline as its return
		 * address; name the real caller instead. */
		addrs[n++] = kretprobe_real_return(record[1], frame + sizeof(uintptr_t));
		/* Stacks grow down, so callers' frames lie above: anything
		 * else is a broken chain, and following it could loop. */
		if (record[0] <= frame)
			break;
		frame = record[0];
	}
	return n;
}

/* One line of a backtrace: the trapping instruction itself, or a return
 * address (named by its call, see sym_format_return). */
static void print_addr(uintptr_t addr, bool return_address)
{
	char name[96];

	if (return_address)
		sym_format_return(addr, name, sizeof(name));
	else
		sym_format(addr, name, sizeof(name));
	kprintf("  [<%016lx>] %s\n", addr, name);
}

void backtrace_print(uintptr_t frame)
{
	uintptr_t addrs[BACKTRACE_MAX];
	int n = backtrace_collect(frame, addrs, BACKTRACE_MAX);

	kprintf("Call trace:\n");
	for (int i = 0; i < n; i++)
		print_addr(addrs[i], true);
}

void backtrace_print_from(uintptr_t ip, uintptr_t frame)
{
	uintptr_t addrs[BACKTRACE_MAX];
	int n = backtrace_collect(frame, addrs, BACKTRACE_MAX);

	kprintf("Call trace:\n");
	print_addr(ip, false);
	for (int i = 0; i < n; i++)
		print_addr(addrs[i], true);
}
NOKPROBE_SYMBOL(backtrace_collect);
