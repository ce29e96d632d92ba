/* What aarch64 learns from the device tree at boot: struct boot_info, and
 * where the devices that arch/aarch64 drives are. */
#ifndef BOOT_AARCH64_FDT_BOOT_H
#define BOOT_AARCH64_FDT_BOOT_H

#include "boot/boot_info.h"
#include "kernel/cpu.h"

#define FDT_MAX_VIRTIO_MMIO 32

struct fdt_devices {
	uint64_t uart_base;	/* PL011 registers (physical) */
	unsigned int uart_irq;	/* its interrupt, as a GIC INTID */
	uint64_t gicd_base;	/* GICv2 distributor */
	uint64_t gicc_base;	/* GICv2 CPU interface */
	unsigned int timer_irq;	/* INTID of the EL1 virtual timer */
	bool psci_smc;		/* PSCI calls use SMC (else HVC) */
	uint32_t psci_cpu_on;	/* PSCI CPU_ON's function id; 0: none */
	/* The CPUs that PSCI can start, in the tree's order, by MPIDR
	 * affinity (the boot CPU among them), and how many more the tree
	 * lists than fit. */
	uint64_t cpu_mpidr[MAX_CPUS];
	unsigned int ncpus;
	unsigned int cpus_left_out;
	bool from_fallback;	/* some of the above are QEMU virt defaults */
	/* The "virtio,mmio" slots, in the tree's order (QEMU virt has 32,
	 * most of them empty), and how many more the tree lists. */
	uint64_t virtio_mmio_base[FDT_MAX_VIRTIO_MMIO];
	unsigned int nvirtio_mmio;
	unsigned int virtio_mmio_left_out;
};

/* x0 at kernel entry: the device tree's physical address (stored by
 * boot/aarch64/entry.S before kmain runs). */
extern uint64_t boot_dtb_phys;

/* Fill bi from the device tree at dtb_phys. Returns 0 or a negative
 * errno when there is no usable device tree. */
int fdt_boot_info(uint64_t dtb_phys, struct boot_info *bi);

/* The devices, read from the device tree on the first call (the console
 * needs them before anything else runs); QEMU virt's addresses stand in
 * for anything the tree does not say. */
const struct fdt_devices *fdt_devices(void);

#endif
