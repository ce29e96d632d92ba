/*
 * Reading ACPI's tables (acpi.h): RSDP -> RSDT or XSDT -> a table, and
 * the MADT's list of CPUs.
 *
 * The layouts are the ACPI specification's (5.2.5 RSDP, 5.2.6 header,
 * 5.2.7 RSDT, 5.2.8 XSDT, 5.2.12 MADT). Tables and their fields need not
 * be aligned (an XSDT's 64-bit entries sit at offset 36), so every field
 * is read through a packed structure or memcpy.
 */
#include "lib/acpi.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MADT_LOCAL_APIC		0
#define MADT_LAPIC_OVERRIDE	5
#define MADT_LOCAL_X2APIC	9
#define MADT_ENABLED		0x1	/* in both CPU entries' flags */

struct __packed acpi_rsdp {
	char signature[8];	/* "RSD PTR " */
	uint8_t checksum;	/* of the first 20 bytes */
	char oem_id[6];
	uint8_t revision;	/* 0: ACPI 1.0; 2: 2.0 and later */
	uint32_t rsdt;
	/* From revision 2 on: */
	uint32_t length;
	uint64_t xsdt;
	uint8_t extended_checksum;	/* of all length bytes */
	uint8_t reserved[3];
};

struct __packed acpi_header {
	char signature[4];
	uint32_t length;	/* of the whole table, this header included */
	uint8_t revision;
	uint8_t checksum;	/* makes the bytes of the table sum to 0 */
	char oem_id[6];
	char oem_table_id[8];
	uint32_t oem_revision;
	uint32_t creator_id;
	uint32_t creator_revision;
};

struct __packed acpi_madt {
	struct acpi_header header;
	uint32_t lapic_base;
	uint32_t flags;
	/* then entries, each starting with its type and length bytes */
};

struct __packed madt_local_apic {	/* type 0 */
	uint8_t type, length;
	uint8_t processor_uid;
	uint8_t apic_id;
	uint32_t flags;
};

struct __packed madt_lapic_override {	/* type 5 */
	uint8_t type, length;
	uint16_t reserved;
	uint64_t lapic_base;
};

struct __packed madt_local_x2apic {	/* type 9 */
	uint8_t type, length;
	uint16_t reserved;
	uint32_t x2apic_id;
	uint32_t flags;
	uint32_t processor_uid;
};

_Static_assert(sizeof(struct acpi_rsdp) == ACPI_RSDP_V2_SIZE, "RSDP layout");
_Static_assert(sizeof(struct acpi_header) == ACPI_HEADER_SIZE, "header layout");

/* ACPI's checksums make all the bytes they cover add up to 0 (mod 256). */
static bool checksum_ok(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint8_t sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += b[i];
	return sum == 0;
}

/* Map the RSDP and find the root table's address and entry size (8 for
 * the XSDT, 4 for the RSDT). The XSDT is preferred: on a machine with
 * memory above 4 GiB, tables may be out of the RSDT's reach. */
static int read_rsdp(uint64_t pa, acpi_map_fn map, uint64_t *root, size_t *entry_size)
{
	const struct acpi_rsdp *rsdp = map(pa, ACPI_RSDP_V1_SIZE);

	if (!rsdp)
		return -EFAULT;
	if (memcmp(rsdp->signature, "RSD PTR ", 8) || !checksum_ok(rsdp, ACPI_RSDP_V1_SIZE))
		return -EINVAL;
	*root = rsdp->rsdt;
	*entry_size = 4;
	if (rsdp->revision < 2)
		return 0;
	rsdp = map(pa, ACPI_RSDP_V2_SIZE);
	if (!rsdp)
		return -EFAULT;
	if (rsdp->length < ACPI_RSDP_V2_SIZE || rsdp->length > ACPI_MAX_TABLE)
		return -EINVAL;
	rsdp = map(pa, rsdp->length);
	if (!rsdp)
		return -EFAULT;
	if (!checksum_ok(rsdp, rsdp->length))
		return -EINVAL;
	if (rsdp->xsdt) {
		*root = rsdp->xsdt;
		*entry_size = 8;
	}
	return 0;
}

/* Map the table at pa whose header's signature is sig, all of it, and
 * check its length and checksum. *table is NULL (and 0 returned) if the
 * signature is another one. */
