/*
 * The architecture contract: everything the portable kernel (kernel/,
 * kernel/probes/, lib/) asks of an architecture, arch/<name>/. Nothing
 * else in portable code names a register, an instruction or a device.
 *
 * The contract is this header and the ones it lists here:
 *
 *   kernel/arch.h                        functions, by subsystem, below
 *   kernel/probes/arch_probes.h          the probe and optimizer back ends
 *   kernel/probes/tests/probe_selftest_arch.h  the probe selftests' test targets
 *   kernel/module/arch_module.h          the module loader's relocations
 *   kernel/trace/arch_ftrace.h           the function tracer's site patcher
 *   kernel/trace/probe_regs.h            the registers probe events name
 *
 * plus the asm/ headers, each arch/<name>/include/asm/<header>.h, whose
 * names portable code uses: the table at the end of this file.
 * tools/check_arch_contract.py, run by `make all`, fails the build if
 * portable code uses an arch_ name that the headers above do not declare
 * and the table does not list, or includes an asm/ header the table does
 * not list. docs/porting.md says in what order to write all this.
 *
 * Two functions an architecture defines have no arch_ prefix, as they
 * are part of a public interface: jprobe_return (kernel/probes/kprobes.h)
 * and crash_bad_return (kernel/crash_test.h).
 *
 * In the other direction, arch code calls into the core: thread_start
 * and sched_timer_tick (kernel/sched.h), smp_handle_ipi (kernel/smp.h),
 * console_rx_interrupt (kernel/console.h), trap_call_hook and extable_fixup (kernel/trap.h), and the probe
 * core's entry points listed in kernel/probes/arch_probes.h.
 */
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include "lib/types.h"
#include <asm/context.h>
#include <asm/ptrace.h>

struct cpu;
struct boot_info;

/* ---- CPU and per-CPU data (arch/<name>/cpu.c) ---- */

/* Set up the descriptor tables and trap vectors of CPU number id. */
void arch_cpu_init(unsigned int id);
/* Point this CPU's per-CPU base register at cpu (see this_cpu()). */
void arch_set_percpu_base(struct cpu *cpu);
/* A monotonically increasing cycle counter (TSC / CNTVCT). */
uint64_t arch_cycles(void);
/* arch_cycles' rate in Hz, for kernel/time.c; 0 until it is known (on
 * x86_64, until arch_interrupts_init has measured it). */
uint64_t arch_cycles_frequency(void);

/* ---- What a CPU is (x86_64: cpuinfo.c, from CPUID; aarch64: cpuinfo.c,
 * from MIDR_EL1) ---- */

/* Field i (0 first) of what the architecture knows of CPU id, as Linux's
 * /proc/cpuinfo names and writes it on this architecture: the name in
 * *name ("vendor_id", "CPU part"), the value written into value[0..size).
 * Returns false past the last field, and at once for a CPU that has not
 * come up (each CPU records what it says of itself as it comes up). */
bool arch_cpuinfo_field(unsigned int id, unsigned int i, const char **name, char *value,
			size_t size);

/* ---- Interrupts and the timer (x86_64: pic.c, timer.c; aarch64: irq.c, timer.c) ---- */

/* The timer's interrupts per second. */
#define TIMER_HZ 100
/* Set up the interrupt controller, the timer at TIMER_HZ and the
 * console's receive interrupt; interrupts stay disabled until the
 * scheduler starts. */
void arch_interrupts_init(void);

/* ---- Interrupt counts (x86_64: irq_rows.c, pic.c; aarch64: irq.c) ---- */

/* Where a row's counts come from: each is counted where the interrupt
 * is handled. */
enum irq_source {
	IRQ_SOURCE_TIMER,	/* the tick: sched_timer_interrupts (kernel/sched.h) */
	IRQ_SOURCE_IPI,		/* IPIs of kind `which`: smp_ipis_taken (kernel/smp.h) */
	IRQ_SOURCE_DEVICE,	/* the device line `which`: arch_irq_count */
};

/* A row of /proc/interrupts as Linux prints it on this architecture: the
 * label before the counts, a device line's number ("4", "27") or Linux's
 * short name for a kind of interrupt ("LOC", "IPI0"); the text after
 * them, for a device's line its controller, number, trigger and driver
 * in Linux's columns, for a kind what it is; and where its counts come
 * from. */
