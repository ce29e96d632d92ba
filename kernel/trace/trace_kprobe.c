/* Kprobe events (trace_kprobe.h): definitions, their probes, and the
 * records their hits write.
 *
 * A line written to kprobe_events is cut into words and read by the
 * parser (kprobe_event_parse.h) straight into the event's own record, so
 * the fetch programs it compiles are the ones its hits run. The event's
 * probe is registered disabled, as Linux registers it: enabling the
 * event (events/GROUP/EVENT/enable) arms it. A probe on a module's code
 * ("mod:func") waits for the module: it is placed when the module comes,
 * and when the module goes its probe goes [GONE] and is placed again
 * when the module comes back, so an event survives the edit loop.
 *
 * A hit runs the programs into a buffer of its CPU's (interrupts off, so
 * nothing else on the CPU uses it meanwhile) and, if the event's filter
 * keeps it, writes the record to the ring: no lock, no allocation,
 * nothing parsed.
 *
 * probe_event_mutex serializes the definitions (Linux's
 * dyn_event_ops_mutex); it is held across a whole command, so two
 * definitions never race for a name. */
#include "kernel/trace/trace_kprobe.h"
#include "kernel/cpu.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/module/module.h"
#include "kernel/mutex.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "kernel/rcu.h"
#include "kernel/sched.h"
#include "kernel/symtab.h"
#include "kernel/trace/probe_fetch.h"
#include "kernel/trace/trace_error_log.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"
#include <asm/irq.h>

/* The longest line taken, as Linux's kprobe_events takes it. */
#define COMMAND_MAX 4096
#define WORDS_MAX (COMMAND_MAX / 2)

static struct mutex probe_event_mutex = MUTEX_INIT(probe_event_mutex, "kprobe_events");
static LIST_HEAD(kprobe_events);
/* The same events by name, for find_event: a file of 10,000 definitions
 * would otherwise cost each one a walk of all those before it. */
#define EVENT_BUCKETS 1024
static struct trace_kprobe *events_by_name[EVENT_BUCKETS];

/* Each CPU's record being made, used with its interrupts off. */
static uint8_t hit_buffer[MAX_CPUS][TRACE_BODY_MAX] __aligned(8);

void trace_kprobe_lock(void)
{
	mutex_lock(&probe_event_mutex);
}

void trace_kprobe_unlock(void)
{
	mutex_unlock(&probe_event_mutex);
}

struct trace_kprobe *trace_kprobe_at(long pos)
{
	struct trace_kprobe *tk;

	list_for_each_entry(tk, &kprobe_events, link)
		if (pos-- == 0)
			return tk;
	return NULL;
}

struct trace_kprobe *trace_kprobe_next(struct trace_kprobe *tk)
{
	return tk->link.next == &kprobe_events ? NULL
					       : container_of(tk->link.next, struct trace_kprobe, link);
}

unsigned long trace_kprobe_nhit(const struct trace_kprobe *tk)
{
	return tk->nhit_before + (tk->placed ? kprobe_nhit(&tk->rp.kp) : 0);
}

unsigned long trace_kprobe_nmissed(const struct trace_kprobe *tk)
{
	unsigned long n = tk->nmissed_before;

	if (tk->placed)
		n += kprobe_nmissed(&tk->rp.kp) + (tk->def.is_return ? kretprobe_nmissed(&tk->rp) : 0);
	return n;
}

/* ---- Hits ---- */

/* Make tk's record: the head, then what the programs fetch. Inline in
 * each hit handler, so that the head's copy is of a known size. */
static inline __attribute__((always_inline)) void record_hit(struct trace_kprobe *tk,
							     struct pt_regs *regs,
							     const void *head, size_t head_len)
{
	unsigned long flags = arch_irq_save();
	uint8_t *body = hit_buffer[this_cpu_field(id)];
	struct probe_hit_regs hit = { .regs = regs, .comm = current_thread()->name };
	size_t len;

	__builtin_memcpy(body, head, head_len);
	len = head_len;		/* "p:myprobe do_sys_open" fetches nothing */
	if (tk->def.nr_args)
		len = probe_fetch_args(tk->args, tk->def.nr_args, &hit, body, head_len,
				       head_len + tk->def.size, TRACE_BODY_MAX);
	if (trace_event_keeps(&tk->call, body, len))
		trace_write(trace_event_type(&tk->call), body, len);
	trace_event_run_triggers(&tk->call, body, len);
	arch_irq_restore(flags);
}

static int notrace kprobe_event_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct trace_kprobe *tk = container_of(kp, struct trace_kprobe, rp.kp);
	struct kprobe_event_head head = { .ip = (uintptr_t)kp->addr };

	record_hit(tk, regs, &head, sizeof(head));
	return 0;
}
NOKPROBE_SYMBOL(kprobe_event_hit);

