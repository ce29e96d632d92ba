/* The function_graph tracer: see trace_graph.h.
 *
 * Recording. The graph service calls graph_entry at each traced call
 * (fgraph.h): unless set_graph_notrace, set_graph_function,
 * max_graph_depth, the pid lists or funcgraph-irqs leave the call out,
 * its return is hooked, and graph_return records it: its function,
 * depth and the times of its entry and return. The call's entry is
 * recorded only if it turns out to have a recorded call inside it: the
 * first such call's entry records the entries of the calls it is inside
 * that wait for one (GRAPH_PENDING), oldest first. So a leaf, the most
 * common call, costs one record, not two; its return record says it is
 * one (GRAPH_RET_LEAF). The records are words stored in place in the
 * ring, as the function tracer's are: nothing is looked up until
 * `trace` is read.
 *
 * Printing (graph_print_line). A call shows as Linux shows it: "func() {"
 * at its entry, "}" and the duration at its return, or "func();" with
 * its duration on one line for a leaf. The reader keeps each CPU's last
 * thread (a change prints Linux's banner), the function entered at each
 * depth (a return whose entry it never saw, lost or left out, names its
 * function, as Linux's does), and where an interrupt's calls begin (the
 * arrows around them). */
#include "kernel/cpu.h"
#include "kernel/nokprobe.h"
#include "kernel/arch.h"
#include "kernel/symtab.h"
#include "kernel/time.h"
#include "kernel/trace/fgraph.h"
#include "kernel/trace/ftrace_pid.h"
#include "kernel/trace/ftrace_profile.h"
#include "kernel/trace/graph_format.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/trace_comm.h"
#include "kernel/trace/trace_graph.h"
#include "kernel/trace/tracer.h"
#include "lib/format.h"
#include "lib/sorted.h"
#include "lib/string.h"

struct graph_entry_rec {
	uintptr_t func;
	uint64_t depth;
	uint64_t calltime;		/* arch_cycles() */
};

struct graph_return_rec {
	uintptr_t func;
	uint64_t depth;			/* and GRAPH_RET_LEAF */
	uint64_t calltime, rettime;	/* arch_cycles() */
};

/* A frame whose entry is not recorded yet: it waits for a recorded call
 * inside it, and is a leaf if none comes. */
#define GRAPH_PENDING FGRAPH_USER
/* In a return record's depth: the call's entry was never recorded, and
 * its line is a leaf's. */
#define GRAPH_RET_LEAF (1ull << 32)

/* The options (trace_options): the look of the lines, graph_format.h's
 * bits, and GRAPH_IRQS, whether calls in interrupt handlers are
 * recorded. Read without a lock: one word. The last two are the graph
 * service's and the profiler's, told of each change (graph_set_flag):
 * whether durations count time asleep, and whether the profiler's
 * count a function's callees. */
#define GRAPH_IRQS (1u << 16)
#define GRAPH_SLEEP_TIME (1u << 17)
#define GRAPH_GRAPH_TIME (1u << 18)
static unsigned int graph_flags = GRAPH_OPT_CPU | GRAPH_OPT_OVERHEAD | GRAPH_OPT_DURATION |
				  GRAPH_IRQS | GRAPH_SLEEP_TIME | GRAPH_GRAPH_TIME;

struct ftrace_ops graph_function_ops;
static unsigned int max_depth;
static uint64_t thresh_us, thresh_cycles;

static inline bool notrace set_has(struct ftrace_site_set *const *set, uintptr_t ip, bool *any)
{
	const struct ftrace_site_set *s = __atomic_load_n(set, __ATOMIC_ACQUIRE);

	*any = s != NULL;
	return s && sorted_have(s->ips, s->count, ip);
}

static void notrace record_entry(const struct fgraph_frame *f, unsigned int depth)
{
	struct trace_record rec;

	if (trace_begin(&rec, TRACE_TYPE_GRAPH_ENTRY, sizeof(struct graph_entry_rec))) {
		ring_put(&rec.body[0], f->func);	/* struct graph_entry_rec, */
		ring_put(&rec.body[1], depth);		/* stored in place */
		ring_put(&rec.body[2], f->calltime);
		trace_end(&rec);
	}
}
NOKPROBE_SYMBOL(record_entry);

/* A call is entered that will be recorded: the calls it is inside that
 * wait for their first recorded call have it now. */
