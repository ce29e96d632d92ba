/*
 * The `probe` shell command: add, list, enable, disable, remove and
 * inspect probes with built-in actions that count hits and record them in
 * the trace buffer (kernel/probes/trace.c).
 *
 *   probe add [-r [maxactive=N] | -j | -a] [-p] SYMBOL[+OFFSET]
 *   probe list
 *   probe off | probe on                 the global knob
 *   probe off TARGET | probe on TARGET   disable / enable
 *   probe del TARGET | probe del all
 *   probe show [TARGET]
 *
 * TARGET is a probe number (the core's, from `probe add` or `probe
 * list`) or SYMBOL[+OFFSET], which means every probe at that address.
 * -p makes the probe print each hit as well as record it. -a gives a
 * kprobe a post-handler too, which counts its runs (`probe show` prints
 * them): the way to see how a point runs its instruction when a
 * post-handler must follow it.
 *
 * Every registered probe can be listed and shown, whoever registered
 * it; only the shell's own can be disabled, enabled or removed here. A
 * module's struct kprobe is the module's memory, which only its code
 * (or rmmod) may change or free: `del`, `off` and `on` refuse it and
 * name the module.
 */
#include "kernel/arch.h"
#include "kernel/cmd_output.h"
#include "kernel/mm/heap.h"
#include "kernel/nokprobe.h"
#include "kernel/probes/files/probe_line.h"
#include "kernel/probes/probe_report.h"
#include "kernel/probes/trace.h"
#include "kernel/command.h"
#include "kernel/spinlock.h"
#include "kernel/symtab.h"
#include "kernel/trace/ftrace_sites.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"
#include <asm/ftrace.h>

#define MAX_LISTED 128

struct shell_probe {
	enum kprobe_kind kind;
	bool print;			/* -p: print each hit too */
	bool post;			/* -a: a kprobe with a post-handler */
	unsigned long post_runs;	/* how often it ran (atomic) */
	union {
		struct kprobe kp;	/* every kind starts with its kprobe */
		struct jprobe jp;
		struct kretprobe rp;
	};
	struct list_node node;
};

static LIST_HEAD(shell_probes);
static struct spinlock shell_probes_lock = SPINLOCK_INIT("shell probes");

/* The shell probe a kprobe belongs to: the kprobe is the first member of
 * every variant of the union. */
static struct shell_probe *shell_probe_of(struct kprobe *p)
{
	return container_of((void *)p, struct shell_probe, kp);
}
NOKPROBE_SYMBOL(shell_probe_of);

/* ---- the built-in actions ---- */

/* Record a hit of p in the trace, and print it if the probe asks. */
static void report(struct kprobe *p, enum kprobe_kind kind, const uint64_t values[TRACE_VALUES])
{
	trace_record((int)p->id, kind, (uintptr_t)p->addr, values);
	if (shell_probe_of(p)->print)
		trace_print_hit((int)p->id, kind, (uintptr_t)p->addr, values);
}

static int action_kprobe(struct kprobe *p, struct pt_regs *regs)
{
	uint64_t args[TRACE_VALUES];

	for (unsigned int i = 0; i < TRACE_VALUES; i++)
		args[i] = regs_get_argument(regs, i);
	report(p, KPROBE_KIND_K, args);
	return 0;
}

/* A kretprobe's entry handler: the call's start time goes into the
 * instance's data (data_size bytes), where the return handler finds it. */
static int action_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	(void)regs;
	*(uint64_t *)ri->data = arch_cycles();
	return 0;
}

static int action_kretprobe(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	uint64_t started = *(uint64_t *)ri->data;
	uint64_t v[TRACE_VALUES] = { regs_return_value(regs), arch_cycles() - started };

	report(&get_kretprobe(ri)->kp, KPROBE_KIND_R, v);
	return 0;
}

/* A jprobe entry for any function of up to six integer arguments: the
 * System V (and AAPCS64) convention passes them in registers, so these
 * are the probed function's own arguments. */
static long action_jprobe(long a0, long a1, long a2, long a3, long a4, long a5)
{
	uint64_t args[TRACE_VALUES] = { a0, a1, a2, a3, a4, a5 };

	report(kprobe_running(), KPROBE_KIND_J, args);
	jprobe_return();
}

