/* The function_graph tracer's lines: see graph_format.h. Every width
 * and string here is Linux 6.1's, so that a script that reads Linux's
 * trace file reads ProbeOS's. */
#include "kernel/trace/graph_format.h"
#include "lib/format.h"
#include "lib/string.h"

/* Linux pads the CPU number to the digits of the highest possible one;
 * ProbeOS has at most 8 CPUs, so one digit. */
#define GRAPH_CPU_WIDTH 1

/* Linux centres "comm-pid" in this many columns. */
#define GRAPH_PROC_WIDTH 14

/* Linux keeps only this much of a thread's name in the TASK/PID column. */
#define GRAPH_COMM_MAX 7

/* Spaces per level of nesting. */
#define GRAPH_INDENT 2

/* The banner's rule above and below the threads. */
#define GRAPH_RULE " ------------------------------------------\n"

/* A line being written: text goes on at len, and whatever does not fit
 * in size bytes is dropped, as snprintf drops it, so that one check at
 * each write keeps the whole line inside buf. */
struct graph_out {
	char *buf;
	size_t size;
	size_t len;		/* bytes in buf, at most size - 1 */
};

static void out_init(struct graph_out *o, char *buf, size_t size)
{
	*o = (struct graph_out){ .buf = buf, .size = size };
	if (size)
		buf[0] = '\0';
}

static void __printf(2, 3) out_printf(struct graph_out *o, const char *fmt, ...)
{
	size_t room = o->size - o->len;
	va_list ap;
	int n;

	/* size 0: nothing may be written, not even the NUL. */
	if (!o->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, room, fmt, ap);
	va_end(ap);
	o->len += MIN((size_t)n, room - 1);
}

static void out_spaces(struct graph_out *o, unsigned int n)
{
	out_printf(o, "%*s", (int)n, "");
}

char graph_duration_mark(uint64_t ns)
{
	/* Largest first: a duration takes the mark of the first it is over. */
	static const struct {
		uint64_t over;
		char mark;
	} marks[] = {
		{ 1000000000, '$' }, { 100000000, '@' }, { 10000000, '*' },
		{ 1000000, '#' }, { 100000, '!' }, { 10000, '+' },
	};

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (ns > marks[i].over)
			return marks[i].mark;
	return ' ';
}

/* "comm-pid" centred in GRAPH_PROC_WIDTH columns, the odd space after;
 * wider when the pair does not fit, as on Linux. */
static void put_proc(struct graph_out *o, const char *comm, unsigned int pid)
{
	char pid_str[12];
	size_t len, spaces = 0;

	if (!comm)
		comm = "<...>";
	len = strnlen(comm, GRAPH_COMM_MAX) + 1 +
	      (size_t)snprintf(pid_str, sizeof(pid_str), "%u", pid);
	if (len < GRAPH_PROC_WIDTH)
		spaces = GRAPH_PROC_WIDTH - len;
	out_spaces(o, (unsigned int)(spaces / 2));
	out_printf(o, "%.*s-%s", GRAPH_COMM_MAX, comm, pid_str);
	out_spaces(o, (unsigned int)(spaces - spaces / 2));
}

static void put_cpu(struct graph_out *o, unsigned int cpu)
{
	/* The leading space is Linux's, to keep the column off the edge. */
	out_printf(o, " %*u) ", GRAPH_CPU_WIDTH, cpu);
}

/* The columns before the duration: TIME, CPU and TASK/PID, as set. */
static void put_context(struct graph_out *o, const struct graph_line *l, unsigned int opts)
{
	if (opts & GRAPH_OPT_ABSTIME)
		out_printf(o, "%5llu.%06llu |  ", (unsigned long long)(l->time_ns / 1000000000),
			   (unsigned long long)(l->time_ns % 1000000000 / 1000));
	if (opts & GRAPH_OPT_CPU)
		put_cpu(o, l->cpu);
	if (opts & GRAPH_OPT_PROC) {
		put_proc(o, l->comm, l->pid);
		out_printf(o, " | ");
	}
}

/* ns in microseconds: the whole part, then as many of the three decimals
 * as keep the number to 7 digits (none once the whole part has 7), then
 * " us " and spaces to take the number to 8 columns. */
static void put_micros(struct graph_out *o, uint64_t ns)
{
	char whole[24];
	int len = snprintf(whole, sizeof(whole), "%llu", (unsigned long long)(ns / 1000));

	out_printf(o, "%s", whole);
	if (len < 7) {
		int decimals = MIN(3, 7 - len);
		char frac[4];

		/* The first decimals, not a rounding: Linux cuts the string. */
		snprintf(frac, sizeof(frac), "%03u", (unsigned int)(ns % 1000));
		out_printf(o, ".%.*s", decimals, frac);
		len += 1 + decimals;
	}
	out_printf(o, " us ");
	if (len < 8)
		out_spaces(o, (unsigned int)(8 - len));
}

/* The DURATION column with a duration in it: the mark (or a space), the
 * time, and the bar. */
static void put_duration(struct graph_out *o, uint64_t ns, unsigned int opts)
{
	if (!(opts & GRAPH_OPT_DURATION))
		return;
	out_printf(o, "%c ", opts & GRAPH_OPT_OVERHEAD ? graph_duration_mark(ns) : ' ');
	put_micros(o, ns);
	out_printf(o, "|  ");
}

/* The DURATION column left empty, its bar where a duration's would be. */
static void put_no_duration(struct graph_out *o, unsigned int opts)
{
	if (opts & GRAPH_OPT_DURATION)
		out_printf(o, "%14s|  ", "");
}

/* An interrupt's arrow sits in the DURATION column itself, whose bar
 * follows it; without the column, the arrow alone. */
