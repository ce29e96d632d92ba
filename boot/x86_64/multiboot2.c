/*
 * Reading the multiboot2 boot information that GRUB leaves in memory.
 *
 * The information is a list of tags, each 8-byte aligned, ending with a
 * tag of type 0. We keep four kinds: the memory map (which RAM is usable),
 * the kernel command line, the first module (the rootfs archive loaded
 * from the ISO) and ACPI's RSDP (where the tables that list the CPUs
 * start). kmain calls this while the boot page tables still map the
 * first 1 GiB at KERNEL_VMA, which is where GRUB's data is.
 *
 * Nothing the loader wrote is trusted to be well formed: every size is
 * checked against the bytes that contain it before it is used, so a
 * zero-sized tag cannot loop forever and a short entry cannot make the
 * reader run past its tag. A malformed block is refused as a whole.
 */
#include "boot/boot_info.h"
#include "boot/x86_64/multiboot2.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/layout.h>

#define MB2_BOOT_MAGIC  0x36d76289
#define MB2_MAX_INFO    (1u << 20)	/* far more than GRUB ever writes */
#define TAG_END      0
#define TAG_CMDLINE  1
#define TAG_MODULE   3
#define TAG_MMAP     6
#define TAG_ACPI_OLD 14	/* a copy of an ACPI 1.0 RSDP */
#define TAG_ACPI_NEW 15	/* a copy of an ACPI 2.0+ RSDP (with the XSDT) */
#define RSDP_V1_SIZE 20
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

static int add_mmap(struct boot_info *bi, const struct mb2_mmap *mm)
{
	const uint8_t *p = (const uint8_t *)(mm + 1);
	const uint8_t *end = (const uint8_t *)mm + mm->tag.size;

	/* Entries may grow in later versions, never shrink. */
	if (mm->tag.size < sizeof(*mm) || mm->entry_size < sizeof(struct mb2_mmap_entry))
		return -EINVAL;
	for (; (size_t)(end - p) >= mm->entry_size; p += mm->entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;

		if (e->type != MMAP_AVAILABLE || bi->nram == BOOT_MAX_REGIONS)
			continue;
		bi->ram[bi->nram].base = e->base;
		bi->ram[bi->nram].size = e->len;
		bi->nram++;
	}
	return 0;
}

/* The command line is a string inside the tag; one without its NUL is
 * cut at the tag's end rather than read beyond it. */
static void copy_cmdline(struct boot_info *bi, const struct mb2_tag *tag)
{
	const char *s = (const char *)(tag + 1);
	size_t len = strnlen(s, tag->size - sizeof(*tag));

	len = MIN(len, sizeof(bi->cmdline) - 1);
	memcpy(bi->cmdline, s, len);
	bi->cmdline[len] = '\0';
}

static int add_module(struct boot_info *bi, const struct mb2_module *mod)
{
	if (mod->tag.size < sizeof(*mod) || mod->end < mod->start)
		return -EINVAL;
	if (!bi->initrd_size) {
		bi->initrd_base = mod->start;
		bi->initrd_size = mod->end - mod->start;
	}
	return 0;
}

/*
 * GRUB copies the firmware's RSDP into the tag rather than saying where
 * it is; the copy is as good as the original and lies in the boot
 * information, which the kernel keeps, so its address is recorded.
 * An ACPI 2.0 copy wins over a 1.0 one, in whichever order they come.
 */
static int add_rsdp(struct boot_info *bi, const struct mb2_tag *tag, uint64_t tag_phys)
{
	if (tag->size < sizeof(*tag) + RSDP_V1_SIZE)
		return -EINVAL;
	if (tag->type == TAG_ACPI_NEW || !bi->acpi_rsdp)
		bi->acpi_rsdp = tag_phys + sizeof(*tag);
	return 0;
}

static int read_tag(struct boot_info *bi, const struct mb2_tag *tag, uint64_t tag_phys)
{
	switch (tag->type) {
	case TAG_ACPI_OLD:
	case TAG_ACPI_NEW:
		return add_rsdp(bi, tag, tag_phys);
	case TAG_CMDLINE:
		copy_cmdline(bi, tag);
		return 0;
	case TAG_MMAP:
		return add_mmap(bi, (const void *)tag);
	case TAG_MODULE:
		return add_module(bi, (const void *)tag);
	default:
		return 0;	/* a kind we do not use */
	}
}

int multiboot2_read(const void *info, uint64_t info_phys, struct boot_info *bi)
{
	const uint8_t *start = info;
	uint32_t total = *(const uint32_t *)start;
	const uint8_t *end = start + total;
	const uint8_t *p = start + 8;	/* past total_size and reserved */

	memset(bi, 0, sizeof(*bi));
	if (total < 8 + sizeof(struct mb2_tag) || total > MB2_MAX_INFO)
		return -EINVAL;
	bi->info_base = info_phys;
	bi->info_size = total;
	while ((size_t)(end - p) >= sizeof(struct mb2_tag)) {
		const struct mb2_tag *tag = (const void *)p;
		int err;

		if (tag->size < sizeof(*tag) || tag->size > (size_t)(end - p))
			return -EINVAL;
		if (tag->type == TAG_END)
			return 0;
		err = read_tag(bi, tag, info_phys + (uint64_t)(p - start));
		if (err)
			return err;
		/* The padding after the last tag may run past the block's
		 * end: p stops there, and the loop ends. */
		p += MIN(ALIGN_UP(tag->size, 8), (size_t)(end - p));
	}
	return -EINVAL;	/* no end tag */
}

int multiboot2_parse(uint32_t magic, uint64_t info_phys, struct boot_info *bi)
{
	if (magic != MB2_BOOT_MAGIC || info_phys % 8)
		return -EINVAL;
	return multiboot2_read((const void *)(uintptr_t)(info_phys + KERNEL_VMA), info_phys, bi);
}