/* ---- parsing ---- */

/* An offset is kept in struct kprobe's unsigned int. */
#define MAX_OFFSET UINT32_MAX
/* Instances a kretprobe may keep for calls in flight (maxactive=N). */
#define MAX_ACTIVE 1024

/* "SYMBOL[+OFFSET]" -> symbol name (in buf) and offset. Returns 0,
 * -EINVAL if text is not of that form, or -ERANGE after saying that the
 * offset is out of range. */
static int parse_location(const char *text, char *name, size_t size, uint64_t *offset)
{
	const char *plus = strchr(text, '+');
	size_t len = plus ? (size_t)(plus - text) : strlen(text);

	*offset = 0;
	if (len == 0 || len >= size)
		return -EINVAL;
	memcpy(name, text, len);
	name[len] = '\0';
	return plus ? shell_parse_number("probe", "offset", plus + 1, 0, MAX_OFFSET, offset) : 0;
}

static void report_bad_location(const char *text)
{
	cmd_eprintf("probe: bad location '%s' (SYMBOL or SYMBOL+OFFSET)\n", text);
}

/* Past the end of a function is some other function's code. */
static void report_past_end(const char *name, uint64_t offset, uint64_t size)
{
	cmd_eprintf("probe: %s+0x%lx is past the end of %s (0x%lx bytes)\n", name,
		    (unsigned long)offset, name, (unsigned long)size);
}

/* Explain a registration error in one line. */
static void report_error(int err, const char *name, uint64_t offset, enum kprobe_kind kind)
{
	struct symbol sym;
	bool known = sym_by_name(name, &sym) == 0;

	switch (err) {
	case -ENOENT:
		if (known)
			cmd_eprintf("probe: %s+0x%lx is not in a function\n", name, (unsigned long)offset);
		else
			cmd_eprintf("probe: no symbol '%s'\n", name);
		break;
	case -ERANGE:
		report_past_end(name, offset, known ? sym.size : 0);
		break;
	case -EILSEQ:
		if (known && offset < ARCH_FTRACE_SITE_SIZE && ftrace_is_site(sym.addr))
			cmd_eprintf("probe: %s+0x%lx is inside its call site (a probe at %s+0x0"
				    " rides on the site)\n", name, (unsigned long)offset, name);
		else
			cmd_eprintf("probe: %s+0x%lx is not an instruction boundary\n", name,
				    (unsigned long)offset);
		break;
	case -EBUSY:
		cmd_eprintf("probe: %s already has a jprobe\n", name);
		break;
	case -ENOMEM:
		cmd_eprintf("probe: out of memory or instruction slots\n");
		break;
	case -EINVAL:
		if (known && kprobe_blacklisted(sym.addr + offset))
			cmd_eprintf("probe: %s is blacklisted\n", name);
		else if (kind != KPROBE_KIND_K && offset)
			cmd_eprintf("probe: a %s must be at a function's entry\n",
				    kind == KPROBE_KIND_J ? "jprobe" : "kretprobe");
		else
			cmd_eprintf("probe: the instruction at %s+0x%lx cannot be probed\n",
				    name, (unsigned long)offset);
		break;
	default:
		cmd_eprintf("probe: %s\n", strerror(err));
	}
}

static int do_register(struct shell_probe *sp)
{
	switch (sp->kind) {
	case KPROBE_KIND_J:
		return register_jprobe(&sp->jp);
	case KPROBE_KIND_R:
		return register_kretprobe(&sp->rp);
	default:
		return register_kprobe(&sp->kp);
	}
}

static void do_unregister(struct shell_probe *sp)
{
	if (sp->kind == KPROBE_KIND_R)
		unregister_kretprobe(&sp->rp);
	else
		unregister_kprobe(&sp->kp);
}

/* maxactive=N of `probe add -r`. Returns as shell_parse_number does. */
static int parse_maxactive(const char *text, int *maxactive)
{
	uint64_t n;
	int err = shell_parse_number("probe", "maxactive", text, 1, MAX_ACTIVE, &n);

	if (err == 0)
		*maxactive = (int)n;
	return err;
}

/* Parse the flags of "probe add" and the location word into sp, which
 * the caller zeroed. Returns 0, or the negative errno after printing
 * why not. */
