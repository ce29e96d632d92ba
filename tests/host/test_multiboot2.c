/* Host tests for boot/x86_64/multiboot2.c: the reader of GRUB's boot
 * information.
 *
 * Each test builds the information block itself (a small writer below)
 * and hands it to the reader in a heap block of exactly its size, so
 * AddressSanitizer reports any read past the end. Broken blocks must be
 * refused with -EINVAL, never loop or read beyond what they contain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* ---- A boot information writer, using the host's C library ---- */

#define TAG_END     0
#define TAG_CMDLINE 1
#define TAG_MODULE  3
#define TAG_MMAP    6
#define TAG_ELF     9	/* one the reader skips */
#define TAG_ACPI_OLD 14
#define TAG_ACPI_NEW 15

struct mb2_writer {
	uint8_t buf[4096];
	size_t n;
};

static void put32(struct mb2_writer *w, uint32_t v)
{
	assert_true(w->n + 4 <= sizeof(w->buf));
	memcpy(w->buf + w->n, &v, 4);
	w->n += 4;
}

static void start(struct mb2_writer *w)
{
	memset(w, 0, sizeof(*w));
	w->n = 8;	/* total_size and reserved, written by finish() */
}

/* A tag whose size field says size, followed by len bytes of payload and
 * padding to the next multiple of 8. */
static void raw_tag(struct mb2_writer *w, uint32_t type, uint32_t size, const void *payload,
		    size_t len)
{
	put32(w, type);
	put32(w, size);
	assert_true(w->n + len + 8 <= sizeof(w->buf));
	if (len)
		memcpy(w->buf + w->n, payload, len);
	w->n += len;
	w->n = (w->n + 7) & ~(size_t)7;
}

static void tag(struct mb2_writer *w, uint32_t type, const void *payload, size_t len)
{
	raw_tag(w, type, (uint32_t)(8 + len), payload, len);
}

static void end_tag(struct mb2_writer *w)
{
	tag(w, TAG_END, NULL, 0);
}

struct mmap_entry {
	uint64_t base, len;
	uint32_t type, reserved;
};

/* A memory map tag with n entries, each entry_size bytes long. */
static void mmap_tag(struct mb2_writer *w, uint32_t entry_size, const struct mmap_entry *e, int n)
{
	uint8_t payload[1024] = { 0 };
	size_t len = 8;

	memcpy(payload, &entry_size, 4);	/* entry_version stays 0 */
	for (int i = 0; i < n; i++) {
		assert_true(len + entry_size <= sizeof(payload));
		memcpy(payload + len, &e[i], entry_size < sizeof(*e) ? entry_size : sizeof(*e));
		len += entry_size;
	}
	tag(w, TAG_MMAP, payload, len);
}

static void module_tag(struct mb2_writer *w, uint32_t start_addr, uint32_t end_addr)
{
	uint8_t payload[16] = { 0 };

	memcpy(payload, &start_addr, 4);
	memcpy(payload + 4, &end_addr, 4);
	memcpy(payload + 8, "rootfs", 7);
	tag(w, TAG_MODULE, payload, sizeof(payload));
}

/* A heap copy of exactly the block's size, with total_size filled in. */
static uint8_t *finish(struct mb2_writer *w)
{
	uint8_t *block = malloc(w->n);
	uint32_t total = (uint32_t)w->n;

	assert_non_null(block);
	memcpy(w->buf, &total, 4);
	memcpy(block, w->buf, w->n);
	return block;
}

/* ---- The tests: from here on, names are ProbeOS's ---- */

#include "tests/host/rename.h"
#include "boot/x86_64/multiboot2.h"
#include "lib/errno.h"
#include "lib/string.h"

static int read_block(struct mb2_writer *w, struct boot_info *bi)
{
	uint8_t *block = finish(w);
	int err = multiboot2_read(block, 0x10000, bi);

	free(block);
	return err;
}

static const struct mmap_entry qemu_map[] = {
	{ 0x0, 0x9fc00, 1, 0 },
	{ 0x9fc00, 0x400, 2, 0 },
	{ 0x100000, 0xfee0000, 1, 0 },
};

/* What GRUB gives the kernel on QEMU: command line, a tag we skip with a
 * size that is not a multiple of 8, the memory map and the module. */
static void write_grub_like(struct mb2_writer *w)
{
	static const char cmdline[] = "crash=none";
	uint8_t elf[13] = { 0 };

	start(w);
	tag(w, TAG_CMDLINE, cmdline, sizeof(cmdline));
	tag(w, TAG_ELF, elf, sizeof(elf));
	mmap_tag(w, sizeof(struct mmap_entry), qemu_map, 3);
	module_tag(w, 0x200000, 0x201234);
	module_tag(w, 0x300000, 0x300010);	/* only the first is the rootfs */
	end_tag(w);
}

static void test_grub_like(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	write_grub_like(&w);
	assert_int_equal(read_block(&w, &bi), 0);
	assert_string_equal(bi.cmdline, "crash=none");
	assert_int_equal(bi.nram, 2);	/* the reserved entry is left out */
	assert_int_equal(bi.ram[0].base, 0x0);
	assert_int_equal(bi.ram[0].size, 0x9fc00);
	assert_int_equal(bi.ram[1].base, 0x100000);
	assert_int_equal(bi.ram[1].size, 0xfee0000);
	assert_int_equal(bi.initrd_base, 0x200000);
	assert_int_equal(bi.initrd_size, 0x1234);
	assert_int_equal(bi.info_base, 0x10000);
	assert_int_equal(bi.info_size, w.n);
}

/* Later versions may lengthen mmap entries; the reader steps by the size
 * the tag states and reads the fields it knows. */
