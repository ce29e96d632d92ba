/*
 * /sys/kernel/tracing/set_ftrace_filter and set_ftrace_notrace: which
 * functions the function tracer and function_graph trace, in Linux's
 * way (docs/ftrace.md); stack_trace_filter, which the stack tracer
 * measures, the same way; and set_graph_function and set_graph_notrace,
 * the calls under which function_graph traces every call, or none.
 *
 * Each file holds a set of functions. The tracer traces those of
 * set_ftrace_filter (every function while it is empty) that are not in
 * set_ftrace_notrace. A write holds words (ftrace_filter_word.h) parted
 * by spaces or newlines; each adds the functions it picks, or with "!"
 * drops them; a word that picks none fails the write with -EINVAL, as
 * on Linux. Opening with O_TRUNC (the shell's ">") starts from an empty
 * set, ">>" from the set there is. The new set takes effect when the
 * file is closed, all its sites patched in one batch, so that `echo
 * vfs_read > set_ftrace_filter` never traces every function for a
 * moment, as an empty set between the truncation and the word would.
 *
 * Where ProbeOS differs from Linux: a write that failed leaves the set
 * as it was when the file was closed (Linux keeps what the truncation
 * and the words before the bad one made of it: after `echo nosuch >
 * set_ftrace_filter` it traces every function).
 *
 * A "GLOB:mod:NAME" word for a module not loaded is kept, listed as
 * such, and applied when the module loads (Linux's behaviour too); the
 * functions of a module that goes leave the sets. Reading lists the
 * set's functions, as available_filter_functions names them, then the
 * words kept for modules; an empty set_ftrace_filter reads "#### all
 * functions enabled ####".
 */
#include "kernel/fs/libfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/fs/vfs.h"
#include "kernel/initcall.h"
#include "kernel/mm/heap.h"
#include "kernel/module/module.h"
#include "kernel/mutex.h"
#include "kernel/rcu.h"
#include "kernel/symtab.h"
#include "kernel/trace/fgraph.h"
#include "kernel/trace/ftrace_filter_word.h"
#include "kernel/trace/ftrace_sites.h"
#include "kernel/trace/sorted_set.h"
#include "kernel/trace/trace_functions.h"
#include "kernel/trace/trace_graph.h"
#include "kernel/trace/trace_stack.h"
#include "kernel/trace/tracefs_words.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/glob.h"
#include "lib/sorted.h"
#include "lib/string.h"

/* A word kept until its module loads. */
struct kept_word {
	struct list_node node;
	struct ftrace_filter_word word;
};

struct filter_file {
	const char *name;
	struct ftrace_ops *ops;		/* whose set it is */
	struct ftrace_ops *mirror;	/* another ops given a copy of it, or NULL */
	bool exclude;			/* ops->exclude, not ops->filter */
	struct list_node kept;		/* struct kept_word, under filter_mutex */
};

static struct filter_file files[] = {
	{ .name = "set_ftrace_filter", .ops = &function_trace_ops, .mirror = &fgraph_ops },
	{ .name = "set_ftrace_notrace", .ops = &function_trace_ops, .mirror = &fgraph_ops,
	  .exclude = true },
	{ .name = "stack_trace_filter", .ops = &stack_trace_ops },
	{ .name = "set_graph_function", .ops = &graph_function_ops },
	{ .name = "set_graph_notrace", .ops = &graph_function_ops, .exclude = true },
};

/* Held by every change of a set or of the kept words, and by a read. */
static struct mutex filter_mutex = MUTEX_INIT(filter_mutex, "ftrace filter");

static struct ftrace_site_set *current_set(const struct filter_file *f)
{
	return f->exclude ? f->ops->exclude : f->ops->filter;
}

/* s as the set an ops holds (empty_is_all: NULL when s is empty), or
 * -ENOMEM. */
