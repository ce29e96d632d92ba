/*
 * Probes and loadable modules (kernel/module/module.h), as the Kprobes
 * guide describes them:
 *
 *  - code a module marks __kprobes or NOKPROBE_SYMBOL is never probed,
 *    nor is a module on its way out;
 *  - when a module goes, the probes on its code become [GONE]: disarmed
 *    while the code still exists, then never touched again, until
 *    `probe del` (or their owner) unregisters them. Probes on its init
 *    code go the same way once init has returned;
 *  - a probe the module itself registered and left behind, or whose
 *    handlers are the module's code, is unregistered with a warning:
 *    after the module is freed nothing may call into it. That same
 *    rule names a probe's owner at registration (kprobe.owner, which
 *    `probe list` shows, and which keeps the shell's hands off it).
 *
 * The loader never calls this layer: it learns of modules through the
 * notifier registered here (Linux's kprobes_module_callback).
 */
#include "kernel/module/module.h"
#include "kernel/probes/kprobes_internal.h"
#include "kernel/mm/heap.h"
#include "kernel/nokprobe.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

/* True if addr is code mod marks never to be probed. */
static bool __kprobes module_blacklisted(const struct module *mod, uintptr_t addr)
{
	struct symbol sym;

	if (addr - mod->kprobes_text_start < mod->kprobes_text_size)
		return true;
	if (sym_by_addr(addr, &sym) < 0)
		return false;
	for (size_t i = 0; i < mod->num_kprobe_blacklist; i++)
		if (mod->kprobe_blacklist[i] == sym.addr)
			return true;
	return false;
}

int __kprobes kprobes_check_module_address(uintptr_t addr)
{
	struct module *mod;
	int err = 0;

	rcu_read_lock();
	mod = module_of_address(addr);
	if (mod && mod->state == MODULE_STATE_GOING)
		err = -ENOENT;
	else if (mod && module_blacklisted(mod, addr))
		err = -EINVAL;
	rcu_read_unlock();
	return err;
}

static bool __kprobes in_module(const struct module *mod, const void *addr)
{
	return addr && (within_module_core((uintptr_t)addr, mod) ||
			within_module_init((uintptr_t)addr, mod));
}

/* Most addresses that tie a probe to a module (probe_ties). */
#define MAX_TIES 6

/* The addresses that tie p to whichever module holds them, into ties:
 * where p itself lives, and every handler a hit on p may call (NULL
 * where there is none). Returns how many. */
static int __kprobes probe_ties(const struct kprobe *p, const void *ties[MAX_TIES])
{
	const struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	const struct jprobe *jp = container_of(p, struct jprobe, kp);
	int n = 0;

	ties[n++] = p;
	ties[n++] = p->pre_handler;
	ties[n++] = p->post_handler;
	ties[n++] = p->fault_handler;
	if (p->type->kind == KPROBE_KIND_J)
		ties[n++] = jp->entry;
	if (p->type->kind == KPROBE_KIND_R) {
		ties[n++] = rp->handler;
		ties[n++] = rp->entry_handler;
	}
	return n;
}

/* Does p live in mod, or would a hit on it call mod's code? */
static bool __kprobes owned_by(const struct kprobe *p, const struct module *mod)
{
	const void *ties[MAX_TIES];
	int n = probe_ties(p, ties);

	for (int i = 0; i < n; i++)
		if (in_module(mod, ties[i]))
			return true;
	return false;
}

/* The first module owned_by finds, so that whichever module is removed
 * first takes p with it; p's owner stays loaded while p is registered. */
const struct module __kprobes *kprobes_owner(const struct kprobe *p)
{
	const void *ties[MAX_TIES];
	const struct module *mod = NULL;
	int n = probe_ties(p, ties);

	rcu_read_lock();
	for (int i = 0; i < n && !mod; i++)
		if (ties[i])
			mod = module_of_address((uintptr_t)ties[i]);
	rcu_read_unlock();
	return mod;
}

static const char *const kind_names[] = {
	[KPROBE_KIND_K] = "kprobe", [KPROBE_KIND_J] = "jprobe", [KPROBE_KIND_R] = "kretprobe",
};

static void __kprobes unregister_any(struct kprobe *p)
{
	if (p->type->kind == KPROBE_KIND_R)
		unregister_kretprobe(container_of(p, struct kretprobe, kp));
	else
		unregister_kprobe(p);	/* a jprobe is its kprobe */
}

/* A gone point's place as sym_format_offset names live code, "fn+0x4
 * [module]": the warning below names either. */
static void __kprobes gone_place(const struct point_gone *gone, char *buf, size_t size)
{
	if (gone->module[0])
		snprintf(buf, size, "%s [%s]", gone->where, gone->module);
	else
		strlcpy(buf, gone->where, size);
}

/* Unregister, with a warning, every probe mod owns. Taken one at a
 * time: unregistering needs the mutex this search holds. */
static void __kprobes remove_owned_probes(struct module *mod)
{
	for (;;) {
		struct kprobe *p, *found = NULL;
		char where[96];

		mutex_lock(&kprobe_mutex);
		list_for_each_entry(p, &all_kprobes, all_node)
			if (owned_by(p, mod)) {
				found = p;
				break;
			}
		where[0] = '\0';
		if (found && found->point->gone)
			gone_place(found->point->gone, where, sizeof(where));
		mutex_unlock(&kprobe_mutex);
		if (!found)
			return;
		if (!where[0])
			sym_format_offset((uintptr_t)found->addr, where, sizeof(where));
		kprintf("kprobes: warning: module %s left a %s registered on %s; unregistering it\n",
			mod->name, kind_names[found->type->kind], where);
		unregister_any(found);
	}
}

static void __kprobes kill_range(uintptr_t start, size_t size, const char *why)
{
	mutex_lock(&kprobe_mutex);
	kprobes_kill_range_locked(start, start + size, why);
	kprobe_ftrace_update_locked();
	mutex_unlock(&kprobe_mutex);
}

static void __kprobes module_changed(struct module_notifier *nb, enum module_state state,
				     struct module *mod)
{
	char why[96];

	(void)nb;
	if (state == MODULE_STATE_LIVE) {
		snprintf(why, sizeof(why), "the init code of module %s was freed", mod->name);
		kill_range(mod->init_layout.base, mod->init_layout.size, why);
	} else if (state == MODULE_STATE_GOING) {
		remove_owned_probes(mod);
		snprintf(why, sizeof(why), "module %s was removed", mod->name);
		kill_range(mod->core_layout.base, mod->core_layout.size, why);
		kill_range(mod->init_layout.base, mod->init_layout.size, why);
	}
}

static struct module_notifier kprobes_module_notifier = { .notify = module_changed };

void __kprobes kprobes_modules_init(void)
{
	register_module_notifier(&kprobes_module_notifier);
}
