/*
 * The aarch64 boot information, from the flattened device tree (lib/fdt.h).
 *
 * Where is the tree? Booted as an arm64 Image (the normal way, see
 * boot/aarch64/entry.S), QEMU passes its physical address in x0. Booted
 * as a bare ELF file, x0 is 0 and QEMU leaves the tree at the start of
 * RAM; for that case, and only then, the start of QEMU virt's RAM is
 * tried as a documented fallback.
 *
 * From the tree come:
 *   RAM             every node with device_type = "memory", its "reg"
 *   command line    /chosen bootargs
 *   root archive    /chosen linux,initrd-start and linux,initrd-end
 *   console         the node compatible with "arm,pl011"
 *   interrupts      "arm,cortex-a15-gic" or "arm,gic-400" (a GICv2):
 *                   reg 0 is the distributor, reg 1 the CPU interface
 *   timer           "arm,armv8-timer": its third interrupt is the EL1
 *                   virtual timer, the one the kernel uses
 *   power off       /psci "method": "hvc" or "smc"
 *   virtio devices  every node compatible with "virtio,mmio": its reg
 *   other CPUs      /cpus: each child with device_type "cpu" and
 *                   enable-method "psci", its reg (MPIDR affinity bits);
 *                   /psci: CPU_ON's function id, PSCI 0.2's standard one
 *                   when compatible with "arm,psci-0.2" (or 1.0, 1.1), else
 *                   its "cpu_on" property (PSCI 0.1 names its own ids)
 * Interrupt specifiers are read as the GIC's three cells <type number
 * flags>: type 0 is a shared interrupt (INTID 32 + number), type 1 a
 * per-CPU one (INTID 16 + number).
 *
 * Everything here runs before the final page tables, through the boot
 * mapping of the first gigabyte of RAM (phys_to_virt), so the tree must
 * lie there; QEMU puts it within the first 256 MiB.
 */
#include "boot/aarch64/fdt_boot.h"
#include "kernel/mm/paging.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/fdt.h"
#include "lib/string.h"
#include <asm/layout.h>
#include <asm/psci.h>

#define GIB (1ULL << 30)
#define BOOT_RAM_START (KERNEL_LOAD_PHYS & ~(GIB - 1))	/* mapped at boot */
#define BOOT_RAM_END   (BOOT_RAM_START + GIB)

/* QEMU virt's memory map (hw/arm/virt.c), used only when the tree is
 * missing or does not name a device. */
#define VIRT_RAM_BASE  0x40000000ULL
#define VIRT_UART      0x09000000ULL
#define VIRT_GICD      0x08000000ULL
#define VIRT_GICC      0x08010000ULL
#define VIRT_UART_IRQ  (32 + 1)
#define VIRT_TIMER_IRQ (16 + 11)

#define GIC_SPI 0
#define GIC_PPI 1

uint64_t boot_dtb_phys;

/* The tree at pa, if pa is in mapped RAM and holds a valid header. */
static const void *dtb_at(uint64_t pa)
{
	const void *fdt;

	if (pa < BOOT_RAM_START || pa >= BOOT_RAM_END || pa % 8)
		return NULL;
	fdt = phys_to_virt(pa);
	return fdt_check(fdt, BOOT_RAM_END - pa) == 0 ? fdt : NULL;
}

static const void *find_dtb(uint64_t dtb_phys, uint64_t *found)
{
	const void *fdt = dtb_at(dtb_phys);

	*found = dtb_phys;
	if (!fdt) {
		fdt = dtb_at(VIRT_RAM_BASE);
		*found = VIRT_RAM_BASE;
	}
	return fdt;
}

static void add_memory(const void *fdt, int node, struct boot_info *bi)
{
	uint64_t base, size;

	for (int i = 0; fdt_read_reg(fdt, node, i, &base, &size) == 0; i++) {
		if (!size || bi->nram == BOOT_MAX_REGIONS)
			continue;
		bi->ram[bi->nram].base = base;
		bi->ram[bi->nram].size = size;
		bi->nram++;
	}
}

int fdt_boot_info(uint64_t dtb_phys, struct boot_info *bi)
{
	uint64_t pa, start, end;
	const void *fdt = find_dtb(dtb_phys, &pa);
	const char *args;
	int depth = 0;

	if (!fdt) {
		kprintf("boot: no device tree at 0x%lx (x0) or 0x%llx\n",
			(unsigned long)dtb_phys, VIRT_RAM_BASE);
		return -EINVAL;
	}
	memset(bi, 0, sizeof(*bi));
	for (int n = fdt_root(fdt); n >= 0; n = fdt_next_node(fdt, n, &depth))
		if (fdt_prop_has_string(fdt, n, "device_type", "memory"))
			add_memory(fdt, n, bi);
	if (!bi->nram) {
		kprintf("boot: the device tree describes no memory\n");
		return -ENOENT;
	}
	args = fdt_bootargs(fdt);
	if (args)
		strlcpy(bi->cmdline, args, sizeof(bi->cmdline));
	if (fdt_initrd(fdt, &start, &end) == 0) {
		bi->initrd_base = start;
		bi->initrd_size = end - start;
	}
	bi->info_base = pa;
	bi->info_size = fdt_total_size(fdt);
	if (fdt_devices()->from_fallback)
		kprintf("boot: device tree incomplete, using QEMU virt defaults for some devices\n");
	return 0;
}

