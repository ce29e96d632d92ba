/*
 * The probes layer's reports (probe_report.h): copies of a probe's state
 * for whatever shows it, so that no command takes kprobe_mutex or reads a
 * probe point itself.
 *
 * Each report is filled with kprobe_mutex held, which keeps every probe
 * and point it looks at registered, and their flags, the optimizer's
 * state and the text as they are, until it is done: the fields of one
 * report describe one moment. Only the hit counts go on changing
 * meanwhile (hits take no lock), and each is read whole.
 */
#include "kernel/probes/kprobes_internal.h"
#include "kernel/probes/optimizer.h"
#include "kernel/nokprobe.h"
#include "kernel/symtab.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"
#include <asm/ftrace.h>

void __kprobes kprobes_name_place(uintptr_t addr, char *where, size_t size, char *module)
{
	struct symbol sym;

	module[0] = '\0';
	if (sym_by_addr(addr, &sym) < 0) {
		snprintf(where, size, "%p", (void *)addr);
		return;
	}
	/* The module apart, as Linux's list prints it in a column of its
	 * own: a listing that wants "fn+0x4 [module]" adds the brackets. */
	snprintf(where, size, "%s+0x%lx", sym.name, (unsigned long)(addr - sym.addr));
	if (sym.module)
		strlcpy(module, sym.module, MODULE_NAME_LEN);
}

/* What every report says of p, a registered probe. */
static void __kprobes fill_info_locked(const struct kprobe *p, struct kprobe_info *info)
{
	const struct probe_point *pp = p->point;

	memset(info, 0, sizeof(*info));
	info->id = p->id;
	info->addr = (uintptr_t)p->addr;
	info->kind = p->type->kind;
	info->flags = p->flags;
	info->nhit = kprobe_nhit(p);
	info->nmissed = kprobe_nmissed(p);
	info->probe = p;
	/* The owner is loaded while p is registered (kprobes_owner). */
	if (p->owner)
		strlcpy(info->owner, p->owner->name, sizeof(info->owner));
	if (p->event_name)
		strlcpy(info->event, p->event_name, sizeof(info->event));
	if (pp->gone) {
		/* Named when it went: its module's symbols are gone too. */
		strlcpy(info->where, pp->gone->where, sizeof(info->where));
		strlcpy(info->module, pp->gone->module, sizeof(info->module));
	} else {
		kprobes_name_place(info->addr, info->where, sizeof(info->where), info->module);
		info->opt_state = pp->opt_state;
		info->path = kprobe_exec_path(pp);
		info->insn_len = pp->on_ftrace ? ARCH_FTRACE_SITE_SIZE : arch_probe_insn_length(pp);
	}
	if (p->type->report_locked)
		p->type->report_locked(p, info);
}

int __kprobes kprobes_snapshot(struct kprobe_info *out, int first, int max)
{
	struct kprobe *p;
	int n = 0;

	mutex_lock(&kprobe_mutex);
	list_for_each_entry(p, &all_kprobes, all_node) {
		if (n >= first && n - first < max)
			fill_info_locked(p, &out[n - first]);
		n++;
	}
	mutex_unlock(&kprobe_mutex);
	return n;
}

int __kprobes kprobe_get_info(const struct kprobe *p, struct kprobe_info *info)
{
	int err = -ENOENT;

	mutex_lock(&kprobe_mutex);
	if (kprobe_registered_locked(p)) {
		fill_info_locked(p, info);
		err = 0;
	}
	mutex_unlock(&kprobe_mutex);
	return err;
}

/* The point's part of a report: its text, its instruction, its slot and
 * its counts. The point's code still exists (it is not gone). */
static void __kprobes fill_point_locked(struct probe_point *pp, struct kprobe_report *r)
{
	kprobes_read_text((uintptr_t)pp->addr, r->original, sizeof(r->original));
	memcpy(r->live, pp->addr, sizeof(r->live));
	if (pp->on_ftrace)
		snprintf(r->insn, sizeof(r->insn), "its function's call site: the site calls the"
			 " handlers (on ftrace), no breakpoint");
	else
		arch_describe_probe(pp, r->insn, sizeof(r->insn));
	r->slot = (uintptr_t)pp->slot;
	if (pp->slot)
		memcpy(r->slot_code, pp->slot, sizeof(r->slot_code));
	for (int how = 0; how < PROBE_EXEC_KINDS; how++)
		r->taken[how] = point_exec_count(pp, (enum probe_exec)how);
	r->opt_hits = point_opt_hits(pp);
	optimizer_describe_locked(pp, r->optimizer, sizeof(r->optimizer));
}

/* The registered probe numbered id, or NULL. A walk of every probe, as
 * only a command asks, one probe at a time. */
static struct kprobe __kprobes *probe_by_id_locked(unsigned int id)
{
	struct kprobe *p;

	list_for_each_entry(p, &all_kprobes, all_node)
		if (p->id == id)
			return p;
	return NULL;
}

int __kprobes kprobe_report(unsigned int id, struct kprobe_report *r)
{
	struct kprobe *p;
	int err = -ENOENT;

	memset(r, 0, sizeof(*r));
	mutex_lock(&kprobe_mutex);
	p = probe_by_id_locked(id);
	if (p) {
		fill_info_locked(p, &r->info);
		if (p->point->gone)
			strlcpy(r->gone_why, p->point->gone->why, sizeof(r->gone_why));
		else
			fill_point_locked(p->point, r);
		err = 0;
	}
	mutex_unlock(&kprobe_mutex);
	return err;
}

bool __kprobes kprobe_blacklisted(uintptr_t addr)
{
	return within_nokprobe_text(addr) || kprobes_check_module_address(addr) == -EINVAL;
}
