/* Host tests for lib/acpi.c: finding the MADT from the RSDP and listing
 * the CPUs in it.
 *
 * The tests lay out hand-made tables in a small "physical memory" (a
 * buffer whose first byte is at physical address MEM_BASE), the way QEMU's
 * firmware does: an RSDP (1.0 or 2.0), an RSDT or XSDT, a FACP to step
 * over and a MADT with local APIC, I/O APIC, address override and x2APIC
 * entries. The map function refuses anything outside the buffer, so a
 * read past a table the reader was not given shows as an error, and
 * AddressSanitizer catches any read past the buffer itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* ---- A table writer, using the host's C library ---- */

#define MEM_BASE 0xe0000
#define MEM_SIZE 8192

static uint8_t mem[MEM_SIZE];
static size_t mem_used;
static unsigned int maps;	/* calls of map_mem, to see what was read */

static const void *map_mem(uint64_t pa, size_t len)
{
	maps++;
	if (pa < MEM_BASE || pa - MEM_BASE > MEM_SIZE || len > MEM_SIZE - (pa - MEM_BASE))
		return NULL;
	return mem + (pa - MEM_BASE);
}

/* Room for len bytes, 16-byte aligned as firmware places tables; returns
 * the physical address. */
static uint64_t alloc(size_t len)
{
	uint64_t pa = MEM_BASE + mem_used;

	assert_true(mem_used + len <= MEM_SIZE);
	mem_used = (mem_used + len + 15) & ~(size_t)15;
	return pa;
}

static uint8_t *at(uint64_t pa)
{
	return mem + (pa - MEM_BASE);
}

static uint8_t sum(const uint8_t *p, size_t len)
{
	uint8_t s = 0;

	while (len--)
		s += *p++;
	return s;
}

/* A table: the 36-byte header with signature and length, then body;
 * the checksum byte (offset 9) is set so that all bytes add up to 0. */
static uint64_t table(const char *sig, const void *body, size_t len)
{
	uint32_t total = (uint32_t)(36 + len);
	uint64_t pa = alloc(total);
	uint8_t *t = at(pa);

	memset(t, 0, 36);
	memcpy(t, sig, 4);
	memcpy(t + 4, &total, 4);
	t[8] = 1;
	memcpy(t + 10, "PROBE ", 6);
	memcpy(t + 36, body, len);
	t[9] = (uint8_t)-sum(t, total);
	return pa;
}

/* An RSDT (entry_size 4) or XSDT (8) pointing to the n tables. */
static uint64_t root_table(const uint64_t *tables, int n, size_t entry_size)
{
	uint8_t body[64];

	for (int i = 0; i < n; i++)
		memcpy(body + i * entry_size, &tables[i], entry_size);
	return table(entry_size == 8 ? "XSDT" : "RSDT", body, n * entry_size);
}

/* An RSDP of revision 0 (pointing to an RSDT) or 2 (also to an XSDT). */
static uint64_t rsdp(int revision, uint64_t rsdt, uint64_t xsdt)
{
	uint64_t pa = alloc(36);
	uint8_t *r = at(pa);
	uint32_t rsdt32 = (uint32_t)rsdt, len = 36;

	memset(r, 0, 36);
	memcpy(r, "RSD PTR ", 8);
	memcpy(r + 9, "PROBE ", 6);
	r[15] = (uint8_t)revision;
	memcpy(r + 16, &rsdt32, 4);
	r[8] = (uint8_t)-sum(r, 20);
	if (revision >= 2) {
		memcpy(r + 20, &len, 4);
		memcpy(r + 24, &xsdt, 8);
		r[32] = (uint8_t)-sum(r, 36);
	}
	return pa;
}

/* A MADT body: the local APIC address and flags, then entries. */
struct madt_writer {
	uint8_t body[512];
	size_t n;
};

static void madt_start(struct madt_writer *w, uint32_t lapic)
{
	uint32_t flags = 1;	/* PC-AT compatible 8259s */

	memcpy(w->body, &lapic, 4);
	memcpy(w->body + 4, &flags, 4);
	w->n = 8;
}

static void madt_entry(struct madt_writer *w, const void *e, size_t len)
{
	assert_true(w->n + len <= sizeof(w->body));
	memcpy(w->body + w->n, e, len);
	w->n += len;
}

static void local_apic(struct madt_writer *w, uint8_t uid, uint8_t id, uint32_t flags)
{
	uint8_t e[8] = { 0, 8, uid, id };

	memcpy(e + 4, &flags, 4);
	madt_entry(w, e, sizeof(e));
}

static void x2apic(struct madt_writer *w, uint32_t id, uint32_t flags)
{
	uint8_t e[16] = { 9, 16 };

	memcpy(e + 4, &id, 4);
	memcpy(e + 8, &flags, 4);
	madt_entry(w, e, sizeof(e));
}

static void io_apic(struct madt_writer *w)
{
	uint8_t e[12] = { 1, 12, 0, 0, 0x00, 0x00, 0xc0, 0xfe };

	madt_entry(w, e, sizeof(e));
}

