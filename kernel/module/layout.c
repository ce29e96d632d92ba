/*
 * Where a module's sections go (kernel/module/module.h).
 *
 * Every allocated section is placed in one of two ranges of executable
 * memory: init (sections named .init*, freed once init returns) and core
 * (the rest). Within a range, code comes first, then read-only data,
 * then writable data, each part starting on a page so that each can get
 * its own protection: W^X holds for modules as for the kernel.
 *
 * The ranges are mapped writable while the loader copies the sections
 * and relocates them; protect_module then seals code and rodata.
 */
#include "kernel/arch.h"
#include "kernel/mm/execmem.h"
#include "kernel/mm/paging.h"
#include "kernel/module/elf_check.h"
#include "kernel/module/internal.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/layout.h>

enum part { PART_TEXT, PART_RO, PART_RW };

static bool is_loaded(const struct load_info *li, unsigned int i)
{
	return module_section_loaded(li->eh, &li->sh[i]);
}

static bool is_init(const struct load_info *li, unsigned int i)
{
	return strncmp(section_name(li, i), ".init", 5) == 0;
}

static enum part part_of(const Elf64_Shdr *s)
{
	if (s->sh_flags & SHF_EXECINSTR)
		return PART_TEXT;
	return (s->sh_flags & SHF_WRITE) ? PART_RW : PART_RO;
}

/* Give each section of one range (init or core) its offset in the range,
 * kept in sec_addr until the range has an address. */
static int plan_range(struct load_info *li, bool init, struct module_layout *layout)
{
	size_t offset = 0;

	for (enum part part = PART_TEXT; part <= PART_RW; part++) {
		for (unsigned int i = 1; i < li->eh->e_shnum; i++) {
			const Elf64_Shdr *s = &li->sh[i];
			size_t align = s->sh_addralign ? s->sh_addralign : 1;

			if (!is_loaded(li, i) || is_init(li, i) != init || part_of(s) != part)
				continue;
			/* Sizes come from the file: a section bigger than the
			 * whole region is refused before the sum can wrap. */
			if (s->sh_size > EXEC_REGION_SIZE || offset > EXEC_REGION_SIZE) {
				kprintf("insmod: sections too big for the module region\n");
				return -ENOEXEC;
			}
			offset = ALIGN_UP(offset, align);
			li->sec_addr[i] = offset;
			offset += s->sh_size;
		}
		offset = ALIGN_UP(offset, PAGE_SIZE);
		if (part == PART_TEXT)
			layout->text_size = offset;
		else if (part == PART_RO)
			layout->ro_size = offset;
	}
	layout->size = offset;
	return 0;
}

/* Map the range and turn its sections' offsets into addresses. */
static int place_range(struct load_info *li, bool init, struct module_layout *layout)
{
	if (!layout->size)
		return 0;
	layout->base = (uintptr_t)execmem_alloc_range(layout->size / PAGE_SIZE);
	if (!layout->base)
		return -ENOMEM;
	for (unsigned int i = 1; i < li->eh->e_shnum; i++)
		if (is_loaded(li, i) && is_init(li, i) == init)
			li->sec_addr[i] += layout->base;
	return 0;
}

/* Alignments beyond a page could not be honoured by page-aligned parts;
 * the compiler emits none for the code a module holds. */
static int check_alignments(const struct load_info *li)
{
	for (unsigned int i = 1; i < li->eh->e_shnum; i++) {
		uint64_t align = li->sh[i].sh_addralign;

		if (is_loaded(li, i) && align > PAGE_SIZE) {
			kprintf("insmod: section %s wants %lu-byte alignment\n",
				section_name(li, i), (unsigned long)align);
			return -ENOEXEC;
		}
		if (is_loaded(li, i) && align & (align - 1)) {
			kprintf("insmod: section %s has alignment %lu, not a power of two\n",
				section_name(li, i), (unsigned long)align);
			return -ENOEXEC;
		}
	}
	return 0;
}

int layout_and_copy(struct load_info *li)
{
	struct module *mod = li->mod;
	int err = check_alignments(li);

	if (err)
		return err;
	err = plan_range(li, false, &mod->core_layout);
	if (!err)
		err = plan_range(li, true, &mod->init_layout);
	if (err)
		return err;
	err = place_range(li, false, &mod->core_layout);
	if (!err)
		err = place_range(li, true, &mod->init_layout);
	if (err) {
		kprintf("insmod: no executable memory for %lu KiB\n",
			(unsigned long)(mod->core_layout.size + mod->init_layout.size) / 1024);
		return err;
	}
	/* The ranges are zeroed: bss (NOBITS) has no bytes to copy. */
	for (unsigned int i = 1; i < li->eh->e_shnum; i++) {
		const void *data = elf_section_data(li->eh, &li->sh[i]);

		if (is_loaded(li, i) && data)
			memcpy((void *)li->sec_addr[i], data, li->sh[i].sh_size);
	}
	return 0;
}

static int protect_layout(const struct module_layout *l)
{
	int err;

	if (!l->size)
		return 0;
	err = execmem_protect((void *)l->base, l->text_size / PAGE_SIZE, PROT_READ | PROT_EXEC);
	if (!err)
		err = execmem_protect((void *)(l->base + l->text_size),
				      (l->ro_size - l->text_size) / PAGE_SIZE, PROT_READ);
	/* The code was written through a data mapping: make the
	 * instruction side see it before anything runs it. */
	arch_sync_icache(l->base, l->text_size);
	return err;
}

int protect_module(struct module *mod)
{
	int err = protect_layout(&mod->core_layout);

	return err ? err : protect_layout(&mod->init_layout);
}

void free_module_layout(struct module_layout *layout)
{
	if (layout->size)
		execmem_free_range((void *)layout->base, layout->size / PAGE_SIZE);
	layout->base = 0;
	layout->size = layout->text_size = layout->ro_size = 0;
}
