/* Reading ACPI's tables: from the RSDP to a table named by its signature,
 * and the CPUs that the MADT ("APIC" table) lists.
 *
 * The firmware's tables are a tree of physical addresses: the RSDP points
 * to the RSDT (32-bit pointers) or, from ACPI 2.0, the XSDT (64-bit
 * pointers), whose entries point to the tables themselves, each starting
 * with the same 36-byte header (signature, length, checksum). This is pure
 * parsing, with no dependence on the kernel, so the host tests run it: a
 * table is reached through a function the caller gives, which turns a
 * physical range into a readable pointer (the kernel maps the range, a
 * test points into a buffer). Nothing the firmware wrote is trusted: every
 * length is checked before a read and every checksum before a table is
 * used, so a broken table gives an error, never a wild read. */
#ifndef LIB_ACPI_H
#define LIB_ACPI_H

#include "lib/types.h"

#define ACPI_RSDP_V1_SIZE 20	/* up to the RSDT's address */
#define ACPI_RSDP_V2_SIZE 36	/* with the XSDT's address */
#define ACPI_HEADER_SIZE 36
/* Larger than any table this reader looks for can be: a length above it
 * is taken as a broken table rather than mapped. */
#define ACPI_MAX_TABLE (1u << 20)

/* A readable pointer to the physical range [pa, pa + len), or NULL if it
 * cannot be reached. */
typedef const void *(*acpi_map_fn)(uint64_t pa, size_t len);

/* Find the table whose signature is sig (four characters: "APIC" for the
 * MADT) through the RSDP at physical address rsdp_pa. On success *table
 * points to the whole table (its length is in its header) and 0 is
 * returned; otherwise -ENOENT if there is no such table, -EINVAL if the
 * RSDP, the root table or the table found is malformed (signature,
 * length or checksum), -EFAULT if map could not reach one. */
int acpi_find_table(uint64_t rsdp_pa, const char *sig, acpi_map_fn map, const void **table);

/* The local APIC ids of the enabled CPUs that a MADT found by
 * acpi_find_table lists (local APIC entries, type 0, and local x2APIC
 * entries, type 9), each once, into ids: boot_id first, the CPU running
 * this, whether or not the table lists it, then the others in table order,
 * at most max in all. *lapic_base is set to the physical address of the
 * local APICs' registers (the table's, or the 64-bit one of an address
 * override entry, type 5). Returns how many ids, or -EINVAL if an entry
 * is malformed. */
int acpi_madt_cpus(const void *madt, uint32_t boot_id, uint32_t *ids, unsigned int max,
		   uint64_t *lapic_base);

#endif