static void test_longer_mmap_entries(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	start(&w);
	mmap_tag(&w, sizeof(struct mmap_entry) + 8, qemu_map, 3);
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), 0);
	assert_int_equal(bi.nram, 2);
	assert_int_equal(bi.ram[1].base, 0x100000);
}

static void test_many_regions_are_capped(void **state)
{
	struct mmap_entry many[40];
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	for (int i = 0; i < 40; i++)
		many[i] = (struct mmap_entry){ (uint64_t)i << 24, 1 << 20, 1, 0 };
	start(&w);
	mmap_tag(&w, sizeof(struct mmap_entry), many, 40);
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), 0);
	assert_int_equal(bi.nram, BOOT_MAX_REGIONS);
	assert_int_equal(bi.ram[BOOT_MAX_REGIONS - 1].base, (uint64_t)(BOOT_MAX_REGIONS - 1) << 24);
}

/* A command line with no NUL in its tag is cut at the tag's end. */
static void test_unterminated_cmdline(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	start(&w);
	tag(&w, TAG_CMDLINE, "console", 7);
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), 0);
	assert_string_equal(bi.cmdline, "console");
}

static void test_long_cmdline_is_cut(void **state)
{
	char line[400];
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	start(&w);
	tag(&w, TAG_CMDLINE, line, sizeof(line));
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), 0);
	assert_int_equal(strlen(bi.cmdline), sizeof(bi.cmdline) - 1);
}

/* A size of 0 would never advance: it must be refused, not looped on. */
static void test_zero_size_tag(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	start(&w);
	raw_tag(&w, TAG_ELF, 0, NULL, 0);
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), -EINVAL);
}

static void test_tag_larger_than_block(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	start(&w);
	raw_tag(&w, TAG_CMDLINE, 4000, "abc", 4);
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), -EINVAL);
}

/* An entry shorter than the fields the reader uses. */
static void test_short_mmap_entry(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	start(&w);
	mmap_tag(&w, 8, qemu_map, 3);
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), -EINVAL);
}

static void test_mmap_tag_without_header(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	start(&w);
	tag(&w, TAG_MMAP, "\x18\0\0", 4);	/* half of entry_size/version */
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), -EINVAL);
}

static void test_module_ending_before_start(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	start(&w);
	module_tag(&w, 0x200000, 0x100000);
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), -EINVAL);
}

static void test_missing_end_tag(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	start(&w);
	tag(&w, TAG_CMDLINE, "a", 2);
	assert_int_equal(read_block(&w, &bi), -EINVAL);
}

/* Every prefix of a good block, with total_size saying so, loses its end
 * tag: each must be refused without a read past the prefix. */
static void test_every_truncation(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	write_grub_like(&w);
	for (size_t n = 8; n < w.n; n++) {
		struct mb2_writer cut = w;

		cut.n = n;
		assert_int_equal(read_block(&cut, &bi), -EINVAL);
	}
}

/* An RSDP tag's payload: the RSDP copy, 20 bytes (1.0) or 36 (2.0). */
static size_t rsdp_tag(struct mb2_writer *w, uint32_t type, size_t len)
{
	uint8_t rsdp[36] = "RSD PTR ";
	size_t at = w->n;

	tag(w, type, rsdp, len);
	return at + 8;	/* where the copy starts, from the block's start */
}

/* GRUB on QEMU passes both; the 2.0 copy is the one to use. */
static void test_acpi_rsdp(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;
	size_t v2;

	(void)state;
	start(&w);
	tag(&w, TAG_CMDLINE, "a", 2);
	rsdp_tag(&w, TAG_ACPI_OLD, 20);
	v2 = rsdp_tag(&w, TAG_ACPI_NEW, 36);
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), 0);
	assert_int_equal(bi.acpi_rsdp, 0x10000 + v2);
}

static void test_acpi_rsdp_old_only(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;
	size_t v1;

	(void)state;
	start(&w);
	v1 = rsdp_tag(&w, TAG_ACPI_OLD, 20);
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), 0);
	assert_int_equal(bi.acpi_rsdp, 0x10000 + v1);
}

static void test_no_acpi_rsdp(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	write_grub_like(&w);
	assert_int_equal(read_block(&w, &bi), 0);
	assert_int_equal(bi.acpi_rsdp, 0);
}

/* A tag too short to hold even an ACPI 1.0 RSDP is malformed. */
static void test_short_acpi_tag(void **state)
{
	struct mb2_writer w;
	struct boot_info bi;

	(void)state;
	start(&w);
	rsdp_tag(&w, TAG_ACPI_NEW, 12);
	end_tag(&w);
	assert_int_equal(read_block(&w, &bi), -EINVAL);
}

static void test_wrong_magic(void **state)
{
	struct boot_info bi;

	(void)state;
	/* Refused before the address is touched. */
	assert_int_equal(multiboot2_parse(0x2badb002, 0x10000, &bi), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grub_like),
		cmocka_unit_test(test_longer_mmap_entries),
		cmocka_unit_test(test_many_regions_are_capped),
		cmocka_unit_test(test_unterminated_cmdline),
		cmocka_unit_test(test_long_cmdline_is_cut),
		cmocka_unit_test(test_zero_size_tag),
		cmocka_unit_test(test_tag_larger_than_block),
		cmocka_unit_test(test_short_mmap_entry),
		cmocka_unit_test(test_mmap_tag_without_header),
		cmocka_unit_test(test_module_ending_before_start),
		cmocka_unit_test(test_missing_end_tag),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_acpi_rsdp),
		cmocka_unit_test(test_acpi_rsdp_old_only),
		cmocka_unit_test(test_no_acpi_rsdp),
		cmocka_unit_test(test_short_acpi_tag),
		cmocka_unit_test(test_wrong_magic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