static int parse_add(int argc, char **argv, struct shell_probe *sp, const char **where)
{
	bool ret = false, jump = false;
	int maxactive = 0;

	for (int i = 2; i < argc - 1; i++) {
		int err = 0;

		if (strcmp(argv[i], "-r") == 0)
			ret = true;
		else if (strcmp(argv[i], "-j") == 0)
			jump = true;
		else if (strcmp(argv[i], "-p") == 0)
			sp->print = true;
		else if (strcmp(argv[i], "-a") == 0)
			sp->post = true;
		else if (strncmp(argv[i], "maxactive=", 10) == 0)
			err = parse_maxactive(argv[i] + 10, &maxactive);
		else
			err = -EINVAL;
		if (err == -EINVAL)
			shell_usage("probe");
		if (err)
			return err;
	}
	if (ret && jump) {
		cmd_eprintf("probe: -r and -j contradict each other: a probe is a kretprobe or a jprobe\n");
		return -EINVAL;
	}
	if (sp->post && (ret || jump)) {
		cmd_eprintf("probe: -a (a post-handler) is for kprobes only\n");
		return -EINVAL;
	}
	if (maxactive && !ret) {
		cmd_eprintf("probe: maxactive= is for kretprobes (-r) only\n");
		return -EINVAL;
	}
	sp->kind = ret ? KPROBE_KIND_R : jump ? KPROBE_KIND_J : KPROBE_KIND_K;
	if (ret)
		sp->rp.maxactive = maxactive;
	*where = argv[argc - 1];
	return 0;
}

/* -a: count the runs of the post-handler (an atomic add, so that hits
 * on several CPUs at once count exactly; only `probe show` reads it). */
static void action_kprobe_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	(void)regs;
	(void)flags;
	__atomic_fetch_add(&shell_probe_of(p)->post_runs, 1, __ATOMIC_RELAXED);
}

/* The location word of "probe add" as a symbol name and an offset.
 * Returns 0, or the negative errno after printing why not. */
static int parse_add_location(const char *where, char *name, size_t size, uint64_t *offset)
{
	int err = parse_location(where, name, size, offset);

	if (err == -EINVAL)
		report_bad_location(where);
	return err;
}

/* Give sp the built-in actions of its kind. */
static void set_actions(struct shell_probe *sp)
{
	if (sp->kind == KPROBE_KIND_K) {
		sp->kp.pre_handler = action_kprobe;
		sp->kp.post_handler = sp->post ? action_kprobe_post : NULL;
	}
	else if (sp->kind == KPROBE_KIND_J)
		sp->jp.entry = (void *)action_jprobe;
	else {
		sp->rp.entry_handler = action_kretprobe_entry;
		sp->rp.handler = action_kretprobe;
		sp->rp.data_size = sizeof(uint64_t);
	}
}

/* Register sp at name+offset (the core numbers it); the error, after
 * printing why, if that fails. */
static int register_shell_probe(struct shell_probe *sp, const char *name, uint64_t offset)
{
	int err;

	/* The name is only needed to resolve the address. */
	sp->kp.symbol_name = name;
	sp->kp.offset = (unsigned int)offset;
	err = do_register(sp);
	sp->kp.symbol_name = NULL;
	if (err)
		report_error(err, name, offset, sp->kind);
	return err;
}

/* Put a registered sp on the shell's list. */
static void keep_shell_probe(struct shell_probe *sp)
{
	unsigned long flags = spin_lock_irqsave(&shell_probes_lock);

	list_add_tail(&sp->node, &shell_probes);
	spin_unlock_irqrestore(&shell_probes_lock, flags);
}

static int probe_add(int argc, char **argv)
{
	struct shell_probe *sp = kzalloc(sizeof(*sp));
	const char *where;
	uint64_t offset;
	char name[64];
	int err;

	if (!sp) {
		cmd_eprintf("probe: out of memory\n");
		return -ENOMEM;
	}
	err = parse_add(argc, argv, sp, &where);
	if (err)
		goto fail;
	err = parse_add_location(where, name, sizeof(name), &offset);
	if (err)
		goto fail;
	set_actions(sp);
	err = register_shell_probe(sp, name, offset);
	if (err)
		goto fail;
	keep_shell_probe(sp);
	cmd_printf("probe %u: %c %s+0x%lx at 0x%016lx\n", sp->kp.id, probe_kind_letter(sp->kind),
		   name, (unsigned long)offset, (unsigned long)sp->kp.addr);
	return 0;
fail:
	kfree(sp);
	return err;
}

