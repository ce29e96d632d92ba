/*
 * Finding and starting the other CPUs on x86_64 (kernel/arch.h, "Other
 * CPUs"; docs/smp.md, "Bringing up the other CPUs on x86_64").
 *
 * Finding: ACPI's MADT lists the local APIC id of every CPU. GRUB hands
 * over a copy of the RSDP (boot_info.acpi_rsdp); lib/acpi.c follows it to
 * the MADT and lists the enabled CPUs, the boot CPU first. The tables
 * live in firmware memory, outside RAM, and are mapped read-only on the
 * way (memremap_ro).
 *
 * Starting: the SDM's INIT-SIPI-SIPI sequence (vol. 3, "MP
 * Initialization"): an INIT IPI, 10 ms, then a STARTUP IPI, 200 us, and a
 * second STARTUP IPI for a CPU that missed the first. The STARTUP IPI
 * names a page below 1 MiB where the CPU starts in real mode; that page
 * holds smp_trampoline.S, which reads the mailbox written here and ends
 * in smp_secondary_entry. Only one CPU starts at a time (kernel/smp.c
 * waits for each), so one mailbox serves them all.
 */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/smp_trampoline.h"
#include "boot/boot_info.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/mm/frame.h"
#include "kernel/mm/paging.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "lib/acpi.h"
#include "lib/errno.h"
#include "lib/string.h"
#include <asm/io.h>
#include <asm/layout.h>
#include <asm/pgtable.h>

/* An xAPIC's IPI destination is 8 bits, and 0xff is the broadcast. */
#define MAX_XAPIC_ID	0xfe
#define INIT_DELAY_US	10000
#define SIPI_DELAY_US	200

_Static_assert(offsetof(struct smp_mailbox, trampoline_cr3) == MB_TRAMPOLINE_CR3, "mailbox");
_Static_assert(offsetof(struct smp_mailbox, kernel_cr3) == MB_KERNEL_CR3, "mailbox");
_Static_assert(offsetof(struct smp_mailbox, stack_top) == MB_STACK_TOP, "mailbox");
_Static_assert(offsetof(struct smp_mailbox, cpu_id) == MB_CPU_ID, "mailbox");
_Static_assert(sizeof(struct smp_mailbox) == MB_SIZE, "mailbox");
_Static_assert(SMP_TRAMPOLINE_PHYS % PAGE_SIZE == 0 && SMP_TRAMPOLINE_PHYS < (1 << 20),
	       "a STARTUP IPI can only name a page below 1 MiB");

static struct smp_mailbox *mailbox;	/* in the copied trampoline; NULL until then */

static const void *acpi_map(uint64_t pa, size_t len)
{
	return memremap_ro(pa, len);
}

/* The boot CPU's initial local APIC id (CPUID leaf 1, EBX bits 31-24),
 * which the firmware leaves as the local APIC's id: known before the
 * MADT says where the local APIC's registers are. */
static uint32_t cpuid_apic_id(void)
{
	return cpuid(1).ebx >> 24;
}

static uint64_t read_cr3(void)
{
	uint64_t v;

	__asm__ volatile("movq %%cr3, %0" : "=r"(v));
	return v;
}

static void delay_us(unsigned int us)
{
	ktime_t end = ktime_get() + us * NSEC_PER_USEC;

	while (ktime_get() < end)
		__asm__ volatile("pause");
}

/* Whether the trampoline page can be overwritten: it must be RAM, so
 * that the direct map reaches it (the frame allocator never hands out
 * the first MiB), and hold neither the boot information nor the rootfs
 * archive, which GRUB may have put anywhere. */
static bool overlaps(uint64_t base, uint64_t size)
{
	return size && base < SMP_TRAMPOLINE_PHYS + PAGE_SIZE && SMP_TRAMPOLINE_PHYS < base + size;
}

static bool trampoline_page_usable(const struct boot_info *bi)
{
	bool ram = false;

	for (size_t i = 0; i < bi->nram; i++)
		if (bi->ram[i].base <= SMP_TRAMPOLINE_PHYS &&
		    SMP_TRAMPOLINE_PHYS + PAGE_SIZE <= bi->ram[i].base + bi->ram[i].size)
			ram = true;
	return ram && !overlaps(bi->info_base, bi->info_size) &&
	       !overlaps(bi->initrd_base, bi->initrd_size);
}

/* The CPUs' local APIC ids from the MADT, boot CPU first; 0 if they
 * cannot be known or reached (the reason is printed). */
