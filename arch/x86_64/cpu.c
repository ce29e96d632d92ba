/*
 * x86_64 descriptor tables: the GDT with its TSS, and the IDT.
 *
 * Long mode barely uses segments, but the CPU still needs a code segment
 * for ring 0 and a TSS, whose only job here is to name the Interrupt Stack
 * Table: the double-fault handler switches to IST stack 1, so that a fault
 * that happens while the CPU cannot push a trap frame on the current stack
 * (%rsp pointing at unmapped memory) ends in a readable panic instead of a
 * triple fault and a silent reset. That is how a kernel stack overflow
 * is caught: the push that reaches a stack's guard page faults, the page
 * fault cannot push its frame there either, and the double fault, on its
 * own stack, finds the faulting address in a guard (traps.c). The
 * double-fault stacks have guard pages of their own, in .bss: they are
 * needed before the page allocator is.
 *
 * The tables are per CPU (struct x86_cpu_tables) because each CPU needs
 * its own TSS and IST stack; SMP only has to call arch_cpu_init on each.
 */
#include "arch/x86_64/cpuinfo.h"
#include "kernel/arch.h"
#include "kernel/cpu.h"
#include "kernel/mm/stack.h"
#include "kernel/nokprobe.h"
#include "lib/string.h"
#include <asm/irq_vectors.h>
#include <asm/layout.h>

#define GDT_KERNEL_CODE 0x08
#define GDT_KERNEL_DATA 0x10
#define GDT_TSS         0x18
#define IST_DOUBLE_FAULT 1
#define IST_STACK_SIZE  8192
#define MSR_GS_BASE     0xc0000101

struct __packed tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
};

struct __packed idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
};

struct __packed table_ptr {
	uint16_t limit;
	uint64_t base;
};

struct x86_cpu_tables {
	/* Unmapped once paging is up (kernel/mm/stack.h): an overflow of
	 * the double-fault stack above it faults at once. */
	uint8_t ist_guard[PAGE_SIZE] __aligned(PAGE_SIZE);
	uint8_t ist_stack[IST_STACK_SIZE];
	uint64_t gdt[5];	/* null, code, data, TSS (two slots) */
	struct tss tss;
};

static struct x86_cpu_tables cpu_tables[MAX_CPUS];
STATIC_STACK_GUARDS(ist, cpu_tables[0].ist_guard, PAGE_SIZE, sizeof(struct x86_cpu_tables),
		    MAX_CPUS);
static struct idt_gate idt[IDT_VECTORS];
extern const uint64_t trap_stub_table[IDT_VECTORS];

static void set_gate(int vector, uint64_t handler, uint8_t ist)
{
	struct idt_gate *g = &idt[vector];

	g->offset_low = handler & 0xffff;
	g->selector = GDT_KERNEL_CODE;
	g->ist = ist;
	g->type_attr = 0x8e;	/* present, ring 0, 64-bit interrupt gate */
	g->offset_mid = (handler >> 16) & 0xffff;
	g->offset_high = handler >> 32;
	g->reserved = 0;
}

static void build_idt(void)
{
	for (int v = 0; v < IDT_VECTORS; v++)
		set_gate(v, trap_stub_table[v], v == 8 ? IST_DOUBLE_FAULT : 0);
}

static void load_gdt(struct x86_cpu_tables *t)
{
	uint64_t tss = (uint64_t)&t->tss;
	struct table_ptr ptr = { sizeof(t->gdt) - 1, (uint64_t)t->gdt };

	t->gdt[0] = 0;
	t->gdt[1] = 0x00209a0000000000;	/* 64-bit code, ring 0 */
	t->gdt[2] = 0x0000920000000000;	/* data, ring 0 */
	/* 64-bit available TSS descriptor: limit, base split over 16 bytes. */
	t->gdt[3] = (sizeof(struct tss) - 1) | ((tss & 0xffffff) << 16) |
		    (0x89ULL << 40) | (((tss >> 24) & 0xff) << 56);
	t->gdt[4] = tss >> 32;
	t->tss.ist[IST_DOUBLE_FAULT - 1] = (uint64_t)(t->ist_stack + IST_STACK_SIZE);
	t->tss.iomap_base = sizeof(struct tss);

	__asm__ volatile("lgdt %0" : : "m"(ptr));
	/* Reload CS with a far return, then the data segments and the TSS. */
	__asm__ volatile("pushq %0\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw %w1, %%ds\n\t"
			 "movw %w1, %%es\n\t"
			 "movw %w1, %%ss\n\t"
			 "ltr %w2"
			 : : "i"(GDT_KERNEL_CODE), "r"(GDT_KERNEL_DATA), "r"(GDT_TSS)
			 : "rax", "memory");
}

static void load_idt(void)
{
	struct table_ptr ptr = { sizeof(idt) - 1, (uint64_t)idt };

	__asm__ volatile("lidt %0" : : "m"(ptr));
}

void arch_set_percpu_base(struct cpu *cpu)
{
	uint64_t v = (uint64_t)cpu;

	__asm__ volatile("wrmsr" : : "c"(MSR_GS_BASE), "a"((uint32_t)v),
			 "d"((uint32_t)(v >> 32)));
}
NOKPROBE_SYMBOL(arch_set_percpu_base);

void arch_cpu_init(unsigned int id)
{
	if (idt[0].type_attr == 0)
		build_idt();	/* one IDT serves every CPU */
	load_gdt(&cpu_tables[id]);
	load_idt();
	cpuinfo_record(id);
}
