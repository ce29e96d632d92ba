/* The trace ring buffer and the `trace` shell command (see trace.h). */
#include "kernel/probes/trace.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/shell.h"
#include "kernel/spinlock.h"
#include "kernel/symtab.h"
#include "lib/string.h"

static struct {
	struct trace_record ring[TRACE_RECORDS];
	uint64_t written;	/* records ever written; the newest is written-1 */
	uint64_t cleared;	/* value of written at the last `trace clear` */
} trace;
static struct spinlock trace_lock = SPINLOCK_INIT("trace");

void trace_record(int probe_id, enum kprobe_kind kind, uintptr_t addr,
		  const uint64_t values[TRACE_VALUES])
{
	unsigned long flags = spin_lock_irqsave(&trace_lock);
	struct trace_record *r = &trace.ring[trace.written % TRACE_RECORDS];
	struct thread *self = current_thread();

	r->ticks = sched_ticks();
	r->thread_id = self->id;
	strlcpy(r->thread, self->name, sizeof(r->thread));
	r->probe_id = probe_id;
	r->kind = kind;
	r->addr = addr;
	memcpy(r->values, values, sizeof(r->values));
	trace.written++;
	spin_unlock_irqrestore(&trace_lock, flags);
}
NOKPROBE_SYMBOL(trace_record);

static void print_record(const struct trace_record *r)
{
	static const char kinds[] = { 'k', 'j', 'r' };
	char where[80];
	const uint64_t *v = r->values;

	sym_format(r->addr, where, sizeof(where));
	kprintf("%6lu.%02lu  %s(%u)  #%d %c %s  ", (unsigned long)(r->ticks / 100),
		(unsigned long)(r->ticks % 100), r->thread, r->thread_id, r->probe_id,
		kinds[r->kind], where);
	if (r->kind == KPROBE_KIND_R)
		kprintf("ret=0x%lx (%ld) after %lu cycles\n", (unsigned long)v[0],
			(long)v[0], (unsigned long)v[1]);
	else
		kprintf("args 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx\n",
			(unsigned long)v[0], (unsigned long)v[1], (unsigned long)v[2],
			(unsigned long)v[3], (unsigned long)v[4], (unsigned long)v[5]);
}

/* Print oldest first. Records are copied out one at a time under the lock,
 * and printed without it, so probes keep firing while we print. */
static void trace_print(void)
{
	unsigned long flags = spin_lock_irqsave(&trace_lock);
	uint64_t end = trace.written;
	uint64_t start = MAX(trace.cleared, end > TRACE_RECORDS ? end - TRACE_RECORDS : 0);
	uint64_t lost = start - trace.cleared, shown = 0;

	spin_unlock_irqrestore(&trace_lock, flags);
	for (uint64_t i = start; i < end; i++) {
		struct trace_record r;

		flags = spin_lock_irqsave(&trace_lock);
		if (trace.written - i > TRACE_RECORDS) {
			lost++;		/* overwritten while we printed */
			spin_unlock_irqrestore(&trace_lock, flags);
			continue;
		}
		r = trace.ring[i % TRACE_RECORDS];
		spin_unlock_irqrestore(&trace_lock, flags);
		print_record(&r);
		shown++;
	}
	kprintf("trace: %lu records, %lu lost\n", (unsigned long)shown, (unsigned long)lost);
}

static void cmd_trace(int argc, char **argv)
{
	if (argc == 1) {
		trace_print();
	} else if (argc == 2 && strcmp(argv[1], "clear") == 0) {
		unsigned long flags = spin_lock_irqsave(&trace_lock);

		trace.cleared = trace.written;
		spin_unlock_irqrestore(&trace_lock, flags);
		kprintf("trace: cleared\n");
	} else {
		kprintf("trace: usage: trace [clear]\n");
	}
}
SHELL_COMMAND("trace", "[clear]", "show (or clear) what the probes recorded", cmd_trace);
