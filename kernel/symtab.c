/* Looking up the kernel's symbol table.
 *
 * The table is generated at build time (tools/mksymtab.py) as an array
 * of entries sorted by address plus one blob of NUL-terminated names.
 * This file only reads it, and uses nothing but lib/, so the host unit
 * tests can compile it unchanged and feed it a table of their own.
 */
#include "kernel/symtab.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

static void fill_symbol(const struct symtab *tab, size_t i, struct symbol *out)
{
	const struct symtab_entry *e = &tab->entries[i];

	out->name = symtab_name(tab, i);
	out->addr = e->addr;
	out->size = e->size;
	out->type = symtab_type(tab, i);
	out->module = NULL;
}

/*
 * A plain linear scan. The table is sorted by address because that is
 * the lookup that matters (naming addresses in backtraces and panics);
 * looking up by name only serves the `sym` shell command and tests, and
 * comparing a few thousand names takes well under a millisecond. A
 * second, name-sorted index would make the table and its generator
 * bigger for no difference anyone could notice.
 *
 * Static functions in different files can share a name; the first one,
 * the one with the lowest address, is returned.
 */
int symtab_lookup_name(const struct symtab *tab, const char *name,
		       struct symbol *out)
{
	size_t i;

	for (i = 0; i < tab->count; i++) {
		if (strcmp(symtab_name(tab, i), name) == 0) {
			fill_symbol(tab, i, out);
			return 0;
		}
	}
	return -ENOENT;
}

/* Index of the last entry whose address is <= addr, or -1 if there is
 * none. Binary search: entries[0, lo) are <= addr, entries[hi, count)
 * are above it, and the range in between shrinks to nothing. */
