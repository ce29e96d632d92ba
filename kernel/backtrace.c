/* Walking and printing the frame-pointer chain (see backtrace.h). */
#include "kernel/backtrace.h"
#include "kernel/arch.h"
#include "kernel/code_range.h"
#include "kernel/cpu.h"
#include "lib/export.h"
#include "kernel/mm/nofault.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "kernel/rethook.h"
#include "kernel/sched.h"
#include "kernel/symtab.h"
#include "lib/format.h"
#include <asm/ptrace.h>

struct walk {
	struct backtrace_entry *out;
	int n, max;
};

static void add(struct walk *w, uintptr_t addr, bool stopped)
{
	if (w->n < w->max)
		w->out[w->n++] = (struct backtrace_entry){ addr, stopped };
}
NOKPROBE_SYMBOL(add);

/* The code regs stopped, at at: its instruction and, if that is the
 * first of a function, the return address into the caller, which no
 * frame record holds yet. Returns the frame to walk on from. */
static uintptr_t add_stopped(struct walk *w, const struct pt_regs *regs, uintptr_t at)
{
	uintptr_t ret, slot;
	struct symbol sym;

	add(w, at, true);
	if (sym_by_addr(at, &sym) == 0 && sym.addr == at &&
	    arch_entry_return_address(regs, &ret, &slot))
		add(w, rethook_real_return(ret, slot), false);
	return frame_pointer(regs);
}
NOKPROBE_SYMBOL(add_stopped);

static void walk_from(struct walk *w, uintptr_t frame)
{
	while (frame && w->n < w->max) {
		uintptr_t record[2];	/* caller's frame, return address */
		struct pt_regs regs;
		const struct code_range *range;
		uintptr_t next;

		if (frame & 7 || copy_from_kernel_nofault(record, (void *)frame, sizeof(record)))
			break;
		if (!record[1])
			break;
		/* A hooked return (a kretprobed call, say) shows the
		 * trampoline as its return address; name the real caller. */
		record[1] = rethook_real_return(record[1], frame + sizeof(uintptr_t));
		add(w, record[1], false);
		next = record[0];
		/* A call from the trap entry, or from code listed as a
		 * code range (an optimized probe's detour buffer, the call
		 * sites' regs trampoline), passed the stopped code's
		 * registers. */
		range = code_range_find(record[1]);
		if (arch_is_trap_call_return(record[1]) || range) {
			uintptr_t at = arch_call_regs(frame, record[0]), stopped;

			if (copy_from_kernel_nofault(&regs, (void *)at, sizeof(regs)))
				break;
			stopped = range && range->stopped_at ? range->stopped_at(&regs, at) :
							       arch_trap_address(&regs);
			if (!stopped)
				break;
			next = add_stopped(w, &regs, stopped);
		}
		/* Stacks grow down, so callers' frames lie above: anything
		 * else is a broken chain, and following it could loop. */
		if (next <= frame)
			break;
		frame = next;
	}
}
NOKPROBE_SYMBOL(walk_from);

int backtrace_collect(uintptr_t frame, struct backtrace_entry *out, int max)
{
	struct walk w = { out, 0, max };

	walk_from(&w, frame);
	return w.n;
}
NOKPROBE_SYMBOL(backtrace_collect);

static void print_entries(const struct backtrace_entry *e, int n)
{
	kprintf("Call trace:\n");
	for (int i = 0; i < n; i++) {
		const struct code_range *r = code_range_find(e[i].addr);
		struct symbol sym;
		char name[96];

		if (r && sym_by_addr(e[i].addr, &sym) != 0)	/* code with no symbol */
			snprintf(name, sizeof(name), "(%s)", r->what);
		else if (e[i].stopped)
			sym_format(e[i].addr, name, sizeof(name));
		else
			sym_format_return(e[i].addr, name, sizeof(name));	/* named by its call */
		kprintf("  [<%016lx>] %s\n", e[i].addr, name);
	}
}

void backtrace_print(uintptr_t frame)
{
	struct backtrace_entry e[BACKTRACE_MAX];

	print_entries(e, backtrace_collect(frame, e, BACKTRACE_MAX));
}

void backtrace_print_regs(const struct pt_regs *regs)
{
	struct backtrace_entry e[BACKTRACE_MAX];
	struct walk w = { e, 0, BACKTRACE_MAX };

	walk_from(&w, add_stopped(&w, regs, arch_trap_address(regs)));
	print_entries(e, w.n);
}
void dump_stack(void)
{
	struct thread *t = current_thread();

	kprintf("CPU: %u PID: %u Comm: %s\n", this_cpu()->id, t->id, t->name);
	/* Our own frame: its record holds the return address into the
	 * caller, which is where the trace should start. */
	backtrace_print(arch_current_frame());
}
EXPORT_SYMBOL(dump_stack);
