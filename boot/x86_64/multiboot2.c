/*
 * Reading the multiboot2 boot information that GRUB leaves in memory.
 *
 * The information is a list of tags, each 8-byte aligned, ending with a
 * tag of type 0. We keep three kinds: the memory map (which RAM is usable),
 * the kernel command line and the first module (the rootfs archive loaded
 * from the ISO). kmain calls this while the boot page tables still map the
 * first 1 GiB at KERNEL_VMA, which is where GRUB's data is.
 */
#include "boot/boot_info.h"
#include "boot/x86_64/multiboot2.h"
#include "lib/string.h"
#include <asm/layout.h>

#define MB2_BOOT_MAGIC  0x36d76289
#define TAG_END      0
#define TAG_CMDLINE  1
#define TAG_MODULE   3
#define TAG_MMAP     6
#define MMAP_AVAILABLE 1

struct mb2_tag {
	uint32_t type;
	uint32_t size;
};

struct mb2_module {
	struct mb2_tag tag;
	uint32_t start;
	uint32_t end;
	char string[];
};

struct mb2_mmap {
	struct mb2_tag tag;
	uint32_t entry_size;
	uint32_t entry_version;
};

struct mb2_mmap_entry {
	uint64_t base;
	uint64_t len;
	uint32_t type;
	uint32_t reserved;
};

static const void *early_ptr(uint64_t phys)
{
	return (const void *)(uintptr_t)(phys + KERNEL_VMA);
}

static void add_mmap(struct boot_info *bi, const struct mb2_mmap *mm)
{
	const uint8_t *p = (const uint8_t *)(mm + 1);
	const uint8_t *end = (const uint8_t *)mm + mm->tag.size;

	for (; p + mm->entry_size <= end; p += mm->entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;

		if (e->type != MMAP_AVAILABLE || bi->nram == BOOT_MAX_REGIONS)
			continue;
		bi->ram[bi->nram].base = e->base;
		bi->ram[bi->nram].size = e->len;
		bi->nram++;
	}
}

int multiboot2_parse(uint32_t magic, uint64_t info_phys, struct boot_info *bi)
{
	const uint8_t *info = early_ptr(info_phys);
	uint32_t total = *(const uint32_t *)info;
	const uint8_t *p = info + 8;

	if (magic != MB2_BOOT_MAGIC)
		return -1;
	memset(bi, 0, sizeof(*bi));
	bi->info_base = info_phys;
	bi->info_size = total;
	while (p + sizeof(struct mb2_tag) <= info + total) {
		const struct mb2_tag *tag = (const void *)p;

		if (tag->type == TAG_END)
			break;
		if (tag->type == TAG_CMDLINE)
			strlcpy(bi->cmdline, (const char *)(tag + 1), sizeof(bi->cmdline));
		else if (tag->type == TAG_MMAP)
			add_mmap(bi, (const void *)tag);
		else if (tag->type == TAG_MODULE && !bi->initrd_size) {
			const struct mb2_module *mod = (const void *)tag;

			bi->initrd_base = mod->start;
			bi->initrd_size = mod->end - mod->start;
		}
		p += ALIGN_UP(tag->size, 8);
	}
	return 0;
}
