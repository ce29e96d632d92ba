/* Events and their files in tracefs (trace_events.h).
 *
 * Every event is on one list, and each system (the "kprobes" of
 * events/kprobes/) is a directory made with its first event and removed
 * with its last. A mutex, event_mutex, is held around the list, the
 * systems and every event's enabling (a write of an enable file holds
 * it while it turns its events on or off). A removal takes an event off
 * the list under it and removes the event's files after, without it:
 * removing a file waits for the calls into it to end, and a write of the
 * event's enable file may be waiting for the mutex. Adding and removing
 * an event is serialized by its maker.
 *
 * The record printing goes through the event's struct trace_kind, which
 * the buffer's readers look up by type under trace_lock (trace.h). */
#include "kernel/trace/trace_events_internal.h"
#include "kernel/fs/libfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/cpu.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/trace/trace_error_log.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* A directory of events/, and how many events are in it. */
struct event_system {
	char name[MAX_EVENT_NAME_LEN];
	struct dentry *dir;
	unsigned int events;
	struct list_node link;
};

static struct mutex event_mutex = MUTEX_INIT(event_mutex, "trace_events");
static LIST_HEAD(events);
static LIST_HEAD(systems);
static struct dentry *events_dir;

void trace_events_mutex_lock(void)
{
	mutex_lock(&event_mutex);
}

void trace_events_mutex_unlock(void)
{
	mutex_unlock(&event_mutex);
}

struct trace_event_call *trace_event_find_locked(const char *system, const char *name)
{
	struct trace_event_call *call;

	list_for_each_entry(call, &events, link)
		if (!strcmp(call->system, system) && !strcmp(call->name, name))
			return call;
	return NULL;
}

bool trace_events_any_enabled(void)
{
	struct trace_event_call *call;
	bool any = false;

	mutex_lock(&event_mutex);
	list_for_each_entry(call, &events, link)
		any |= call->enabled;
	mutex_unlock(&event_mutex);
	return any;
}

static struct event_system *find_system(const char *name)
{
	struct event_system *s;

	list_for_each_entry(s, &systems, link)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

/* Turn call on or off, if it is not already: 0 or reg's error. An
 * event that triggers name is armed already: only whether it records
 * changes. */
static int set_enabled(struct trace_event_call *call, bool on)
{
	int err = 0;

	if (call->enabled == on)
		return 0;
	if (call->soft_users)
		__atomic_store_n(&call->soft_disabled, !on, __ATOMIC_RELAXED);
	else
		err = call->ops->reg(call, on);
	if (!err)
		call->enabled = on;
	call->was_enabled |= call->enabled;
	return err;
}

int trace_event_soft_get_locked(struct trace_event_call *call)
{
	int err = 0;

	if (call->soft_users == 0 && !call->enabled) {
		__atomic_store_n(&call->soft_disabled, true, __ATOMIC_RELAXED);
		err = call->ops->reg(call, true);
		if (err) {
			call->soft_disabled = false;
			return err;
		}
		call->was_enabled = true;
	}
	call->soft_users++;
	return 0;
}

void trace_event_soft_put_locked(struct trace_event_call *call)
{
	if (--call->soft_users)
		return;
	if (!call->enabled)
		call->ops->reg(call, false);
	__atomic_store_n(&call->soft_disabled, false, __ATOMIC_RELAXED);
}

/* The state of the events of system (NULL: all): '1', '0', or 'X' if
 * some are on and some off; '0' for none. */
static char state_of(const char *system)
{
	struct trace_event_call *call;
	bool on = false, off = false;

	list_for_each_entry(call, &events, link) {
		if (system && strcmp(call->system, system))
			continue;
		on |= call->enabled;
		off |= !call->enabled;
	}
	return on && off ? 'X' : on ? '1' : '0';
}

/* Turn every event of system (NULL: all) on or off; the first error,
 * having tried them all. */
static int set_all(const char *system, bool on)
{
	struct trace_event_call *call;
	int first = 0;

	list_for_each_entry(call, &events, link) {
		int err;

		if (system && strcmp(call->system, system))
			continue;
		err = set_enabled(call, on);
		if (err && !first)
			first = err;
	}
	return first;
}

/* A write of "0" or "1" (with blanks, as echo adds) to an enable file,
 * as Linux's take it: apply(arg, on) under event_mutex. count, or
 * -EINVAL, or apply's error. */
static ssize_t write_switch(const char *buf, size_t count, int (*apply)(void *arg, bool on),
			    void *arg)
{
	int64_t v;
	int err;

	if (parse_setting(buf, count, 0, 1, &v) < 0)
		return -EINVAL;
	mutex_lock(&event_mutex);
	err = apply(arg, v == 1);
	mutex_unlock(&event_mutex);
	return err ? err : (ssize_t)count;
}

/* An enable file's read: its state and a newline, which state(arg, text)
 * writes (at most two characters) under event_mutex. */
static ssize_t read_switch(char *buf, size_t count, loff_t *pos,
			   void (*state)(const void *arg, char *text), const void *arg)
{
	char text[4] = "";

	mutex_lock(&event_mutex);
	state(arg, text);
	mutex_unlock(&event_mutex);
	strlcpy(text + strlen(text), "\n", sizeof(text) - strlen(text));
	return simple_read_from_buffer(buf, count, pos, text, strlen(text));
}

/* events/SYSTEM/EVENT/enable: "1" or "0", and a '*' while triggers
 * keep it armed (Linux's soft mode). */
static void event_state(const void *arg, char *text)
{
	const struct trace_event_call *call = arg;

	text[0] = call->enabled ? '1' : '0';
	text[1] = call->soft_users ? '*' : '\0';
	text[2] = '\0';
}

static int event_apply(void *arg, bool on)
{
	struct trace_event_call *call = arg;

	return call->removed ? -ENODEV : set_enabled(call, on);
}

static ssize_t enable_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return read_switch(buf, count, pos, event_state, file->inode->i_private);
}

