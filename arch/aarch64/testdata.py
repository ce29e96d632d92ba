"""What the tests expect of aarch64 and of no other architecture
(tests/boot/archs.py says how this file is read and written)."""

# -- tests/boot/boot_tests.py -------------------------------------------

# The architecture's own selftest suites, run beside the portable ones.
SELFTEST_SUITES = ["kprobes-aarch64", "optprobes-aarch64"]

# Why the jump optimizer refuses opt_probed_indirect, as `probe show`
# says it: arch/aarch64/optprobe_selftest.c starts it with a call through
# a register. None on an architecture with no optimizer back end, whose
# optimizer tests are then skipped.
OPTIMIZER_REFUSAL = "call through a register in region at"

# What spin_lock (kernel/spinlock.h) compiles to, as `objdump -d` shows
# it (no LSE atomics: -mno-outline-atomics on a cortex-a72): a
# load-acquire exclusive of the lock's 32-bit flag followed at once by a
# store exclusive to the same address (a compare-and-swap would compare
# in between); and spin_unlock, a release store of 0 to the flag, an
# stlr of wzr (also how the kretprobe layer frees an instance; that code
# is blacklisted).
SPINLOCK_CODE = [r"\tldaxr\tw\d+, \[(x\d+)\]\n *[0-9a-f]+:\tstxr\tw\d+, w\d+, \[\1\]",
                 r"\tstlr\twzr, \[x\d+\]"]

# The lines of each CPU's block of /proc/cpuinfo after "processor", in
# order: Linux's names for MIDR_EL1's fields (arch/aarch64/cpuinfo.c),
# each with a regular expression its value must match: QEMU's
# cortex-a72 (arch.mk's -cpu) is Arm's (0x41) part 0xd08.
CPUINFO_FIELDS = [("CPU implementer", r"0x41"), ("CPU architecture", r"8"),
                  ("CPU variant", r"0x[0-9a-f]"), ("CPU part", r"0xd08"),
                  ("CPU revision", r"\d+")]

# The rows of /proc/interrupts (arch/aarch64/irq.c), Linux's arm64 rows,
# in order: each label and a regular expression the text after the
# counts must match (the device lines' numbers are the device tree's).
# TIMER_ROW and CALL_ROW are the indexes in it of the timer's row and of
# the function-call IPIs' row.
INTERRUPT_ROWS = [(r"\d+", r"    GICv2 +\d+ Level     arch_timer"),
                  (r"\d+", r"    GICv2 +\d+ Level     uart-pl011"),
                  ("IPI0", "      Rescheduling interrupts"),
                  ("IPI1", "      Function call interrupts"),
                  ("IPI2", "      CPU stop interrupts")]
TIMER_ROW = 0
CALL_ROW = 3

# Whether keys typed before the kernel is up reach its shell.
TYPED_DURING_BOOT = True

# The bytes of a function-tracer call site at a function's entry
# (asm/ftrace.h's ARCH_FTRACE_SITE_SIZE): a kprobe at +0 is [FTRACE],
# one this far in is the first that traps (and may be optimized).
FTRACE_SITE_SIZE = 8

# -- tests/boot/module_tests.py -----------------------------------------

# The registers Linux's kprobe_example.c prints in its pre-handler (its
# CONFIG_ARM64 lines), and the program counter's name in our
# samples/kprobes/kprobe_regs.c.
KPROBE_EXAMPLE_REGS = r"pc = 0x[0-9a-f]+, pstate = 0x[0-9a-f]+"
PC_NAME = "pc"

# -- tests/boot/crash_tests.py ------------------------------------------

# The crash kinds whose panic differs between architectures: kind ->
# (cause in the PANIC line, function the panic names). "trap" is
# kernel/crash_test.c's __builtin_trap, which GCC makes a BRK here.
CRASH_KINDS = {
    "trap": ("BRK instruction with no handler", "crash_by_trap"),
}

# The first line of the register dump.
REGISTER_DUMP = r"^pc : [0-9a-f]{16}  sp : [0-9a-f]{16}"

# -- tests/boot/gdb_tests.py --------------------------------------------

# GDB's name of the architecture (`set architecture`).
GDB_ARCH = "aarch64"
# How far past a function's symbol GDB says it starts: GCC's DWARF puts
# its low_pc after the call site's two NOPs (-fpatchable-function-entry).
GDB_FUNCTION_START = 8

# -- tools/bench.py -----------------------------------------------------

# Rows of `bench` the architecture may lack, having nothing to measure:
# aarch64 steps only instructions with an exception fix-up (or a
# post-handler), and vfs_read has none.
BENCH_MAY_BE_ABSENT = ["k-single-stepped"]

# Linux 6.1's 2-CPU/1-CPU ratios (arm64) on the same QEMU, from the
# project's issue, per row; a row not named has no such Linux probe.
BENCH_LINUX_SCALE = {"none": 1.90, "k-boosted-or-emulated": 1.84, "r": 1.84}

# -- tests/boot/event_tests.py -------------------------------------------

# The registers a function's first three arguments are in at its entry,
# as probe events name them (%x0, ...: AAPCS64).
ARG_REGS = ["x0", "x1", "x2"]
