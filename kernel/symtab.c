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

	out->name = tab->names + e->name_off;
	out->addr = e->addr;
	out->size = e->size;
	out->type = e->type == SYM_DATA ? SYM_DATA : SYM_TEXT;
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
		if (strcmp(tab->names + tab->entries[i].name_off, name) == 0) {
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

int sym_by_name(const char *name, struct symbol *out)
{
	return symtab_lookup_name(&kernel_symtab, name, out);
}

int sym_by_addr(uintptr_t addr, struct symbol *out)
{
	return symtab_lookup_addr(&kernel_symtab, addr, out);
}

/* Name addr by the symbol that contains lookup (addr itself, or for a
 * return address the byte before it). */
static void format_symbolic(uintptr_t addr, uintptr_t lookup, char *buf, size_t size,
			    bool with_size)
{
	struct symbol sym;

	if (sym_by_addr(lookup, &sym) < 0)
		snprintf(buf, size, "%p", (void *)addr);
	else if (with_size)
		snprintf(buf, size, "%s+0x%lx/0x%lx", sym.name,
			 (unsigned long)(addr - sym.addr), (unsigned long)sym.size);
	else
		snprintf(buf, size, "%s+0x%lx", sym.name, (unsigned long)(addr - sym.addr));
}

/* "vfs_read+0x5/0x9a": the symbol, the offset into it and its size, the
 * form Linux uses in backtraces. An unknown address prints as %p does. */
void sym_format(uintptr_t addr, char *buf, size_t size)
{
	format_symbolic(addr, addr, buf, size, true);
}

/* A return address follows its call instruction. When the call is the
 * last instruction of a function (a call that never returns), the return
 * address is already the first byte of the next function: name the
 * function holding the byte before it, the call itself. */
void sym_format_return(uintptr_t ret, char *buf, size_t size)
{
	format_symbolic(ret, ret - 1, buf, size, true);
}

/* "vfs_read+0x5": the form of the kprobes list. */
void sym_format_offset(uintptr_t addr, char *buf, size_t size)
{
	format_symbolic(addr, addr, buf, size, false);
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