static ssize_t enable_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	(void)pos;
	return write_switch(buf, count, event_apply, file->inode->i_private);
}

static const struct file_operations enable_fops = { .read = enable_read, .write = enable_write };

/* events/enable and events/SYSTEM/enable: the system is the inode's
 * data (NULL: every event). */
static void group_state(const void *arg, char *text)
{
	const struct event_system *s = arg;

	text[0] = state_of(s ? s->name : NULL);
	text[1] = '\0';
}

static int group_apply(void *arg, bool on)
{
	const struct event_system *s = arg;

	return set_all(s ? s->name : NULL, on);
}

static ssize_t group_enable_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return read_switch(buf, count, pos, group_state, file->inode->i_private);
}

static ssize_t group_enable_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	(void)pos;
	return write_switch(buf, count, group_apply, file->inode->i_private);
}

static const struct file_operations group_enable_fops = {
	.read = group_enable_read, .write = group_enable_write,
};

/* events/SYSTEM/EVENT/id */
static ssize_t id_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	const struct trace_event_call *call = file->inode->i_private;
	char text[16];
	int n = snprintf(text, sizeof(text), "%u\n", (unsigned int)trace_event_type(call));

	return simple_read_from_buffer(buf, count, pos, text, (size_t)n);
}

static const struct file_operations id_fops = { .read = id_read };

/* events/SYSTEM/EVENT/format: the common fields are every record's
 * struct trace_entry (trace.h), which ProbeOS lays out as its own: the
 * type is in the ring's header, not in the record. */