static int ips_to_set(const struct sorted_set *s, bool empty_is_all, struct ftrace_site_set **set)
{
	*set = NULL;
	if (!s->count && empty_is_all)
		return 0;
	*set = kmalloc(sizeof(**set) + s->count * sizeof(uintptr_t));
	if (!*set)
		return -ENOMEM;
	(*set)->count = s->count;
	memcpy((*set)->ips, s->v, s->count * sizeof(uintptr_t));
	return 0;
}

static void set_of(struct ftrace_ops *ops, bool exclude, struct ftrace_site_set *set)
{
	if (exclude)
		ftrace_set_notrace(ops, set);
	else
		ftrace_set_filter(ops, set);
}

/* Make set (NULL: every function, or none excluded) f's, and a copy of
 * it its mirror's (which keeps its old set if there is no memory for
 * the copy). */
static void give_set(struct filter_file *f, struct ftrace_site_set *set)
{
	if (f->mirror) {
		size_t bytes = set ? sizeof(*set) + set->count * sizeof(uintptr_t) : 0;
		struct ftrace_site_set *copy = set ? kmalloc(bytes) : NULL;

		if (copy)
			memcpy(copy, set, bytes);
		if (copy || !set)
			set_of(f->mirror, f->exclude, copy);
	}
	set_of(f->ops, f->exclude, set);
}

static int ips_from_set(struct sorted_set *s, const struct ftrace_site_set *set)
{
	for (size_t i = 0; set && i < set->count; i++) {
		int err = sorted_set_add(s, set->ips[i]);

		if (err)
			return err;
	}
	return 0;
}

/* Whether a module of that name has a table of sites (is loaded, with
 * functions to trace). In an RCU read-side section. */
static bool module_has_sites(const char *name)
{
	const struct ftrace_sites *t;

	list_for_each_entry_rcu(t, ftrace_sites_tables(), node)
		if (t->module && strcmp(t->module, name) == 0)
			return true;
	return false;
}

/* Whether the function at ip, of table t, is one w picks by name. */
static bool picks(const struct ftrace_filter_word *w, const struct ftrace_sites *t, uintptr_t ip)
{
	struct symbol sym;

	if (w->module[0] && (!t->module || strcmp(t->module, w->module) != 0))
		return false;
	if (w->module[0] && !w->glob[0])
		return true;
	return sym_by_addr(ip, &sym) == 0 && sym.addr == ip && glob_match(w->glob, sym.name);
}

/* Add ip to s, or with "!" drop it: 0 or -ENOMEM. */
static int pick(const struct ftrace_filter_word *w, struct sorted_set *s, uintptr_t ip)
{
	if (!w->negate)
		return sorted_set_add(s, ip);
	sorted_set_drop(s, ip);
	return 0;
}

/* A plain name's functions: every one of that name with a site (static
 * functions of one name in several files are all picked, as on Linux). */
struct named {
	const struct ftrace_filter_word *w;
	struct sorted_set *s;
	long picked;
};

static int pick_named(const struct symbol *sym, void *arg)
{
	struct named *n = arg;

	if (!ftrace_site_at(sym->addr))
		return 0;
	n->picked++;
	return pick(n->w, n->s, sym->addr);
}

/* Add (or with "!" drop) what w picks to s; how many it picked, or
 * -ENOMEM. A plain name is looked up by name rather than matched against
 * every function, so that 10,000 lines of names cost 10,000 look-ups. In an
 * RCU read-side section. */
static long apply_picks(const struct ftrace_filter_word *w, struct sorted_set *s)
{
	const struct ftrace_sites *t;
	const char *module;
	uintptr_t ip;
	long picked = 0;

	if (w->index) {
		if (ftrace_site_nth(w->index - 1, &ip, &module) < 0)
			return 0;
		return pick(w, s, ip) ?: 1;
	}
	if (!w->module[0] && !glob_has_magic(w->glob)) {
		struct named n = { .w = w, .s = s };
		int err = sym_each_named(w->glob, pick_named, &n);

		return err ? err : n.picked;
	}
	list_for_each_entry_rcu(t, ftrace_sites_tables(), node) {
		for (const uintptr_t *p = t->start; p < t->end; p++) {
			if (!picks(w, t, *p))
				continue;
			picked++;
			if (pick(w, s, *p))
				return -ENOMEM;
		}
	}
	return picked;
}

