/* The function_graph tracer: see trace_graph.h.
 *
 * Recording. The graph service calls graph_entry at each traced call
 * (fgraph.h): the call is recorded (a record of its function and depth)
 * unless set_graph_notrace, set_graph_function, max_graph_depth, the
 * pid lists or funcgraph-irqs leave it out, and its return is hooked.
 * graph_return records the return with the times of the entry and the
 * return. The records are words stored in place in the ring, as the
 * function tracer's are: nothing is looked up until `trace` is read.
 *
 * Printing (graph_print_line). A call shows as Linux shows it: "func() {"
 * at its entry, "}" and the duration at its return, or "func();" with
 * its duration on one line when the next record of the same CPU is its
 * return (a leaf: the printer looks ahead in the ring). The reader keeps
 * each CPU's last thread (a change prints Linux's banner), the function
 * entered at each depth (a return whose entry it never saw, lost or
 * left out, names its function, as Linux's does), and where an
 * interrupt's calls begin (the arrows around them). */
#include "kernel/cpu.h"
#include "kernel/nokprobe.h"
#include "kernel/arch.h"
#include "kernel/symtab.h"
#include "kernel/time.h"
#include "kernel/trace/fgraph.h"
#include "kernel/trace/ftrace_pid.h"
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
};

struct graph_return_rec {
	uintptr_t func;
	uint64_t depth;
	uint64_t calltime, rettime;	/* arch_cycles() */
};

/* The options (trace_options): the look of the lines, graph_format.h's
 * bits, and GRAPH_IRQS, whether calls in interrupt handlers are
 * recorded. Read without a lock: one word. */
#define GRAPH_IRQS (1u << 16)
static unsigned int graph_flags = GRAPH_OPT_CPU | GRAPH_OPT_OVERHEAD | GRAPH_OPT_DURATION |
				  GRAPH_IRQS;

struct ftrace_ops graph_function_ops;
static unsigned int max_depth;
static uint64_t thresh_us, thresh_cycles;

static inline bool notrace set_has(struct ftrace_site_set *const *set, uintptr_t ip, bool *any)
{
	const struct ftrace_site_set *s = __atomic_load_n(set, __ATOMIC_ACQUIRE);

	*any = s != NULL;
	return s && sorted_have(s->ips, s->count, ip);
}