static int format_show(struct seq_file *m, void *v)
{
	const struct trace_event_call *call = m->private;

	(void)v;
	seq_printf(m, "name: %s\nID: %u\nformat:\n", call->name, (unsigned int)trace_event_type(call));
	seq_puts(m, "\tfield:int common_pid;\toffset:0;\tsize:4;\tsigned:1;\n"
		    "\tfield:unsigned char common_flags;\toffset:4;\tsize:1;\tsigned:0;\n"
		    "\tfield:unsigned char common_preempt_count;\toffset:5;\tsize:1;\tsigned:0;\n"
		    "\n");
	call->ops->show_format(call, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(format);

/* ---- Filters ---- */

/* The fields every record has, then the event's own. */
bool trace_event_field(void *ctx, const char *name, size_t len, struct filter_field *f)
{
	static const struct {
		const char *name;
		enum filter_field_kind kind;
	} common[] = {
		{ "comm", FILTER_FIELD_COMM }, { "COMM", FILTER_FIELD_COMM },
		{ "cpu", FILTER_FIELD_CPU }, { "CPU", FILTER_FIELD_CPU },
		{ "common_pid", FILTER_FIELD_PID },
	};
	const struct trace_event_call *call = ctx;

	for (size_t i = 0; i < ARRAY_SIZE(common); i++)
		if (strlen(common[i].name) == len && !strncmp(common[i].name, name, len)) {
			*f = (struct filter_field){ .kind = common[i].kind, .is_signed = true };
			return true;
		}
	return call->ops->field(call, name, len, f);
}

void notrace trace_event_hit_of(struct filter_hit *hit, const void *body, size_t len)
{
	const struct thread *self = current_thread();

	*hit = (struct filter_hit){ .body = body, .len = len, .comm = self->name,
				    .cpu = this_cpu_field(id), .pid = self->id };
}

bool notrace trace_event_filter_keeps(const struct event_filter *filter, const void *body,
				     size_t len)
{
	struct filter_hit hit;

	trace_event_hit_of(&hit, body, len);
	return event_filter_match(filter, &hit);
}

/* Put filter (NULL: none) and the text the file shows (NULL: "none")
 * in place of call's, freeing the old ones once no hit can be using
 * them. Under event_mutex. */
static void set_filter(struct trace_event_call *call, struct event_filter *filter, char *text)
{
	struct event_filter *old = call->filter;

	__atomic_store_n(&call->filter, filter, __ATOMIC_RELEASE);
	kfree(call->filter_text);
	call->filter_text = text;
	if (old) {
		synchronize_rcu();
		event_filter_free(old);
	}
}

/* The text of a refused filter, as Linux's filter file shows it: the
 * expression, a caret under the fault, and its reason. */
static char *refusal_text(const char *expr, enum filter_error err, size_t pos)
{
	const char *why = filter_error_text(err);
	size_t n = strlen(expr) + 1 + pos + 2 + strlen("parse_error: ") + strlen(why) + 1;
	char *text = kmalloc(n);

	if (text)
		snprintf(text, n, "%s\n%*s\nparse_error: %s", expr, (int)pos + 1, "^", why);
	return text;
}

static int filter_show(struct seq_file *m, void *v)
{
	struct trace_event_call *call = m->private;

	(void)v;
	mutex_lock(&event_mutex);
	seq_printf(m, "%s\n", call->filter_text ? call->filter_text : "none");
	mutex_unlock(&event_mutex);
	return 0;
}

static int filter_open(struct inode *inode, struct file *file)
{
	return single_open_if_reader(file, filter_show, inode->i_private);
}

char *trace_events_write_text(const char *buf, size_t count)
{
	size_t len = count;
	char *text;

	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	text = kmalloc(len + 1);
	if (text) {
		memcpy(text, buf, len);
		text[len] = '\0';
	}
	return text;
}

/* A write is the whole expression, "0" to remove the filter. */
static ssize_t filter_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct trace_event_call *call = file->inode->i_private;
	struct event_filter *filter = NULL;
	enum filter_error err;
	char *expr = trace_events_write_text(buf, count);
	size_t at;
	int ret;

	(void)pos;
	if (!expr)
		return -ENOMEM;
	mutex_lock(&event_mutex);
	if (call->removed) {
		ret = -ENODEV;
	} else if (!strcmp(expr, "0")) {
		set_filter(call, NULL, NULL);
		ret = 0;
	} else {
		ret = event_filter_parse(expr, trace_event_field, call, &filter, &err, &at);
		if (!ret) {
			set_filter(call, filter, expr);
			expr = NULL;
		} else if (ret == -EINVAL) {
			tracing_log_err("event filter parse error", expr, filter_error_text(err),
					(unsigned int)at);
			set_filter(call, NULL, refusal_text(expr, err, at));
		}
	}
	mutex_unlock(&event_mutex);
	kfree(expr);
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations filter_fops = {
	.open = filter_open, .read = seq_read_if_reader, .write = filter_write,
	.llseek = seq_lseek_if_reader, .release = single_release_if_reader,
};

/* The printing of the event's records, as the buffer's readers call it. */
static int print_record(const struct trace_kind *kind, char *line, size_t size, const void *body,
			size_t len)
{
	const struct trace_event_call *call = container_of(kind, struct trace_event_call, kind);
	int n = snprintf(line, size, "%s: ", call->name);

	return n + call->ops->print(call, line + MIN((size_t)n, size), size - MIN((size_t)n, size),
				    body, len);
}

/* events/, with its enable file. */
static int events_dir_init(void)
{
	struct dentry *enable;

	events_dir = tracefs_create_dir("events", NULL);
	if (IS_ERR(events_dir))
		return (int)PTR_ERR(events_dir);
	enable = tracefs_create_file("enable", 0644, events_dir, NULL, &group_enable_fops);
	return PTR_ERR_OR_ZERO(enable);
}
late_initcall(events_dir_init);

/* The system called name, made if it is new, with one more event. Under
 * the lock: making a file waits for nothing. */
static struct event_system *get_system_locked(const char *name)
{
	struct event_system *s = find_system(name);
	struct dentry *enable;

	if (!s) {
		s = kzalloc(sizeof(*s));
		if (!s)
			return ERR_PTR(-ENOMEM);
		strlcpy(s->name, name, sizeof(s->name));
		s->dir = tracefs_create_dir(name, events_dir);
		enable = IS_ERR(s->dir) ? s->dir
					: tracefs_create_file("enable", 0644, s->dir, s,
							      &group_enable_fops);
		if (IS_ERR(enable)) {
			if (!IS_ERR(s->dir))
				tracefs_remove(s->dir);
			kfree(s);
			return ERR_PTR(PTR_ERR(enable));
		}
		list_add_tail(&s->link, &systems);
	}
	s->events++;
	return s;
}

/* One event fewer in s. With its last, s is taken off the list and its
 * directory returned, for the caller to remove once it has dropped the
 * lock (a write of its enable file may be waiting for the lock); else
 * NULL. */
static struct dentry *put_system_locked(struct event_system *s)
{
	if (--s->events)
		return NULL;
	list_del(&s->link);
	return s->dir;
}

static int make_event_files(struct trace_event_call *call)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} files[] = {
		{ "enable", 0644, &enable_fops },
		{ "format", 0444, &format_fops },
		{ "id", 0444, &id_fops },
		{ "filter", 0644, &filter_fops },
		{ "trigger", 0644, &trace_event_trigger_fops },
		{ "hist", 0444, &trace_event_hist_fops },
	};

	call->dir = tracefs_create_dir(call->name, call->sys->dir);
	if (IS_ERR(call->dir)) {
		int err = (int)PTR_ERR(call->dir);

		call->dir = NULL;
		return err;
	}
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		struct dentry *d = tracefs_create_file(files[i].name, files[i].mode, call->dir, call,
						       files[i].fops);

		if (IS_ERR(d))
			return (int)PTR_ERR(d);
	}
	return 0;
}

