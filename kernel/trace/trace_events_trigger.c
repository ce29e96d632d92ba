/* Events' triggers (event_trigger.h): the trigger file of each event,
 * and what a hit runs.
 *
 * An event's triggers are an array (struct event_triggers) that a hit
 * reads with interrupts off, as it reads the event's filter: a change
 * makes a new array under the events' mutex, puts it in place and frees
 * the old one a grace period later. A trigger's count goes down at each
 * firing with a compare-and-swap, so two CPUs never fire its last one
 * both. */
#include "kernel/trace/event_trigger.h"
#include "kernel/backtrace.h"
#include "kernel/cpu.h"
#include "kernel/fs/libfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/heap.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/trace_error_log.h"
#include "kernel/trace/trace_events_hist.h"
#include "kernel/trace/trace_events_internal.h"
#include "kernel/trace/trace_stacktrace.h"
#include "lib/errno.h"
#include "lib/string.h"

struct event_trigger {
	enum trigger_cmd cmd;
	long count;			/* firings left; -1: unlimited */
	struct trace_event_call *target;	/* enable_event's, disable_event's */
	struct event_filter *filter;	/* or NULL */
	char *filter_text;
	struct hist_trigger *hist;	/* hist's */
};

struct event_triggers {
	unsigned int n;
	struct event_trigger *t[];
};

/* ---- At a hit ---- */