/* ---- targets: "7" or "vfs_read+0x4" ---- */

#define MAX_TARGETS 32

/* A TARGET word: a probe number, or a place in a function. */
struct target {
	bool by_number;
	uint64_t number;
	char name[64];
	uint64_t offset;
	struct symbol sym;
};

/* Parse TARGET into t. Returns 0, or the negative errno after printing
 * why it names nothing: a bad location, an unknown symbol, or a number
 * or offset out of range. */
static int parse_target(const char *text, struct target *t)
{
	int err = shell_parse_number("probe", "probe number", text, 0, UINT64_MAX, &t->number);

	t->by_number = err == 0;
	if (err != -EINVAL)
		return err;
	err = parse_location(text, t->name, sizeof(t->name), &t->offset);
	if (err == -EINVAL)
		report_bad_location(text);
	if (err)
		return err;
	if (sym_by_name(t->name, &t->sym) < 0) {
		cmd_eprintf("probe: no symbol '%s'\n", t->name);
		return -ENOENT;
	}
	return 0;
}

static bool target_matches(const struct target *t, const struct kprobe_info *info)
{
	if (t->by_number)
		return (uint64_t)info->id == t->number;
	return info->addr == t->sym.addr + t->offset;
}

/* Why no probe matched: no probe can be past a function's end, which is
 * worth saying, as `probe add` does. Returns the errno said: -ERANGE
 * then, as `probe add` returns, else -ENOENT. */
static int report_no_match(const char *text, const struct target *t)
{
	if (!t->by_number && t->offset >= t->sym.size) {
		report_past_end(t->name, t->offset, t->sym.size);
		return -ERANGE;
	}
	cmd_eprintf("probe: no probe %s\n", text);
	return -ENOENT;
}

/* Call fn(info, ctx) for each registered probe, in registration order,
 * until it returns false; returns how many probes there are. The copies
 * come MAX_LISTED at a time (kprobes_snapshot), so any number of probes
 * passes through a fixed buffer; fn must not call this again. */
static int for_each_probe(bool (*fn)(const struct kprobe_info *info, void *ctx), void *ctx)
{
	static struct kprobe_info batch[MAX_LISTED];	/* off the shell's stack */
	int first = 0, total;

	do {
		total = kprobes_snapshot(batch, first, MAX_LISTED);
		for (int i = 0; i < MIN(total - first, MAX_LISTED); i++)
			if (!fn(&batch[i], ctx))
				return total;
		first += MAX_LISTED;
	} while (first < total);
	return total;
}

/* A search for the probes a TARGET names: copies of the first
 * MAX_TARGETS, and how many match in all. */
struct search {
	const struct target *t;
	struct kprobe_info *found;
	int n, matches;
};

static bool note_match(const struct kprobe_info *info, void *ctx)
{
	struct search *s = ctx;

	if (target_matches(s->t, info)) {
		if (s->n < MAX_TARGETS)
			s->found[s->n++] = *info;
		s->matches++;
	}
	return true;
}

/* The probes a command acts on: find_targets' copies (one command runs
 * at a time, on the shell's thread). */
static struct kprobe_info targets[MAX_TARGETS];

/* Resolve TARGET into copies of the registered probes it names, whoever
 * registered them, into targets[], at most MAX_TARGETS (saying so if
 * more match); returns how many, or a negative errno after printing why
 * there are none. */
static int find_targets(const char *text)
{
	struct target t;
	struct search s = { .t = &t, .found = targets };
	int err = parse_target(text, &t);

	if (err)
		return err;
	for_each_probe(note_match, &s);
	if (s.n == 0)
		return report_no_match(text, &t);
	if (s.matches > s.n)
		cmd_eprintf("probe: %d probes match %s; only the first %d are taken\n",
			    s.matches, text, s.n);
	return s.n;
}

