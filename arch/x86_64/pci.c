/*
 * PCI configuration space through the legacy ports: write the address
 * of a 32-bit register to 0xCF8, then read or write it at 0xCFC. QEMU's
 * pc machine (and every PC) has them; the ACPI MCFG's memory-mapped
 * space would reach more buses, which nothing here needs.
 */
#include "arch/x86_64/pci.h"
#include <asm/io.h>

#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA    0xcfc
#define PCI_HEADER_TYPE    0x0e
#define PCI_SECONDARY_BUS  0x19	/* of a bridge (header type 1) */
#define PCI_MULTIFUNCTION  0x80
#define PCI_BRIDGE         1

static void select_register(struct pci_addr a, unsigned int off)
{
	outl(PCI_CONFIG_ADDRESS, 0x80000000u | (uint32_t)a.bus << 16 | (uint32_t)a.dev << 11 |
				 (uint32_t)a.fn << 8 | (off & 0xfc));
}

uint32_t pci_read32(struct pci_addr a, unsigned int off)
{
	select_register(a, off);
	return inl(PCI_CONFIG_DATA);
}

uint16_t pci_read16(struct pci_addr a, unsigned int off)
{
	return (uint16_t)(pci_read32(a, off) >> (8 * (off & 2)));
}

uint8_t pci_read8(struct pci_addr a, unsigned int off)
{
	return (uint8_t)(pci_read32(a, off) >> (8 * (off & 3)));
}

void pci_write16(struct pci_addr a, unsigned int off, uint16_t v)
{
	select_register(a, off);
	outw(PCI_CONFIG_DATA + (off & 2), v);
}

/* Bridges form a tree, but a broken one could name a bus twice: the
 * depth is bounded. */
#define PCI_MAX_DEPTH 8

static bool scan_bus(uint8_t bus, unsigned int depth,
		     bool (*match)(struct pci_addr a, void *arg), void *arg, struct pci_addr *found)
{
	for (uint8_t dev = 0; dev < 32; dev++) {
		for (uint8_t fn = 0; fn < 8; fn++) {
			struct pci_addr a = { bus, dev, fn };
			uint8_t type;

			if (pci_read16(a, PCI_VENDOR_ID) == 0xffff) {	/* nothing there */
				if (fn == 0)
					break;
				continue;
			}
			if (match(a, arg)) {
				*found = a;
				return true;
			}
			type = pci_read8(a, PCI_HEADER_TYPE);
			if ((type & 0x7f) == PCI_BRIDGE && depth < PCI_MAX_DEPTH &&
			    scan_bus(pci_read8(a, PCI_SECONDARY_BUS), depth + 1, match, arg, found))
				return true;
			if (fn == 0 && !(type & PCI_MULTIFUNCTION))
				break;
		}
	}
	return false;
}

bool pci_find(bool (*match)(struct pci_addr a, void *arg), void *arg, struct pci_addr *found)
{
	return scan_bus(0, 0, match, arg, found);
}

#define PCI_BAR_IO     0x1
#define PCI_BAR_64BIT  0x4	/* type bits 2:1 = 10 */
#define PCI_BAR_FLAGS  0xf

uint64_t pci_bar_address(struct pci_addr a, unsigned int bar)
{
	uint32_t lo;
	uint64_t addr;

	if (bar > 5)
		return 0;
	lo = pci_read32(a, PCI_BAR0 + 4 * bar);
	if (lo & PCI_BAR_IO)
		return 0;
	addr = lo & ~(uint32_t)PCI_BAR_FLAGS;
	if ((lo & 0x6) == PCI_BAR_64BIT) {
		if (bar == 5)
			return 0;
		addr |= (uint64_t)pci_read32(a, PCI_BAR0 + 4 * (bar + 1)) << 32;
	}
	return addr;
}