static void notrace record_pending(const struct fgraph_ent *ent)
{
	unsigned int i = ent->depth;

	while (i > 0 && (ent->frames[i - 1].marks & GRAPH_PENDING))
		i--;
	for (; i < ent->depth; i++) {
		record_entry(&ent->frames[i], i);
		ent->frames[i].marks &= ~GRAPH_PENDING;
	}
}
NOKPROBE_SYMBOL(record_pending);

static int notrace graph_entry(const struct fgraph_ent *ent)
{
	unsigned int depth_limit = __atomic_load_n(&max_depth, __ATOMIC_RELAXED);
	bool any, root = false;

	if (ent->quiet || (depth_limit && ent->depth >= depth_limit))
		return -1;
	if (!(__atomic_load_n(&graph_flags, __ATOMIC_RELAXED) & GRAPH_IRQS) &&
	    this_cpu_field(irq_depth))
		return -1;
	if (ftrace_pid_filtering() && !ftrace_pid_traced())
		return -1;
	/* A set_graph_notrace call is hooked all the same, so that the
	 * calls under it know they are (ent->quiet), and never recorded. */
	if (set_has(&graph_function_ops.exclude, ent->func, &any))
		return FGRAPH_QUIET;
	root = set_has(&graph_function_ops.filter, ent->func, &any);
	if (any && !root && !ent->roots)
		return -1;
	/* With tracing_thresh, only returns are recorded. */
	if (__atomic_load_n(&thresh_cycles, __ATOMIC_RELAXED))
		return root ? FGRAPH_ROOT : 0;
	if (ent->depth && (ent->frames[ent->depth - 1].marks & GRAPH_PENDING))
		record_pending(ent);
	return (root ? FGRAPH_ROOT : 0) | GRAPH_PENDING;
}
NOKPROBE_SYMBOL(graph_entry);

static void notrace graph_return(const struct fgraph_ret *ret)
{
	struct trace_record rec;

	if (ret->marks & FGRAPH_QUIET)
		return;
	if (ret->rettime - ret->calltime < __atomic_load_n(&thresh_cycles, __ATOMIC_RELAXED))
		return;
	if (trace_begin(&rec, TRACE_TYPE_GRAPH_RETURN, sizeof(struct graph_return_rec))) {
		ring_put(&rec.body[0], ret->func);	/* struct graph_return_rec */
		ring_put(&rec.body[1], ret->depth | (ret->marks & GRAPH_PENDING ? GRAPH_RET_LEAF : 0));
		ring_put(&rec.body[2], ret->calltime);
		ring_put(&rec.body[3], ret->rettime);
		trace_end(&rec);
	}
}
NOKPROBE_SYMBOL(graph_return);

static struct fgraph_ops graph_ops = { .entryfunc = graph_entry, .retfunc = graph_return };

static int graph_start(void)
{
	return register_ftrace_graph(&graph_ops);
}

static void graph_stop(void)
{
	unregister_ftrace_graph(&graph_ops);
}

unsigned int graph_max_depth(void)
{
	return __atomic_load_n(&max_depth, __ATOMIC_RELAXED);
}

void graph_set_max_depth(unsigned int depth)
{
	__atomic_store_n(&max_depth, depth, __ATOMIC_RELAXED);
}

uint64_t tracing_thresh_us(void)
{
	return __atomic_load_n(&thresh_us, __ATOMIC_RELAXED);
}

void tracing_set_thresh_us(uint64_t us)
{
	/* In the counter's cycles, so that a return compares two counts. */
	uint64_t hz = arch_cycles_frequency();
	uint64_t cycles = us ? MAX(us * (hz / 1000000) + us * (hz % 1000000) / 1000000, 1) : 0;

	__atomic_store_n(&thresh_us, us, __ATOMIC_RELAXED);
	__atomic_store_n(&thresh_cycles, cycles, __ATOMIC_RELAXED);
}

/* A reader's view of each CPU's lines (struct trace_iter's data). */
struct graph_cpu_view {
	uint32_t last_pid;		/* the thread of its last line */
	bool seen;			/* whether it had a line yet */
	int irq_depth;			/* an interrupt's calls began at this depth; -1: none */
	unsigned int depth;		/* where a comment goes (graph_line's depth) */
	uintptr_t entered[FGRAPH_DEPTH];	/* the function last entered at each depth */
};

struct graph_view {
	struct graph_cpu_view cpu[MAX_CPUS];
};

/* What print_line needs of a record, its body checked. */
struct graph_rec {
	uint16_t type;
	struct trace_entry entry;
	uint64_t time;
	union {
		struct graph_entry_rec call;
		struct graph_return_rec ret;
	};
	bool whole;	/* the body was as long as its type's */
	bool leaf;	/* a return whose entry was never recorded */
};