/* The shell's probe numbered id, or NULL if the shell did not add it. */
static struct shell_probe *shell_probe_by_id(unsigned int id)
{
	struct shell_probe *sp, *found = NULL;
	unsigned long flags = spin_lock_irqsave(&shell_probes_lock);

	list_for_each_entry(sp, &shell_probes, node)
		if (sp->kp.id == id) {
			found = sp;
			break;
		}
	spin_unlock_irqrestore(&shell_probes_lock, flags);
	return found;
}

/* Who a probe belongs to, in one word: its module's name, or for the
 * kernel's own code the event it was made for ("kprobes/myread"),
 * "shell" if the shell added it (sp, or NULL), else "kernel" (the
 * selftests' and bench's probes). */
static const char *owner_name(const struct kprobe_info *info, const struct shell_probe *sp)
{
	if (info->owner[0])
		return info->owner;
	if (info->event[0])
		return info->event;
	return sp ? "shell" : "kernel";
}

/* The shell's probe that info describes, or NULL after saying in one line
 * whose it is: the shell changes and frees only the probes it added (a
 * command that meets another's says -EPERM: it may not). */
static struct shell_probe *own_probe(const struct kprobe_info *info)
{
	struct shell_probe *sp = shell_probe_by_id(info->id);

	if (!sp && info->owner[0])
		cmd_eprintf("probe: probe %u belongs to module %s (rmmod it)\n", info->id, info->owner);
	else if (!sp && info->event[0])
		cmd_eprintf("probe: probe %u belongs to event %s (echo '-:%s' >> "
			    "/sys/kernel/tracing/kprobe_events removes it)\n",
			    info->id, info->event, info->event);
	else if (!sp)
		cmd_eprintf("probe: probe %u belongs to the kernel\n", info->id);
	return sp;
}

static int probe_del(const char *target)
{
	int n = find_targets(target), refused = 0;

	for (int i = 0; i < n; i++) {
		struct shell_probe *sp = own_probe(&targets[i]);
		unsigned long flags;

		if (!sp) {
			refused = -EPERM;
			continue;
		}
		flags = spin_lock_irqsave(&shell_probes_lock);
		list_del(&sp->node);
		spin_unlock_irqrestore(&shell_probes_lock, flags);
		do_unregister(sp);
		cmd_printf("probe %u: removed\n", sp->kp.id);
		kfree(sp);
	}
	return n < 0 ? n : refused;
}

/* The probes of one kind on list, as the pointers the batch calls take
 * (kp, jp or rp: each variant of the union), into out; how many. */
static int collect_kind(struct list_node *list, enum kprobe_kind kind, void **out)
{
	struct shell_probe *sp;
	int n = 0;

	list_for_each_entry(sp, list, node)
		if (sp->kind == kind)
			out[n++] = kind == KPROBE_KIND_R ? (void *)&sp->rp :
				   kind == KPROBE_KIND_J ? (void *)&sp->jp : (void *)&sp->kp;
	return n;
}

/* Remove every probe the shell added, with one batch call per kind, so
 * that all of them share three grace periods instead of one each. */
static int probe_del_all(void)
{
	LIST_HEAD(doomed);
	struct shell_probe *sp, *tmp;
	unsigned long flags;
	void **batch;
	int n = 0;

	/* Only the shell thread adds or removes: the count holds. */
	flags = spin_lock_irqsave(&shell_probes_lock);
	list_for_each_entry(sp, &shell_probes, node)
		n++;
	spin_unlock_irqrestore(&shell_probes_lock, flags);
	batch = kmalloc(MAX(n, 1) * sizeof(*batch));
	if (!batch) {
		cmd_eprintf("probe: out of memory\n");
		return -ENOMEM;
	}
	flags = spin_lock_irqsave(&shell_probes_lock);
	list_for_each_entry_safe(sp, tmp, &shell_probes, node) {
		list_del(&sp->node);
		list_add_tail(&sp->node, &doomed);
	}
	spin_unlock_irqrestore(&shell_probes_lock, flags);

	unregister_kprobes((struct kprobe **)batch, collect_kind(&doomed, KPROBE_KIND_K, batch));
	unregister_jprobes((struct jprobe **)batch, collect_kind(&doomed, KPROBE_KIND_J, batch));
	unregister_kretprobes((struct kretprobe **)batch,
			      collect_kind(&doomed, KPROBE_KIND_R, batch));
	kfree(batch);
	list_for_each_entry_safe(sp, tmp, &doomed, node)
		kfree(sp);
	cmd_printf("probe: removed %d probes\n", n);
	return 0;
}