static long last_at_or_below(const struct symtab *tab, uintptr_t addr)
{
	size_t lo = 0, hi = tab->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tab->entries[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/*
 * Several symbols can start at the same address (an alias, or a label
 * at the start of a function). Among those that start at entries[i]'s
 * address, take one whose [start, start + size) holds addr; failing that,
 * one of size 0, whose extent is unknown and so may hold addr too.
 */
int symtab_lookup_addr(const struct symtab *tab, uintptr_t addr,
		       struct symbol *out)
{
	long i = last_at_or_below(tab, addr);
	long sizeless = -1;
	uint64_t start;

	if (i < 0)
		return -ENOENT;
	start = tab->entries[i].addr;
	for (; i >= 0 && tab->entries[i].addr == start; i--) {
		const struct symtab_entry *e = &tab->entries[i];

		if (addr - e->addr < e->size) {
			fill_symbol(tab, i, out);
			return 0;
		}
		if (e->size == 0 && sizeless < 0)
			sizeless = i;
	}
	if (sizeless < 0)
		return -ENOENT;
	fill_symbol(tab, sizeless, out);
	return 0;
}

/* Where the next symbol after the ones at entries[i]'s address starts,
 * or limit if none does before it: how far a symbol without a size
 * reaches. */
static uintptr_t next_start(const struct symtab *tab, size_t i, uintptr_t limit)
{
	uint64_t addr = tab->entries[i].addr;

	while (i < tab->count && tab->entries[i].addr == addr)
		i++;
	return i < tab->count ? MIN(tab->entries[i].addr, limit) : limit;
}

int symtab_for_each_function(const struct symtab *tab, uintptr_t start, uintptr_t end,
			     sym_visit_t fn, void *arg)
{
	/* The first entry at or above start: one past the last below it. */
	size_t i = start ? (size_t)(last_at_or_below(tab, start - 1) + 1) : 0;

	while (i < tab->count && tab->entries[i].addr < end) {
		uintptr_t addr = tab->entries[i].addr, reach = addr + 1;
		struct symbol sym;

		if (sym_type_is_text(symtab_type(tab, i)) && symtab_lookup_addr(tab, addr, &sym) == 0) {
			int ret;

			reach = sym.size ? MIN(addr + sym.size, end) : next_start(tab, i, end);
			sym.size = reach - addr;
			ret = fn(&sym, arg);
			if (ret)
				return ret;
		}
		/* Past the code just visited: its other names, and any
		 * symbol inside it, are the same function. */
		while (i < tab->count && tab->entries[i].addr < reach)
			i++;
	}
	return 0;
}

/* The loaded modules' tables, oldest first (see symtab.h). */
static struct symtab_module *module_tables;

void symtab_add_module(struct symtab_module *m)
{
	struct symtab_module **link = &module_tables;

	while (*link)
		link = &(*link)->next;
	m->next = NULL;
	__atomic_store_n(link, m, __ATOMIC_RELEASE);
}

void symtab_remove_module(struct symtab_module *m)
{
	struct symtab_module **link = &module_tables;

	while (*link && *link != m)
		link = &(*link)->next;
	if (*link)
		__atomic_store_n(link, m->next, __ATOMIC_RELEASE);
}

void symtab_drop_module_init(struct symtab_module *m)
{
	__atomic_store_n(&m->init_end, m->init_start, __ATOMIC_RELEASE);
}

static struct symtab_module *first_module(void)
{
	return __atomic_load_n(&module_tables, __ATOMIC_ACQUIRE);
}

static struct symtab_module *next_module(const struct symtab_module *m)
{
	return __atomic_load_n(&m->next, __ATOMIC_ACQUIRE);
}

bool sym_module_loaded(const char *module)
{
	for (const struct symtab_module *m = first_module(); m; m = next_module(m))
		if (!strcmp(m->module, module))
			return true;
	return false;
}

static bool module_covers(const struct symtab_module *m, uintptr_t addr)
{
	return (addr >= m->start && addr < m->end) ||
	       (addr >= m->init_start && addr < __atomic_load_n(&m->init_end, __ATOMIC_ACQUIRE));
}

/* Look name up in one module's table, skipping freed init symbols
 * (the scan goes on past them: a core symbol may share the name). */
static int module_lookup_name(const struct symtab_module *m, const char *name,
			      struct symbol *out)
{
	for (size_t i = 0; i < m->table.count; i++) {
		const struct symtab_entry *e = &m->table.entries[i];

		if (module_covers(m, e->addr) && strcmp(symtab_name(&m->table, i), name) == 0) {
			fill_symbol(&m->table, i, out);
			out->module = m->module;
			return 0;
		}
	}
	return -ENOENT;
}

/* "module:name": the part before the colon names the module. */
static int sym_by_module_name(const char *name, const char *colon, struct symbol *out)
{
	size_t len = (size_t)(colon - name);

	for (const struct symtab_module *m = first_module(); m; m = next_module(m))
		if (strlen(m->module) == len && strncmp(m->module, name, len) == 0)
			return module_lookup_name(m, colon + 1, out);
	return -ENOENT;
}

int sym_by_name(const char *name, struct symbol *out)
{
	const char *colon = strchr(name, ':');

	if (colon)
		return sym_by_module_name(name, colon, out);
	if (symtab_lookup_name(&kernel_symtab, name, out) == 0)
		return 0;
	for (const struct symtab_module *m = first_module(); m; m = next_module(m))
		if (module_lookup_name(m, name, out) == 0)
			return 0;
	return -ENOENT;
}

/* sym_each_named over one table: a module's (m), or the kernel's (m
 * NULL). */
static int each_named_in(const struct symtab *tab, const struct symtab_module *m,
			 const char *name, sym_visit_t visit, void *arg)
{
	for (size_t i = 0; i < tab->count; i++) {
		struct symbol sym;
		int ret;

		if ((m && !module_covers(m, tab->entries[i].addr)) ||
		    strcmp(symtab_name(tab, i), name) != 0)
			continue;
		fill_symbol(tab, i, &sym);
		if (m)
			sym.module = m->module;
		ret = visit(&sym, arg);
		if (ret)
			return ret;
	}
	return 0;
}

int sym_each_named(const char *name, sym_visit_t visit, void *arg)
{
	int ret = each_named_in(&kernel_symtab, NULL, name, visit, arg);

	for (const struct symtab_module *m = first_module(); m && !ret; m = next_module(m))
		ret = each_named_in(&m->table, m, name, visit, arg);
	return ret;
}

int sym_by_addr(uintptr_t addr, struct symbol *out)
{
	for (const struct symtab_module *m = first_module(); m; m = next_module(m)) {
		if (!module_covers(m, addr))
			continue;
		if (symtab_lookup_addr(&m->table, addr, out) < 0 || !module_covers(m, out->addr))
			return -ENOENT;
		out->module = m->module;
		return 0;
	}
	return symtab_lookup_addr(&kernel_symtab, addr, out);
}

/* The symbol at position *pos among m's entries that it still covers
 * (freed init code has none), or -ENOENT with *pos moved past them all.
 * Counted from the first entry each time: a module has tens of symbols,
 * and an index of the covered ones would have to change when init is
 * freed. */
static int module_sym_at(const struct symtab_module *m, uint64_t *pos, struct symbol *out)
{
	for (size_t i = 0; i < m->table.count; i++) {
		if (!module_covers(m, m->table.entries[i].addr))
			continue;
		if ((*pos)-- == 0) {
			fill_symbol(&m->table, i, out);
			out->module = m->module;
			return 0;
		}
	}
	return -ENOENT;
}

int sym_at(uint64_t pos, struct symbol *out)
{
	if (pos < kernel_symtab.count) {
		fill_symbol(&kernel_symtab, (size_t)pos, out);
		return 0;
	}
	pos -= kernel_symtab.count;
	for (const struct symtab_module *m = first_module(); m; m = next_module(m))
		if (module_sym_at(m, &pos, out) == 0)
			return 0;
	return -ENOENT;
}

/* Name addr by the symbol that contains lookup (addr itself, or for a
 * return address the byte before it). */
/* How much of a symbol's place format_symbolic writes. */
enum sym_form { SYM_NAME, SYM_OFFSET, SYM_OFFSET_SIZE };

static void format_symbolic(uintptr_t addr, uintptr_t lookup, char *buf, size_t size,
			    enum sym_form form)
{
	struct symbol sym;
	int n;

	if (sym_by_addr(lookup, &sym) < 0) {
		snprintf(buf, size, "%p", (void *)addr);
		return;
	}
	if (form == SYM_OFFSET_SIZE)
		n = snprintf(buf, size, "%s+0x%lx/0x%lx", sym.name,
			     (unsigned long)(addr - sym.addr), (unsigned long)sym.size);
	else if (form == SYM_OFFSET)
		n = snprintf(buf, size, "%s+0x%lx", sym.name, (unsigned long)(addr - sym.addr));
	else
		n = snprintf(buf, size, "%s", sym.name);
	if (sym.module && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, " [%s]", sym.module);
}

/* "vfs_read+0x5/0x9a": the symbol, the offset into it and its size, the
 * form Linux uses in backtraces. An unknown address prints as %p does. */
void sym_format(uintptr_t addr, char *buf, size_t size)
{
	format_symbolic(addr, addr, buf, size, SYM_OFFSET_SIZE);
}

/* A return address follows its call instruction. When the call is the
 * last instruction of a function (a call that never returns), the return
 * address is already the first byte of the next function: name the
 * function holding the byte before it, the call itself. */
void sym_format_return(uintptr_t ret, char *buf, size_t size)
{
	format_symbolic(ret, ret - 1, buf, size, SYM_OFFSET_SIZE);
}

/* "vfs_read+0x5": the form of the kprobes list. */
void sym_format_offset(uintptr_t addr, char *buf, size_t size)
{
	format_symbolic(addr, addr, buf, size, SYM_OFFSET);
}

void sym_format_name(uintptr_t addr, char *buf, size_t size)
{
	format_symbolic(addr, addr, buf, size, SYM_NAME);
}

void sym_format_caller(uintptr_t ret, char *buf, size_t size)
{
	format_symbolic(ret, ret - 1, buf, size, SYM_NAME);
}

int sym_clone_origin(const char *name, struct symbol *orig)
{
	const char *dot = strchr(name, '.');
	char base[64];

	if (!dot || dot == name || (size_t)(dot - name) >= sizeof(base))
		return -ENOENT;
	strlcpy(base, name, (size_t)(dot - name) + 1);
	return sym_by_name(base, orig);
}