struct irq_row {
	char label[8];
	char text[64];
	enum irq_source source;
	unsigned int which;
};
/* Row i (0 first) of the architecture's interrupts, into *row; false
 * past the last. */
bool arch_irq_row(unsigned int i, struct irq_row *row);
/* How many interrupts of device line `which` (as an IRQ_SOURCE_DEVICE
 * row names it) CPU cpu has handled. */
unsigned long arch_irq_count(unsigned int cpu, unsigned int which);

/* ---- Console (uart.c) ---- */

/* Set up the console UART: polled output, interrupt-driven input. */
void arch_console_init(void);
/* Write one byte to the console UART, waiting while it is busy. */
void arch_console_putc(char c);
/* The next byte the console UART received, taken out of it, or -1 if
 * none is waiting. Called by kernel/console.c only, with its input lock
 * held, so that one CPU at a time reads the receiver. */
int arch_console_rx_byte(void);
/* Turn the UART's receive interrupt on or off. While it is off, the
 * handler is not called and received bytes stay in the UART, which holds
 * back the rest of the input once full: kernel/console.c's flow control.
 * Turning it on need not raise an interrupt for bytes already waiting:
 * the caller takes them with arch_console_rx_byte. */
void arch_console_rx_irq(bool on);

/* ---- Paging and the TLB (paging.c) ----
 * Page tables are built and walked by portable code (kernel/mm/paging.c),
 * with each architecture's entry encoding in asm/pgtable.h. */

/* Make this CPU use the changed entry for va, forgetting any cached
 * translation of it. */
void arch_flush_tlb_page(uintptr_t va);
/* The same on every CPU that runs threads (a TLB shootdown), returning
 * once all have: for an entry removed or made stricter (x86_64: tlb.c,
 * by NMI; aarch64: the same broadcast instruction). Safe with interrupts
 * off and spinlocks held. */
void arch_flush_tlb_page_all(uintptr_t va);
/* Switch this CPU to the final kernel page tables rooted at root_pa;
 * called once by paging_init. */
void arch_paging_switch(uint64_t root_pa);

/* ---- Text patching (machine.c) ---- */

/* Make instructions written at [addr, addr+len) visible to instruction
 * fetch on this CPU. */
void arch_sync_icache(uintptr_t addr, size_t len);

/* ---- Threads and their context (thread.c, trap_entry.S) ---- */

/* Prepare a new thread's stack so that the first switch to it calls
 * thread_start() (kernel/sched.h). */
void arch_context_init(struct arch_context *ctx, void *stack_top);
/* Save the running thread's context in from and resume the one in to. */
void arch_context_switch(struct arch_context *from, struct arch_context *to);

/* ---- Traps and backtraces (traps.c, machine.c) ---- */

/* The frame pointer of the function that calls this, for backtraces
 * (whose first line is then the return address into that function's
 * caller). */
uintptr_t arch_current_frame(void);
/* True if ret is the return address of a call the trap entry code makes
 * with the struct pt_regs of the code the trap stopped (so that
 * kernel/backtrace.c can continue across the trap). */
bool arch_is_trap_call_return(uintptr_t ret);
/* The address of the struct pt_regs passed by such a call (or by an
 * optimized probe's detour buffer), from the callee's frame pointer and
 * the caller's frame pointer saved in its frame record. */
uintptr_t arch_call_regs(uintptr_t frame, uintptr_t caller_frame);
/* The instruction at which a trap stopped the code of regs (x86_64's
 * int3 traps after itself; the others stop at or before the instruction
 * they name). */
uintptr_t arch_trap_address(const struct pt_regs *regs);
/* At a function's first instruction, before it has saved anything: the
 * return address into its caller, which no frame record holds yet, and
 * the stack slot where a backtrace would find it once the function saved
 * it (as rethook_real_return expects). False if it cannot be read. */
bool arch_entry_return_address(const struct pt_regs *regs, uintptr_t *ret, uintptr_t *slot);
/* Print the registers of a trap frame. */
void arch_dump_regs(const struct pt_regs *regs);

/* ---- Crash tests (crash_test.c) ---- */

/* Crash in an architecture-specific way named kind (for the crash tests
 * of kernel/crash_test.c); false if the architecture has no such kind. */
bool arch_crash_test(const char *kind);

/* ---- Other CPUs (kernel/smp.c; x86_64: smp.c, aarch64: smp.c) ---- */