static int notrace graph_entry(const struct fgraph_ent *ent)
{
	unsigned int depth_limit = __atomic_load_n(&max_depth, __ATOMIC_RELAXED);
	bool any, root = false;
	struct trace_record rec;

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
	if (!__atomic_load_n(&thresh_cycles, __ATOMIC_RELAXED) &&
	    trace_begin(&rec, TRACE_TYPE_GRAPH_ENTRY, sizeof(struct graph_entry_rec))) {
		ring_put(&rec.body[0], ent->func);
		ring_put(&rec.body[1], ent->depth);
		trace_end(&rec);
	}
	return root ? FGRAPH_ROOT : 0;
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
		ring_put(&rec.body[0], ret->func);
		ring_put(&rec.body[1], ret->depth);
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

/* What print_line needs of a record, copied out before it looks ahead
 * (which may overwrite the record). */
struct graph_rec {
	uint16_t type;
	struct trace_entry entry;
	uint64_t time;
	union {
		struct graph_entry_rec call;
		struct graph_return_rec ret;
	};
	bool whole;	/* the body was as long as its type's */
};

static void copy_rec(struct graph_rec *r, const struct ring_entry *e)
{
	size_t body = e->len - sizeof(struct trace_entry);

	r->type = e->type;
	r->time = e->time;
	memcpy(&r->entry, e->data, sizeof(r->entry));
	r->whole = false;
	if (r->type == TRACE_TYPE_GRAPH_ENTRY && body >= sizeof(r->call)) {
		memcpy(&r->call, (const char *)e->data + sizeof(struct trace_entry), sizeof(r->call));
		r->whole = r->call.depth < FGRAPH_DEPTH;
	} else if (r->type == TRACE_TYPE_GRAPH_RETURN && body >= sizeof(r->ret)) {
		memcpy(&r->ret, (const char *)e->data + sizeof(struct trace_entry), sizeof(r->ret));
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

/* Does the next record of cpu return from r's call, with nothing in
 * between? Then r is a leaf, and *ret its return. */
static bool leaf_return(struct trace_iter *it, unsigned int cpu, const struct graph_rec *r,
			struct graph_rec *ret)
{
	const struct ring_entry *next = trace_iter_peek(it, cpu);

	if (!next || next->type != TRACE_TYPE_GRAPH_RETURN || next->len < sizeof(struct trace_entry))
		return false;
	copy_rec(ret, next);
	return ret->whole && ret->entry.pid == r->entry.pid && ret->ret.func == r->call.func &&
	       ret->ret.depth == r->call.depth;
}

static size_t graph_print_line(struct trace_iter *it, char *line, size_t size,
			       const struct ring_entry *e, unsigned int cpu)
{
	struct graph_cpu_view *v = &((struct graph_view *)it->data)->cpu[cpu];
	unsigned int opts = __atomic_load_n(&graph_flags, __ATOMIC_RELAXED);
	char comm[TRACE_COMM_LEN], prev[TRACE_COMM_LEN], func[96], text[TRACE_LINE_MAX / 2];
	struct graph_rec r, ret;
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

	if (r.whole && r.type == TRACE_TYPE_GRAPH_ENTRY) {
		unsigned int depth = (unsigned int)r.call.depth;

		if (in_irq && v->irq_depth < 0) {
			gl.kind = GRAPH_LINE_IRQ_ENTRY;
			gl.depth = depth;
			n += graph_format_line(line + n, size - n, &gl, opts);
			v->irq_depth = (int)depth;
		}
		sym_format_name(r.call.func, func, sizeof(func));
		gl.func = func;
		gl.depth = depth;
		if (leaf_return(it, cpu, &r, &ret)) {
			trace_iter_take(it, cpu);
			gl.kind = GRAPH_LINE_LEAF;
			gl.duration_ns = duration_ns(&ret.ret);
			v->depth = depth ? depth - 1 : 0;
		} else {
			gl.kind = GRAPH_LINE_ENTRY;
			v->entered[depth] = r.call.func;
			v->depth = depth;
		}
		n += graph_format_line(line + n, size - n, &gl, opts);
		if (gl.kind == GRAPH_LINE_LEAF && v->irq_depth == (int)depth) {
			gl.kind = GRAPH_LINE_IRQ_EXIT;
			n += graph_format_line(line + n, size - n, &gl, opts);
			v->irq_depth = -1;
		}
		return n;
	}
	if (r.whole && r.type == TRACE_TYPE_GRAPH_RETURN) {
		unsigned int depth = (unsigned int)r.ret.depth;

		sym_format_name(r.ret.func, func, sizeof(func));
		gl.kind = GRAPH_LINE_RETURN;
		gl.func = func;
		gl.depth = depth;
		gl.named = v->entered[depth] != r.ret.func;
		gl.duration_ns = duration_ns(&r.ret);
		v->entered[depth] = 0;
		v->depth = depth ? depth - 1 : 0;
		n += graph_format_line(line + n, size - n, &gl, opts);
		if (v->irq_depth == (int)depth) {
			gl.kind = GRAPH_LINE_IRQ_EXIT;
			n += graph_format_line(line + n, size - n, &gl, opts);
			v->irq_depth = -1;
		}
		return n;
	}
	/* Any other record: its kind's text, as a C comment where the
	 * calls are (as Linux shows an event amid the graph). */
	{
		const struct trace_kind *kind = trace_kind_of(e->type);
		size_t body = e->len - sizeof(struct trace_entry);

		if (kind)
			kind->print(text, sizeof(text), (const char *)e->data + sizeof(struct trace_entry), body);
		else
			snprintf(text, sizeof(text), "type %u", e->type);
		gl.kind = GRAPH_LINE_COMMENT;
		gl.depth = v->depth;
		gl.comment = text;
		return n + graph_format_line(line + n, size - n, &gl, opts);
	}
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
	{ NULL, 0 },
};

DEFINE_TRACER(graph_tracer) = {
	.name = "function_graph", .start = graph_start, .stop = graph_stop,
	.print_header = graph_print_header, .print_line = graph_print_line,
	.iter_size = sizeof(struct graph_view),
	.opts = graph_opts, .flags = &graph_flags,
};