/* Take one firing of t's count: false if none is left. */
static bool notrace take_firing(struct event_trigger *t)
{
	long left = __atomic_load_n(&t->count, __ATOMIC_RELAXED);

	do {
		if (left == -1)
			return true;
		if (left == 0)
			return false;
	} while (!__atomic_compare_exchange_n(&t->count, &left, left - 1, false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

void notrace trace_event_fire_triggers(const struct event_triggers *tr, const void *body,
				       size_t len)
{
	struct filter_hit hit;

	trace_event_hit_of(&hit, body, len);
	for (unsigned int i = 0; i < tr->n; i++) {
		struct event_trigger *t = tr->t[i];

		if ((t->filter && !event_filter_match(t->filter, &hit)) || !take_firing(t))
			continue;
		switch (t->cmd) {
		case TRIGGER_TRACEON:
		case TRIGGER_TRACEOFF:
			trace_set_on_anywhere(t->cmd == TRIGGER_TRACEON);
			break;
		case TRIGGER_STACKTRACE:
			trace_record_stack((uintptr_t)__builtin_frame_address(0));
			break;
		case TRIGGER_ENABLE_EVENT:
		case TRIGGER_DISABLE_EVENT:
			__atomic_store_n(&t->target->soft_disabled, t->cmd == TRIGGER_DISABLE_EVENT,
					 __ATOMIC_RELAXED);
			break;
		case TRIGGER_HIST:
			hist_trigger_hit(t->hist, &hit);
			break;
		}
	}
}

/* ---- Changing them ---- */

static void free_trigger(struct event_trigger *t)
{
	event_filter_free(t->filter);
	kfree(t->filter_text);
	hist_trigger_free(t->hist);
	kfree(t);
}

/* call's triggers with t added (t non-NULL) or the one at index drop
 * taken out, in place of the old ones, which go a grace period later.
 * Under the mutex. 0 or -ENOMEM. */
static int replace_triggers(struct trace_event_call *call, struct event_trigger *t, int drop)
{
	struct event_triggers *old = call->triggers, *tr;
	unsigned int n = old ? old->n : 0, k = 0;

	tr = kmalloc(sizeof(*tr) + (n + 1) * sizeof(tr->t[0]));
	if (!tr)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++)
		if ((int)i != drop)
			tr->t[k++] = old->t[i];
	if (t)
		tr->t[k++] = t;
	tr->n = k;
	__atomic_store_n(&call->triggers, k ? tr : NULL, __ATOMIC_RELEASE);
	if (!k)
		kfree(tr);
	if (old) {
		synchronize_rcu();	/* no hit reads the old array */
		kfree(old);
	}
	return 0;
}

/* Whether a and b have the same filter, or none. */
static bool same_text(const struct event_trigger *a, const struct event_trigger *b)
{
	if (!a->filter_text || !b->filter_text)
		return a->filter_text == b->filter_text;
	return !strcmp(a->filter_text, b->filter_text);
}

/* The trigger of call that want names: the same command and target,
 * and for a hist the same table and filter (as Linux matches them). */
static int find_trigger(const struct trace_event_call *call, const struct event_trigger *want)
{
	const struct event_triggers *tr = call->triggers;

	for (unsigned int i = 0; tr && i < tr->n; i++) {
		const struct event_trigger *t = tr->t[i];

		if (t->cmd != want->cmd || t->target != want->target)
			continue;
		if (t->hist && (!hist_trigger_same(t->hist, want->hist) || !same_text(t, want)))
			continue;
		return (int)i;
	}
	return -1;
}

/* The trigger spec says, for call: its filter compiled and a hist's
 * attributes read (their refusals logged), into *out. cmd is the text
 * written, for the log. A removal's filter is compiled only for a hist,
 * the one trigger it tells apart from another (as Linux removes them:
 * `!traceon if anything` drops the traceon). Under the mutex. */
static int make_trigger(struct trace_event_call *call, const struct trigger_spec *spec,
			struct trace_event_call *target, const char *cmd, struct event_trigger **out)
{
	struct event_trigger *t = kzalloc(sizeof(*t));
	enum filter_error ferr;
	size_t pos;
	int err = 0;

	if (!t)
		return -ENOMEM;
	*t = (struct event_trigger){ .cmd = spec->cmd, .count = spec->count, .target = target };
	if (spec->cmd == TRIGGER_HIST)
		err = hist_trigger_new(call, cmd, spec->param, spec->param_len, &t->hist);
	if (!err && spec->filter && (!spec->remove || spec->cmd == TRIGGER_HIST)) {
		err = event_filter_parse(spec->filter, trace_event_field, call, &t->filter, &ferr,
					 &pos);
		if (err == -EINVAL)
			tracing_log_err("event filter parse error", spec->filter,
					filter_error_text(ferr), (unsigned int)pos);
		t->filter_text = err ? NULL : kmalloc(strlen(spec->filter) + 1);
		if (!err && !t->filter_text)
			err = -ENOMEM;
		if (!err)
			memcpy(t->filter_text, spec->filter, strlen(spec->filter) + 1);
	}
	if (err) {
		free_trigger(t);
		return err;
	}
	*out = t;
	return 0;
}

/* Drop the events t arms: its own, and the one it names. */
static void put_armed(struct trace_event_call *call, const struct event_trigger *t)
{
	if (t->target)
		trace_event_soft_put_locked(t->target);
	trace_event_soft_put_locked(call);
}

static int remove_trigger(struct trace_event_call *call, struct event_trigger *want)
{
	int at = find_trigger(call, want), err;
	struct event_trigger *t;

	free_trigger(want);
	if (at < 0)
		return -ENOENT;
	t = call->triggers->t[at];
	err = replace_triggers(call, NULL, at);
	if (err)
		return err;
	put_armed(call, t);
	free_trigger(t);
	return 0;
}

/* A hist written with pause, cont or clear acts on the trigger like it;
 * with none, only clear and cont are refused. Whether t was such a
 * command (and *err what it did). */
static bool hist_command(struct trace_event_call *call, struct event_trigger *t, int at,
			 const char *cmd, int *err)
{
	if (!hist_trigger_is_command(t->hist) || (at < 0 && hist_trigger_can_start(t->hist)))
		return false;
	if (at >= 0) {
		*err = hist_trigger_apply(call->triggers->t[at]->hist, t->hist);
	} else {
		hist_trigger_log_err(call, cmd, false);
		*err = -ENOENT;
	}
	free_trigger(t);
	return true;
}

/* Put t on call (or free it): its own event and the one it names are
 * armed while it is there, as Linux's triggers arm them. */
static int add_trigger(struct trace_event_call *call, struct event_trigger *t, const char *cmd)
{
	int at = find_trigger(call, t), err = 0;

	if (t->hist && hist_command(call, t, at, cmd, &err))
		return err;
	if (at >= 0) {
		if (t->hist)
			hist_trigger_log_err(call, cmd, true);
		free_trigger(t);
		return -EEXIST;
	}
	if (t->hist)
		err = hist_trigger_start(t->hist);
	if (!err)
		err = trace_event_soft_get_locked(call);
	if (!err && t->target) {
		err = trace_event_soft_get_locked(t->target);
		if (err)
			trace_event_soft_put_locked(call);
	}
	if (err) {
		free_trigger(t);
		return err;
	}
	err = replace_triggers(call, t, -1);
	if (err) {
		put_armed(call, t);
		free_trigger(t);
	}
	return err;
}

/* ---- The file ---- */

static int trigger_show(struct seq_file *m, void *v)
{
	const struct trace_event_call *call = m->private;
	const struct event_triggers *tr;

	(void)v;
	trace_events_mutex_lock();
	tr = call->triggers;
	if (!tr)
		seq_puts(m, "# Available triggers:\n"
			    "# traceon traceoff stacktrace enable_event disable_event hist\n");
	for (unsigned int i = 0; tr && i < tr->n; i++) {
		const struct event_trigger *t = tr->t[i];
		long left = __atomic_load_n(&t->count, __ATOMIC_RELAXED);

		if (t->hist) {
			hist_trigger_show_info(m, t->hist, t->filter_text);
			continue;
		}
		seq_puts(m, trigger_cmd_name(t->cmd));
		if (t->target)
			seq_printf(m, ":%s:%s", t->target->system, t->target->name);
		if (left == -1)
			seq_puts(m, ":unlimited");
		else
			seq_printf(m, ":count=%ld", left);
		if (t->filter_text)
			seq_printf(m, " if %s", t->filter_text);
		seq_putc(m, '\n');
	}
	trace_events_mutex_unlock();
	return 0;
}

static int trigger_open(struct inode *inode, struct file *file)
{
	return single_open_if_reader(file, trigger_show, inode->i_private);
}

/* One trigger a write: added, or removed with a '!'. */
static ssize_t trigger_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct trace_event_call *call = file->inode->i_private, *target = NULL;
	char *text = trace_events_write_text(buf, count);
	const char *cmd;
	struct event_trigger *t;
	struct trigger_spec spec;
	int err;

	(void)pos;
	if (!text)
		return -ENOMEM;
	err = trigger_parse(text, &spec);
	trace_events_mutex_lock();
	if (!err && call->removed)
		err = -ENODEV;
	if (!err && spec.system[0]) {
		target = trace_event_find_locked(spec.system, spec.event);
		if (!target)
			err = -ENOENT;
	}
	/* A hist's refusals show the text from "hist:" on, as Linux's do. */
	cmd = spec.param ? spec.param - strlen("hist:") : text;
	if (!err)
		err = make_trigger(call, &spec, target, cmd, &t);
	if (!err)
		err = spec.remove ? remove_trigger(call, t) : add_trigger(call, t, cmd);
	trace_events_mutex_unlock();
	kfree(text);
	return err ? err : (ssize_t)count;
}

const struct file_operations trace_event_trigger_fops = {
	.open = trigger_open, .read = seq_read_if_reader, .write = trigger_write,
	.llseek = seq_lseek_if_reader, .release = single_release_if_reader,
};

/* ---- The hist file ---- */

static int hist_show(struct seq_file *m, void *v)
{
	const struct trace_event_call *call = m->private;
	const struct event_triggers *tr;
	unsigned int n = 0;
	int err = 0;

	(void)v;
	trace_events_mutex_lock();
	tr = call->triggers;
	for (unsigned int i = 0; tr && i < tr->n && !err; i++)
		if (tr->t[i]->hist)
			err = hist_trigger_show_table(m, tr->t[i]->hist, tr->t[i]->filter_text, n++);
	trace_events_mutex_unlock();
	return err;
}

static int hist_open(struct inode *inode, struct file *file)
{
	return single_open(file, hist_show, inode->i_private);
}

const struct file_operations trace_event_hist_fops = {
	.open = hist_open, .read = seq_read, .llseek = seq_lseek, .release = single_release,
};
