/* Histogram triggers (trace_events_hist.h): a hist trigger's table, fed
 * at each hit, and its text in the event's hist file, in Linux's
 * format (Documentation/trace/histogram.rst):
 *
 *   # event histogram
 *   #
 *   # trigger info: hist:keys=count.log2:vals=hitcount:sort=hitcount:size=2048 [active]
 *   #
 *
 *   { count: ~ 2^9  } hitcount:         12
 *
 *   Totals:
 *       Hits: 12
 *       Entries: 1
 *       Dropped: 0
 */
#include "kernel/trace/trace_events_hist.h"
#include "kernel/cpu.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/heap.h"
#include "kernel/rcu.h"
#include "kernel/symtab.h"
#include "kernel/trace/hist_map.h"
#include "kernel/trace/trace_error_log.h"
#include "kernel/trace/trace_events_internal.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

struct hist_trigger {
	struct hist_def def;
	/* The table: read at a hit with interrupts off (an RCU read-side
	 * section), replaced whole by clear under the events' mutex. */
	struct hist_map *map;
	bool paused;			/* read at a hit */
};

/* Keep Linux's error_log entry for a hist trigger of call refused. */
static void log_err(struct trace_event_call *call, const char *cmd, enum hist_error err,
		    size_t pos)
{
	char loc[8 + 2 * MAX_EVENT_NAME_LEN];

	snprintf(loc, sizeof(loc), "hist:%s:%s", call->system, call->name);
	tracing_log_err(loc, cmd, hist_error_text(err), (unsigned int)pos);
}

int hist_trigger_new(struct trace_event_call *call, const char *cmd, const char *param,
		     size_t len, struct hist_trigger **out)
{
	struct hist_trigger *h = kzalloc(sizeof(*h));
	enum hist_error err;
	size_t pos;
	int ret;

	if (!h)
		return -ENOMEM;
	ret = hist_parse(param, len, trace_event_field, call, &h->def, &err, &pos);
	if (ret) {
		log_err(call, cmd, err, (size_t)(param - cmd) + pos);
		kfree(h);
		return ret;
	}
	h->paused = h->def.pause;
	*out = h;
	return 0;
}

/* h's table, made the first time h is put on its event: a command
 * (pause, cont, clear) that finds its trigger needs none. */
int hist_trigger_start(struct hist_trigger *h)
{
	h->map = hist_map_new(&h->def, cpu_count());
	return h->map ? 0 : -ENOMEM;
}

void hist_trigger_free(struct hist_trigger *h)
{
	if (!h)
		return;
	hist_map_free(h->map);
	kfree(h);
}

bool hist_trigger_same(const struct hist_trigger *a, const struct hist_trigger *b)
{
	return hist_def_same(&a->def, &b->def);
}

bool hist_trigger_is_command(const struct hist_trigger *h)
{
	return h->def.pause || h->def.cont || h->def.clear;
}

bool hist_trigger_can_start(const struct hist_trigger *h)
{
	return !h->def.cont && !h->def.clear;
}

void hist_trigger_log_err(struct trace_event_call *call, const char *cmd, bool exists)
{
	log_err(call, cmd, exists ? HIST_ERR_TRIGGER_EEXIST : HIST_ERR_TRIGGER_ENOENT_CLEAR, 0);
}

int hist_trigger_apply(struct hist_trigger *existing, const struct hist_trigger *cmd)
{
	struct hist_map *map, *old;

	if (cmd->def.pause || cmd->def.cont) {
		__atomic_store_n(&existing->paused, cmd->def.pause, __ATOMIC_RELAXED);
		return 0;
	}
	/* clear: a new table in the old one's place, which goes once no
	 * hit can be adding to it. */
	map = hist_map_new(&existing->def, cpu_count());
	if (!map)
		return -ENOMEM;
	old = existing->map;
	__atomic_store_n(&existing->map, map, __ATOMIC_RELEASE);
	synchronize_rcu();
	hist_map_free(old);
	return 0;
}

