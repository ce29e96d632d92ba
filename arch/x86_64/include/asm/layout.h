/* The x86_64 virtual address map, shared by C, assembly and the linker
 * script (so only plain constants here).
 *
 *   0xffff800000000000  direct map of all physical memory (RW, NX; the
 *                       frames of the kernel image are mapped read-only);
 *                       outside RAM, only what was asked for: ACPI tables
 *                       read-only, device registers (the local APIC)
 *                       uncached (asm/io.h)
 *   0xffffc00000000000  kernel heap, grown a page at a time
 *   0xffffc00040000000  kernel stacks: 32 KiB slots, each a 16 KiB
 *                       stack above a 16 KiB guard that is never
 *                       mapped (kernel/mm/stack.h)
 *   0xffffffff80000000  the kernel image: physical address + this base.
 *                       -mcmodel=kernel needs the image in the top 2 GiB.
 *   0xffffffffa0000000  executable memory for instruction slots and
 *                       detour buffers, within +-2 GiB of kernel text so
 *                       that a 32-bit relative jump reaches either way
 *   0xffffffffbfe00000  text-patching window: one page at a time is
 *                       aliased here writable while code is changed
 */
#ifndef ASM_LAYOUT_H
#define ASM_LAYOUT_H

#define KERNEL_VMA        0xffffffff80000000
#define KERNEL_LOAD_PHYS  0x100000
#define DIRECT_MAP_BASE   0xffff800000000000
#define HEAP_BASE         0xffffc00000000000
#define HEAP_MAX_SIZE     0x40000000	/* 1 GiB of address space */
#define STACK_REGION_BASE 0xffffc00040000000	/* HEAP_BASE + HEAP_MAX_SIZE */
#define STACK_REGION_SIZE 0x04000000	/* 64 MiB: 2048 slots of 32 KiB */
#define EXEC_REGION_BASE  0xffffffffa0000000
#define EXEC_REGION_SIZE  0x04000000	/* 64 MiB */
#define TEXT_POKE_ADDR    0xffffffffbfe00000

/* Where the other CPUs start, in real mode: a page below 1 MiB, which
 * the frame allocator never hands out (arch/x86_64/smp.c). */
#define SMP_TRAMPOLINE_PHYS 0x8000

#define PAGE_SIZE  4096
#define PAGE_SHIFT 12

#endif