static int notrace kretprobe_event_hit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct trace_kprobe *tk = container_of(rp, struct trace_kprobe, rp);
	/* The real caller: a return handler's registers resume there
	 * (kernel/rethook.h), even when another kretprobe hooked the same
	 * call first and the address this one saved is its trampoline's. */
	struct kretprobe_event_head head = {
		.func = (uintptr_t)rp->kp.addr, .ret_ip = instruction_pointer(regs),
	};

	record_hit(tk, regs, &head, sizeof(head));
	return 0;
}
NOKPROBE_SYMBOL(kretprobe_event_hit);

/* ---- Probes ---- */

/* Register tk's probe, armed if the event is enabled. */
static int place_probe(struct trace_kprobe *tk)
{
	struct kprobe *kp = &tk->rp.kp;
	int err;

	memset(&tk->rp, 0, sizeof(tk->rp));
	if (tk->def.symbol[0]) {
		kp->symbol_name = tk->def.symbol;
		kp->offset = (unsigned int)tk->def.offset;
	} else {
		kp->addr = (uint8_t *)(uintptr_t)tk->def.addr;
	}
	kp->flags = tk->call.enabled ? 0 : KPROBE_FLAG_DISABLED;
	kp->event_name = tk->label;
	if (tk->def.is_return) {
		tk->rp.handler = kretprobe_event_hit;
		tk->rp.maxactive = (int)tk->def.maxactive;
		err = register_kretprobe(&tk->rp);
	} else {
		kp->pre_handler = kprobe_event_hit;
		err = register_kprobe(kp);
	}
	tk->placed = err == 0;
	return err;
}

static void remove_probe(struct trace_kprobe *tk)
{
	if (!tk->placed)
		return;
	if (tk->def.is_return)
		unregister_kretprobe(&tk->rp);
	else
		unregister_kprobe(&tk->rp.kp);
	tk->nhit_before += tk->rp.kp.nhit;
	tk->nmissed_before += tk->rp.kp.nmissed + (tk->def.is_return ? tk->rp.nmissed : 0);
	tk->placed = false;
}

/* The module a definition's symbol is in ("mod:func"), into name; false
 * for the kernel's own. */
static bool module_of_def(const struct kprobe_event_def *def, char *name, size_t size)
{
	const char *colon = strchr(def->symbol, ':');

	if (!colon)
		return false;
	snprintf(name, size, "%.*s", (int)(colon - def->symbol), def->symbol);
	return true;
}

/* Whether the module called name is loaded. Its symbol table tells,
 * without the loader's lock, which a loader holding it while it tells
 * its notifiers (ours among them, which takes probe_event_mutex) would
 * otherwise make a deadly embrace of. */
static bool module_loaded(const char *name)
{
	bool loaded;

	rcu_read_lock();
	loaded = sym_module_loaded(name);
	rcu_read_unlock();
	return loaded;
}

/* The event turned on or off (its enable file): arm or disarm its probe,
 * if it is placed; a probe still waiting for its module is placed armed
 * or not when it comes. */
static int kprobe_event_reg(struct trace_event_call *call, bool on)
{
	struct trace_kprobe *tk = container_of(call, struct trace_kprobe, call);

	if (!tk->placed)
		return 0;
	if (tk->def.is_return)
		return on ? enable_kretprobe(&tk->rp) : disable_kretprobe(&tk->rp);
	return on ? enable_kprobe(&tk->rp.kp) : disable_kprobe(&tk->rp.kp);
}

static const struct trace_event_ops kprobe_event_ops = {
	.reg = kprobe_event_reg,
	.print = trace_kprobe_print,
	.show_format = trace_kprobe_show_format,
	.field = trace_kprobe_field,
};

/* ---- Definitions ---- */

/* The bucket of the events called name (FNV-1a of the name). */
static struct trace_kprobe **name_bucket(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return &events_by_name[h % EVENT_BUCKETS];
}

static void hash_event(struct trace_kprobe *tk)
{
	struct trace_kprobe **bucket = name_bucket(tk->call.name);

	tk->name_next = *bucket;
	*bucket = tk;
}

static void unhash_event(struct trace_kprobe *tk)
{
	struct trace_kprobe **link = name_bucket(tk->call.name);

	while (*link != tk)
		link = &(*link)->name_next;
	*link = tk->name_next;
}

static struct trace_kprobe *find_event(const char *group, const char *event)
{
	struct trace_kprobe *tk;

	for (tk = *name_bucket(event); tk; tk = tk->name_next)
		if ((!group || !strcmp(tk->call.system, group)) && !strcmp(tk->call.name, event))
			return tk;
	return NULL;
}