static void lapic_override(struct madt_writer *w, uint64_t base)
{
	uint8_t e[12] = { 5, 12 };

	memcpy(e + 4, &base, 8);
	madt_entry(w, e, sizeof(e));
}

/* What QEMU's firmware builds for -smp 4: a FACP first, then the MADT. */
static uint64_t qemu_like(int revision, struct madt_writer *w)
{
	uint8_t facp[80] = { 0 };
	uint64_t tables[2];

	tables[0] = table("FACP", facp, sizeof(facp));
	tables[1] = table("APIC", w->body, w->n);
	if (revision >= 2)
		return rsdp(2, root_table(tables, 2, 4), root_table(tables, 2, 8));
	return rsdp(0, root_table(tables, 2, 4), 0);
}

static void qemu_madt(struct madt_writer *w, int ncpus)
{
	madt_start(w, 0xfee00000);
	for (int i = 0; i < ncpus; i++)
		local_apic(w, (uint8_t)i, (uint8_t)i, 1);
	io_apic(w);
}

static int setup(void **state)
{
	(void)state;
	memset(mem, 0, sizeof(mem));
	mem_used = 0;
	maps = 0;
	return 0;
}

/* ---- The tests: from here on, names are ProbeOS's ---- */

#include "tests/host/rename.h"
#include "lib/acpi.h"
#include "lib/errno.h"
#include "lib/string.h"

static int find_cpus(uint64_t rsdp_pa, uint32_t boot_id, uint32_t *ids, unsigned int max,
		     uint64_t *base)
{
	const void *madt;
	int err = acpi_find_table(rsdp_pa, "APIC", map_mem, &madt);

	if (err)
		return err;
	return acpi_madt_cpus(madt, boot_id, ids, max, base);
}

static void test_qemu_acpi1(void **state)
{
	struct madt_writer w;
	uint32_t ids[8];
	uint64_t base;

	(void)state;
	qemu_madt(&w, 4);
	assert_int_equal(find_cpus(qemu_like(0, &w), 0, ids, 8, &base), 4);
	assert_int_equal(base, 0xfee00000);
	for (int i = 0; i < 4; i++)
		assert_int_equal(ids[i], i);
}

static void test_qemu_acpi2_uses_xsdt(void **state)
{
	struct madt_writer w;
	const void *madt;
	uint64_t tables[1], rsdt;

	(void)state;
	qemu_madt(&w, 2);
	tables[0] = table("APIC", w.body, w.n);
	rsdt = root_table(tables, 1, 4);
	/* Break the RSDT: only the XSDT may be read. */
	memcpy(at(rsdt), "XXXX", 4);
	assert_int_equal(acpi_find_table(rsdp(2, rsdt, root_table(tables, 1, 8)), "APIC",
					 map_mem, &madt), 0);
	assert_memory_equal(madt, "APIC", 4);
}

/* The boot CPU comes first even when it is not the table's first. */
static void test_boot_cpu_first(void **state)
{
	struct madt_writer w;
	uint32_t ids[8];
	uint64_t base;

	(void)state;
	qemu_madt(&w, 4);
	assert_int_equal(find_cpus(qemu_like(2, &w), 2, ids, 8, &base), 4);
	assert_int_equal(ids[0], 2);
	assert_int_equal(ids[1], 0);
	assert_int_equal(ids[2], 1);
	assert_int_equal(ids[3], 3);
}

/* Disabled CPUs are left out; a CPU listed twice (type 0 and type 9) is
 * counted once; x2APIC ids beyond 8 bits are kept. */
static void test_disabled_duplicate_and_x2apic(void **state)
{
	struct madt_writer w;
	uint32_t ids[8];
	uint64_t base;

	(void)state;
	madt_start(&w, 0xfee00000);
	local_apic(&w, 0, 0, 1);
	local_apic(&w, 1, 1, 0);	/* disabled */
	local_apic(&w, 2, 4, 1);
	x2apic(&w, 4, 1);		/* the same CPU again */
	x2apic(&w, 0x100, 1);
	x2apic(&w, 0x101, 0);		/* disabled */
	assert_int_equal(find_cpus(qemu_like(2, &w), 0, ids, 8, &base), 3);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 4);
	assert_int_equal(ids[2], 0x100);
}

static void test_lapic_override(void **state)
{
	struct madt_writer w;
	uint32_t ids[8];
	uint64_t base;

	(void)state;
	qemu_madt(&w, 1);
	lapic_override(&w, 0x1fee00000ULL);
	assert_int_equal(find_cpus(qemu_like(0, &w), 0, ids, 8, &base), 1);
	assert_int_equal(base, 0x1fee00000ULL);
}

static void test_more_cpus_than_room(void **state)
{
	struct madt_writer w;
	uint32_t ids[3];
	uint64_t base;

	(void)state;
	qemu_madt(&w, 6);
	assert_int_equal(find_cpus(qemu_like(0, &w), 5, ids, 3, &base), 3);
	assert_int_equal(ids[0], 5);
	assert_int_equal(ids[1], 0);
	assert_int_equal(ids[2], 1);
}

