/*
 * Pointers a module hands the loader (internal.h).
 *
 * After relocation, a module's own data holds pointers the loader will
 * follow: the names of its parameters and exports, the variables its
 * parameters set, its init and exit functions, its never-probe list.
 * Relocation wrote them from whatever the file said, so a broken or
 * hostile file can make any of them NULL, or point into the kernel, or
 * past the module's end. As Linux's loader does, we trust none of them
 * until it is checked against the module's own loaded sections, of the
 * kind it must lie in: code for functions, non-code for strings,
 * writable data for variables.
 */
#include "kernel/module/internal.h"
#include "lib/string.h"

/* The loaded section that holds all of [addr, addr + len), or 0. The
 * tests are written so that no sum can wrap. */
static unsigned int section_holding(const struct load_info *li, uintptr_t addr, size_t len)
{
	for (unsigned int i = 1; i < li->eh->e_shnum; i++) {
		uintptr_t start = li->sec_addr[i];
		uint64_t size = li->sh[i].sh_size;

		if (start && addr - start < size && len <= size - (addr - start))
			return i;
	}
	return 0;
}

static bool is_code(const struct load_info *li, unsigned int i)
{
	return li->sh[i].sh_flags & SHF_EXECINSTR;
}

bool module_code_range(const struct load_info *li, uintptr_t addr, size_t len)
{
	unsigned int i = section_holding(li, addr, len);

	return i && is_code(li, i);
}

bool module_code_pointer(const struct load_info *li, uintptr_t addr)
{
	return module_code_range(li, addr, 1);
}

bool module_pointer(const struct load_info *li, uintptr_t addr)
{
	return section_holding(li, addr, 1) != 0;
}

const char *module_string(const struct load_info *li, uintptr_t addr)
{
	unsigned int i = section_holding(li, addr, 1);
	size_t room;

	if (!i || is_code(li, i))
		return NULL;
	room = li->sec_addr[i] + li->sh[i].sh_size - addr;
	return strnlen((const char *)addr, room) < room ? (const char *)addr : NULL;
}

bool module_variable(const struct load_info *li, uintptr_t addr, size_t size, size_t align)
{
	unsigned int i = section_holding(li, addr, size);

	return i && !is_code(li, i) && (li->sh[i].sh_flags & SHF_WRITE) && addr % align == 0;
}