static int count_symbol_visit(const struct symbol *sym, void *arg)
{
	(void)sym;
	(*(int *)arg)++;
	return 0;
}

/* How many functions and objects of the kernel are called name. */
static int count_symbol(const char *name)
{
	int n = 0;

	rcu_read_lock();
	sym_each_named(name, count_symbol_visit, &n);
	rcu_read_unlock();
	return n;
}

static int symbol_addr(const char *name, uint64_t *addr)
{
	struct symbol sym;

	if (sym_by_name(name, &sym) < 0)
		return -ENOENT;
	*addr = sym.addr;
	return 0;
}

static const struct kprobe_parse_env parse_env = {
	.fetch = { .regs = arch_probe_regs, .symbol_addr = symbol_addr },
	.count_symbol = count_symbol,
};

/* Keep log's refusal in error_log. */
static void log_refusal(const struct probe_log *log)
{
	static char command[COMMAND_MAX];	/* under probe_event_mutex */

	if (log->err == PROBE_ERR_NONE)
		return;
	probe_log_command(log, command, sizeof(command));
	tracing_log_err("trace_kprobe", command, probe_error_text(log->err),
			(unsigned int)probe_log_pos(log));
}

static void free_event(struct trace_kprobe *tk)
{
	kfree(tk);
}

/* The refusal of a probe that cannot be registered, on its address's
 * word, as Linux words it. */
static void log_place_error(struct probe_log *log, int err)
{
	probe_log_set_index(log, 1);
	if (err == -EILSEQ)
		probe_log_err(log, 0, PROBE_ERR_BAD_INSN_BNDRY);
	else if (err == -ENOENT)
		probe_log_err(log, 0, PROBE_ERR_BAD_PROBE_ADDR);
	else if (err != -ENOMEM && err != -EEXIST)
		probe_log_err(log, 0, PROBE_ERR_FAIL_REG_PROBE);
}

/* Define the event of the argc words at argv. */
static int create_event(int argc, const char *const *argv, struct probe_log *log)
{
	int nr_args = kprobe_event_nr_args(argc);
	struct trace_kprobe *tk = kzalloc(sizeof(*tk) + (size_t)nr_args * sizeof(tk->args[0]));
	char module[MODULE_NAME_LEN];
	int err;

	if (!tk)
		return -ENOMEM;
	tk->def.args = tk->args;
	err = kprobe_event_parse(argc, argv, &tk->def, &parse_env, log);
	if (err)
		goto fail;
	if (find_event(tk->def.group, tk->def.event)) {
		probe_log_set_index(log, 0);
		probe_log_err(log, 0, PROBE_ERR_EVENT_EXIST);
		err = -EEXIST;
		goto fail;
	}
	strlcpy(tk->call.system, tk->def.group, sizeof(tk->call.system));
	strlcpy(tk->call.name, tk->def.event, sizeof(tk->call.name));
	snprintf(tk->label, sizeof(tk->label), "%s/%s", tk->def.group, tk->def.event);
	tk->call.ops = &kprobe_event_ops;
	if (!module_of_def(&tk->def, module, sizeof(module)) || module_loaded(module)) {
		err = place_probe(tk);
		if (err) {
			log_place_error(log, err);
			goto fail;
		}
	}
	err = trace_event_add(&tk->call);
	if (err) {
		remove_probe(tk);
		goto fail;
	}
	list_add_tail(&tk->link, &kprobe_events);
	hash_event(tk);
	return 0;
fail:
	free_event(tk);
	return err;
}

/* Remove tk: -EBUSY while it is enabled. */
static int remove_event(struct trace_kprobe *tk)
{
	int err = trace_event_remove(&tk->call);

	if (err)
		return err;
	list_del(&tk->link);
	unhash_event(tk);
	remove_probe(tk);
	free_event(tk);
	return 0;
}

/* "-:[GROUP/]EVENT": the event named, in any group when none is given. */
static int delete_event(const char *word)
{
	const char *name = word + 2, *slash = strchr(name, '/');
	char group[MAX_EVENT_NAME_LEN];
	struct trace_kprobe *tk;

	if (word[1] != ':' || !*name)
		return -EINVAL;
	if (slash) {
		if ((size_t)(slash - name) >= sizeof(group))
			return -ENOENT;
		snprintf(group, sizeof(group), "%.*s", (int)(slash - name), name);
		name = slash + 1;
	}
	tk = find_event(slash ? group : NULL, name);
	return tk ? remove_event(tk) : -ENOENT;
}

/* Cut line (changed in place) into words at blanks; their count, or
 * -E2BIG past WORDS_MAX. */
