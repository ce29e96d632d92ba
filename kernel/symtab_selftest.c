/* Selftests of the kernel's own symbol table and the never-probe list. */
#include "kernel/nokprobe.h"
#include "kernel/selftest.h"
#include "kernel/symtab.h"
#include "kernel/mm/text_patch.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"

static void finds_functions_by_name(void)
{
	struct symbol s;

	EXPECT_EQ(sym_by_name("vfs_read", &s), 0);
	EXPECT_EQ(s.addr, (uintptr_t)vfs_read);
	EXPECT(s.size > 0);
	EXPECT_EQ(s.type, 'T');	/* global code, as nm says */
	EXPECT_EQ(sym_by_name("vfs_raed", &s), -ENOENT);
}

static void finds_data_by_name(void)
{
	struct symbol s;

	EXPECT_EQ(sym_by_name("kernel_symtab", &s), 0);
	EXPECT_EQ(s.addr, (uintptr_t)&kernel_symtab);
	EXPECT_EQ(s.type, 'R');	/* global read-only data */
}

static void finds_symbol_by_address(void)
{
	struct symbol s;
	char buf[96], want[96];

	EXPECT_EQ(sym_by_addr((uintptr_t)vfs_read + 5, &s), 0);
	EXPECT_STREQ(s.name, "vfs_read");
	sym_format((uintptr_t)vfs_read + 5, buf, sizeof(buf));
	snprintf(want, sizeof(want), "vfs_read+0x5/0x%zx", s.size);
	EXPECT_STREQ(buf, want);
	EXPECT_EQ(sym_by_addr(0x10, &s), -ENOENT);
}

static void every_entry_round_trips(void)
{
	const struct symtab *t = &kernel_symtab;
	size_t bad = 0;

	EXPECT(t->count > 100);
	for (size_t i = 0; i < t->count; i++) {
		struct symbol s;
		const char *name = symtab_name(t, i);

		if (i && t->entries[i].addr < t->entries[i - 1].addr)
			bad++;
		if (sym_by_name(name, &s) < 0)
			bad++;
	}
	EXPECT_EQ(bad, 0);
}

static void nokprobe_marks_trap_path(void)
{
	extern char __entry_text_start[];

	EXPECT(within_nokprobe_text((uintptr_t)__entry_text_start));
	EXPECT(within_nokprobe_text((uintptr_t)text_poke));
	EXPECT(within_nokprobe_text((uintptr_t)text_poke + 4));
	EXPECT(!within_nokprobe_text((uintptr_t)vfs_read));
}

/* Every function text_poke runs. A breakpoint in one of these would
 * trap in the middle of a change of the text (text_mutex held, the
 * writable alias mapped, the other CPUs perhaps held still), and arming
 * it would patch the patcher. (Names the compiler
 * inlined everywhere have no symbol and nothing to probe.) */
static void nokprobe_covers_text_poke(void)
{
	static const char *const path[] = {
		"text_poke", "text_poke_stopped", "write_code", "poke_stopped", "poke_page",
		"write_queued",
		"copy_code_bytes", "virt_to_phys", "leaf",
		"phys_to_virt", "map_page", "walk", "unmap_private_page", "unmap",
		"arch_flush_tlb_page",
		"arch_sync_icache",
	};
	struct symbol s;
	size_t found = 0;

	for (size_t i = 0; i < ARRAY_SIZE(path); i++) {
		if (sym_by_name(path[i], &s) < 0)
			continue;
		found++;
		if (!within_nokprobe_text(s.addr))
			selftest_fail(__FILE__, __LINE__, "%s can be probed", path[i]);
	}
	/* A list of renamed functions would check nothing: most must exist. */
	EXPECT(sym_by_name("text_poke", &s) == 0);
	EXPECT(found >= ARRAY_SIZE(path) - 2);
}

/* A compiler clone of a never-probe function (fn.part.0, fn.constprop.0,
 * ...) is never probed either: it is fn's code under another name. Every
 * clone in the table whose original is listed is checked; the console's
 * lock, split by GCC on both architectures, must be among them, so the
 * test cannot pass by finding none. */
static void nokprobe_covers_compiler_clones(void)
{
	const struct symtab *tab = &kernel_symtab;
	size_t checked = 0;

	for (size_t i = 0; i < tab->count; i++) {
		const char *name = symtab_name(tab, i);
		struct symbol orig;

		if (sym_clone_origin(name, &orig) < 0 || !within_nokprobe_text(orig.addr))
			continue;
		checked++;
		if (!within_nokprobe_text(tab->entries[i].addr))
			selftest_fail(__FILE__, __LINE__, "%s can be probed, %s cannot", name,
				      orig.name);
	}
	EXPECT(checked >= 1);
}

static const struct selftest_case symtab_cases[] = {
	SELFTEST_CASE(finds_functions_by_name),
	SELFTEST_CASE(finds_data_by_name),
	SELFTEST_CASE(finds_symbol_by_address),
	SELFTEST_CASE(every_entry_round_trips),
	SELFTEST_CASE(nokprobe_marks_trap_path),
	SELFTEST_CASE(nokprobe_covers_text_poke),
	SELFTEST_CASE(nokprobe_covers_compiler_clones),
};
SELFTEST_SUITE("symtab", symtab_cases);
