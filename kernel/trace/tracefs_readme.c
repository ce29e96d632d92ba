/* /sys/kernel/tracing/README: what each file of this directory is for,
 * as Linux's README says of its own (in words of ProbeOS's own, and of
 * the files ProbeOS has). */
#include "kernel/fs/libfs.h"
#include "kernel/fs/tracefs.h"
#include "kernel/initcall.h"
#include "lib/err.h"

static const char readme[] =
	"tracing mini-HOWTO (ProbeOS):\n"
	"\n"
	"# echo 0 > tracing_on : stop recording (records written meanwhile are dropped)\n"
	"# echo 1 > tracing_on : record again\n"
	"\n"
	" Files:\n"
	"  trace\t\t\t- the records, oldest first, with a header; does not consume\n"
	"  \t\t\t  echo > trace : clear every CPU's records\n"
	"  trace_pipe\t\t- the records, consumed as read; waits for more until Ctrl-C\n"
	"  trace_marker\t\t- a line written here is a record of its own\n"
	"  tracing_on\t\t- 1: records are kept, 0: they are dropped\n"
	"  buffer_size_kb\t- each CPU's ring, in KiB; writing a size makes a new, empty one\n"
	"  buffer_total_size_kb\t- every CPU's rings together, in KiB\n"
	"  available_tracers\t- the tracers there are\n"
	"  current_tracer\t- the tracer at work; echo a name to choose another\n"
	"  trace_clock\t\t- the clocks there are, the one in use in brackets\n"
	"  available_filter_functions - the functions the function tracer can trace\n"
	"  enabled_functions\t- the functions whose call site calls now, and how many want it\n"
	"  set_ftrace_filter\t- the functions the function tracer traces (all, when empty)\n"
	"  \t\t\t  echo 'GLOB' or N (a line of available_filter_functions) to set,\n"
	"  \t\t\t  >> to add, '!GLOB' to drop; 'GLOB:mod:MODULE' for a module's,\n"
	"  \t\t\t  kept until the module loads; echo > set_ftrace_filter for all\n"
	"  set_ftrace_notrace\t- the functions it never traces, written as set_ftrace_filter\n"
	"  set_ftrace_pid\t- the threads it traces, by id (all, when empty: 'no pid')\n"
	"  \t\t\t  echo ID... to set, >> to add; echo > set_ftrace_pid for all\n"
	"  set_ftrace_notrace_pid - the threads it never traces, written as set_ftrace_pid\n"
	"  per_cpu/cpuN/\t\t- CPU N's own trace and trace_pipe, and stats: its counts\n"
	"  trace_options\t\t- the current tracer's options; echo NAME or noNAME to set or clear one\n"
	"  options/\t\t- every tracer's options, a file each, 1 or 0\n"
	"  set_graph_function\t- function_graph traces only the calls under these (all, when empty)\n"
	"  set_graph_notrace\t- and never the calls under these; both written as set_ftrace_filter\n"
	"  max_graph_depth\t- the deepest call function_graph records (0: any)\n"
	"  tracing_thresh\t- function_graph records only calls this long, in microseconds (0: all)\n"
	"  function_profile_enabled - echo 1 to count and time every traced function, 0 to stop\n"
	"  trace_stat/functionN\t- CPU N's counts and times, the longest first\n"
	"  stack_max_size\t- the deepest stack the stack tracer saw, in bytes (echo 0 to start over)\n"
	"  stack_trace\t\t- the chain of calls that reached it, a frame a line with its size\n"
	"  stack_trace_filter\t- the functions the stack tracer measures, written as set_ftrace_filter\n"
	"  \t\t\t  (echo 1 > /proc/sys/kernel/stack_tracer_enabled turns it on)\n"
	"  kprobe_events\t\t- define (>>) or remove kprobe events, a line each; read: the definitions\n"
	"  \t\t\t  > first removes every event (refused while one is enabled)\n"
	"  dynamic_events\t- the same lines\n"
	"  kprobe_profile\t- each kprobe event's hits and missed hits\n"
	"  error_log\t\t- why the last definitions were refused; echo > error_log empties it\n"
	"  events/\t\t- a directory per group of events, one per event: enable, format, id\n"
	"\n"
	"  A line of kprobe_events:\n"
	"\t   Format: p[:[<group>/][<event>]] <place> [<args>]\n"
	"\t           r[maxactive][:[<group>/][<event>]] <place> [<args>]\n"
	"\t           -:[<group>/]<event>\n"
	"\t    place: [<module>:]<symbol>[+<offset>]|<memaddr>\n"
	"place (kretprobe): [<module>:]<symbol>[+<offset>]%return|<memaddr>\n"
	"\t     args: <name>=fetcharg[:type]\n"
	"\t fetcharg: %<register>, @<address>, @<symbol>[+|-<offset>], $comm,\n"
	"\t           $stack<index>, $stack, $retval, $arg<N>,\n"
	"\t           +|-<offset>(<fetcharg>), \\imm-value, \\\"imm-string\"\n"
	"\t     type: s8/16/32/64, u8/16/32/64, x8/16/32/64, string, symbol, symstr,\n"
	"\t           b<bit-width>@<bit-offset>/<container-size>, <type>\\[<array-size>\\]\n"
	"\t           (no u fetches or ustring: ProbeOS has no user space)\n";

static ssize_t readme_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	return simple_read_from_buffer(buf, count, pos, readme, sizeof(readme) - 1);
}

static const struct file_operations readme_fops = {
	.read = readme_read,
};

static int tracefs_readme_init(void)
{
	return PTR_ERR_OR_ZERO(tracefs_create_file("README", 0444, NULL, NULL, &readme_fops));
}
late_initcall(tracefs_readme_init);
