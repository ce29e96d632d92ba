/* The never-probe list (see nokprobe.h). */
#include "kernel/nokprobe.h"
#include "kernel/symtab.h"

extern const uintptr_t __start_nokprobe_list[], __stop_nokprobe_list[];
extern const char __entry_text_start[], __entry_text_end[];
extern const char __kprobes_text_start[], __kprobes_text_end[];

bool within_nokprobe_text(uintptr_t addr)
{
	struct symbol sym;

	if (addr >= (uintptr_t)__entry_text_start && addr < (uintptr_t)__entry_text_end)
		return true;
	if (addr >= (uintptr_t)__kprobes_text_start && addr < (uintptr_t)__kprobes_text_end)
		return true;
	if (sym_by_addr(addr, &sym) < 0)
		return false;
	for (const uintptr_t *p = __start_nokprobe_list; p < __stop_nokprobe_list; p++)
		if (*p == sym.addr)
			return true;
	return false;
}