/* The hardware ids of the machine's CPUs, the boot CPU's first, into
 * hw_ids (x86_64: local APIC ids from ACPI's MADT; aarch64: MPIDR
 * affinities from the device tree's cpu nodes). Returns how many, at
 * most max; 0 or 1 if there is only the boot CPU. */
unsigned int arch_smp_find_cpus(const struct boot_info *bi, uint64_t *hw_ids, unsigned int max);
/* Start the CPU with hardware id hw_id as CPU number id: it must switch
 * to the kernel's page tables, take stack_top as its stack and call
 * smp_secondary_entry(id) (kernel/smp.h) with interrupts off. Returns 0
 * once the start was requested, or a negative errno. */
int arch_smp_start_cpu(unsigned int id, uint64_t hw_id, uintptr_t stack_top);

/* ---- Inter-processor interrupts and per-CPU timers (x86_64: ipi.c,
 * timer.c, lapic.c; aarch64: gic.c, timer.c, smp.c) ---- */

/* What an inter-processor interrupt (IPI) asks of the CPU it reaches;
 * the receiver passes it to smp_handle_ipi (kernel/smp.h). */
enum ipi_kind {
	IPI_RESCHEDULE,		/* a thread became ready: look at the run queue */
	IPI_CALL_FUNCTION,	/* run the functions queued for this CPU */
	IPI_STOP,		/* stop for good (a panic elsewhere) */
	IPI_KINDS
};
/* Send IPI kind to the online CPU number cpu, never to the sender. Safe
 * in any context, interrupts off included; returns once it is sent, not
 * handled. The receiver calls smp_handle_ipi(kind, regs), regs being the
 * interrupted registers, in interrupt context (irq_depth raised), then
 * sched_preempt_point, as for any interrupt.
 * IPI_STOP should reach a CPU that has interrupts off where the
 * architecture can (x86_64: as an NMI). */
void arch_send_ipi(unsigned int cpu, enum ipi_kind kind);
/* Start this CPU's own timer tick at TIMER_HZ, calling sched_timer_tick
 * on this CPU (on a CPU other than the boot CPU, before it first enables
 * interrupts; the boot CPU's tick is started by arch_interrupts_init). */
void arch_timer_cpu_init(void);

/* ---- Devices (x86_64: pci.c, virtio_pci.c; aarch64: virtio_mmio.c) ---- */

struct virtio_device;
/* Find the first virtio device of type device_id (VIRTIO_ID_*,
 * kernel/virtio/virtio.h) that speaks virtio 1.x, map its registers and
 * fill *dev with its transport (x86_64: PCI on bus 0; aarch64:
 * virtio-mmio version 2 from the device tree). Returns 0, -ENODEV if
 * there is none, or another negative errno for a device found but not
 * usable (dev->where then names it; a legacy-only virtio-mmio device
 * says -ENOSYS). */
int arch_virtio_find(uint32_t device_id, struct virtio_device *dev);

/* ---- Power (machine.c) ---- */

/* Leave QEMU with the given status code (isa-debug-exit / PSCI). */
__noreturn void arch_poweroff(int status);
/* Stop this CPU for good. */
__noreturn void arch_halt(void);