static void unmake_events(struct trace_event_call **calls, size_t n, struct event_system **going);

int trace_event_add(struct trace_event_call *call)
{
	int err;

	mutex_lock(&event_mutex);
	call->sys = get_system_locked(call->system);
	mutex_unlock(&event_mutex);
	if (IS_ERR(call->sys))
		return (int)PTR_ERR(call->sys);
	call->kind.print = print_record;
	call->enabled = call->was_enabled = false;
	call->removed = false;
	call->filter = NULL;
	call->filter_text = NULL;
	call->triggers = NULL;
	call->soft_users = 0;
	call->soft_disabled = false;
	trace_lock();
	err = trace_kind_add_locked(&call->kind);
	trace_unlock();
	if (!err)
		err = make_event_files(call);
	if (err) {
		struct event_system *going;

		unmake_events(&call, 1, &going);
		return err;
	}
	mutex_lock(&event_mutex);
	list_add_tail(&call->link, &events);
	mutex_unlock(&event_mutex);
	return 0;
}

/* Whether s is one of the n systems at dirs' owners: those being
 * removed whole. */
static bool system_going(struct event_system *const *going, size_t n, const struct event_system *s)
{
	for (size_t i = 0; i < n; i++)
		if (going[i] == s)
			return true;
	return false;
}

/* The removal of n events in steps that each wait once for them all: a
 * grace period for their filters, and one removal of a directory for
 * each system that goes with them (its events' directories inside it),
 * else of each event's. going has room for n systems. */
static void unmake_events(struct trace_event_call **calls, size_t n, struct event_system **going)
{
	size_t nr_going = 0;
	bool clear = false, filters = false;

	mutex_lock(&event_mutex);
	/* None has triggers: a trigger arms its event, which is then not
	 * removed. */
	for (size_t i = 0; i < n; i++) {
		if (put_system_locked(calls[i]->sys))
			going[nr_going++] = calls[i]->sys;
	}
	mutex_unlock(&event_mutex);
	trace_lock();
	for (size_t i = 0; i < n; i++) {
		trace_kind_remove_locked(&calls[i]->kind);
		clear |= calls[i]->was_enabled;
	}
	if (clear)
		trace_clear_locked();
	trace_unlock();
	for (size_t i = 0; i < n; i++)
		filters |= calls[i]->filter != NULL;
	if (filters)
		synchronize_rcu();	/* no hit runs one of their filters */
	for (size_t i = 0; i < n; i++) {
		event_filter_free(calls[i]->filter);
		kfree(calls[i]->filter_text);
		calls[i]->filter = NULL;
		calls[i]->filter_text = NULL;
		if (!system_going(going, nr_going, calls[i]->sys))
			tracefs_remove(calls[i]->dir);
		calls[i]->dir = NULL;
	}
	for (size_t i = 0; i < nr_going; i++) {
		tracefs_remove(going[i]->dir);
		kfree(going[i]);
	}
}

int trace_events_remove(struct trace_event_call **calls, size_t n)
{
	struct event_system **going = kmalloc(MAX(n, (size_t)1) * sizeof(*going));

	if (!going)
		return -ENOMEM;
	mutex_lock(&event_mutex);
	for (size_t i = 0; i < n; i++)
		if (calls[i]->enabled || calls[i]->soft_users) {
			mutex_unlock(&event_mutex);
			kfree(going);
			return -EBUSY;
		}
	for (size_t i = 0; i < n; i++) {
		list_del(&calls[i]->link);
		calls[i]->removed = true;
	}
	mutex_unlock(&event_mutex);
	unmake_events(calls, n, going);
	kfree(going);
	return 0;
}

int trace_event_remove(struct trace_event_call *call)
{
	return trace_events_remove(&call, 1);
}