static void put_irq(struct graph_out *o, const char *arrow, unsigned int opts)
{
	if (opts & GRAPH_OPT_DURATION)
		out_printf(o, "  %s |\n", arrow);
	else
		out_printf(o, "%s\n", arrow);
}

static void put_return(struct graph_out *o, const struct graph_line *l, unsigned int opts)
{
	put_duration(o, l->duration_ns, opts);
	out_spaces(o, l->depth * GRAPH_INDENT);
	/* Linux names the function when its entry is not in the buffer, so
	 * that a lone "}" is not left for the reader to match. */
	if (l->func && ((opts & GRAPH_OPT_TAIL) || l->named))
		out_printf(o, "} /* %s */\n", l->func);
	else
		out_printf(o, "}\n");
}

static void put_comment(struct graph_out *o, const struct graph_line *l, unsigned int opts)
{
	const char *text = l->comment ? l->comment : "";
	size_t len = strlen(text);

	if (len && text[len - 1] == '\n')
		len--;
	put_no_duration(o, opts);
	if (l->depth > 0)
		out_spaces(o, (l->depth + 1) * GRAPH_INDENT);
	out_printf(o, "/* %.*s */\n", (int)len, text);
}

size_t graph_format_line(char *buf, size_t size, const struct graph_line *l, unsigned int opts)
{
	struct graph_out o;

	out_init(&o, buf, size);
	put_context(&o, l, opts);
	switch (l->kind) {
	case GRAPH_LINE_ENTRY:
		put_no_duration(&o, opts);
		out_spaces(&o, l->depth * GRAPH_INDENT);
		out_printf(&o, "%s() {\n", l->func);
		break;
	case GRAPH_LINE_LEAF:
		put_duration(&o, l->duration_ns, opts);
		out_spaces(&o, l->depth * GRAPH_INDENT);
		out_printf(&o, "%s();\n", l->func);
		break;
	case GRAPH_LINE_RETURN:
		put_return(&o, l, opts);
		break;
	case GRAPH_LINE_IRQ_ENTRY:
		put_irq(&o, "==========>", opts);
		break;
	case GRAPH_LINE_IRQ_EXIT:
		put_irq(&o, "<==========", opts);
		break;
	case GRAPH_LINE_COMMENT:
		put_comment(&o, l, opts);
		break;
	}
	return o.len;
}

size_t graph_format_switch(char *buf, size_t size, unsigned int cpu, const char *prev_comm,
			   unsigned int prev_pid, const char *next_comm, unsigned int next_pid,
			   unsigned int opts)
{
	struct graph_out o;

	(void)opts;
	out_init(&o, buf, size);
	out_printf(&o, GRAPH_RULE);
	put_cpu(&o, cpu);
	put_proc(&o, prev_comm, prev_pid);
	out_printf(&o, " => ");
	put_proc(&o, next_comm, next_pid);
	out_printf(&o, "\n" GRAPH_RULE "\n");
	return o.len;
}

size_t graph_format_header(char *buf, size_t size, unsigned int n, unsigned int opts)
{
	/* Each column's title, and its line of bars below, in the order
	 * the columns come; the function column is always there. */
	static const struct {
		unsigned int opt;
		const char *title, *bars;
	} columns[] = {
		{ GRAPH_OPT_ABSTIME, "     TIME       ", "      |         " },
		{ GRAPH_OPT_CPU, " CPU", " |  " },
		{ GRAPH_OPT_PROC, "  TASK/PID       ", "   |    |        " },
		{ GRAPH_OPT_DURATION, "  DURATION   ", "   |   |      " },
		{ 0, "               FUNCTION CALLS", "               |   |   |   |" },
	};
	struct graph_out o;

	out_init(&o, buf, size);
	if (n > 1)
		return 0;
	out_printf(&o, "#");
	for (size_t i = 0; i < ARRAY_SIZE(columns); i++)
		if (!columns[i].opt || (opts & columns[i].opt))
			out_printf(&o, "%s", n == 0 ? columns[i].title : columns[i].bars);
	out_printf(&o, "\n");
	return o.len;
}

size_t graph_format_profile_header(char *buf, size_t size)
{
	struct graph_out o;

	out_init(&o, buf, size);
	out_printf(&o, "  %-39s%-7s%-16s%-16s%s\n", "Function", "Hit", "Time", "Avg", "s^2");
	out_printf(&o, "  %-39s%-7s%-16s%-16s%s\n", "--------", "---", "----", "---", "---");
	return o.len;
}

size_t graph_format_profile_line(char *buf, size_t size, const char *func, unsigned long hits,
				 uint64_t time_ns, uint64_t avg_ns, uint64_t variance_ns2)
{
	struct graph_out o;

	out_init(&o, buf, size);
	out_printf(&o, "  %-30.30s  %10lu    ", func, hits);
	put_micros(&o, time_ns);
	out_printf(&o, "    ");
	put_micros(&o, avg_ns);
	out_printf(&o, "    ");
	/* ns² in µs²: put_micros divides by 1000 once more. */
	put_micros(&o, variance_ns2 / 1000);
	out_printf(&o, "\n");
	return o.len;
}

uint64_t graph_profile_variance(uint64_t n, uint64_t sum, uint64_t sum_sq)
{
	uint64_t mean, square_over_n;

	if (n < 2)
		return 0;
	/* sum^2 / n as (sum / n) * sum plus the rest's share: exact to
	 * within one, with no sum^2 to overflow. */
	mean = sum / n;
	if (__builtin_mul_overflow(mean, sum, &square_over_n))
		return UINT64_MAX;
	square_over_n += (sum % n) * (sum / n) + (sum % n) * (sum % n) / n;
	return sum_sq > square_over_n ? (sum_sq - square_over_n) / (n - 1) : 0;
}
