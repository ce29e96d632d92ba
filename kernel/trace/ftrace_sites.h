/* The function tracer's call sites (docs/ftrace.md).
 *
 * The compiler leaves a few bytes of NOP at the entry of every function
 * not marked notrace (lib/types.h), and records each one's address
 * (FTRACE_CFLAGS, arch/ARCH/arch.mk): a site is where the function
 * tracer, and a kprobe on a function's entry, can patch in a call. The
 * kernel's sites are one table, gathered by the linker and sorted by
 * the build (tools/sortsites.py); each loaded module adds a table of
 * its own (kernel/module/declarations.c). A site's address is its
 * function's: the first byte of the NOP. */
#ifndef KERNEL_TRACE_FTRACE_SITES_H
#define KERNEL_TRACE_FTRACE_SITES_H

#include "lib/list.h"
#include "lib/types.h"

/* One table of sites, sorted by address: the addresses [start, end). */
struct ftrace_sites {
	const uintptr_t *start, *end;
	const char *module;	/* the loaded module they are in; NULL: the kernel */
	/* Per site, what it is patched to do: an enum ftrace_site_call
	 * (kernel/trace/arch_ftrace.h), 0 for the NOP (kernel/trace/
	 * ftrace.c allocates the kernel's at boot, a module's on its first
	 * change, under its lock; the table's owner frees it with the
	 * table). */
	uint8_t *call;
	struct list_node node;	/* in the list of every table */
};

/*
 * Add a module's table to the sites, after every other, or remove it.
 * The tables are read without a lock (a hit looks its site up); the
 * module loader frees a removed table (and its on array) only after a
 * grace period (kernel/rcu.h). Thread context: they take the lock
 * below.
 */
void ftrace_sites_add(struct ftrace_sites *sites);
void ftrace_sites_remove(struct ftrace_sites *sites);

/* The list of every table, to walk with list_for_each_entry_rcu, or
 * with list_for_each_entry between ftrace_sites_lock and _unlock, which
 * keep tables from coming or going (a sleeping lock: the patcher holds
 * it while it changes the sites of every table). */
struct list_node *ftrace_sites_tables(void);
void ftrace_sites_lock(void);
void ftrace_sites_unlock(void);


/* Whether ip is a call site: the entry of a function that can be
 * traced. Inside an RCU read-side section, or with modules held still. */
bool ftrace_site_at(uintptr_t ip);

/* ftrace_site_at in a read-side section of its own: for any thread,
 * about any address (a module's site stays one only while it is loaded). */
bool ftrace_is_site(uintptr_t ip);

/* The site at position pos, counting the kernel's first, then each
 * module's in load order (the order of available_filter_functions): its
 * address in *ip and its module (NULL: the kernel) in *module. Returns
 * 0, or -ENOENT past the last. In an RCU read-side section, which keeps
 * *module valid. */
int ftrace_site_nth(uint64_t pos, uintptr_t *ip, const char **module);

#endif