static int probe_enable(const char *target, bool on)
{
	int n = find_targets(target), refused = 0;

	for (int i = 0; i < n; i++) {
		struct shell_probe *sp = own_probe(&targets[i]);

		if (!sp) {
			refused = -EPERM;
			continue;
		}
		if (on)
			enable_kprobe(&sp->kp);
		else
			disable_kprobe(&sp->kp);
		cmd_printf("probe %u: %s\n", sp->kp.id, on ? "enabled" : "disabled");
	}
	return n < 0 ? n : refused;
}

/* ---- list and show ---- */

/* One line of `probe list` (probe_line.h): the first MAX_LISTED only. */
static bool list_one(const struct kprobe_info *info, void *ctx)
{
	char line[PROBE_LIST_LINE_MAX];
	int *listed = ctx;

	probe_format_shell_line(info, owner_name(info, shell_probe_by_id(info->id)), line,
				sizeof(line));
	cmd_printf("%s", line);
	return ++*listed < MAX_LISTED;
}

static int probe_list(void)
{
	int listed = 0, total;

	if (!kprobes_globally_armed())
		cmd_printf("probes disarmed\n");
	total = for_each_probe(list_one, &listed);
	if (total == 0)
		cmd_printf("no probes\n");
	if (total > MAX_LISTED)
		cmd_printf("(%d more not shown)\n", total - MAX_LISTED);
	return 0;
}

static void print_bytes(const char *label, const uint8_t *bytes, size_t n)
{
	cmd_printf("  %-9s", label);
	for (size_t i = 0; i < n; i++)
		cmd_printf(" %02x", bytes[i]);
	cmd_printf("\n");
}

static void print_counts(const struct kprobe_info *info)
{
	cmd_printf("  hits      %lu\n  missed    %lu\n", info->nhit, info->nmissed);
}

/* The lines of the point's code: its bytes, its instruction, how hits
 * run it, and the optimizer's view of it. */
static void print_point(const struct kprobe_report *r)
{
	print_bytes("original", r->original, sizeof(r->original));
	print_bytes("live", r->live, sizeof(r->live));
	cmd_printf("  insn      %s\n", r->insn);
	if (r->info.flags & KPROBE_FLAG_FTRACE) {
		/* Nothing is run in the probe's stead: the site is a NOP. */
		cmd_printf("  path      ftrace: the call site's call, with no trap; taken %lu\n",
			   r->taken[PROBE_EXEC_FTRACE]);
		cmd_printf("  %s\n", r->optimizer);
		return;
	}
	if (r->slot) {
		cmd_printf("  slot      0x%016lx\n", (unsigned long)r->slot);
		print_bytes("slot code", r->slot_code, sizeof(r->slot_code));
	} else {
		cmd_printf("  slot      none (emulated)\n");
	}
	cmd_printf("  path      %s; taken: emulated %lu, boosted %lu, single-stepped %lu,"
		   " detour copy %lu\n", probe_exec_name(r->info.path),
		   r->taken[PROBE_EXEC_EMULATE], r->taken[PROBE_EXEC_BOOST],
		   r->taken[PROBE_EXEC_STEP], r->taken[PROBE_EXEC_DETOUR]);
	cmd_printf("  %s\n", r->optimizer);
}

/* A gone probe's line: where it was, what happened to its code, and
 * how its owner removes it for good. */
static void print_gone(const struct kprobe_report *r, const char *place,
		       const struct shell_probe *sp)
{
	const struct kprobe_info *info = &r->info;

	cmd_printf("  gone      %s: %s", place, r->gone_why);
	if (sp)
		cmd_printf("; `probe del %u` removes it", info->id);
	else if (info->owner[0])
		cmd_printf("; `rmmod %s` removes it", info->owner);
	else if (info->event[0])
		cmd_printf("; it comes back when its module does, and `-:%s` in kprobe_events "
			   "removes it", info->event);
	cmd_printf("\n");
}