static int madt_cpus(const struct boot_info *bi, uint32_t *ids, unsigned int max)
{
	const void *madt;
	uint64_t lapic_base;
	int n, err;

	if (!bi->acpi_rsdp) {
		kprintf("smp: the boot loader passed no ACPI tables\n");
		return 0;
	}
	err = acpi_find_table(bi->acpi_rsdp, "APIC", acpi_map, &madt);
	if (err) {
		kprintf("smp: no usable MADT in the ACPI tables: %s\n", strerror(err));
		return 0;
	}
	n = acpi_madt_cpus(madt, cpuid_apic_id(), ids, max, &lapic_base);
	if (n < 0) {
		kprintf("smp: the MADT is malformed: %s\n", strerror(n));
		return 0;
	}
	if (n == 1)
		return 1;
	/* The tick mapped the local APIC where the CPU says it is. */
	if (lapic_base != lapic_phys_base()) {
		kprintf("smp: the MADT puts the local APIC at 0x%lx, the CPU at 0x%lx\n",
			(unsigned long)lapic_base, (unsigned long)lapic_phys_base());
		return 0;
	}
	if (lapic_id() != ids[0]) {
		kprintf("smp: the local APIC says this CPU is %u, CPUID %u\n", lapic_id(), ids[0]);
		return 0;
	}
	return n;
}

unsigned int arch_smp_find_cpus(const struct boot_info *bi, uint64_t *hw_ids, unsigned int max)
{
	uint32_t ids[MAX_CPUS];
	unsigned int found = 1;
	int n = madt_cpus(bi, ids, MIN(max, (unsigned int)MAX_CPUS));

	/* The boot CPU is there whatever the tables say. */
	hw_ids[0] = cpuid_apic_id();
	if (n <= 1)
		return 1;
	/* Checked only when there is another CPU to start, so that a
	 * one-CPU machine boots as it always did. */
	if (!arch_cycles_frequency()) {
		kprintf("smp: no clock to time the start-up IPIs with\n");
		return 1;
	}
	if (!trampoline_page_usable(bi)) {
		kprintf("smp: physical page 0x%x is not free for the trampoline\n",
			SMP_TRAMPOLINE_PHYS);
		return 1;
	}
	for (int i = 1; i < n; i++) {
		if (ids[i] > MAX_XAPIC_ID) {
			kprintf("smp: CPU with x2APIC id 0x%x left out: out of an xAPIC's reach\n",
				ids[i]);
			continue;
		}
		hw_ids[found++] = ids[i];
	}
	return found;
}

/* A zeroed page-table frame below 4 GiB (all of the frame allocator's
 * are), through the direct map; 0 if none is left. */
static uint64_t table_frame(void)
{
	uint64_t pa = frame_alloc();

	if (pa)
		memset(phys_to_virt(pa), 0, PAGE_SIZE);
	return pa;
}

/*
 * The trampoline's page tables: the first 2 MiB mapped at their physical
 * address by one large page (the trampoline runs there after paging is
 * on), and the kernel's half pointing to the same tables as the kernel's
 * root, so that the jump to smp_ap_entry64 lands in the kernel's text.
 * The kernel's own tables stay without any low mapping. Made once and
 * kept: three frames. Returns the root's physical address, or 0.
 */
static uint64_t trampoline_tables(void)
{
	const uint64_t *kernel_root = phys_to_virt(read_cr3() & PTE_ADDR);
	uint64_t root = table_frame(), pdpt = table_frame(), pd = table_frame();
	uint64_t *r;

	if (!root || !pdpt || !pd)
		return 0;	/* a frame or two lost, with the machine nearly full */
	/* Physical 0 to 2 MiB, writable and executable. */
	((uint64_t *)phys_to_virt(pd))[0] = 0 | PTE_PRESENT | PTE_WRITE | PTE_HUGE;
	((uint64_t *)phys_to_virt(pdpt))[0] = pte_mk_table(pd);
	r = phys_to_virt(root);
	r[0] = pte_mk_table(pdpt);
	for (int i = 256; i < 512; i++)
		r[i] = kernel_root[i];
	return root;
}

/* Copy the trampoline to its page and give it its page tables. */
static int trampoline_setup(void)
{
	size_t size = (size_t)(smp_trampoline_end - smp_trampoline_start);
	char *page = phys_to_virt(SMP_TRAMPOLINE_PHYS);
	uint64_t root;

	if (size > PAGE_SIZE)
		return -E2BIG;
	root = trampoline_tables();
	if (!root)
		return -ENOMEM;
	memcpy(page, smp_trampoline_start, size);
	mailbox = (struct smp_mailbox *)(page + (smp_trampoline_mailbox - smp_trampoline_start));
	mailbox->trampoline_cr3 = root;
	return 0;
}

int arch_smp_start_cpu(unsigned int id, uint64_t hw_id, uintptr_t stack_top)
{
	int err;

	if (!mailbox && (err = trampoline_setup()) < 0)
		return err;
	mailbox->kernel_cr3 = read_cr3();
	mailbox->stack_top = stack_top;
	mailbox->cpu_id = id;
	/* The mailbox must be in memory before the IPI that makes the CPU
	 * read it goes out (an uncached store, but be explicit). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);

	err = lapic_send_init((uint32_t)hw_id);
	if (err)
		return err;
	delay_us(INIT_DELAY_US);
	for (int i = 0; i < 2; i++) {
		/* A CPU already started ignores a second STARTUP IPI, but
		 * one that is online needs none. */
		if (cpu_online(id))
			break;
		err = lapic_send_startup((uint32_t)hw_id, SMP_TRAMPOLINE_PHYS);
		if (err)
			return err;
		delay_us(SIPI_DELAY_US);
	}
	return 0;
}