static int split_words(char *line, const char **argv)
{
	int argc = 0;

	for (char *p = line; *p;) {
		while (is_space(*p))
			*p++ = '\0';
		if (!*p)
			break;
		if (argc == WORDS_MAX)
			return -E2BIG;
		argv[argc++] = p;
		while (*p && !is_space(*p))
			p++;
	}
	return argc;
}

int trace_kprobe_command(const char *line, size_t len)
{
	static char text[COMMAND_MAX];		/* under probe_event_mutex */
	static const char *argv[WORDS_MAX];
	struct probe_log log;
	char *hash;
	int argc, err;

	if (len >= sizeof(text))
		return -EINVAL;
	mutex_lock(&probe_event_mutex);
	memcpy(text, line, len);
	text[len] = '\0';
	hash = strchr(text, '#');
	if (hash)
		*hash = '\0';
	argc = split_words(text, argv);
	if (argc <= 0)
		err = argc;
	else if (argv[0][0] == '-')
		err = argc == 1 ? delete_event(argv[0]) : -EINVAL;
	else {
		err = create_event(argc, argv, &log);
		if (err == -ECANCELED)
			err = -EINVAL;
		else if (err)
			log_refusal(&log);
	}
	mutex_unlock(&probe_event_mutex);
	return err;
}

/* The probes of the n events at tks, unregistered together: one grace
 * period for the kprobes, one for the kretprobes. */
static int remove_probes(struct trace_kprobe **tks, size_t n)
{
	struct kprobe **kps = kmalloc(MAX(n, (size_t)1) * sizeof(*kps));
	struct kretprobe **rps = kmalloc(MAX(n, (size_t)1) * sizeof(*rps));
	int nk = 0, nr = 0;

	if (!kps || !rps) {
		kfree(kps);
		kfree(rps);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (!tks[i]->placed)
			continue;
		if (tks[i]->def.is_return)
			rps[nr++] = &tks[i]->rp;
		else
			kps[nk++] = &tks[i]->rp.kp;
		tks[i]->placed = false;
	}
	unregister_kprobes(kps, nk);
	unregister_kretprobes(rps, nr);
	kfree(kps);
	kfree(rps);
	return 0;
}

/* Every event at once, the waits shared (Linux's multiple_kprobes test
 * removes 256 so), or one by one if memory for that is short. */
int trace_kprobe_remove_all(void)
{
	struct trace_kprobe *tk, *next, **tks;
	struct trace_event_call **calls;
	size_t n = 0;
	int err;

	mutex_lock(&probe_event_mutex);
	list_for_each_entry(tk, &kprobe_events, link)
		n++;
	tks = kmalloc(MAX(n, (size_t)1) * sizeof(*tks));
	calls = kmalloc(MAX(n, (size_t)1) * sizeof(*calls));
	if (!tks || !calls) {
		err = trace_events_any_enabled() ? -EBUSY : 0;
		list_for_each_entry_safe(tk, next, &kprobe_events, link)
			if (!err)
				err = remove_event(tk);
		goto out;
	}
	n = 0;
	list_for_each_entry(tk, &kprobe_events, link) {
		tks[n] = tk;
		calls[n++] = &tk->call;
	}
	err = trace_events_remove(calls, n);
	if (!err)
		err = remove_probes(tks, n);
	if (!err)
		for (size_t i = 0; i < n; i++) {
			list_del(&tks[i]->link);
			unhash_event(tks[i]);
			free_event(tks[i]);
		}
out:
	mutex_unlock(&probe_event_mutex);
	kfree(tks);
	kfree(calls);
	return err;
}

/* ---- Modules ---- */

/* A module comes: place the probes of the events on its code, those
 * waiting for it and those [GONE] since it last went. */
static void kprobe_events_module_notify(struct module_notifier *nb, enum module_state state,
					struct module *mod)
{
	struct trace_kprobe *tk;
	char module[MODULE_NAME_LEN];

	(void)nb;
	if (state != MODULE_STATE_COMING)
		return;
	mutex_lock(&probe_event_mutex);
	list_for_each_entry(tk, &kprobe_events, link) {
		int err;

		if (!module_of_def(&tk->def, module, sizeof(module)) || strcmp(module, mod->name))
			continue;
		remove_probe(tk);
		err = place_probe(tk);
		if (err)
			printk("trace_kprobe: event %s not placed on %s: %s\n", tk->label,
			       tk->def.symbol, strerror(err));
	}
	mutex_unlock(&probe_event_mutex);
}

static struct module_notifier kprobe_events_module_nb = {
	.notify = kprobe_events_module_notify,
};

static int trace_kprobe_init(void)
{
	register_module_notifier(&kprobe_events_module_nb);
	return 0;
}
late_initcall(trace_kprobe_init);
