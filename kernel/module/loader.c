/*
 * The module loader: insmod's and rmmod's work (module.h).
 *
 * Loading, step by step (module_load):
 *   1. check the ELF file (elf_check.c) and find its tables;
 *   2. read the name from .modinfo, refuse a module built for another
 *      kernel (vermagic) and a second copy;
 *   3. lay the allocated sections out in executable memory (layout.c);
 *   4. resolve every symbol and apply every relocation (symbols.c);
 *   5. find what the module declares: init and exit, exports,
 *      parameters, code never to probe, each pointer checked against
 *      the module's own sections (declarations.c); set the parameters
 *      (params.c);
 *   6. seal code and rodata, publish the module and its symbols, tell
 *      the notifiers it is COMING, and run its init;
 *   7. LIVE: free its init memory; or, if init failed, GOING: undo it all.
 * Steps 1 to 5 only read the file and write the module's own memory
 * (prepare_module): none of the module's code runs before step 6, so
 * the host fuzzer (tests/fuzz/) runs them on any input it likes.
 * Unloading (module_unload) runs exit, tells the notifiers the module is
 * GOING, unpublishes it, waits a grace period and frees it.
 *
 * modules_mutex serializes loading and unloading; the list of modules is
 * also read without it (module_of_address), RCU-style.
 */
#include "kernel/cmd_output.h"
#include "kernel/module/arch_module.h"
#include "kernel/module/elf_check.h"
#include "kernel/module/internal.h"
#include "kernel/module/modinfo.h"
#include "kernel/mm/heap.h"
#include "kernel/mutex.h"
#include "kernel/printk.h"
#include "kernel/rcu.h"
#include "kernel/trace/ftrace.h"
#include "generated/vermagic.h"
#include "lib/errno.h"
#include "lib/string.h"

LIST_HEAD(modules);
static struct mutex modules_mutex = MUTEX_INIT(modules_mutex, "modules");
static struct module_notifier *notifiers;

void register_module_notifier(struct module_notifier *nb)
{
	struct module_notifier **link = &notifiers;

	mutex_lock(&modules_mutex);
	while (*link)
		link = &(*link)->next;
	nb->next = NULL;
	*link = nb;
	mutex_unlock(&modules_mutex);
}

static void notify(struct module *mod, enum module_state state)
{
	mod->state = state;
	for (struct module_notifier *nb = notifiers; nb; nb = nb->next)
		nb->notify(nb, state, mod);
}

unsigned int find_section(const struct load_info *li, const char *name)
{
	for (unsigned int i = 1; i < li->eh->e_shnum; i++)
		if (strcmp(section_name(li, i), name) == 0)
			return i;
	return 0;
}

/* Step 1: the checked file's headers and tables. */
static int read_tables(struct load_info *li)
{
	char why[128];

	if (module_elf_check(li->image, li->size, arch_module_machine, why, sizeof(why)) < 0) {
		kprintf("insmod: %s\n", why);
		return -ENOEXEC;
	}
	li->eh = (const Elf64_Ehdr *)li->image;
	li->sh = elf_section(li->eh, 0);
	li->secstrings = elf_section_data(li->eh, elf_section(li->eh, li->eh->e_shstrndx));
	li->syms = elf_symbols(li->eh, &li->nsyms);
	li->strtab = elf_section_data(li->eh, elf_section(li->eh, elf_symtab_section(li->eh)->sh_link));
	li->sec_addr = kzalloc(li->eh->e_shnum * sizeof(*li->sec_addr));
	li->sym_value = kzalloc((li->nsyms + 1) * sizeof(*li->sym_value));
	return li->sec_addr && li->sym_value ? 0 : -ENOMEM;
}

/* The value of "key=" in the module's .modinfo (modinfo.h), or NULL. */
static const char *modinfo(const struct load_info *li, const char *key)
{
	unsigned int i = find_section(li, ".modinfo");

	/* The ELF check made .modinfo PROGBITS, inside the file. */
	if (!i)
		return NULL;
	return modinfo_get(elf_section_data(li->eh, &li->sh[i]), li->sh[i].sh_size, key);
}

static struct module *find_module(const char *name)
{
	struct module *m;

	list_for_each_entry(m, &modules, node)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}

/* Step 2: the name, and the kernel build the module was built for,
 * which must be this one (as Linux checks vermagic): a module compiled
 * against other headers may lay out every shared structure differently. */
