"""What the tests expect of x86_64 and of no other architecture
(tests/boot/archs.py says how this file is read and written)."""

# -- tests/boot/boot_tests.py -------------------------------------------

# The architecture's own selftest suites, run beside the portable ones.
SELFTEST_SUITES = ["kprobes-x86", "optprobes-x86"]

# Why the jump optimizer refuses opt_probed_indirect, as `probe show`
# says it: arch/x86_64/optprobe_selftest.c builds it with an indirect
# jump. None on an architecture with no optimizer back end, whose
# optimizer tests are then skipped.
OPTIMIZER_REFUSAL = "indirect jump at"

# What spin_lock (kernel/spinlock.h) compiles to, as `objdump -d` shows
# it: an xchg of a 32-bit register with the lock's flag. spin_unlock is a
# plain mov like any other store, so only the functions that take a lock
# can be found.
SPINLOCK_CODE = [r"\txchg +%(?:e[a-z]{2}|r\d+d),\S*\("]

# The lines of each CPU's block of /proc/cpuinfo after "processor", in
# order: Linux's names for what CPUID says (arch/x86_64/cpuinfo.c), each
# with a regular expression its value must match; apicid is also
# checked against the hardware id `cpus` lists.
CPUINFO_FIELDS = [("vendor_id", r"\S+"), ("cpu family", r"\d+"), ("model", r"\d+"),
                  ("model name", r".+"), ("stepping", r"\d+"), ("cpu MHz", r"\d+\.\d{3}"),
                  ("apicid", r"\d+"), ("cpuid level", r"\d+")]

# The rows of /proc/interrupts (arch/x86_64/irq_rows.c), Linux's x86
# rows, in order: each label and a regular expression the text after the
# counts must match. TIMER_ROW and CALL_ROW are the indexes in it of the
# local timer's row and of the function-call IPIs' row.
INTERRUPT_ROWS = [("4", r"   XT-PIC   4-edge      ttyS0"), ("LOC", "  Local timer interrupts"),
                  ("RES", "  Rescheduling interrupts"), ("CAL", "  Function call interrupts")]
TIMER_ROW = 1
CALL_ROW = 3

# Whether keys typed before the kernel is up reach its shell: here they
# reach GRUB's menu instead.
TYPED_DURING_BOOT = False

# The bytes of a function-tracer call site at a function's entry
# (asm/ftrace.h's ARCH_FTRACE_SITE_SIZE): a kprobe at +0 is [FTRACE],
# one this far in is the first that traps (and may be optimized).
FTRACE_SITE_SIZE = 5

# -- tests/boot/module_tests.py -----------------------------------------

# The registers Linux's kprobe_example.c prints in its pre-handler (its
# CONFIG_X86 lines), and the program counter's name in our
# samples/kprobes/kprobe_regs.c.
KPROBE_EXAMPLE_REGS = r"ip = [0-9a-f]+, flags = 0x[0-9a-f]+"
PC_NAME = "ip"

# -- tests/boot/crash_tests.py ------------------------------------------

# The crash kinds whose panic differs between architectures: kind ->
# (cause in the PANIC line, function the panic names). "trap" is
# kernel/crash_test.c's __builtin_trap, which GCC makes a ud2 here; the
# others are arch/x86_64/crash_test.c's own.
CRASH_KINDS = {
    "trap": ("invalid opcode", "crash_by_trap"),
    "breakpoint": ("breakpoint", "arch_crash_test"),
    "double-fault": ("double fault", "arch_crash_test"),
}

# The first line of the register dump.
REGISTER_DUMP = r"^RIP: [0-9a-f]{16}  RSP: [0-9a-f]{16}"

# -- tests/boot/gdb_tests.py --------------------------------------------

# GDB's name of the architecture (`set architecture`).
GDB_ARCH = "i386:x86-64"
# How far past a function's symbol GDB says it starts (`info address`):
# nowhere here, as the DWARF starts at the call site's NOP.
GDB_FUNCTION_START = 0

# -- tools/bench.py -----------------------------------------------------

# Rows of `bench` the architecture may lack, having nothing to measure.
BENCH_MAY_BE_ABSENT = []

# Linux 6.1's 2-CPU/1-CPU ratios on the same QEMU, from the project's
# issue, per row; a row not named has no such Linux probe.
BENCH_LINUX_SCALE = {"none": 1.75, "k-optimized": 1.74, "k-boosted-or-emulated": 1.83,
                     "r": 1.62}

# -- tests/boot/event_tests.py -------------------------------------------

# The registers a function's first three arguments are in at its entry,
# as probe events name them (%di, ...: the System V calling convention).
ARG_REGS = ["di", "si", "dx"]
