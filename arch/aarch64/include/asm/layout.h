/* The aarch64 virtual address map, shared by C, assembly and the linker
 * script (so only plain constants here).
 *
 * With 4 KiB pages and 48-bit virtual addresses (TCR_EL1.T1SZ = 16), the
 * kernel's half of the address space is 0xffff000000000000 and up, and is
 * translated through TTBR1_EL1. The lower half (TTBR0_EL1) is used only by
 * the boot code's identity map and is switched off afterwards, so that a
 * NULL pointer (or any user-half address) faults.
 *
 *   0xffff000000000000  direct map of all physical memory (RW, never
 *                       executable; the frames of the kernel image are
 *                       mapped read-only). QEMU virt's RAM starts at
 *                       physical 0x40000000, so it appears at
 *                       0xffff000040000000.
 *   0xffff800000000000  kernel heap, grown a page at a time
 *   0xffff800040000000  kernel stacks: 32 KiB slots, each a 16 KiB
 *                       stack above a 16 KiB guard that is never
 *                       mapped (kernel/mm/stack.h)
 *   0xffffffff40000000  KERNEL_VMA: virtual = physical + KERNEL_VMA for
 *                       the kernel image. The physical range below RAM,
 *                       where QEMU virt puts its devices (GIC, PL011...),
 *                       lands at 0xffffffff40000000 - 0xffffffff7fffffff:
 *                       that is the MMIO window, device memory, mapped
 *                       only where a driver asked (ioremap, asm/io.h).
 *   0xffffffff80200000  the kernel image (physical 0x40200000: RAM base
 *                       + 2 MiB, where QEMU loads an arm64 Image).
 *   0xffffffff82000000  executable memory for instruction slots and
 *                       detour buffers. A B or BL reaches +-128 MiB, so
 *                       the region (64 MiB) starts close enough after the
 *                       kernel text that every slot and every text
 *                       address are at most 94 MiB apart.
 *   0xffffffffbfe00000  text-patching window: one page at a time is
 *                       aliased here writable while code is changed
 *
 * The boot code (boot/aarch64/entry.S) maps the first 2 GiB of physical
 * address space at KERNEL_VMA + physical with 1 GiB blocks (devices, then
 * RAM); paging_init replaces that with the fine-grained map above.
 */
#ifndef ASM_LAYOUT_H
#define ASM_LAYOUT_H

#define KERNEL_VMA        0xffffffff40000000
#define KERNEL_LOAD_PHYS  0x40200000
#define DIRECT_MAP_BASE   0xffff000000000000
#define HEAP_BASE         0xffff800000000000
#define HEAP_MAX_SIZE     0x40000000	/* 1 GiB of address space */
#define STACK_REGION_BASE 0xffff800040000000	/* HEAP_BASE + HEAP_MAX_SIZE */
#define STACK_REGION_SIZE 0x04000000	/* 64 MiB: 2048 slots of 32 KiB */
#define MMIO_BASE         0xffffffff40000000	/* == KERNEL_VMA, see above */
#define MMIO_SIZE         0x40000000	/* physical addresses below 1 GiB */
#define EXEC_REGION_BASE  0xffffffff82000000
#define EXEC_REGION_SIZE  0x04000000	/* 64 MiB */
#define TEXT_POKE_ADDR    0xffffffffbfe00000

#define PAGE_SIZE  4096
#define PAGE_SHIFT 12

#endif