static int read_modinfo(struct load_info *li)
{
	const char *name = modinfo(li, "name");
	const char *vermagic = modinfo(li, "vermagic");

	if (!name || !*name || strlen(name) >= MODULE_NAME_LEN) {
		kprintf("insmod: no module name in .modinfo (not built by make M=DIR?)\n");
		return -ENOEXEC;
	}
	if (!vermagic || strcmp(vermagic, VERMAGIC_STRING) != 0) {
		kprintf("insmod: %s was built for kernel '%s', this is '%s'\n", name,
			vermagic ? vermagic : "(no vermagic)", VERMAGIC_STRING);
		return -ENOEXEC;
	}
	if (find_module(name)) {
		cmd_eprintf("insmod: module %s is already loaded\n", name);
		return -EEXIST;
	}
	strlcpy(li->mod->name, name, sizeof(li->mod->name));
	return 0;
}

/* Where each loaded section went, for the debugger. */
static int record_sections(struct load_info *li)
{
	struct module *mod = li->mod;
	size_t n = 0;

	for (unsigned int i = 1; i < li->eh->e_shnum; i++)
		n += li->sec_addr[i] != 0;
	mod->sections = kzalloc((n + 1) * sizeof(*mod->sections));
	if (!mod->sections)
		return -ENOMEM;
	for (unsigned int i = 1; i < li->eh->e_shnum; i++) {
		struct module_section *s = &mod->sections[mod->num_sections];

		if (!li->sec_addr[i])
			continue;
		strlcpy(s->name, section_name(li, i), sizeof(s->name));
		s->addr = li->sec_addr[i];
		mod->num_sections++;
	}
	return 0;
}

void free_module(struct module *mod)
{
	for (size_t i = 0; i < mod->num_uses; i++)
		mod->uses[i]->users--;
	for (size_t i = 0; i < mod->num_param_strings; i++)
		kfree(mod->param_strings[i]);
	kfree(mod->param_strings);
	kfree(mod->uses);
	kfree(mod->sections);
	kfree((void *)mod->symbols.table.entries);
	kfree((void *)mod->symbols.table.names);
	kfree((void *)mod->ftrace_sites.start);
	kfree(mod->ftrace_sites.call);
	free_module_layout(&mod->core_layout);
	free_module_layout(&mod->init_layout);
	kfree(mod);
}

static void publish(struct module *mod)
{
	struct symtab_module *st = &mod->symbols;
	int err;

	st->start = mod->core_layout.base;
	st->end = mod->core_layout.base + mod->core_layout.size;
	st->init_start = mod->init_layout.base;
	st->init_end = mod->init_layout.base + mod->init_layout.size;
	/* Newest first, as Linux lists modules (lsmod, /proc/modules). */
	list_add_rcu(&mod->node, &modules);
	symtab_add_module(st);
	ftrace_sites_add(&mod->ftrace_sites);
	/* A tracer of every function traces the module's from its init on. */
	err = ftrace_update_sites();
	if (err)
		printk(KERN_WARNING "module %s: its call sites could not be patched: %d (%s)\n",
		       mod->name, err, strerror(err));
}

static void unpublish(struct module *mod)
{
	ftrace_sites_remove(&mod->ftrace_sites);
	symtab_remove_module(&mod->symbols);
	list_del_rcu(&mod->node);
	/* Lock-free readers (a backtrace, a probe hit) may still be
	 * looking at it. */
	synchronize_rcu();
}

/* Step 7, success: init has returned; its code and data go. */
static void free_init(struct module *mod)
{
	struct module_layout init = mod->init_layout;

	notify(mod, MODULE_STATE_LIVE);
	symtab_drop_module_init(&mod->symbols);
	/* Lock-free readers stop finding addresses in it (within_module_init)
	 * before the memory goes. */
	__atomic_store_n(&mod->init_layout.size, 0, __ATOMIC_RELEASE);
	synchronize_rcu();
	free_module_layout(&init);
	mod->init_layout.base = mod->init_layout.text_size = mod->init_layout.ro_size = 0;
}

