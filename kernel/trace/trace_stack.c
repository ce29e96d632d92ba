/* The stack tracer: see trace_stack.h.
 *
 * Each call from a wanted site costs a comparison: how deep the thread's
 * stack is at the function's entry against the deepest seen. Only a
 * deeper one does more, under a lock with interrupts off: it walks the
 * frame-pointer chain from the function's caller (backtrace_collect) and
 * finds where on the stack each return address lies. A frame's depth is
 * the bytes from the stack's top to that place, and its size the
 * difference from the next frame's; so the sizes add up to the first
 * frame's depth, which is stack_max_size. A call on a stack that is not
 * its thread's (an interrupt's, where the architecture has one) is not
 * measured. A deeper stack whose end mark (sched.h) is gone stops the
 * kernel. */
#include "kernel/backtrace.h"
#include "kernel/sched.h"
#include "kernel/mutex.h"
#include "kernel/nokprobe.h"
#include "kernel/panic.h"
#include "kernel/spinlock.h"
#include "kernel/trace/trace_stack.h"
#include "kernel/arch.h"
#include "lib/types.h"
#include <asm/ptrace.h>

#define STACK_TRACE_MAX 64

/* The deepest chain, and the walk that makes it: under max_lock. */
static struct spinlock max_lock = SPINLOCK_INIT("stack tracer");
static struct backtrace_entry walked[STACK_TRACE_MAX];
static struct stack_trace_frame frames[STACK_TRACE_MAX];
static size_t frame_count, max_size;
/* The same depth, for each call to compare itself with without the
 * lock (stack_max_size may be set apart from a chain). */
static size_t max_seen;
static bool enabled;

/* The first word at or above from, below top, that holds value; 0 if
 * none does. The thread's own stack: plain loads. */
static uintptr_t notrace find_word(uintptr_t from, uintptr_t top, uintptr_t value)
{
	for (uintptr_t at = from; at + sizeof(uintptr_t) <= top; at += sizeof(uintptr_t))
		if (*(const uintptr_t *)at == value)
			return at;
	return 0;
}
NOKPROBE_SYMBOL(find_word);

static void notrace add_frame(uintptr_t addr, size_t depth)
{
	if (frame_count < STACK_TRACE_MAX)
		frames[frame_count++] = (struct stack_trace_frame){ .addr = addr, .depth = depth };
}
NOKPROBE_SYMBOL(add_frame);

/* The chain of the call at ip, whose entry's registers are regs, into
 * frames: the function itself, the caller it returns into (which no
 * frame record holds yet), then the frame-pointer chain from there. A
 * return address not found on the stack (one a kretprobe hooked: the
 * stack holds the trampoline's) is left out, as Linux leaves out what it
 * does not find. Under max_lock. */
static void notrace record(uintptr_t ip, const struct pt_regs *regs, uintptr_t top)
{
	uintptr_t ret, slot, at;
	int n;

	frame_count = 0;
	if (!arch_entry_return_address(regs, &ret, &slot))
		return;
	at = MIN(slot, stack_pointer(regs));
	add_frame(ip, top - at);
	add_frame(ret, top - at);
	n = backtrace_collect(frame_pointer(regs), walked, STACK_TRACE_MAX);
	for (int i = 0; i < n; i++) {
		uintptr_t where = find_word(at, top, walked[i].addr);

		if (where) {
			add_frame(walked[i].addr, top - where);
			at = where + sizeof(uintptr_t);
		}
	}
	for (size_t i = 0; i < frame_count; i++)
		frames[i].size = frames[i].depth - (i + 1 < frame_count ? frames[i + 1].depth : 0);
	max_size = max_seen = frames[0].depth;
}
NOKPROBE_SYMBOL(record);

/* A deeper stack than any before, and the word at the stack's end was
 * overwritten: stop here, inside the deepest call, rather than at the
 * thread's next switch, as the scheduler would. */
static __noreturn __noinline void notrace end_mark_gone(const struct thread *t)
{
	panic("stack tracer: thread %s ran past the end of its %zu-byte stack (%zu bytes deep)",
	      t->name, t->stack_size, max_size);
}
NOKPROBE_SYMBOL(end_mark_gone);

/* The stack's depth is the traced function's at its entry (the
 * registers the site's trampoline saved), so the tracer's own frames
 * never count. Never probed, nor what it calls with max_lock held: a
 * probe's handler reaching a site here would come back for the lock. */
static void notrace stack_trace_call(uintptr_t ip, uintptr_t parent_ip, struct ftrace_ops *ops,
				     struct pt_regs *regs)
{
	const struct thread *self = current_thread();
	uintptr_t sp = stack_pointer(regs);
	uintptr_t bottom = (uintptr_t)self->stack, top = bottom + self->stack_size;
	unsigned long flags;

	(void)parent_ip, (void)ops;
	if (!self->stack || sp <= bottom || sp >= top)
		return;
	if (top - sp <= __atomic_load_n(&max_seen, __ATOMIC_RELAXED))
		return;
	flags = spin_lock_irqsave(&max_lock);
	if (top - sp > max_seen) {	/* no other CPU went deeper meanwhile */
		record(ip, regs, top);
		if (unlikely(!thread_stack_end_intact(self)))
			end_mark_gone(self);
	}
	spin_unlock_irqrestore(&max_lock, flags);
}
NOKPROBE_SYMBOL(stack_trace_call);

/* Its registers, for the stack pointer at the traced function's entry.
 * No FTRACE_OPS_RECURSION: the walk calls functions with call sites,
 * whose calls ftrace's guard drops (they are counted in missed). */
struct ftrace_ops stack_trace_ops = { .func = stack_trace_call, .flags = FTRACE_OPS_SAVE_REGS };

bool stack_tracer_enabled(void)
{
	return __atomic_load_n(&enabled, __ATOMIC_RELAXED);
}

/* Under the sysctl file's calls, one at a time (procfs serializes
 * nothing, so a mutex does). */
static struct mutex enable_mutex = MUTEX_INIT(enable_mutex, "stack tracer");

int stack_tracer_set_enabled(bool on)
{
	int err = 0;

	mutex_lock(&enable_mutex);
	if (on != enabled) {
		err = on ? register_ftrace_function(&stack_trace_ops) :
			   unregister_ftrace_function(&stack_trace_ops);
		if (!err)
			__atomic_store_n(&enabled, on, __ATOMIC_RELAXED);
	}
	mutex_unlock(&enable_mutex);
	return err;
}

size_t stack_tracer_max_size(void)
{
	unsigned long flags = spin_lock_irqsave(&max_lock);
	size_t size = max_size;

	spin_unlock_irqrestore(&max_lock, flags);
	return size;
}

void stack_tracer_set_max_size(size_t size)
{
	unsigned long flags = spin_lock_irqsave(&max_lock);

	max_size = max_seen = size;
	spin_unlock_irqrestore(&max_lock, flags);
}

size_t stack_tracer_copy(struct stack_trace_frame *out, size_t max)
{
	unsigned long flags = spin_lock_irqsave(&max_lock);
	size_t n = frame_count < max ? frame_count : max;

	for (size_t i = 0; i < n; i++)
		out[i] = frames[i];
	spin_unlock_irqrestore(&max_lock, flags);
	return n;
}