/* Everything about the probe numbered id (its report), whoever owns it;
 * -ENOENT if it is gone. */
static int show_one(unsigned int id)
{
	static struct kprobe_report r;	/* off the shell's stack */
	const struct kprobe_info *info = &r.info;
	struct shell_probe *sp = shell_probe_by_id(id);
	char flags[48], place[PROBE_PLACE_MAX];

	if (kprobe_report(id, &r) < 0) {
		cmd_eprintf("probe: no probe %u\n", id);	/* removed meanwhile */
		return -ENOENT;
	}
	probe_format_place(info, place, sizeof(place));
	probe_format_flags(info->flags, " ", flags, sizeof(flags));
	cmd_printf("probe %u: %c %s at 0x%016lx%s\n", id, probe_kind_letter(info->kind), place,
		   (unsigned long)info->addr, flags);
	cmd_printf("  owner     %s\n", owner_name(info, sp));
	if (info->flags & KPROBE_FLAG_GONE) {
		/* Its code is freed: nothing there to show. */
		print_gone(&r, place, sp);
		print_counts(info);
		return 0;
	}
	print_point(&r);
	print_counts(info);
	if (sp && sp->post)
		cmd_printf("  post      %lu runs of the post-handler\n", sp->post_runs);
	if (info->kind == KPROBE_KIND_R)
		cmd_printf("  instances %d in use, %d free (maxactive %d)\n", info->instances_in_use,
			   info->maxactive - info->instances_in_use, info->maxactive);
	return 0;
}

static int probe_show(const char *target)
{
	int n = find_targets(target), status = 0;

	for (int i = 0; i < n; i++) {
		int err = show_one(targets[i].id);

		if (err)
			status = err;
	}
	return n < 0 ? n : status;
}

/* A probe listed and then removed before its turn is not an error of
 * bare `probe show`, which shows what there is: show_one says it. */
static bool show_listed(const struct kprobe_info *info, void *ctx)
{
	(void)ctx;
	show_one(info->id);
	return true;
}

/* Bare `probe show`: every registered probe, in registration order. */
static int probe_show_all(void)
{
	if (for_each_probe(show_listed, NULL) == 0)
		cmd_printf("no probes\n");
	return 0;
}

static int probe_optimize(bool on)
{
	kprobes_set_optimization(on);
	cmd_printf("probes: optimization %s\n", on ? "on" : "off");
	return 0;
}

/* probe off|on: disarm or arm every probe at once. */
static int probe_arm(bool on)
{
	if (on)
		kprobes_global_arm();
	else
		kprobes_global_disarm();
	cmd_printf("probes %s\n", on ? "armed" : "disarmed");
	return 0;
}

static int cmd_probe(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";
	bool on = strcmp(sub, "on") == 0;

	if (strcmp(sub, "add") == 0 && argc >= 3)
		return probe_add(argc, argv);
	if (strcmp(sub, "list") == 0 && argc == 2)
		return probe_list();
	if ((on || strcmp(sub, "off") == 0) && argc == 2)
		return probe_arm(on);
	if ((on || strcmp(sub, "off") == 0) && argc == 3)
		return probe_enable(argv[2], on);
	if (strcmp(sub, "optimize") == 0 && argc == 3 &&
	    (strcmp(argv[2], "on") == 0 || strcmp(argv[2], "off") == 0))
		return probe_optimize(strcmp(argv[2], "on") == 0);
	if (strcmp(sub, "del") == 0 && argc == 3 && strcmp(argv[2], "all") == 0)
		return probe_del_all();
	if (strcmp(sub, "del") == 0 && argc == 3)
		return probe_del(argv[2]);
	if (strcmp(sub, "show") == 0 && argc == 3)
		return probe_show(argv[2]);
	if (strcmp(sub, "show") == 0 && argc == 2)
		return probe_show_all();
	return shell_usage(argv[0]);
}
SHELL_COMMAND("probe",
	      "add [-r [maxactive=N] | -j | -a] [-p] SYMBOL[+OFFSET]\nlist\non|off [TARGET]\n"
	      "optimize on|off\ndel TARGET|all\nshow [TARGET]",
	      "kprobes, jprobes, kretprobes; optimize on|off", cmd_probe);
