/* Kprobe events' records as text (trace_kprobe.h): the line of `trace`,
 * and the format file, both as Linux writes them.
 *
 * A record's body is its head (the probed address; or the function and
 * the caller it returns to), then each argument's field at its offset,
 * then the strings the __data_loc fields point at. The format file says
 * where each field is counted from the start of the record, whose first
 * 8 bytes are the common fields (struct trace_entry). */
#include "kernel/trace/trace_kprobe.h"
#include "kernel/fs/seq_file.h"
#include "kernel/symtab.h"
#include "lib/format.h"
#include "lib/string.h"

/* One argument's value, or its elements "{a,b,c}" for an array. */
static int print_arg(const struct probe_arg *arg, char *line, size_t size, const uint8_t *fields,
		     const uint8_t *body, size_t len)
{
	unsigned int count = arg->count ? arg->count : 1;
	size_t n = 0;

#define AT(n) ((n) < size ? (n) : size)
	if (arg->count)
		n += (size_t)snprintf(line + AT(n), size - AT(n), "{");
	for (unsigned int i = 0; i < count; i++) {
		if (i)
			n += (size_t)snprintf(line + AT(n), size - AT(n), ",");
		n += (size_t)arg->type->print(line + AT(n), size - AT(n),
					      fields + arg->offset + i * arg->type->size, body, len);
	}
	if (arg->count)
		n += (size_t)snprintf(line + AT(n), size - AT(n), "}");
#undef AT
	return (int)n;
}

int trace_kprobe_print(const struct trace_event_call *call, char *line, size_t size,
		       const void *body, size_t len)
{
	const struct trace_kprobe *tk = container_of(call, struct trace_kprobe, call);
	size_t head_len = trace_kprobe_head_size(tk), n;
	char where[160], func[128];

	if (len < head_len + tk->def.size)
		return snprintf(line, size, "(record of %zu bytes, too short)", len);
	if (tk->def.is_return) {
		const struct kretprobe_event_head *h = body;

		sym_format((uintptr_t)h->ret_ip, where, sizeof(where));
		sym_format_name((uintptr_t)h->func, func, sizeof(func));
		n = (size_t)snprintf(line, size, "(%s <- %s)", where, func);
	} else {
		const struct kprobe_event_head *h = body;

		sym_format((uintptr_t)h->ip, where, sizeof(where));
		n = (size_t)snprintf(line, size, "(%s)", where);
	}
	for (int i = 0; i < tk->def.nr_args; i++) {
		const struct probe_arg *arg = &tk->args[i];

		n += (size_t)snprintf(line + MIN(n, size), size - MIN(n, size), " %s=", arg->name);
		n += (size_t)print_arg(arg, line + MIN(n, size), size - MIN(n, size),
				       (const uint8_t *)body + head_len, body, len);
	}
	return (int)n;
}

/* The record's own fields start after the common ones. */
#define BODY_OFFSET 8

static void show_field(struct seq_file *m, const char *type, const char *name, unsigned int count,
		       size_t offset, size_t size, bool is_signed)
{
	seq_printf(m, "\tfield:%s %s", type, name);
	if (count)
		seq_printf(m, "[%u]", count);
	seq_printf(m, ";\toffset:%zu;\tsize:%zu;\tsigned:%d;\n", offset, size, is_signed ? 1 : 0);
}

void trace_kprobe_show_format(const struct trace_event_call *call, struct seq_file *m)
{
	const struct trace_kprobe *tk = container_of(call, struct trace_kprobe, call);
	size_t args_at = BODY_OFFSET + trace_kprobe_head_size(tk);

	if (tk->def.is_return) {
		show_field(m, "unsigned long", "__probe_func", 0, BODY_OFFSET, 8, false);
		show_field(m, "unsigned long", "__probe_ret_ip", 0, BODY_OFFSET + 8, 8, false);
	} else {
		show_field(m, "unsigned long", "__probe_ip", 0, BODY_OFFSET, 8, false);
	}
	for (int i = 0; i < tk->def.nr_args; i++) {
		const struct probe_arg *a = &tk->args[i];

		show_field(m, a->type->fmttype, a->name, a->count, args_at + a->offset,
			   (size_t)a->type->size * (a->count ? a->count : 1),
			   a->type->is_signed || a->type->is_string);
	}
	seq_printf(m, "\nprint fmt: \"%s", tk->def.is_return ? "(%lx <- %lx)" : "(%lx)");
	for (int i = 0; i < tk->def.nr_args; i++) {
		const struct probe_arg *a = &tk->args[i];

		seq_printf(m, " %s=", a->name);
		if (a->count)
			seq_putc(m, '{');
		for (unsigned int j = 0; j < (a->count ? a->count : 1u); j++)
			seq_printf(m, "%s%s", j ? "," : "", a->type->fmt);
		if (a->count)
			seq_putc(m, '}');
	}
	seq_puts(m, tk->def.is_return ? "\", REC->__probe_func, REC->__probe_ret_ip"
				      : "\", REC->__probe_ip");
	for (int i = 0; i < tk->def.nr_args; i++) {
		const struct probe_arg *a = &tk->args[i];
		const char *fmt = a->type->is_string ? ", __get_str(%s" : ", REC->%s";

		for (unsigned int j = 0; j < (a->count ? a->count : 1u); j++) {
			seq_printf(m, fmt, a->name);
			if (a->count)
				seq_printf(m, "[%u]", j);
			if (a->type->is_string)
				seq_putc(m, ')');
		}
	}
	seq_putc(m, '\n');
}

bool trace_kprobe_field(const struct trace_event_call *call, const char *name, size_t len,
			struct filter_field *f)
{
	const struct trace_kprobe *tk = container_of(call, struct trace_kprobe, call);
	size_t args_at = trace_kprobe_head_size(tk);
	static const char *const heads[2][2] = { { "__probe_ip", NULL },
						 { "__probe_func", "__probe_ret_ip" } };

	for (int i = 0; i < 2; i++) {
		const char *head = heads[tk->def.is_return][i];

		if (head && strlen(head) == len && !strncmp(head, name, len)) {
			*f = (struct filter_field){ .kind = FILTER_FIELD_NUMBER,
						    .offset = (uint16_t)(8 * i), .size = 8 };
			return true;
		}
	}
	for (int i = 0; i < tk->def.nr_args; i++) {
		const struct probe_arg *a = &tk->args[i];

		/* An array is no one value to compare. */
		if (strlen(a->name) != len || strncmp(a->name, name, len) || a->count)
			continue;
		*f = (struct filter_field){
			.kind = a->type->is_string ? FILTER_FIELD_STRING : FILTER_FIELD_NUMBER,
			.offset = (uint16_t)(args_at + a->offset), .size = a->type->size,
			.is_signed = a->type->is_signed,
		};
		return true;
	}
	return false;
}