/*
 * ---- The asm/ headers ----
 *
 * Each architecture's include/asm/ directory is on the include path, so
 * portable code includes <asm/NAME.h> and gets that architecture's
 * definitions, most of them static inlines or macros because they sit on
 * hot paths. Below, every asm/ header portable code includes, and every
 * name in it that portable code uses, one sentence each.
 *
 * asm-contract-begin (tools/check_arch_contract.py reads this table)
 *
 * <asm/boot.h>
 *   ARCH_NAME                the architecture's name, as a string
 *   arch_boot_info           turn kmain's two arguments into a struct boot_info
 * <asm/context.h>
 *   arch_context             a thread's saved context while it does not run
 * <asm/current.h>
 *   arch_current_thread      the thread running on this CPU, in one read
 *   arch_set_current_thread  record the thread this CPU now runs
 * <asm/ftrace.h>
 *   ARCH_FTRACE_SITES_SECTION the section the compiler records call sites in
 *   ARCH_FTRACE_SITE_SIZE    the bytes of one function-tracer call site
 *   FTRACE_SITE_OFF          the bytes of a site turned off
 *   arch_ftrace_site_is_nop  whether a site holds the NOP it was built with
 *   arch_ftrace_site_is_off  whether a site is turned off
 * <asm/insn_fill.h>
 *   ARCH_TRAP_FILL           16 bytes of trapping instructions, for unused executable memory
 *   ARCH_RETURN_42_CODE      the bytes of a function returning 42, for a selftest
 * <asm/irq.h>
 *   arch_irq_save            disable interrupts, returning the previous state
 *   arch_irq_restore         enable interrupts if the saved state had them on
 *   arch_irqs_disabled_flags whether a state arch_irq_save returned had interrupts off
 *   arch_irq_enable          enable interrupts on this CPU
 *   arch_irq_disable         disable interrupts on this CPU
 *   arch_cpu_relax           tell the CPU it is spinning in a wait loop
 *   arch_wait_for_interrupt  sleep until an interrupt, enabling interrupts
 *   arch_wait_masked         interrupts masked: sleep until one is pending, or spin a moment
 * <asm/kprobes.h>
 *   ARCH_PROBE_SLOT_SIZE     the bytes of one instruction slot
 *   ARCH_MAX_PATCH_LEN       the most bytes of text one probe point patches
 *   ARCH_DETOUR_SIZE         the bytes of one detour buffer
 *   arch_probe_insn          the back end's part of a probe point
 *   arch_opt_insn            the optimizer back end's part of a probe point
 *   arch_kprobe_state        what a single-step saves and puts back
 *   arch_jprobe_state        what arch_jprobe_enter changes in a trap frame
 *   arch_breakpoint_addr     the address of the breakpoint that trapped
 *   arch_boost_before_emulating  whether an emulated point with a boost copy boosts first
 *   arch_jprobe_enter        make a hit's trap frame resume in a jprobe's entry
 *   arch_jprobe_leave        undo arch_jprobe_enter
 * <asm/layout.h>
 *   PAGE_SIZE                the size of a page, in bytes
 *   KERNEL_VMA               virtual minus physical address of the kernel image
 *   KERNEL_LOAD_PHYS         the physical address the kernel image is loaded at
 *   DIRECT_MAP_BASE          where all physical memory is mapped
 *   HEAP_BASE                where the kernel heap starts
 *   HEAP_MAX_SIZE            the most address space the heap may take
 *   EXEC_REGION_BASE         where slots and detour buffers are, in reach of text
 *   EXEC_REGION_SIZE         the size of that region
 *   TEXT_POKE_ADDR           the page through which text is written
 * <asm/nofault.h>
 *   arch_load_byte_nofault   load a byte, or return -EFAULT if that faults
 *   arch_load_u64_nofault    load a word in one access, or return -EFAULT
 *   arch_store_byte_nofault  store a byte, or return -EFAULT if that faults
 * <asm/percpu.h>
 *   this_cpu                 this CPU's struct cpu
 *   arch_this_cpu_read_word  one word of this CPU's struct cpu, in one read
 *   arch_this_cpu_field_ptr  a pointer to a field of this CPU's struct cpu, read or written in place
 * <asm/pgtable.h>
 *   pte_is_table             whether an entry above the leaf level points to a table
 *   pte_addr                 the physical address in an entry
 *   pte_mk_table             an entry pointing to a next-level table
 *   pte_mk_page              a leaf entry mapping a 4 KiB page with PROT_* rights
 *   pte_prot                 the PROT_* rights of a leaf entry
 *   pte_valid                whether an entry is valid
 * <asm/ptrace.h>
 *   pt_regs                  the registers of an interrupted context
 *   instruction_pointer      the instruction pointer in a pt_regs
 *   instruction_pointer_set  set the instruction pointer in a pt_regs
 *   frame_pointer            the frame pointer in a pt_regs
 *   stack_pointer            the stack pointer in a pt_regs
 *   regs_return_value        the value a function returns, at its return
 *   regs_set_return_value    change the value a function returns
 *   regs_get_argument        argument n of a function, at its entry
 *   REGS_ARG_REGS            how many arguments are in registers at a function's entry
 *   REGS_STACK_ARG_FIRST     the stack word the first of the others is in
 *   regs_return_from_entry   at a function's entry, make it return a value at once
 * <asm/rethook.h>
 *   arch_rethook_prepare     swap a call's return address for the trampoline's
 *   arch_rethook_matches     whether trampoline regs are the return of a hooked call
 *   arch_rethook_slot_matches  whether a stack slot holds a hooked call's return
 *
 * asm-contract-end
 */

#endif
