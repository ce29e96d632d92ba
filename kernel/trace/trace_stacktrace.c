/* Call stacks in the trace (trace_stacktrace.h): the frames, walked
 * through the frame pointers (kernel/backtrace.h), as a record of their
 * addresses, named only when the record is printed. */
#include "kernel/trace/trace_stacktrace.h"
#include "kernel/backtrace.h"
#include "kernel/nokprobe.h"
#include "kernel/symtab.h"
#include "kernel/trace/trace.h"
#include "lib/format.h"
#include "lib/string.h"

void notrace trace_record_stack(uintptr_t frame)
{
	struct backtrace_entry entries[TRACE_STACK_FRAMES];
	uint64_t addrs[TRACE_STACK_FRAMES];
	int n = backtrace_collect(frame, entries, TRACE_STACK_FRAMES);

	for (int i = 0; i < n; i++)
		addrs[i] = entries[i].addr;
	trace_write(TRACE_TYPE_STACK, addrs, (size_t)n * sizeof(addrs[0]));
}
NOKPROBE_SYMBOL(trace_record_stack);

static int stack_print(const struct trace_kind *kind, char *line, size_t size, const void *body,
		       size_t len)
{
	const uint64_t *addrs = body;
	size_t n = (size_t)snprintf(line, size, "<stack trace>");
	char name[96];

	(void)kind;
	for (size_t i = 0; i < len / sizeof(addrs[0]); i++) {
		sym_format_name((uintptr_t)addrs[i], name, sizeof(name));
		n += (size_t)snprintf(line + MIN(n, size), size - MIN(n, size), "\n => %s", name);
	}
	return (int)n;
}
TRACE_KIND(TRACE_TYPE_STACK, stack_print);