/* A kept word for a module not loaded: "!" forgets the ones like it. */
static int keep_word(struct list_node *kept, const struct ftrace_filter_word *w)
{
	struct kept_word *k, *next;

	if (w->negate) {
		list_for_each_entry_safe(k, next, kept, node) {
			if (strcmp(k->word.module, w->module) == 0 &&
			    strcmp(k->word.glob, w->glob) == 0) {
				list_del(&k->node);
				kfree(k);
			}
		}
		return 0;
	}
	k = kmalloc(sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->word = *w;
	list_add_tail(&k->node, kept);
	return 0;
}

static void free_kept(struct list_node *kept)
{
	struct kept_word *k, *next;

	list_for_each_entry_safe(k, next, kept, node) {
		list_del(&k->node);
		kfree(k);
	}
}

/* An open file being written: the set and kept words it will leave. */
struct edit {
	struct filter_file *f;
	struct sorted_set ips;
	struct list_node kept;
	struct tracefs_words words;	/* its error: nothing is set at close */
};

static int apply_word(void *arg, const char *text, size_t len)
{
	struct edit *e = arg;
	struct ftrace_filter_word w;
	long picked;
	int err = ftrace_filter_word_parse(text, len, &w);

	if (err)
		return err;
	rcu_read_lock();
	if (w.module[0] && !module_has_sites(w.module)) {
		rcu_read_unlock();
		return keep_word(&e->kept, &w);
	}
	picked = apply_picks(&w, &e->ips);
	rcu_read_unlock();
	if (picked < 0)
		return (int)picked;
	return picked ? 0 : -EINVAL;
}

static ssize_t filter_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct edit *e = file->private_data;

	(void)pos;
	return tracefs_words_write(&e->words, buf, count, apply_word, e);
}

/* Make ips and the kept words the file's, and patch the sites that
 * change. An empty set is every function only when a write made it so
 * (by_user), with no word kept. Under filter_mutex. */
static void commit(struct filter_file *f, struct sorted_set *ips, struct list_node *kept, bool by_user)
{
	struct ftrace_site_set *set;
	struct kept_word *k, *next;
	bool all = f->exclude || (by_user && list_empty(kept));

	if (ips_to_set(ips, all, &set))
		return;
	free_kept(&f->kept);
	list_for_each_entry_safe(k, next, kept, node) {
		list_del(&k->node);
		list_add_tail(&k->node, &f->kept);
	}
	give_set(f, set);
}

static int filter_show(struct seq_file *m, void *v)
{
	const struct filter_file *f = m->private;
	const struct ftrace_site_set *set;
	const struct kept_word *k;
	char name[96];

	(void)v;
	mutex_lock(&filter_mutex);
	set = current_set(f);
	if (!set && !f->exclude && list_empty(&f->kept))
		seq_puts(m, "#### all functions enabled ####\n");
	for (size_t i = 0; set && i < set->count; i++) {
		sym_format_name(set->ips[i], name, sizeof(name));
		seq_printf(m, "%s\n", name);
	}
	list_for_each_entry(k, &f->kept, node)
		seq_printf(m, "%s:mod:%s\n", k->word.glob[0] ? k->word.glob : "*", k->word.module);
	mutex_unlock(&filter_mutex);
	return 0;
}