static void test_no_madt(void **state)
{
	uint8_t facp[40] = { 0 };
	uint64_t t[1];
	const void *madt;

	(void)state;
	t[0] = table("FACP", facp, sizeof(facp));
	assert_int_equal(acpi_find_table(rsdp(0, root_table(t, 1, 4), 0), "APIC", map_mem, &madt),
			 -ENOENT);
}

static void test_bad_rsdp(void **state)
{
	struct madt_writer w;
	const void *madt;
	uint64_t r;

	(void)state;
	qemu_madt(&w, 1);
	r = qemu_like(0, &w);
	at(r)[8]++;	/* checksum */
	assert_int_equal(acpi_find_table(r, "APIC", map_mem, &madt), -EINVAL);
	at(r)[8]--;
	at(r)[0] = 'X';	/* signature */
	assert_int_equal(acpi_find_table(r, "APIC", map_mem, &madt), -EINVAL);
}

static void test_bad_extended_checksum(void **state)
{
	struct madt_writer w;
	const void *madt;
	uint64_t r;

	(void)state;
	qemu_madt(&w, 1);
	r = qemu_like(2, &w);
	at(r)[32]++;
	assert_int_equal(acpi_find_table(r, "APIC", map_mem, &madt), -EINVAL);
}

static void test_bad_madt_checksum(void **state)
{
	struct madt_writer w;
	const void *madt;
	uint64_t r;

	(void)state;
	qemu_madt(&w, 2);
	r = qemu_like(0, &w);
	assert_int_equal(acpi_find_table(r, "APIC", map_mem, &madt), 0);
	((uint8_t *)madt)[44 + 3]++;	/* the first CPU's APIC id */
	assert_int_equal(acpi_find_table(r, "APIC", map_mem, &madt), -EINVAL);
}

/* A length running past the memory, or one too small for the header. */
static void test_bad_table_length(void **state)
{
	uint8_t body[8] = { 0 };
	uint64_t t[1], r;
	const void *madt;
	uint32_t len;

	(void)state;
	t[0] = table("APIC", body, sizeof(body));
	r = rsdp(0, root_table(t, 1, 4), 0);

	len = MEM_SIZE + 16;	/* past the memory, still under ACPI_MAX_TABLE */
	memcpy(at(t[0]) + 4, &len, 4);
	assert_int_equal(acpi_find_table(r, "APIC", map_mem, &madt), -EFAULT);
	len = 20;
	memcpy(at(t[0]) + 4, &len, 4);
	assert_int_equal(acpi_find_table(r, "APIC", map_mem, &madt), -EINVAL);
}

/* The root table's entries point outside the memory. */
static void test_unreachable_table(void **state)
{
	uint64_t t[1] = { 0x1000 };
	const void *madt;

	(void)state;
	assert_int_equal(acpi_find_table(rsdp(0, root_table(t, 1, 4), 0), "APIC", map_mem, &madt),
			 -EFAULT);
}

/* MADT entries whose length is 0, runs past the table, or is too short
 * for the entry's type. */
static void test_bad_madt_entries(void **state)
{
	static const uint8_t bad[][4] = {
		{ 0, 0 },	/* length 0: would never advance */
		{ 0, 1 },
		{ 0, 4 },	/* a local APIC entry needs 8 bytes */
		{ 9, 8 },	/* an x2APIC entry 16 */
		{ 5, 4 },	/* an override 12 */
		{ 1, 200 },	/* past the table's end */
	};
	uint32_t ids[8];
	uint64_t base;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct madt_writer w;

		setup(NULL);
		qemu_madt(&w, 2);
		madt_entry(&w, bad[i], 4);
		assert_int_equal(find_cpus(qemu_like(0, &w), 0, ids, 8, &base), -EINVAL);
	}
}

/* A MADT shorter than its fixed part (address and flags). */
static void test_short_madt(void **state)
{
	uint8_t body[4] = { 0 };
	uint32_t ids[8];
	uint64_t t[1], base;

	(void)state;
	t[0] = table("APIC", body, sizeof(body));
	assert_int_equal(find_cpus(rsdp(0, root_table(t, 1, 4), 0), 0, ids, 8, &base), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_qemu_acpi1, setup),
		cmocka_unit_test_setup(test_qemu_acpi2_uses_xsdt, setup),
		cmocka_unit_test_setup(test_boot_cpu_first, setup),
		cmocka_unit_test_setup(test_disabled_duplicate_and_x2apic, setup),
		cmocka_unit_test_setup(test_lapic_override, setup),
		cmocka_unit_test_setup(test_more_cpus_than_room, setup),
		cmocka_unit_test_setup(test_no_madt, setup),
		cmocka_unit_test_setup(test_bad_rsdp, setup),
		cmocka_unit_test_setup(test_bad_extended_checksum, setup),
		cmocka_unit_test_setup(test_bad_madt_checksum, setup),
		cmocka_unit_test_setup(test_bad_table_length, setup),
		cmocka_unit_test_setup(test_unreachable_table, setup),
		cmocka_unit_test_setup(test_bad_madt_entries, setup),
		cmocka_unit_test_setup(test_short_madt, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
