/* Loadable modules: ELF relocatable objects (.ko) linked into the running
 * kernel by `insmod`, as in Linux.
 *
 * A module is built by `make M=DIR` (docs/modules.md) against the
 * headers in include/linux/. What the loader reads from it:
 *
 *   .modinfo          NUL-separated key=value strings: name= (the
 *                     module's name, from its file name at build time),
 *                     vermagic= (the kernel build it is for, which must
 *                     be this one: tools/mkvermagic.py), license=, author=, description=, parm=NAME:text,
 *                     parmtype=NAME:type, depends= (the modules it needs,
 *                     for modinfo: modinfo.h)
 *   init_module       the global symbol module_init() aliases to the
 *                     module's init function; cleanup_module likewise
 *                     for module_exit() (a module without it cannot be
 *                     removed)
 *   __param           struct kernel_param entries (moduleparam.h)
 *   __ksymtab         struct kernel_symbol entries: what it exports
 *   .init.*           code and data used only by init (__init,
 *                     __initdata), freed once init has returned
 *   .kprobes.text     code marked __kprobes, never to be probed
 *   .nokprobe_list    addresses of functions marked NOKPROBE_SYMBOL
 *
 * Every pointer the loader takes from these (names, init and exit, the
 * parameters' variables, the never-probe list) is checked against the
 * module's own loaded sections before it is followed (declarations.c).
 *
 * The loader (kernel/module/loader.c) never calls the probes layer.
 * Layers that must know when module code appears or goes (the probes
 * layer must stop probes on code about to be freed) register a
 * module_notifier. */
#ifndef KERNEL_MODULE_MODULE_H
#define KERNEL_MODULE_MODULE_H

#include "lib/export.h"
#include "kernel/symtab.h"
#include "kernel/trace/ftrace_sites.h"
#include "lib/list.h"
#include "lib/types.h"

#define MODULE_NAME_LEN 56

struct kernel_param;
struct pseudo_node;

enum module_state {
	MODULE_STATE_COMING,	/* relocated, init not yet returned */
	MODULE_STATE_LIVE,	/* init returned 0 (its .init code is freed) */
	MODULE_STATE_GOING,	/* being removed, or init failed */
};

/* One piece of a module in the executable-memory region: text first
 * (executable, read-only), then rodata (read-only), then data and bss
 * (writable, never executable), each part page-aligned. */
struct module_layout {
	uintptr_t base;
	size_t size;		/* bytes, a multiple of the page size */
	size_t text_size;	/* [base, base + text_size) is code */
	size_t ro_size;		/* [base, base + ro_size) is read-only */
};

struct module_section {
	char name[32];
	uintptr_t addr;
};

struct module {
	char name[MODULE_NAME_LEN];
	enum module_state state;
	struct list_node node;		/* in the list of loaded modules */

	struct module_layout core_layout;	/* stays until rmmod */
	struct module_layout init_layout;	/* .init.*: freed after init */

	int (*init)(void);
	void (*exit)(void);		/* NULL: the module cannot be removed */

	/* Its symbols, for `sym`, backtraces and probes by name. */
	struct symtab_module symbols;
	/* What it exports to modules loaded after it. */
	const struct kernel_symbol *exports;
	size_t num_exports;

	/* Modules using this one's exports, and the ones it uses. */
	unsigned int users;
	struct module **uses;
	size_t num_uses;

	/* Code the module marks never to be probed. */
	uintptr_t kprobes_text_start;
	size_t kprobes_text_size;
	const uintptr_t *kprobe_blacklist;
	size_t num_kprobe_blacklist;

	/* Its function-tracer call sites outside init code, sorted, in a
	 * kmalloc'd array: the tracer's table while it is loaded. */
	struct ftrace_sites ftrace_sites;

	/* Where each allocated section of the .ko was placed, for GDB
	 * (tools/gdb/probeos.py loads the .ko's symbols at these addresses). */
	struct module_section *sections;
	size_t num_sections;

	/* Its parameters (in its own memory), and charp parameters'
	 * values, freed with the module. */
	const struct kernel_param *params;
	size_t num_params;
	char **param_strings;
	size_t num_param_strings;

	/* /sys/module/NAME, while it is loaded (kernel/module/sysfs.c). */
	struct pseudo_node *sysfs_dir;
};

/* Load the module in image[0..size) (a copy: the caller keeps its
 * buffer), set its parameters from args[0..nargs) ("name=value"), run its
 * init. Returns 0 or a negative errno; on error nothing is left behind
 * and a one-line reason has been printed: as a kernel message if the
 * file or its parameters are wrong (what Linux's loader logs), on the
 * calling command's standard error (kernel/cmd_output.h) if the module
 * is already loaded or its init failed (what insmod itself reports). */
int module_load(const void *image, size_t size, int nargs, char **args);
/* Remove a loaded module: -ENOENT if there is none by that name, -EBUSY
 * if another module uses it or it has no exit function, each after a
 * line on the calling command's standard error, as rmmod says it. */
int module_unload(const char *name);

/* How many loaded modules use the exports of the module called name,
 * or -ENOENT if none by that name is loaded (modprobe asks). */
int module_user_count(const char *name);

/* The module whose core or init memory holds addr, or NULL. Lock-free:
 * safe in a trap handler or a panic; call with preemption disabled
 * (a module is freed only a grace period after it is unlinked). */
struct module *module_of_address(uintptr_t addr);
/* Whether addr lies in mod's core memory, or in its init memory. */
bool within_module_core(uintptr_t addr, const struct module *mod);
bool within_module_init(uintptr_t addr, const struct module *mod);

/* Call fn for each loaded module, newest first, under the modules'
 * mutex (fn may sleep, but must not load or unload). */
void module_for_each(void (*fn)(struct module *mod, void *ctx), void *ctx);

/* What lsmod and /proc/modules show of a module, both from these
 * (listing.c; module_next_user is loader.c's, which rmmod asks too),
 * under the modules' mutex (in module_for_each's fn, say). The bytes of
 * memory it holds: its core, and its init code until that is freed. */
size_t module_size(const struct module *mod);
/* "Live", or "Loading" while its init runs, "Unloading" while it goes. */
const char *module_state_name(const struct module *mod);
/* The next module after after (NULL: from the first), newest first,
 * that uses mod's exports; NULL past the last. mod->users counts them. */
struct module *module_next_user(const struct module *mod, const struct module *after);

/* Call fn for each function mod marks never to be probed, with
 * sym->module its name: those its NOKPROBE_SYMBOL names, then those of
 * its .kprobes.text (as nokprobe_for_each does for the kernel's).
 * Returns the first non-zero value fn returned, or 0. Call it while mod
 * cannot go (inside module_for_each). */
int module_for_each_nokprobe(const struct module *mod, sym_visit_t fn, void *arg);

/* Notified of each module's state changes, in thread context:
 *   MODULE_STATE_COMING  relocated and protected, before init runs;
 *   MODULE_STATE_LIVE    init returned 0; its init memory is about to be
 *                        freed;
 *   MODULE_STATE_GOING   exit has run (or init failed); all its memory
 *                        is about to be freed.
 * A notifier cannot veto. */
struct module_notifier {
	void (*notify)(struct module_notifier *nb, enum module_state state,
		       struct module *mod);
	struct module_notifier *next;
};
void register_module_notifier(struct module_notifier *nb);

#endif
