/* The kernel's own symbol table (like Linux's kallsyms).
 *
 * tools/mksymtab.py turns `nm` output of a first link into an assembly
 * file that the next link includes (see the Makefile's multi-pass link),
 * so the running kernel can name its own addresses. */
#ifndef KERNEL_SYMTAB_H
#define KERNEL_SYMTAB_H

#include "lib/types.h"

/*
 * One entry, sorted by address: 16 bytes. names + name_off is the
 * symbol's name, and the byte just before it its type, the letter nm
 * gives it (T/t text, D/d data, B/b bss, R/r read-only data, W and V
 * weak code and objects; a capital for a global symbol, a small letter
 * for a static one). Linux's kallsyms keeps the letter with the name
 * too: one byte a symbol, where a field of its own would take four
 * (eight, aligned).
 */
struct symtab_entry {
	uint64_t addr;
	uint32_t size;
	uint32_t name_off;
};

struct symtab {
	const struct symtab_entry *entries;
	size_t count;
	const char *names;	/* "Tvfs_read\0tlist_dir\0...": letter, name, NUL */
};

struct symbol {
	const char *name;
	uintptr_t addr;
	size_t size;
	char type;		/* the letter, as in struct symtab_entry */
	const char *module;	/* the loaded module it is in; NULL: the kernel */
};

/* Entry i's name and type letter. */
static inline const char *symtab_name(const struct symtab *tab, size_t i)
{
	return tab->names + tab->entries[i].name_off;
}

static inline char symtab_type(const struct symtab *tab, size_t i)
{
	return tab->names[tab->entries[i].name_off - 1];
}

/* Whether a type letter is code's: t or T, or w or W (weak, and not an
 * object, which nm marks v or V). */
static inline bool sym_type_is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/*
 * The symbols of code loaded at run time (a module's), searched beside
 * the kernel's own table. table covers the addresses [start, end) and
 * [init_start, init_end); an entry outside both is ignored, so a module
 * drops the symbols of its freed init code by emptying that range.
 *
 * The list is read without a lock (in panics and probe hits); whoever
 * adds and removes tables serializes those calls, and frees a removed
 * table only after a grace period (kernel/rcu.h).
 */
struct symtab_module {
	struct symtab table;
	const char *module;
	uintptr_t start, end;
	uintptr_t init_start, init_end;
	struct symtab_module *next;
};

/* Add a module's table to the lookups, or remove it. */
void symtab_add_module(struct symtab_module *m);
void symtab_remove_module(struct symtab_module *m);
/* Stop naming addresses in m's init range (its init code was freed). */
void symtab_drop_module_init(struct symtab_module *m);

/* The kernel's table (generated; empty in the first link pass). */
extern const struct symtab kernel_symtab;

/* Find a symbol by exact name. Returns 0 or -ENOENT. */
int symtab_lookup_name(const struct symtab *tab, const char *name, struct symbol *out);
/* Find the symbol containing addr (addr in [start, start+size), or the
 * nearest symbol before addr if it has size 0). Returns 0 or -ENOENT. */
int symtab_lookup_addr(const struct symtab *tab, uintptr_t addr, struct symbol *out);

/* What symtab_for_each_function calls for each function: non-zero
 * stops the walk. */
typedef int (*sym_visit_t)(const struct symbol *sym, void *arg);

/* Call fn for each function of tab that starts in [start, end), in
 * address order, as symtab_lookup_addr names it, with the size it
 * takes: its own, or for a symbol without one (an assembly label), up
 * to the next symbol or end. Code a function covers is not visited
 * again for another name it has. Returns the first non-zero value fn
 * returned, or 0. */
int symtab_for_each_function(const struct symtab *tab, uintptr_t start, uintptr_t end,
			     sym_visit_t fn, void *arg);

/* The same on the kernel's own table and the loaded modules' tables.
 * By name: the kernel's symbol first, then the modules' in load order;
 * "module:name" looks in that module only. By address: a module's
 * symbol if addr lies in the module, else the kernel's. */
int sym_by_name(const char *name, struct symbol *out);
int sym_by_addr(uintptr_t addr, struct symbol *out);

/* Whether the table of a module called module is loaded, so that
 * "module:name" can be looked up. Lock-free: call it in one
 * rcu_read_lock() section, as sym_at. */
bool sym_module_loaded(const char *module);

/* Call visit for every symbol named name (a kernel has several static
 * functions of one name): the kernel's, then each module's, until visit
 * returns non-zero, which is returned; 0 once all are seen. Call it in
 * one rcu_read_lock() section, as sym_at. */
int sym_each_named(const char *name, sym_visit_t visit, void *arg);

/* The symbol at position pos of a listing of every table, the kernel's
 * first and then each loaded module's, oldest first, each in address
 * order (/proc/kallsyms): 0, or -ENOENT past the last. A module's symbol
 * has out->module set, and its name is in the module's table: call this
 * and use the name inside one rcu_read_lock() section (kernel/rcu.h),
 * as a module's table is freed a grace period after it is removed. */
int sym_at(uint64_t pos, struct symbol *out);

/* Format addr as "name+0xoff/0xsize" (or "0x..." if unknown) into buf,
 * followed by " [module]" for an address in a loaded module. */
void sym_format(uintptr_t addr, char *buf, size_t size);
/* The same for a return address in a backtrace: named by the call before
 * it, which matters when that call ends its function. */
void sym_format_return(uintptr_t ret, char *buf, size_t size);
/* The same without the size: "name+0xoff". */
void sym_format_offset(uintptr_t addr, char *buf, size_t size);
/* The name alone (Linux's %ps): "vfs_read", "name [module]". And the
 * name of the function a return address returns into. */
void sym_format_name(uintptr_t addr, char *buf, size_t size);
void sym_format_caller(uintptr_t ret, char *buf, size_t size);
/* If name is a compiler's clone of a function (GCC names them
 * fn.part.0, fn.constprop.0, fn.isra.0, fn.cold), look up fn into
 * *orig and return 0; -ENOENT otherwise. */
int sym_clone_origin(const char *name, struct symbol *orig);

#endif
