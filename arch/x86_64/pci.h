/* PCI configuration space through the legacy ports 0xCF8/0xCFC
 * ("configuration mechanism #1"), and finding a device by its ids. */
#ifndef ARCH_X86_64_PCI_H
#define ARCH_X86_64_PCI_H

#include "lib/types.h"

/* A function's place: bus, device (slot) and function number. */
struct pci_addr {
	uint8_t bus, dev, fn;
};

#define PCI_VENDOR_ID      0x00	/* 16 bits; device id at 0x02 */
#define PCI_COMMAND        0x04	/* 16 bits; status at 0x06 */
#define PCI_STATUS         0x06
#define PCI_BAR0           0x10	/* six 32-bit BARs */
#define PCI_SUBSYSTEM_ID   0x2e
#define PCI_CAP_PTR        0x34

#define PCI_COMMAND_MEMORY 0x2	/* decode the memory BARs */
#define PCI_COMMAND_MASTER 0x4	/* the device may do DMA */
#define PCI_STATUS_CAP_LIST 0x10	/* a capability list is at PCI_CAP_PTR */

/* Read a 32-, 16- or 8-bit register of a function's configuration
 * space; off must be aligned to the register's size. */
uint32_t pci_read32(struct pci_addr a, unsigned int off);
uint16_t pci_read16(struct pci_addr a, unsigned int off);
uint8_t pci_read8(struct pci_addr a, unsigned int off);
/* Write a 16-bit register (off aligned to 2). */
void pci_write16(struct pci_addr a, unsigned int off, uint16_t v);

/* Walk bus 0 and the buses behind its PCI-to-PCI bridges, and call
 * match(a, arg) for each function present, in bus, device, function
 * order, until it returns true. Returns true, with *found set, when one
 * did. */
bool pci_find(bool (*match)(struct pci_addr a, void *arg), void *arg, struct pci_addr *found);

/* The physical address of memory BAR bar (0..5), 64-bit BARs included;
 * 0 if it is an I/O BAR, out of range or not assigned. */
uint64_t pci_bar_address(struct pci_addr a, unsigned int bar);

#endif
