/* A record as a line of Linux's `trace` and `trace_pipe` (see trace.h):
 * the common columns, then the body as its kind prints it; and the
 * handing out of lines that both files' reads share. */
#include "kernel/time.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/trace_comm.h"
#include "lib/format.h"
#include "lib/string.h"

size_t trace_format_record(char *line, size_t size, const struct ring_entry *e, unsigned int cpu)
{
	const struct trace_entry *t = (const void *)e->data;
	const struct trace_kind *kind = trace_kind_of(e->type);
	uint64_t ns = (uint64_t)ktime_from_cycles(e->time);
	char comm[TRACE_COMM_LEN];
	char flags[6] = {
		t->flags & TRACE_FLAG_IRQS_OFF ? 'd' : '.', '.',
		t->flags & TRACE_FLAG_HARDIRQ ? 'h' : '.',
		t->preempt_count ? "0123456789abcdef"[t->preempt_count] : '.', '.', '\0',
	};
	size_t n;

	if (!trace_comm_find(t->pid, comm))
		memcpy(comm, "<...>", sizeof("<...>"));
	n = (size_t)snprintf(line, size, "%16.16s-%-7u [%03u] %s %5llu.%06llu: ",
				    comm, t->pid, cpu, flags,
				    (unsigned long long)(ns / 1000000000),
				    (unsigned long long)(ns / 1000 % 1000000));

	n = MIN(n, size - 2);
	if (kind)
		n += (size_t)kind->print(kind, line + n, size - n, t + 1, e->len - sizeof(*t));
	else
		n += (size_t)snprintf(line + n, size - n, "type %u", e->type);
	n = MIN(n, size - 2);
	line[n++] = '\n';
	line[n] = '\0';
	return n;
}

size_t trace_line_copy(struct trace_line *l, char *buf, size_t count, bool (*next)(void *arg),
		       void *arg)
{
	size_t done = 0;

	while (done < count) {
		size_t n;

		if (l->off == l->len) {
			if (!next(arg))
				break;
			l->off = 0;
		}
		n = MIN(count - done, l->len - l->off);
		memcpy(buf + done, l->text + l->off, n);
		l->off += n;
		done += n;
	}
	return done;
}