/* Interrupt index of node as a GIC INTID, or 0. */
static unsigned int gic_intid(const void *fdt, int node, int index)
{
	int len;
	const uint8_t *p = fdt_getprop(fdt, node, "interrupts", &len);

	if (!p || len < (index + 1) * 12)
		return 0;
	p += index * 12;
	switch (fdt_cells(p, 1)) {
	case GIC_SPI:
		return 32 + (unsigned int)fdt_cells(p + 4, 1);
	case GIC_PPI:
		return 16 + (unsigned int)fdt_cells(p + 4, 1);
	default:
		return 0;
	}
}

static int find_gic(const void *fdt)
{
	int n = fdt_find_compatible(fdt, -1, "arm,cortex-a15-gic");

	return n >= 0 ? n : fdt_find_compatible(fdt, -1, "arm,gic-400");
}

/* Each device keeps its fallback unless the tree describes it fully. */
static void probe_devices(const void *fdt, struct fdt_devices *d)
{
	uint64_t base, cpu_base, size;
	unsigned int irq;
	int n, found = 0;

	n = fdt_find_compatible(fdt, -1, "arm,pl011");
	if (n >= 0 && fdt_read_reg(fdt, n, 0, &base, &size) == 0 &&
	    (irq = gic_intid(fdt, n, 0)) != 0) {
		d->uart_base = base;
		d->uart_irq = irq;
		found++;
	}
	n = find_gic(fdt);
	if (n >= 0 && fdt_read_reg(fdt, n, 0, &base, &size) == 0 &&
	    fdt_read_reg(fdt, n, 1, &cpu_base, &size) == 0) {
		d->gicd_base = base;
		d->gicc_base = cpu_base;
		found++;
	}
	n = fdt_find_compatible(fdt, -1, "arm,armv8-timer");
	if (n >= 0 && (irq = gic_intid(fdt, n, 2)) != 0) {
		d->timer_irq = irq;
		found++;
	}
	n = fdt_path(fdt, "/psci");
	if (n >= 0 && fdt_getprop(fdt, n, "method", NULL)) {
		d->psci_smc = fdt_prop_has_string(fdt, n, "method", "smc");
		found++;
	}
	d->from_fallback = found != 4;
}

/* The virtio-mmio slots; each one's device, if any, is found by reading
 * its registers (arch/aarch64/virtio_mmio.c). None is a fallback: QEMU
 * virt's tree always lists them. */
static void probe_virtio_mmio(const void *fdt, struct fdt_devices *d)
{
	uint64_t base, size;

	for (int n = fdt_find_compatible(fdt, -1, "virtio,mmio"); n >= 0;
	     n = fdt_find_compatible(fdt, n, "virtio,mmio")) {
		if (fdt_read_reg(fdt, n, 0, &base, &size) < 0)
			continue;
		if (d->nvirtio_mmio == FDT_MAX_VIRTIO_MMIO)
			d->virtio_mmio_left_out++;
		else
			d->virtio_mmio_base[d->nvirtio_mmio++] = base;
	}
}

/* CPU_ON's function id from the /psci node, or 0. */
static uint32_t psci_cpu_on_id(const void *fdt, int psci)
{
	uint32_t fn;

	if (fdt_is_compatible(fdt, psci, "arm,psci-0.2") ||
	    fdt_is_compatible(fdt, psci, "arm,psci-1.0") ||
	    fdt_is_compatible(fdt, psci, "arm,psci-1.1"))
		return PSCI_FN64_CPU_ON;
	return fdt_read_u32(fdt, psci, "cpu_on", &fn) == 0 ? fn : 0;
}

/* The CPUs listed under /cpus that PSCI can start (arch/aarch64/smp.c
 * starts them). QEMU virt lists none as such with -smp 1. */
static void probe_cpus(const void *fdt, struct fdt_devices *d)
{
	int cpus = fdt_path(fdt, "/cpus");
	int psci = fdt_path(fdt, "/psci");
	uint64_t mpidr, size;

	if (psci >= 0)
		d->psci_cpu_on = psci_cpu_on_id(fdt, psci);
	if (cpus < 0)
		return;
	for (int n = fdt_first_child(fdt, cpus); n >= 0; n = fdt_next_sibling(fdt, n)) {
		if (!fdt_prop_has_string(fdt, n, "device_type", "cpu") ||
		    !fdt_prop_has_string(fdt, n, "enable-method", "psci") ||
		    fdt_read_reg(fdt, n, 0, &mpidr, &size) < 0)
			continue;
		if (d->ncpus == MAX_CPUS)
			d->cpus_left_out++;
		else
			d->cpu_mpidr[d->ncpus++] = mpidr;
	}
}

const struct fdt_devices *fdt_devices(void)
{
	static struct fdt_devices devices;
	static bool probed;
	uint64_t pa;
	const void *fdt;

	if (probed)
		return &devices;
	probed = true;
	devices = (struct fdt_devices){
		.uart_base = VIRT_UART, .uart_irq = VIRT_UART_IRQ,
		.gicd_base = VIRT_GICD, .gicc_base = VIRT_GICC,
		.timer_irq = VIRT_TIMER_IRQ, .psci_smc = false,
		.from_fallback = true,
	};
	fdt = find_dtb(boot_dtb_phys, &pa);
	if (fdt) {
		probe_devices(fdt, &devices);
		probe_cpus(fdt, &devices);
		probe_virtio_mmio(fdt, &devices);
	}
	return &devices;
}