static int filter_open(struct inode *inode, struct file *file)
{
	struct filter_file *f = inode->i_private;
	struct edit *e;
	const struct kept_word *k;
	int err = 0;

	if ((file->flags & O_ACCMODE) == O_RDONLY)
		return single_open(file, filter_show, f);
	e = kzalloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->f = f;
	list_init(&e->kept);
	if (!(file->flags & O_TRUNC)) {
		mutex_lock(&filter_mutex);
		err = ips_from_set(&e->ips, current_set(f));
		list_for_each_entry(k, &f->kept, node)
			if (!err)
				err = keep_word(&e->kept, &k->word);
		mutex_unlock(&filter_mutex);
	}
	if (err) {
		free_kept(&e->kept);
		kfree(e->ips.v);
		kfree(e);
		return err;
	}
	file->private_data = e;
	return 0;
}

/* The word the last write ended with is applied now, as Linux applies
 * it; its error has no one to reach, and only keeps the set as it was. */
static int filter_release(struct inode *inode, struct file *file)
{
	struct edit *e = file->private_data;

	if ((file->flags & O_ACCMODE) == O_RDONLY)
		return single_release(inode, file);
	if (!tracefs_words_end(&e->words, apply_word, e)) {
		mutex_lock(&filter_mutex);
		commit(e->f, &e->ips, &e->kept, true);
		mutex_unlock(&filter_mutex);
	}
	free_kept(&e->kept);
	kfree(e->ips.v);
	kfree(e);
	return 0;
}

static const struct file_operations filter_fops = {
	.open = filter_open, .read = seq_read_if_reader, .write = filter_write,
	.llseek = seq_lseek_if_reader, .release = filter_release,
};

/* A module that comes: the words kept for it pick its functions now,
 * before its init runs. */
static void module_comes(struct filter_file *f, const char *module)
{
	struct sorted_set ips = { 0 };
	LIST_HEAD(kept);
	struct kept_word *k, *next;
	bool applied = false;
	int err = ips_from_set(&ips, current_set(f));

	list_for_each_entry_safe(k, next, &f->kept, node) {
		if (strcmp(k->word.module, module) != 0) {
			if (!err)
				err = keep_word(&kept, &k->word);
			continue;
		}
		rcu_read_lock();
		if (!err && apply_picks(&k->word, &ips) < 0)
			err = -ENOMEM;
		rcu_read_unlock();
		applied = true;
	}
	if (applied && !err)
		commit(f, &ips, &kept, false);
	free_kept(&kept);
	kfree(ips.v);
}

/* A module that goes: its functions leave the set. The set stays a set
 * even once empty (it picks nothing), or a filter of a module's
 * functions would trace every function once the module is gone. */
static void module_goes(struct filter_file *f, const struct ftrace_sites *t)
{
	struct ftrace_site_set *set = current_set(f), *smaller;
	size_t n = 0;

	if (!set)
		return;
	smaller = kmalloc(sizeof(*smaller) + set->count * sizeof(uintptr_t));
	if (!smaller)
		return;
	for (size_t i = 0; i < set->count; i++)
		if (!sorted_have(t->start, (size_t)(t->end - t->start), set->ips[i]))
			smaller->ips[n++] = set->ips[i];
	smaller->count = n;
	if (n == set->count) {
		kfree(smaller);
		return;
	}
	give_set(f, smaller);
}

static void filter_module_notify(struct module_notifier *nb, enum module_state state,
				 struct module *mod)
{
	(void)nb;
	if (state != MODULE_STATE_COMING && state != MODULE_STATE_GOING)
		return;
	mutex_lock(&filter_mutex);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		if (state == MODULE_STATE_COMING)
			module_comes(&files[i], mod->name);
		else
			module_goes(&files[i], &mod->ftrace_sites);
	}
	mutex_unlock(&filter_mutex);
}

static struct module_notifier filter_module_notifier = { .notify = filter_module_notify };

static int tracefs_filter_init(void)
{
	register_module_notifier(&filter_module_notifier);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		int err;

		list_init(&files[i].kept);
		err = PTR_ERR_OR_ZERO(tracefs_create_file(files[i].name, 0644, NULL, &files[i],
							   &filter_fops));
		if (err)
			return err;
	}
	return 0;
}
late_initcall(tracefs_filter_init);