static void copy_rec(struct graph_rec *r, const struct ring_entry *e)
{
	size_t body = e->len - sizeof(struct trace_entry);

	r->type = e->type;
	r->time = e->time;
	memcpy(&r->entry, e->data, sizeof(r->entry));
	r->whole = r->leaf = false;
	if (r->type == TRACE_TYPE_GRAPH_ENTRY && body >= sizeof(r->call)) {
		memcpy(&r->call, (const char *)e->data + sizeof(struct trace_entry), sizeof(r->call));
		r->whole = r->call.depth < FGRAPH_DEPTH;
	} else if (r->type == TRACE_TYPE_GRAPH_RETURN && body >= sizeof(r->ret)) {
		memcpy(&r->ret, (const char *)e->data + sizeof(struct trace_entry), sizeof(r->ret));
		r->leaf = r->ret.depth & GRAPH_RET_LEAF;
		r->ret.depth &= ~GRAPH_RET_LEAF;
		r->whole = r->ret.depth < FGRAPH_DEPTH;
	}
}

static uint64_t duration_ns(const struct graph_return_rec *ret)
{
	ktime_t start = ktime_from_cycles(ret->calltime), end = ktime_from_cycles(ret->rettime);

	return end > start ? (uint64_t)(end - start) : 0;
}

/* The line's common part: its CPU, thread and time. */
static struct graph_line line_of(const struct graph_rec *r, unsigned int cpu, char *comm)
{
	if (!trace_comm_find(r->entry.pid, comm))
		memcpy(comm, "<...>", sizeof("<...>"));
	return (struct graph_line){
		.cpu = cpu, .comm = comm, .pid = r->entry.pid,
		.time_ns = (uint64_t)ktime_from_cycles(r->time),
	};
}

/* The interrupt arrow before a line of an interrupt's call at depth,
 * if it is the first: its length. */
static size_t irq_entry_arrow(struct graph_cpu_view *v, struct graph_line gl, unsigned int depth,
			      bool in_irq, char *line, size_t size, unsigned int opts)
{
	if (!in_irq || v->irq_depth >= 0)
		return 0;
	v->irq_depth = (int)depth;
	gl.kind = GRAPH_LINE_IRQ_ENTRY;
	return graph_format_line(line, size, &gl, opts);
}

/* And the arrow after the last line of the interrupt's calls. */
static size_t irq_exit_arrow(struct graph_cpu_view *v, struct graph_line gl, unsigned int depth,
			     char *line, size_t size, unsigned int opts)
{
	if (v->irq_depth != (int)depth)
		return 0;
	v->irq_depth = -1;
	gl.kind = GRAPH_LINE_IRQ_EXIT;
	return graph_format_line(line, size, &gl, opts);
}

/* "func() {", after the arrow if it begins an interrupt's calls. */
static size_t print_entry(struct graph_cpu_view *v, struct graph_line *gl, uintptr_t func,
			  unsigned int depth, uint64_t calltime, bool in_irq, char *line,
			  size_t size, unsigned int opts)
{
	char name[96];
	size_t n = irq_entry_arrow(v, *gl, depth, in_irq, line, size, opts);

	sym_format_name(func, name, sizeof(name));
	gl->kind = GRAPH_LINE_ENTRY;
	gl->func = name;
	gl->depth = depth;
	gl->time_ns = (uint64_t)ktime_from_cycles(calltime);
	v->entered[depth] = func;
	v->depth = depth;
	return n + graph_format_line(line + n, size - n, gl, opts);
}

/* "}" with the duration, or "func();" for a leaf, between the arrows
 * if it is an interrupt's call. */
static size_t print_return(struct graph_cpu_view *v, struct graph_line *gl,
			   const struct graph_rec *r, bool in_irq, char *line, size_t size,
			   unsigned int opts)
{
	unsigned int depth = (unsigned int)r->ret.depth;
	char name[96];
	size_t n = r->leaf ? irq_entry_arrow(v, *gl, depth, in_irq, line, size, opts) : 0;

	sym_format_name(r->ret.func, name, sizeof(name));
	gl->kind = r->leaf ? GRAPH_LINE_LEAF : GRAPH_LINE_RETURN;
	gl->func = name;
	gl->depth = depth;
	gl->named = !r->leaf && v->entered[depth] != r->ret.func;
	gl->duration_ns = duration_ns(&r->ret);
	if (r->leaf)	/* the line is the call's: its time is the entry's */
		gl->time_ns = (uint64_t)ktime_from_cycles(r->ret.calltime);
	v->entered[depth] = 0;
	v->depth = depth ? depth - 1 : 0;
	n += graph_format_line(line + n, size - n, gl, opts);
	return n + irq_exit_arrow(v, *gl, depth, line + n, size - n, opts);
}

