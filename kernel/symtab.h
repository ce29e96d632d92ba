/* The kernel's own symbol table (like Linux's kallsyms).
 *
 * tools/mksymtab.py turns `nm` output of a first link into an assembly
 * file that the next link includes (see the Makefile's multi-pass link),
 * so the running kernel can name its own addresses. */
#ifndef KERNEL_SYMTAB_H
#define KERNEL_SYMTAB_H

#include "lib/types.h"

enum sym_type { SYM_TEXT = 0, SYM_DATA = 1 };

/* One entry, sorted by address. name_off indexes the string blob. */
struct symtab_entry {
	uint64_t addr;
	uint32_t size;
	uint32_t name_off;
	uint32_t type;
	uint32_t reserved;
};

struct symtab {
	const struct symtab_entry *entries;
	size_t count;
	const char *names;
};

struct symbol {
	const char *name;
	uintptr_t addr;
	size_t size;
	enum sym_type type;
};

/* The kernel's table (generated; empty in the first link pass). */
extern const struct symtab kernel_symtab;

/* Find a symbol by exact name. Returns 0 or -ENOENT. */
int symtab_lookup_name(const struct symtab *tab, const char *name, struct symbol *out);
/* Find the symbol containing addr (addr in [start, start+size), or the
 * nearest symbol before addr if it has size 0). Returns 0 or -ENOENT. */
int symtab_lookup_addr(const struct symtab *tab, uintptr_t addr, struct symbol *out);

/* The same on the kernel's own table. */
int sym_by_name(const char *name, struct symbol *out);
int sym_by_addr(uintptr_t addr, struct symbol *out);

/* Format addr as "name+0xoff/0xsize" (or "0x..." if unknown) into buf. */
void sym_format(uintptr_t addr, char *buf, size_t size);
/* The same for a return address in a backtrace: named by the call before
 * it, which matters when that call ends its function. */
void sym_format_return(uintptr_t ret, char *buf, size_t size);
/* The same without the size: "name+0xoff". */
void sym_format_offset(uintptr_t addr, char *buf, size_t size);
/* If name is a compiler's clone of a function (GCC names them
 * fn.part.0, fn.constprop.0, fn.isra.0, fn.cold), look up fn into
 * *orig and return 0; -ENOENT otherwise. */
int sym_clone_origin(const char *name, struct symbol *orig);

#endif
