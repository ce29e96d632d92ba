/* The function tracer: see trace_functions.h.
 *
 * Each call from a wanted site writes one record: the function's
 * address and the return address into its caller, stored straight into
 * the ring (trace_begin). Nothing is looked up
 * on the way (the symbols are found when `trace` prints the line), so
 * that a call costs the trampoline, the dispatch and one ring write,
 * all of them notrace (tests/host/check_ftrace_sites.py follows the
 * callback too). */
#include "kernel/trace/ftrace_pid.h"
#include "kernel/trace/trace_functions.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/tracer.h"
#include "kernel/nokprobe.h"
#include "kernel/symtab.h"
#include "lib/format.h"

struct function_call {
	uintptr_t ip, parent_ip;
};
_Static_assert(sizeof(struct function_call) == 2 * sizeof(uint64_t), "stored as two words");

static void notrace function_trace_call(uintptr_t ip, uintptr_t parent_ip,
					struct ftrace_ops *ops, struct pt_regs *regs)
{
	struct trace_record rec;

	(void)ops;
	(void)regs;
	if (trace_begin(&rec, TRACE_TYPE_FUNCTION, sizeof(struct function_call))) {
		ring_put(&rec.body[0], ip);		/* struct function_call, */
		ring_put(&rec.body[1], parent_ip);	/* stored in place */
		trace_end(&rec);
	}
}
NOKPROBE_SYMBOL(function_trace_call);

/* The callback while set_ftrace_pid or set_ftrace_notrace_pid holds an
 * id: the same record, for the threads the lists let through. */
static void notrace function_trace_pid_call(uintptr_t ip, uintptr_t parent_ip,
					    struct ftrace_ops *ops, struct pt_regs *regs)
{
	if (ftrace_pid_traced())
		function_trace_call(ip, parent_ip, ops, regs);
}
NOKPROBE_SYMBOL(function_trace_pid_call);

/* The callback reaches no site (check_ftrace_sites.py follows it), so
 * it cannot call itself: it needs no recursion guard, and with none a
 * call from a site that only it wants goes straight to it. */
struct ftrace_ops function_trace_ops = {
	.func = function_trace_call, .flags = FTRACE_OPS_RECURSION,
};

/* One store: a call on another CPU meanwhile runs the old callback or
 * the new one, both of which are safe. */
void function_trace_pids_changed(void)
{
	ftrace_func func = ftrace_pid_filtering() ? function_trace_pid_call : function_trace_call;

	__atomic_store_n(&function_trace_ops.func, func, __ATOMIC_RELEASE);
}

static int function_start(void)
{
	return register_ftrace_function(&function_trace_ops);
}

static void function_stop(void)
{
	unregister_ftrace_function(&function_trace_ops);
}

DEFINE_TRACER(function_tracer) = {
	.name = "function", .start = function_start, .stop = function_stop,
};

/* Linux's line: "vfs_read <-cat_main". */
static int function_print(const struct trace_kind *kind, char *line, size_t size, const void *body,
			  size_t len)
{
	(void)kind;
	const struct function_call *call = body;
	char func[96], parent[96];

	if (len < sizeof(*call))
		return snprintf(line, size, "(a function record of %zu bytes)", len);
	sym_format_name(call->ip, func, sizeof(func));
	sym_format_caller(call->parent_ip, parent, sizeof(parent));
	return snprintf(line, size, "%s <-%s", func, parent);
}
TRACE_KIND(TRACE_TYPE_FUNCTION, function_print);