/* Any other record: its kind's text, as a C comment where the calls
 * are (as Linux shows an event amid the graph). */
static size_t print_other(const struct graph_cpu_view *v, struct graph_line *gl,
			  const struct ring_entry *e, char *line, size_t size, unsigned int opts)
{
	const struct trace_kind *kind = trace_kind_of(e->type);
	const char *body = (const char *)e->data + sizeof(struct trace_entry);
	char text[TRACE_LINE_MAX / 2];

	if (kind)
		kind->print(kind, text, sizeof(text), body, e->len - sizeof(struct trace_entry));
	else
		snprintf(text, sizeof(text), "type %u", e->type);
	gl->kind = GRAPH_LINE_COMMENT;
	gl->depth = v->depth;
	gl->comment = text;
	return graph_format_line(line, size, gl, opts);
}

static size_t graph_print_line(struct trace_iter *it, char *line, size_t size,
			       const struct ring_entry *e, unsigned int cpu)
{
	struct graph_cpu_view *v = &((struct graph_view *)it->data)->cpu[cpu];
	unsigned int opts = __atomic_load_n(&graph_flags, __ATOMIC_RELAXED);
	char comm[TRACE_COMM_LEN], prev[TRACE_COMM_LEN];
	struct graph_rec r;
	struct graph_line gl;
	size_t n = 0;
	bool in_irq;

	if (e->len < sizeof(struct trace_entry))
		return 0;
	copy_rec(&r, e);
	gl = line_of(&r, cpu, comm);
	in_irq = r.entry.flags & TRACE_FLAG_HARDIRQ;
	if (v->seen && v->last_pid != r.entry.pid) {
		if (!trace_comm_find(v->last_pid, prev))
			memcpy(prev, "<...>", sizeof("<...>"));
		n += graph_format_switch(line + n, size - n, cpu, prev, v->last_pid, comm,
					 r.entry.pid, opts);
	}
	if (!v->seen)
		v->irq_depth = -1;
	v->seen = true;
	v->last_pid = r.entry.pid;

	if (r.whole && r.type == TRACE_TYPE_GRAPH_ENTRY)
		return n + print_entry(v, &gl, r.call.func, (unsigned int)r.call.depth,
				       r.call.calltime, in_irq, line + n, size - n, opts);
	if (r.whole && r.type == TRACE_TYPE_GRAPH_RETURN)
		return n + print_return(v, &gl, &r, in_irq, line + n, size - n, opts);
	return n + print_other(v, &gl, e, line + n, size - n, opts);
}

static size_t graph_print_header(char *line, size_t size, unsigned int n)
{
	return graph_format_header(line, size, n, __atomic_load_n(&graph_flags, __ATOMIC_RELAXED));
}

/* In Linux's order (its funcgraph-overrun aside: no overrun is kept). */
static const struct tracer_opt graph_opts[] = {
	{ "funcgraph-cpu", GRAPH_OPT_CPU },
	{ "funcgraph-overhead", GRAPH_OPT_OVERHEAD },
	{ "funcgraph-proc", GRAPH_OPT_PROC },
	{ "funcgraph-duration", GRAPH_OPT_DURATION },
	{ "funcgraph-abstime", GRAPH_OPT_ABSTIME },
	{ "funcgraph-irqs", GRAPH_IRQS },
	{ "funcgraph-tail", GRAPH_OPT_TAIL },
	{ "sleep-time", GRAPH_SLEEP_TIME },
	{ "graph-time", GRAPH_GRAPH_TIME },
	{ NULL, 0 },
};

static void graph_set_flag(unsigned int bit, bool on)
{
	if (bit == GRAPH_SLEEP_TIME)
		fgraph_sleep_time_control(on);
	else if (bit == GRAPH_GRAPH_TIME)
		ftrace_profile_graph_time_control(on);
}

DEFINE_TRACER(graph_tracer) = {
	.name = "function_graph", .start = graph_start, .stop = graph_stop,
	.print_header = graph_print_header, .print_line = graph_print_line,
	.iter_size = sizeof(struct graph_view),
	.opts = graph_opts, .flags = &graph_flags, .set_flag = graph_set_flag,
};