/* Steps 6 and 7. Returns init's error. */
static int start_module(struct module *mod)
{
	int err;

	publish(mod);
	notify(mod, MODULE_STATE_COMING);
	err = mod->init ? mod->init() : 0;
	if (err) {
		cmd_eprintf("insmod: init of %s failed: %d (%s); module unloaded\n", mod->name, err,
			    strerror(err));
		notify(mod, MODULE_STATE_GOING);
		unpublish(mod);
		free_module(mod);
		return err < 0 ? err : -EINVAL;
	}
	free_init(mod);
	return 0;
}

int prepare_module(struct load_info *li, int nargs, char **args)
{
	int err = read_tables(li);

	if (!err)
		err = read_modinfo(li);
	if (!err)
		err = layout_and_copy(li);
	if (!err)
		err = resolve_symbols(li);
	if (!err)
		err = apply_relocations(li);
	if (!err)
		err = record_sections(li);
	if (!err)
		err = read_declarations(li, nargs, args);
	if (!err)	/* after the exports, whose symbols it marks */
		err = build_module_symtab(li);
	if (!err)
		err = protect_module(li->mod);
	if (err) {
		if (err == -ENOMEM)
			kprintf("insmod: out of memory\n");
		free_module(li->mod);
	}
	kfree(li->sec_addr);
	kfree(li->sym_value);
	return err;
}

static int load_locked(struct load_info *li, int nargs, char **args)
{
	int err = prepare_module(li, nargs, args);

	return err ? err : start_module(li->mod);
}

int module_load(const void *image, size_t size, int nargs, char **args)
{
	struct load_info li = { .image = image, .size = size };
	int err;

	li.mod = kzalloc(sizeof(*li.mod));
	if (!li.mod)
		return -ENOMEM;
	mutex_lock(&modules_mutex);
	err = load_locked(&li, nargs, args);
	mutex_unlock(&modules_mutex);
	return err;
}

static int unload_locked(const char *name)
{
	struct module *mod = find_module(name);

	if (!mod) {
		cmd_eprintf("rmmod: no module %s is loaded\n", name);
		return -ENOENT;
	}
	if (mod->users) {
		cmd_eprintf("rmmod: %s is in use by %s\n", name, module_next_user(mod, NULL)->name);
		return -EBUSY;
	}
	if (!mod->exit && mod->init) {
		cmd_eprintf("rmmod: %s has no exit function and cannot be removed\n", name);
		return -EBUSY;
	}
	mod->state = MODULE_STATE_GOING;
	if (mod->exit)
		mod->exit();
	notify(mod, MODULE_STATE_GOING);
	unpublish(mod);
	free_module(mod);
	return 0;
}

int module_unload(const char *name)
{
	int err;

	mutex_lock(&modules_mutex);
	err = unload_locked(name);
	mutex_unlock(&modules_mutex);
	return err;
}

int module_user_count(const char *name)
{
	struct module *mod;
	int n;

	mutex_lock(&modules_mutex);
	mod = find_module(name);
	n = mod ? (int)mod->users : -ENOENT;
	mutex_unlock(&modules_mutex);
	return n;
}

bool within_module_core(uintptr_t addr, const struct module *mod)
{
	return addr - mod->core_layout.base < mod->core_layout.size;
}

bool within_module_init(uintptr_t addr, const struct module *mod)
{
	return addr - mod->init_layout.base < __atomic_load_n(&mod->init_layout.size, __ATOMIC_ACQUIRE);
}

struct module *module_of_address(uintptr_t addr)
{
	struct module *m;

	list_for_each_entry_rcu(m, &modules, node)
		if (within_module_core(addr, m) || within_module_init(addr, m))
			return m;
	return NULL;
}

void module_for_each(void (*fn)(struct module *mod, void *ctx), void *ctx)
{
	struct module *m;

	mutex_lock(&modules_mutex);
	list_for_each_entry(m, &modules, node)
		fn(m, ctx);
	mutex_unlock(&modules_mutex);
}

static bool uses(const struct module *m, const struct module *mod)
{
	for (size_t i = 0; i < m->num_uses; i++)
		if (m->uses[i] == mod)
			return true;
	return false;
}

struct module *module_next_user(const struct module *mod, const struct module *after)
{
	struct list_node *node = after ? after->node.next : modules.next;

	for (; node != &modules; node = node->next) {
		struct module *m = list_entry(node, struct module, node);

		if (uses(m, mod))
			return m;
	}
	return NULL;
}

void modules_lock(void)
{
	mutex_lock(&modules_mutex);
}

void modules_unlock(void)
{
	mutex_unlock(&modules_mutex);
}
