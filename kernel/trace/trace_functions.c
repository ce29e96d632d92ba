/* The function tracer: see trace_functions.h.
 *
 * Each call from a wanted site writes one record: the function's
 * address and the return address into its caller. Nothing is looked up
 * on the way (the symbols are found when `trace` prints the line), so
 * that a call costs the trampoline, the dispatch and one ring write,
 * all of them notrace (tests/host/check_ftrace_sites.py follows the
 * callback too). */
#include "kernel/trace/trace_functions.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/tracer.h"
#include "kernel/nokprobe.h"
#include "kernel/symtab.h"
#include "lib/format.h"

struct function_call {
	uintptr_t ip, parent_ip;
};

static void notrace function_trace_call(uintptr_t ip, uintptr_t parent_ip,
					struct ftrace_ops *ops, struct pt_regs *regs)
{
	struct function_call call = { ip, parent_ip };

	(void)ops;
	(void)regs;
	trace_write(TRACE_TYPE_FUNCTION, &call, sizeof(call));
}
NOKPROBE_SYMBOL(function_trace_call);

struct ftrace_ops function_trace_ops = { .func = function_trace_call };

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
static int function_print(char *line, size_t size, const void *body, size_t len)
{
	const struct function_call *call = body;
	char func[96], parent[96];

	if (len < sizeof(*call))
		return snprintf(line, size, "(a function record of %zu bytes)", len);
	sym_format_name(call->ip, func, sizeof(func));
	sym_format_caller(call->parent_ip, parent, sizeof(parent));
	return snprintf(line, size, "%s <-%s", func, parent);
}
TRACE_KIND(TRACE_TYPE_FUNCTION, function_print);