static int map_table(uint64_t pa, const char *sig, acpi_map_fn map,
		     const struct acpi_header **table)
{
	const struct acpi_header *h = map(pa, ACPI_HEADER_SIZE);
	uint32_t len;

	*table = NULL;
	if (!h)
		return -EFAULT;
	if (memcmp(h->signature, sig, 4))
		return 0;
	len = h->length;
	if (len < ACPI_HEADER_SIZE || len > ACPI_MAX_TABLE)
		return -EINVAL;
	h = map(pa, len);
	if (!h)
		return -EFAULT;
	if (!checksum_ok(h, len))
		return -EINVAL;
	*table = h;
	return 0;
}

int acpi_find_table(uint64_t rsdp_pa, const char *sig, acpi_map_fn map, const void **table)
{
	const struct acpi_header *root, *found;
	uint64_t root_pa;
	size_t entry_size, n;
	int err;

	err = read_rsdp(rsdp_pa, map, &root_pa, &entry_size);
	if (err)
		return err;
	err = map_table(root_pa, entry_size == 8 ? "XSDT" : "RSDT", map, &root);
	if (err)
		return err;
	if (!root)
		return -EINVAL;	/* the RSDP points to something else */
	n = (root->length - ACPI_HEADER_SIZE) / entry_size;
	for (size_t i = 0; i < n; i++) {
		uint64_t pa = 0;

		/* Little-endian: a 4-byte entry fills the low half. */
		memcpy(&pa, (const uint8_t *)root + ACPI_HEADER_SIZE + i * entry_size, entry_size);
		err = map_table(pa, sig, map, &found);
		if (err)
			return err;
		if (found) {
			*table = found;
			return 0;
		}
	}
	return -ENOENT;
}

/* Add id to the n ids listed so far unless it is there already or the
 * list is full; returns the new count. */
static unsigned int add_id(uint32_t *ids, unsigned int n, unsigned int max, uint32_t id)
{
	for (unsigned int i = 0; i < n; i++)
		if (ids[i] == id)
			return n;
	if (n < max)
		ids[n++] = id;
	return n;
}

/* Read one MADT entry, whose length byte the caller has checked against
 * the table's end: the id of an enabled CPU is added to the *n in ids,
 * an address override goes to *lapic_base. Returns 0, or -EINVAL if the entry is too short for its
 * type. Types this reader does not use are skipped. */
static int read_entry(const uint8_t *e, uint32_t *ids, unsigned int *n, unsigned int max,
		      uint64_t *lapic_base)
{
	const struct madt_local_apic *a = (const void *)e;
	const struct madt_local_x2apic *x = (const void *)e;
	const struct madt_lapic_override *o = (const void *)e;

	switch (e[0]) {
	case MADT_LOCAL_APIC:
		if (a->length < sizeof(*a))
			return -EINVAL;
		if (a->flags & MADT_ENABLED)
			*n = add_id(ids, *n, max, a->apic_id);
		return 0;
	case MADT_LOCAL_X2APIC:
		if (x->length < sizeof(*x))
			return -EINVAL;
		if (x->flags & MADT_ENABLED)
			*n = add_id(ids, *n, max, x->x2apic_id);
		return 0;
	case MADT_LAPIC_OVERRIDE:
		if (o->length < sizeof(*o))
			return -EINVAL;
		*lapic_base = o->lapic_base;
		return 0;
	default:
		return 0;
	}
}

int acpi_madt_cpus(const void *madt, uint32_t boot_id, uint32_t *ids, unsigned int max,
		   uint64_t *lapic_base)
{
	const struct acpi_madt *m = madt;
	const uint8_t *p = (const uint8_t *)madt + sizeof(*m);
	const uint8_t *end = (const uint8_t *)madt + m->header.length;
	unsigned int n = 0;

	if (m->header.length < sizeof(*m))
		return -EINVAL;
	*lapic_base = m->lapic_base;
	n = add_id(ids, n, max, boot_id);
	while (p < end) {
		int err;

		if (end - p < 2 || p[1] < 2 || p[1] > end - p)
			return -EINVAL;
		err = read_entry(p, ids, &n, max, lapic_base);
		if (err)
			return err;
		p += p[1];
	}
	return (int)n;
}
