/* Selftests of the module loader on a real module: where its parts are
 * placed and how they are protected (W^X), and that removing it gives
 * everything back. They load tests/modules/mod_params.ko from the boot
 * archive. */
#include "kernel/mm/execmem.h"
#include "kernel/mm/frame.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/paging.h"
#include "kernel/module/module.h"
#include "kernel/rcu.h"
#include "kernel/selftest.h"
#include "kernel/fs/vfs.h"
#include <asm/layout.h>

#define TEST_MODULE "mod_params"

/* Load the test module; its struct module, or NULL. */
static struct module *load_test_module(void)
{
	struct module *mod;
	struct symbol sym;
	void *image;
	size_t size;
	int err;

	if (vfs_read_all("/lib/modules/" TEST_MODULE ".ko", &image, &size) < 0)
		return NULL;
	err = module_load(image, size, 0, NULL);
	kfree(image);
	if (err || sym_by_name(TEST_MODULE ":p_int", &sym) < 0)
		return NULL;
	rcu_read_lock();
	mod = module_of_address(sym.addr);
	rcu_read_unlock();
	return mod;
}

/* Every page of [start, end) has protection prot, and so has the
 * direct-map alias of its frame unless that must stay writable. */
static bool pages_have(uintptr_t start, uintptr_t end, unsigned int prot, unsigned int alias)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		uint64_t pa;

		if (page_prot(va) != prot || virt_to_phys(va, &pa) < 0 ||
		    page_prot((uintptr_t)phys_to_virt(pa)) != alias)
			return false;
	}
	return true;
}

static void module_parts_are_w_xor_x(void)
{
	struct module *mod = load_test_module();
	struct module_layout core;
	const struct module_layout *l = &core;

	EXPECT(mod != NULL);
	if (!mod)
		return;
	core = mod->core_layout;	/* mod is freed by the unload below */
	EXPECT(execmem_contains(l->base) && execmem_contains(l->base + l->size - 1));
	EXPECT(l->text_size > 0 && l->text_size <= l->ro_size && l->ro_size < l->size);
	/* Code: executable, never writable, nor through its alias. */
	EXPECT(pages_have(l->base, l->base + l->text_size, PROT_READ | PROT_EXEC, PROT_READ));
	/* Read-only data. */
	EXPECT(pages_have(l->base + l->text_size, l->base + l->ro_size, PROT_READ, PROT_READ));
	/* Data and bss: writable, never executable. */
	EXPECT(pages_have(l->base + l->ro_size, l->base + l->size, PROT_READ | PROT_WRITE,
			  PROT_READ | PROT_WRITE));
	/* Init has returned: its part is freed. */
	EXPECT_EQ(mod->init_layout.size, 0);
	EXPECT_EQ(module_unload(TEST_MODULE), 0);
	EXPECT_EQ(page_prot(l->base), 0);
}

static void unload_returns_everything(void)
{
	struct frame_stats f0, f1;
	struct heap_stats h0, h1;

	/* One load first, so that what the loader's first use sets up
	 * (the heap's high-water mark, say) is not counted. */
	EXPECT(load_test_module() != NULL);
	EXPECT_EQ(module_unload(TEST_MODULE), 0);
	/* Frees deferred by earlier work (a probe point removed just
	 * before, freed after a grace period) must not land in the loop. */
	rcu_barrier();
	frame_get_stats(&f0);
	heap_get_stats(&h0);
	for (int i = 0; i < 5; i++) {
		EXPECT(load_test_module() != NULL);
		EXPECT_EQ(module_unload(TEST_MODULE), 0);
	}
	/* The module's /sys/module files are freed a grace period after
	 * it goes, like any removed file (kernel/fs/pseudofs.c). */
	rcu_barrier();
	frame_get_stats(&f1);
	heap_get_stats(&h1);
	EXPECT_EQ(f1.used, f0.used);
	EXPECT_EQ(h1.bytes_in_use, h0.bytes_in_use);
	EXPECT_EQ(h1.allocations, h0.allocations);
}

static const struct selftest_case module_cases[] = {
	SELFTEST_CASE(module_parts_are_w_xor_x),
	SELFTEST_CASE(unload_returns_everything),
};
SELFTEST_SUITE("modules", module_cases);