void notrace hist_trigger_hit(struct hist_trigger *h, const struct filter_hit *hit)
{
	uint8_t key[HIST_KEYS_MAX * HIST_STRING_MAX];
	uint64_t vals[HIST_VALS_MAX];
	struct hist_map *map;

	if (__atomic_load_n(&h->paused, __ATOMIC_RELAXED))
		return;
	map = __atomic_load_n(&h->map, __ATOMIC_ACQUIRE);
	hist_pack_key(&h->def, hit, key);
	for (unsigned int i = 0; i < h->def.nr_vals; i++)
		vals[i] = hist_val_of(&h->def, i, hit);
	hist_map_add(map, hit->cpu, key, vals, hit->comm);
}

void hist_trigger_show_info(struct seq_file *m, const struct hist_trigger *h, const char *filter)
{
	char text[512];

	hist_def_show(&h->def, text, sizeof(text));
	seq_puts(m, text);
	if (filter)
		seq_printf(m, " if %s", filter);
	seq_puts(m, __atomic_load_n(&h->paused, __ATOMIC_RELAXED) ? " [paused]\n" : " [active]\n");
}

/* ---- The hist file ---- */

/* One key field of an entry, as Linux prints it. */
static void show_key(struct seq_file *m, const struct hist_field *k, const struct hist_entry *e)
{
	char sym[160];
	uint64_t v;

	if (k->field.kind == FILTER_FIELD_STRING) {
		seq_printf(m, "%s: %-50s", k->name, (const char *)e->key + k->offset);
		return;
	}
	memcpy(&v, e->key + k->offset, sizeof(v));
	switch (k->mod) {
	case HIST_MOD_HEX:
		seq_printf(m, "%s: %llx", k->name, (unsigned long long)v);
		break;
	case HIST_MOD_SYM:
		sym_format_name((uintptr_t)v, sym, sizeof(sym));
		seq_printf(m, "%s: [%llx] %-45s", k->name, (unsigned long long)v, sym);
		break;
	case HIST_MOD_SYM_OFFSET:
		sym_format((uintptr_t)v, sym, sizeof(sym));
		seq_printf(m, "%s: [%llx] %-55s", k->name, (unsigned long long)v, sym);
		break;
	case HIST_MOD_EXECNAME:
		seq_printf(m, "%s: %-16s[%10llu]", k->name, e->comm ? e->comm : "",
			   (unsigned long long)v);
		break;
	case HIST_MOD_LOG2:
		seq_printf(m, "%s: ~ 2^%-2llu", k->name, (unsigned long long)v);
		break;
	case HIST_MOD_BUCKETS:
		seq_printf(m, "%s: ~ %llu-%llu", k->name, (unsigned long long)v,
			   (unsigned long long)(v + k->buckets - 1));
		break;
	case HIST_MOD_NONE:
		seq_printf(m, "%s: %10llu", k->name, (unsigned long long)v);
		break;
	}
}

static void show_entry(struct seq_file *m, const struct hist_def *def, const struct hist_entry *e)
{
	seq_puts(m, "{ ");
	for (unsigned int i = 0; i < def->nr_keys; i++) {
		if (i)
			seq_puts(m, ", ");
		show_key(m, &def->keys[i], e);
	}
	seq_printf(m, " } hitcount: %10llu", (unsigned long long)e->sums[0]);
	for (unsigned int i = 0; i < def->nr_vals; i++)
		seq_printf(m, def->vals[i].mod == HIST_MOD_HEX ? "  %s: %10llx" : "  %s: %10llu",
			   def->vals[i].name, (unsigned long long)e->sums[1 + i]);
	seq_putc(m, '\n');
}

int hist_trigger_show_table(struct seq_file *m, const struct hist_trigger *h, const char *filter,
			    unsigned int n)
{
	struct hist_merged merged;
	int err;

	if (n)
		seq_puts(m, "\n\n");
	seq_puts(m, "# event histogram\n#\n# trigger info: ");
	hist_trigger_show_info(m, h, filter);
	seq_puts(m, "#\n\n");
	err = hist_map_merge(h->map, &h->def, &merged);
	if (err)
		return err;
	for (size_t i = 0; i < merged.n; i++)
		show_entry(m, &h->def, &merged.entries[i]);
	seq_printf(m, "\nTotals:\n    Hits: %llu\n    Entries: %zu\n    Dropped: %llu\n",
		   (unsigned long long)merged.hits, merged.n, (unsigned long long)merged.drops);
	kfree(merged.entries);
	return 0;
}
