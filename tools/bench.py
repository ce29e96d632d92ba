#!/usr/bin/env python3
"""`make bench`: the cost of a probe hit, as one table.

Boots the kernel twice in QEMU (TCG) and runs the shell's `bench` command
each time (kernel/probes/cmd/bench.c), which times in ticks of the
architecture's counter (arch_cycles: the TSC on x86_64, the generic
timer's virtual count CNTVCT on aarch64) and says how many counter ticks
one 10 ms timer tick takes:

  * with -icount shift=0, where each guest instruction advances virtual
    time by exactly 1 ns, so instructions per counter tick = 1e7 / (counter
    ticks per 10 ms timer tick): 1 on x86_64, whose TSC then counts
    instructions, and 16 on aarch64, whose counter runs at 62.5 MHz. The
    overheads are exact instruction counts (to the counter's resolution);
  * without -icount, in emulated real time, where the counter is converted
    to nanoseconds with the same measured rate. Emulated time varies more
    between boots than within one (QEMU translates the code afresh each
    time; on aarch64 the optimized row ranged 142-187 ns over 8 boots),
    so this boot is repeated and each row shows the median, with the
    range beside it.

Overhead = the time of vfs_read with the probe minus without, per hit.
The -icount boot is made twice: with -smp 1, and with -smp 4, the
other three CPUs idle (the bench runs with interrupts off on one CPU);
the table shows both counts and their difference, which stays small
when nothing on the hit path is shared between the CPUs.

Then scaling (bench_scale in bench.c), in boots with four CPUs on four
host threads (-accel tcg,thread=multi): vfs_read called from 1, 2 and 4
CPUs at once for a fixed emulated time, with no probe, with one and with
two exceptions per call and no probe, and with each kind of probe, as
calls per second on one CPU and, on 2 and 4, as a ratio to the row's own
one-CPU rate. The row without a probe is the ceiling: its ratio is what
the host allows (QEMU's CPUs share the host's cores, whose number is
printed with the load average), and each row's ratio is shown as a share
of it. The exception rows are the floor for the rows whose hits trap
once (a breakpoint kprobe) or twice (a jprobe, a post-handler's step):
what taking exceptions allows, with no probe involved. Medians of the
boots, ranges beside them.

Then the same rows in the shape of the Linux 6.1 measurement: boots of
-smp 2 -accel tcg,thread=multi, one CPU then two calling vfs_read at
once (`bench scale MS interleaved`, bench_interleaved in bench.c). On a
host of two busy cores the speed QEMU gets drifts over a boot, and the
-smp 4 table divides ratios measured minutes apart; this one is meant to
show a difference of 5%. So each row is measured beside its own
reference without a probe, in one palindrome per row,

    ref@1 row@1 ref@2 row@2 row@2 ref@2 row@1 ref@1

(--scale-ms of emulated time per run, 1000 by default): each of the
four measurements is two runs at mirrored places, whose summed calls
lose any drift that is linear over the row. Per boot, a row's ratio is
its 2-CPU rate over its 1-CPU rate, the "ref beside" ratio the same for
its reference, and its share of the ceiling the first over the second;
the ceiling row pools every reference run of the boot. Over the boots
(--scale-boots, 9 by default) the table shows the median and the
interquartile range (IQR), not the range: the range is set by the one
or two boots the host's other work disturbed most, and on this host
straddles any target, while the IQR is where the middle half of the
boots lie. The targets are printed, never asserted: the ceiling at
least 1.7x, and each probe row's share at least 95%, said for each row
as its IQR lying above, straddling or below it; beside them Linux 6.1's
ratios on the same QEMU (for x86_64 or arm64, from the project's issue),
the host's cores, its load averages before and after the boots, how
long the boots took, and how wide the shares' IQRs are: what the run
could resolve.

After the table, registration (bench_register in bench.c): a register +
unregister pair at vfs_read with 0, 100, 1000 and 10000 other probes
registered, each as `register+unregister with N probes registered: X
instructions`; how long the one register_kprobes call for 10000 took in
emulated time (optimizer on) and how long the optimizer worked after it;
and what a grace period costs, which no pair includes.
The targets and Linux 6.1's own numbers (measured on the same QEMU with a
counting handler on its vfs_read) come from the project's issue. Numbers
are reported, never asserted: a benchmark is not a test.

Usage: tools/bench.py [--arch ARCH] [--calls N] [--boots N] [--scale-boots N]
                      [--scale-ms MS] [--only-scale] [--smoke]
  --boots        boots in emulated time, and as many -smp 4 scaling boots
                 (default 5)
  --scale-boots  -smp 2 interleaved scaling boots (default 9)
  --scale-ms     emulated time of each interleaved run (default 1000)
  --only-scale   only the two scaling tables
  --smoke        a short run that only checks the tables are complete and
                 sound: every row measured with -smp 1 and -smp 4 (or absent
                 where the architecture has nothing to measure), each handler
                 run once per call, the path each row's name promises, one
                 -smp 4 scaling boot of 20 ms runs with every row on 1, 2 and
                 4 CPUs, and one -smp 2 interleaved boot of 20 ms runs with
                 every row and its reference twice on 1 and 2 CPUs, each probe
                 hit once per call (each exception row taking its exceptions)
                 and no reference hit (exit 1 if not)
"""

import argparse
import os
import re
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "boot"))
import archs  # noqa: E402
import qemu  # noqa: E402

# row name in `bench` -> (label, instructions target, Linux instructions, Linux ns),
# the targets and Linux figures the project's issue gives for ROWS_ARCH
ROWS_ARCH = "x86_64"
ROWS = [
    ("k-optimized", "optimized kprobe", 60, 120, 170),
    ("k-ftrace", "kprobe on ftrace ([FTRACE])", 70, 140, None),
    ("function-tracer", "function tracer", 260, 520, None),
    ("function_graph", "function_graph", 660, 1320, None),
    ("k-boosted-or-emulated", "kprobe, boosted or emulated", 150, 540, 1190),
    ("k-single-stepped", "kprobe, single-stepped", None, None, None),
    ("k-post-handler", "kprobe with post-handler", 300, 580, None),
    ("j", "jprobe", 250, None, None),
    ("r", "kretprobe", 150, 400, 500),
    ("kr", "kprobe + kretprobe", 200, 440, 560),
    ("jr", "jprobe + kretprobe", None, None, None),
]

# The kprobe event rows (bench's event_rows): row name -> label, the plain
# probe's row it is compared with, the issue's target for its cost over
# that row (None: none), and Linux 6.1's measured cost over its own plain
# probe, for ROWS_ARCH (the issue's figures).
EVENT_ROWS = [
    ("event-ftrace", "kprobe event", "k-ftrace", None, 810),
    ("event-optimized", "kprobe event", "k-optimized", None, 750),
    ("event-3args-ftrace", "kprobe event, 3 args", "k-ftrace", 80, 1190),
    ("event-3args-optimized", "kprobe event, 3 args", "k-optimized", 80, 1130),
    ("event-kretprobe", "kretprobe event", "r", None, 1150),
    ("event-hist-ftrace", "kprobe event, hist", "k-ftrace", None, None),
    ("event-hist-optimized", "kprobe event, hist", "k-optimized", None, None),
]

# Handler calls per probed call in each row (count_post counts nothing),
# and the path a row's name promises: the smoke checks both, so a probe
# that never fires, or runs another way, cannot pass as a measurement.
HANDLERS = {"k-optimized": 1, "k-ftrace": 1, "function-tracer": 1, "function_graph": 1,
            "k-boosted-or-emulated": 1, "k-single-stepped": 1,
            "k-post-handler": 1, "j": 1, "r": 1, "kr": 2, "jr": 2,
            "event-ftrace": 1, "event-optimized": 1, "event-3args-ftrace": 1,
            "event-3args-optimized": 1, "event-kretprobe": 1, "event-hist-ftrace": 1,
            "event-hist-optimized": 1}
PATHS = {"k-optimized": ("optimized",), "k-ftrace": ("ftrace",), "function-tracer": ("function",),
         "function_graph": ("function_graph",),
         "k-boosted-or-emulated": ("boosted", "emulated"),
         "k-single-stepped": ("single-stepped",),
         "event-ftrace": ("ftrace",), "event-3args-ftrace": ("ftrace",),
         "event-hist-ftrace": ("ftrace",)}
# The rows an architecture may lack are its BENCH_MAY_BE_ABSENT
# (arch/ARCH/testdata.py).

LINE = re.compile(r"^bench: (\S+)\s+overhead\s+([\d.]+) cycles/hit\s+path (\S+)\s+hits (\d+)")
RATE = re.compile(r"^bench: calls (\d+), cycles per tick (\d+) \(tick = (\d+) ms\)")
ABSENT = re.compile(r"^bench: (\S+)\s+no (.*)$")
REGISTER = re.compile(r"^bench: register\+unregister with (\d+) probes: (\d+) cycles"
                      r" \(background hits (\d+)\)")
REGISTER_MANY = re.compile(r"^bench: register_kprobes of (\d+) probes: (\d+) cycles,"
                           r" optimizer after it: (\d+) cycles")
HIT_AT = re.compile(r"^bench:\s+background probe hit at (\S+)")
GRACE = re.compile(r"^bench: grace period (\d+) cycles")
# Registration: pairs timed with these numbers of other probes registered;
# the issue's targets for them (a pair with the most at most 1.2 times one
# with none; the register_kprobes call for them within 5 s).
REGISTER_COUNTS = (0, 100, 1000, 10000)
REGISTER_RATIO_TARGET = 1.2
REGISTER_MANY_TARGET_S = 5
BASELINE = re.compile(r"^bench: baseline\s+([\d.]+) cycles/call")
EVERY_FUNCTION = re.compile(r"^bench: every-function\s+cycles/call ([\d.]+)\s+records/call ([\d.]+)")
EVERY_FUNCTION_GRAPH = re.compile(r"^bench: every-function-graph\s+cycles/call ([\d.]+)"
                                  r"\s+records/call ([\d.]+)")
EVERY_FUNCTION_PROFILE = re.compile(r"^bench: every-function-profile\s+cycles/call ([\d.]+)")
# The issue's figures for the function tracer on every function: Linux's
# slowdown of its `dd` loop, on x86_64 and aarch64; and the instructions
# one site costs while nothing is traced (the NOPs the compiler left).
LINUX_EVERY_FUNCTION = {"x86_64": 14.5, "aarch64": 12.5}
# The same for function_graph (two records a traced call: its entry and
# its return).
LINUX_EVERY_FUNCTION_GRAPH = {"x86_64": 36, "aarch64": 30}
IDLE_SITE_INSNS = {"x86_64": 1, "aarch64": 2}
MEMORY = re.compile(r"^bench: memory per probe\s+(.*)$")
MANY_EVENTS = re.compile(r"^bench: (\d+) events defined in (\d+) us, removed in (\d+) us")
# The issue's target for Linux's multiple_kprobes test: 256 events
# defined and removed within 2 s of emulated time.
MANY_EVENTS_TARGET_S = 2

# The scaling rows (bench scale): row name -> label, in the table's order.
SCALE = re.compile(r"^bench: scale (\S+)\s+cpus (\d+) calls (\d+) hits (\d+) ms (\d+) path (\S+)")
SCALE_ROWS = [
    ("none", "no probe (the ceiling)"),
    ("fault", "no probe, an exception/call"),
    ("fault2", "no probe, 2 exceptions/call"),
    ("k-optimized", "optimized kprobe"),
    ("k-ftrace", "kprobe on ftrace"),
    ("k-boosted-or-emulated", "kprobe, boosted or emulated"),
    ("k-post-handler", "kprobe with post-handler"),
    ("j", "jprobe"),
    ("r", "kretprobe"),
    ("kr", "kprobe + kretprobe"),
]
SCALE_CPUS = (1, 2, 4)
SCALE_MS = 200
SCALE_TARGET = 0.95     # of the ceiling's ratio, at 2 CPUs (and 4 on 4 host cores)
# Rows that measure the machine, not a probe: no target. The fault rows
# take one and two exceptions per call with no probe involved (reads of
# an unmapped page, fixed up): the floor for rows whose hits trap once
# (a breakpoint kprobe) and twice (a jprobe, a post-handler's step).
SCALE_REFERENCE_ROWS = ("none", "fault", "fault2")
# Their "hits" are their exceptions: one and two per call.
SCALE_HANDLERS = dict(HANDLERS, fault=1, fault2=2)

# The -smp 2 table (bench scale MS interleaved): every row of SCALE_ROWS
# but "none", each measured beside its own no-probe reference ("ref"):
# ref@1 row@1 ref@2 row@2 row@2 ref@2 row@1 ref@1, a palindrome, so each
# of the four measurements is two runs whose sum cancels a linear drift.
INTERLEAVED = re.compile(r"^bench: interleaved (\S+)\s+(row|ref) cpus (\d+) calls (\d+)"
                         r" hits (\d+) ms (\d+) path (\S+)")
INTERLEAVED_RUNS = 2    # runs per measurement in one boot
INTERLEAVED_MS = 1000   # per run (--scale-ms)
INTERLEAVED_BOOTS = 9   # (--scale-boots)
CEILING_TARGET = 1.7    # the no-probe ratio at 2 CPUs
# Linux 6.1's 2-CPU/1-CPU ratios on the same QEMU are each
# architecture's BENCH_LINUX_SCALE (arch/ARCH/testdata.py).


def qemu_command(arch, cpus, icount):
    """How a bench boot starts QEMU. -icount needs TCG on one host thread
    (plain `-accel tcg` picks it; QEMU refuses thread=multi with -icount),
    which then runs the CPUs in turn: the other CPUs' idle loops wait for an interrupt and run no
    instructions, so the count stays the measuring CPU's. Without
    -icount, several CPUs each get a host thread (qemu.command), so
    that they really run at once."""
    if icount:
        return qemu.command(arch, cpus, accel="tcg") + ["-icount", "shift=0"]
    return qemu.command(arch, cpus)


# How long one bench command may run: a full run's rows take minutes on
# a loaded host; the smoke's (--smoke) take seconds, and its limit keeps
# a hung guest inside the test runner's own (BENCH_TIMEOUT in
# tests/run_tests.py), so that the bench itself says where it hung.
COMMAND_TIMEOUT = {"full": 1200, "smoke": 60}
command_timeout = COMMAND_TIMEOUT["full"]


def boot(qemu_cmd, arch, commands):
    """Boot with qemu_cmd, type each shell command, return their output.
    If the guest hangs, panics or dies, say which boot it was (the
    Machine then prints its console's last lines) and raise BootFailed."""
    out = []
    with qemu.Machine(arch, qemu_cmd=qemu_cmd) as m:	# starts QEMU
        try:
            m.wait_prompt(120, echo=False)
            for command in commands:
                out += m.command(command, timeout=command_timeout)
            m.poweroff()
        except qemu.MachineError as e:
            print("bench: %s: %s" % (" ".join(qemu_cmd), e))
            raise BootFailed(str(e), isinstance(e, qemu.Timeout)) from e
    return out


class BootFailed(Exception):
    """A bench boot hung, panicked or died (boot has said where); hung
    says which."""

    def __init__(self, message, hung):
        super().__init__(message)
        self.hung = hung


# QEMU's round-robin TCG under -icount (one host thread for all CPUs)
# can stop running CPU 0 for good when several CPUs are emulated: seen
# in 7 of 21 boots of `bench 200` with -smp 4 on aarch64, CPU 0 found at
# the same instruction (the counter read in its timer handler) for
# minutes while the other three wait in stop_machine for it
# (docs/tests.md, "The summary line"); a program that shares no code
# with the kernel hangs the same way (tools/qemu-repro/aarch64-icount-wfi).
# Such a boot is tried again, saying so; a panic, or a hang with one
# CPU, is never retried.
ICOUNT_SMP_ATTEMPTS = 8


def boot_icount_smp(qemu_cmd, arch, commands):
    """boot(), tried up to ICOUNT_SMP_ATTEMPTS times while it hangs."""
    for attempt in range(1, ICOUNT_SMP_ATTEMPTS + 1):
        try:
            return boot(qemu_cmd, arch, commands)
        except BootFailed as e:
            if not e.hung or attempt == ICOUNT_SMP_ATTEMPTS:
                raise
            print("bench: boot %d of %d hung under -icount with several CPUs (QEMU's"
                  " round-robin); booting again" % (attempt, ICOUNT_SMP_ATTEMPTS))


def run(arch, calls, icount, cpus=1):
    commands = ["bench %d" % calls]
    if icount and cpus == 1:    # the registration rows count instructions
        commands.append("bench register")
    start = boot_icount_smp if icount and cpus > 1 else boot
    out = start(qemu_command(arch, cpus, icount), arch, commands)
    result = {"rows": {}, "paths": {}, "hits": {}, "absent": {}, "register": {},
              "background_hits": {}}
    for line in out:
        if LINE.match(line):
            name, value, path, hits = LINE.match(line).groups()
            result["rows"][name] = float(value)
            result["paths"][name] = path
            result["hits"][name] = int(hits)
        elif MANY_EVENTS.match(line):
            n, defined, removed = (int(g) for g in MANY_EVENTS.match(line).groups())
            result["many_events"] = (n, defined, removed)
        elif RATE.match(line):
            _, per_tick, tick_ms = RATE.match(line).groups()
            result["ns_per_cycle"] = int(tick_ms) * 1e6 / int(per_tick)
        elif REGISTER.match(line):
            n, cycles, hits = (int(g) for g in REGISTER.match(line).groups())
            result["register"][n] = cycles
            result["background_hits"][n] = hits
        elif REGISTER_MANY.match(line):
            result["register_many"] = tuple(int(g) for g in REGISTER_MANY.match(line).groups())
        elif HIT_AT.match(line):
            result.setdefault("hit_at", []).append(HIT_AT.match(line).group(1))
        elif GRACE.match(line):
            result["grace"] = int(GRACE.match(line).group(1))
        elif MEMORY.match(line):
            result["memory"] = MEMORY.match(line).group(1)
        elif BASELINE.match(line):
            result["baseline"] = float(BASELINE.match(line).group(1))
        elif EVERY_FUNCTION.match(line):
            result["every_function"] = tuple(float(g) for g in EVERY_FUNCTION.match(line).groups())
        elif EVERY_FUNCTION_GRAPH.match(line):
            result["every_function_graph"] = tuple(float(g) for g in
                                                   EVERY_FUNCTION_GRAPH.match(line).groups())
        elif EVERY_FUNCTION_PROFILE.match(line):
            result["every_function_profile"] = float(EVERY_FUNCTION_PROFILE.match(line).group(1))
        elif ABSENT.match(line):
            # A row the kernel has nothing to measure for, and says so.
            name, why = ABSENT.match(line).groups()
            result["absent"][name] = why
    return result


def run_scale(arch, ms):
    """One boot's scaling rows (`bench scale`, four CPUs on four host
    threads): {(name, cpus): {"rate": calls per emulated second, "calls",
    "hits", "path"}}."""
    out = boot(qemu_command(arch, max(SCALE_CPUS), icount=False), arch, ["bench scale %d" % ms])
    rows = {}
    for line in out:
        if SCALE.match(line):
            name, cpus, calls, hits, run_ms, path = SCALE.match(line).groups()
            rows[(name, int(cpus))] = {"rate": int(calls) * 1000 / int(run_ms),
                                       "calls": int(calls), "hits": int(hits), "path": path}
    return rows


def wrong_scale(boots):
    """What is missing or wrong in the scaling rows of any boot: a row or
    a CPU count without its line, no calls, a probe not hit once per call
    (HANDLERS: one hit per probe of the row), or another path."""
    wrong = []
    for b, rows in enumerate(boots):
        for name, _ in SCALE_ROWS:
            for cpus in SCALE_CPUS:
                r = rows.get((name, cpus))
                what = "scale %s on %d CPUs (boot %d)" % (name, cpus, b + 1)
                if r is None or r["calls"] == 0:
                    wrong.append(what)
                elif r["hits"] != r["calls"] * SCALE_HANDLERS.get(name, 0):
                    wrong.append("%s: %d hits for %d calls" % (what, r["hits"], r["calls"]))
                elif name in PATHS and r["path"] not in PATHS[name]:
                    wrong.append("%s: path %s" % (what, r["path"]))
    return wrong


def run_interleaved(arch, ms):
    """One -smp 2 boot of `bench scale MS interleaved`: {(name, "row" or
    "ref", cpus): {"calls", "hits", "ms", "runs" (summed over its runs),
    "paths"}}."""
    out = boot(qemu.command(arch, 2), arch, ["bench scale %d interleaved" % ms])
    runs = {}
    for line in out:
        m = INTERLEAVED.match(line)
        if not m:
            continue
        name, which, cpus, calls, hits, run_ms, path = m.groups()
        r = runs.setdefault((name, which, int(cpus)),
                            {"calls": 0, "hits": 0, "ms": 0, "runs": 0, "paths": set()})
        r["calls"] += int(calls)
        r["hits"] += int(hits)
        r["ms"] += int(run_ms)
        r["runs"] += 1
        r["paths"].add(path)
    return runs


def wrong_interleaved(boots):
    """What is missing or wrong in the -smp 2 boots: a measurement without
    its INTERLEAVED_RUNS runs or with a run of no calls, a row whose
    probes were not hit once per call (per probe) or that ran another
    path, a reference that was hit at all."""
    wrong = []
    for b, runs in enumerate(boots):
        for name, _ in SCALE_ROWS[1:]:
            for which in ("ref", "row"):
                for cpus in (1, 2):
                    r = runs.get((name, which, cpus))
                    what = "interleaved %s %s on %d CPUs (boot %d)" % (name, which, cpus, b + 1)
                    want = SCALE_HANDLERS.get(name, 0) if which == "row" else 0
                    if r is None or r["runs"] != INTERLEAVED_RUNS or r["calls"] == 0:
                        wrong.append(what)
                    elif r["hits"] != r["calls"] * want:
                        wrong.append("%s: %d hits for %d calls" % (what, r["hits"], r["calls"]))
                    elif which == "row" and name in PATHS and not r["paths"] <= set(PATHS[name]):
                        wrong.append("%s: path %s" % (what, " ".join(sorted(r["paths"]))))
    return wrong


def median_iqr(values):
    """The median of values and their interquartile range (quartiles as
    statistics.quantiles' inclusive method puts them), or None for it
    with a single value."""
    if len(values) < 2:
        return values[0], None
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return statistics.median(values), (q1, q3)


def against(median, iqr, target):
    """Where the interquartile range lies against target (the median
    itself where there is only one boot)."""
    low, high = iqr or (median, median)
    return "above" if low >= target else "below" if high < target else "straddles"


def fmt_iqr(iqr, form="%.2f"):
    """An interquartile range in parentheses, each end in form."""
    return (" (" + form + "-" + form + ")") % tuple(iqr) if iqr else ""


def interleaved_values(runs, name):
    """One boot's numbers for a row: its 1-CPU rate (calls per emulated
    second), its 2-CPU/1-CPU ratio, the same ratio of the reference
    measured beside it, and the row's share of that."""
    rate = {k: runs[(name, k[0], k[1])]["calls"] * 1000 / runs[(name, k[0], k[1])]["ms"]
            for k in (("row", 1), ("row", 2), ("ref", 1), ("ref", 2))}
    ratio = rate[("row", 2)] / rate[("row", 1)]
    ceiling = rate[("ref", 2)] / rate[("ref", 1)]
    return rate[("row", 1)], ratio, ceiling, ratio / ceiling


def pooled_ceiling(runs):
    """One boot's no-probe row: every reference run of the boot pooled,
    its 1-CPU rate and its 2-CPU/1-CPU ratio."""
    def rate(cpus):
        refs = [r for (_, which, c), r in runs.items() if which == "ref" and c == cpus]
        return sum(r["calls"] for r in refs) * 1000 / sum(r["ms"] for r in refs)
    return rate(1), rate(2) / rate(1)


def report_interleaved(arch, boots, ms, host):
    """The -smp 2 table: per row, the median over boots of its 1-CPU rate,
    its 2-CPU/1-CPU ratio (IQR beside it), the ratio of the reference
    measured beside it, and the share (IQR beside it, and where the IQR
    lies against the target); Linux 6.1's ratio as a reference column.
    host: the load averages before and after the boots, and the seconds
    they took. Returns what is missing or wrong."""
    wrong = wrong_interleaved(boots)
    if wrong:
        return wrong
    linux = archs.testdata(arch).BENCH_LINUX_SCALE
    print()
    print("Scaling, %s, -smp 2: 1 CPU then 2 calling vfs_read at once (-accel tcg,thread=multi),"
          " %d ms of emulated time per run;" % (arch, ms))
    print("each row interleaved with a no-probe reference in one boot: ref@1 row@1 ref@2 row@2"
          " row@2 ref@2 row@1 ref@1 (%d runs per measurement);" % INTERLEAVED_RUNS)
    print("the median of %d boots, the interquartile range beside it; host: %d cores, load"
          " averages %s before the boots, %s after; the boots took %.0f s" % (
              len(boots), os.cpu_count(), " ".join("%.2f" % v for v in host["load_before"]),
              " ".join("%.2f" % v for v in host["load_after"]), host["seconds"]))
    print("%-28s %12s %7s %-13s %10s %6s %-15s %-10s %9s" % (
        "kind", "1 CPU call/s", "2 CPUs", " (IQR)", "ref beside", "share", " (IQR)",
        "IQR vs %.0f%%" % (100 * SCALE_TARGET), "Linux 6.1"))
    pooled = [pooled_ceiling(runs) for runs in boots]
    rate = statistics.median(p[0] for p in pooled)
    ratio, iqr = median_iqr([p[1] for p in pooled])
    print("%-28s %12.0f %6.2fx %-13s %10s %6s %-15s %-10s %9s" % (
        SCALE_ROWS[0][1], rate, ratio, fmt_iqr(iqr), "-", "-", "",
        "%s %.1fx" % (against(ratio, iqr, CEILING_TARGET), CEILING_TARGET),
        "%.2fx" % linux["none"]))
    below, widths = [], []
    for name, label in SCALE_ROWS[1:]:
        values = [interleaved_values(runs, name) for runs in boots]
        ratio, ratio_iqr = median_iqr([v[1] for v in values])
        share, share_iqr = median_iqr([v[3] for v in values])
        where = against(share, share_iqr, SCALE_TARGET)
        if name in SCALE_REFERENCE_ROWS:
            where = "(%s)" % where      # the machine's, not a probe's: no target
        elif where != "above":
            below.append("%s %s" % (label, where))
        if share_iqr:
            widths.append(share_iqr[1] - share_iqr[0])
        theirs = linux.get(name)
        print("%-28s %12.0f %6.2fx %-13s %9.2fx %5.1f%% %-15s %-10s %9s" % (
            label, statistics.median(v[0] for v in values), ratio, fmt_iqr(ratio_iqr),
            statistics.median(v[2] for v in values), 100 * share,
            fmt_iqr(share_iqr and [100 * q for q in share_iqr], "%.1f%%"),
            where, "-" if theirs is None else "%.2fx" % theirs))
    print("targets (never asserted): the ceiling at least %.1fx on 2 CPUs; every probe row's"
          " share at least %.0f%%, judged by its IQR (in parentheses: rows without a target);"
          % (CEILING_TARGET, 100 * SCALE_TARGET))
    print("probe rows whose IQR is not above it: %s" % (", ".join(below) or "none"))
    if widths:
        print("the shares' IQRs are %.1f%% wide (median over rows): a difference smaller than"
              " that is not resolved" % (100 * statistics.median(widths)))
    return []


def median_range(values):
    """The median of values and, if there are several, their range."""
    spread = " (%.2f-%.2f)" % (min(values), max(values)) if len(values) > 1 else ""
    return statistics.median(values), spread


def report_scale(arch, boots, ms):
    """The scaling table: each row's calls per second on 1 CPU, and on 2
    and 4 CPUs as a ratio to its own 1-CPU rate, with that ratio as a
    share of the no-probe loop's (what the host allows). Returns what is
    missing or wrong."""
    wrong = wrong_scale(boots)
    if wrong:
        return wrong
    cores = os.cpu_count()
    print()
    print("Scaling, %s: 1, 2 and 4 CPUs calling vfs_read at once (-smp 4, one host thread"
          " per CPU), %d ms of emulated time per run;" % (arch, ms))
    print("the median of %d boots, their range beside it; host: %d cores, load average %.2f"
          % (len(boots), cores, os.getloadavg()[0]))
    print("%-28s %12s %8s %-13s %9s %8s %-13s %9s" % (
        "kind", "1 CPU call/s", "2 CPUs", " (range)", "% ceiling", "4 CPUs", " (range)",
        "% ceiling"))
    ceiling, below = {}, []
    for name, label in SCALE_ROWS:
        rate, _ = median_range([b[(name, 1)]["rate"] for b in boots])
        cells = []
        for cpus in SCALE_CPUS[1:]:
            ratio, spread = median_range([b[(name, cpus)]["rate"] / b[(name, 1)]["rate"]
                                          for b in boots])
            ceiling.setdefault(cpus, ratio)     # the first row is the ceiling
            share = ratio / ceiling[cpus]
            if share < SCALE_TARGET and cpus <= cores and name not in SCALE_REFERENCE_ROWS:
                below.append("%s on %d CPUs" % (label, cpus))
            cells += ["%.2fx" % ratio, spread, "%.0f%%" % (100 * share)]
        print("%-28s %12.0f %8s %-13s %9s %8s %-13s %9s" % tuple([label, rate] + cells))
    print("target: every row at least %.0f%% of the ceiling's ratio on 2 CPUs, and on 4 where"
          " the host has 4 cores; below it: %s" % (100 * SCALE_TARGET, ", ".join(below) or "none"))
    return []


def insns_per_cycle(exact):
    """Instructions per counter tick under -icount shift=0: 1 ns of virtual
    time per instruction, so the counter's period in ns. The rate is
    measured against the timer tick, so it carries that calibration's
    error, parts in ten thousand (x86's PIT count of TSC ticks per "10 ms"
    is not exactly 10,000,000 even where the TSC counts one per
    instruction); counters run at round rates, so three significant
    digits keep what is real and drop that error."""
    return float("%.3g" % exact["ns_per_cycle"])


def fmt(v, digits=0):
    return "-" if v is None else ("%.*f" % (digits, v))


def emulated_ns(timed, name):
    """A row's nanoseconds per hit in each emulated-time boot that has it."""
    return [t["rows"][name] * t["ns_per_cycle"] for t in timed
            if t["rows"].get(name) is not None and "ns_per_cycle" in t]


def wrong_row(result, name, calls):
    """What is wrong with a measured row: its handlers did not run once per
    call, or it took another path than its name says."""
    wrong = []
    hits, path = result["hits"][name], result["paths"][name]
    if hits != calls * HANDLERS[name]:
        wrong.append("%s (%d handler calls for %d probed calls)" % (name, hits, calls))
    if name in PATHS and path not in PATHS[name]:
        wrong.append("%s (path %s)" % (name, path))
    return wrong


def report_registration(exact, scale):
    """Print the registration lines (instructions under -icount: scale is
    instructions per counter tick, and one instruction is 1 ns of emulated
    time) and return what is missing or wrong: a count of probes without
    its line, or background probes hit while a pair was timed."""
    wrong = []
    for n in REGISTER_COUNTS:
        if n not in exact["register"]:
            wrong.append("register+unregister with %d probes" % n)
            continue
        print("register+unregister with %d probes registered: %d instructions"
              % (n, round(exact["register"][n] * scale)))
        if exact["background_hits"][n]:
            wrong.append("%d background hits with %d probes (at %s)" % (
                exact["background_hits"][n], n, " ".join(exact.get("hit_at", []))))
    if 0 in exact["register"] and REGISTER_COUNTS[-1] in exact["register"]:
        ratio = exact["register"][REGISTER_COUNTS[-1]] / max(1, exact["register"][0])
        print("  with %d probes / with 0: %.2fx (target: at most %.1fx)"
              % (REGISTER_COUNTS[-1], ratio, REGISTER_RATIO_TARGET))
    if "register_many" in exact:
        n, reg, opt = exact["register_many"]
        print("register_kprobes of %d probes, optimizer on: %.3f s emulated (target: %d s);"
              " the optimizer then took %.3f s" % (n, reg * scale / 1e9, REGISTER_MANY_TARGET_S,
                                                   opt * scale / 1e9))
    else:
        wrong.append("register_kprobes of many")
    if "grace" in exact:
        print("grace period (synchronize_rcu, not part of a pair): %d instructions"
              % round(exact["grace"] * scale))
    else:
        wrong.append("grace period")
    return wrong


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", default="x86_64", choices=archs.archs())
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--boots", type=int, default=5)
    ap.add_argument("--scale-boots", type=int, default=INTERLEAVED_BOOTS)
    ap.add_argument("--scale-ms", type=int, default=INTERLEAVED_MS)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--only-scale", action="store_true")
    args = ap.parse_args()
    global command_timeout
    command_timeout = COMMAND_TIMEOUT["smoke" if args.smoke else "full"]
    try:
        complete = measure(args)
    except BootFailed as e:
        print("bench: no table: a boot failed (%s)" % e)
        complete = False
    if args.smoke:
        print("bench(%s): %d passed, %d failed" % (args.arch, complete, not complete))
    return 0 if complete else 1


def measure(args):
    """Every table `make bench` prints (the smoke's with fewer calls and
    shorter runs); returns whether each is complete."""
    calls = 200 if args.smoke else args.calls
    boots = 1 if args.smoke else max(1, args.boots)
    missing = [] if args.only_scale else report_hits(args, calls, boots)

    scale_ms = 20 if args.smoke else SCALE_MS
    scaling = [run_scale(args.arch, scale_ms) for _ in range(boots)]
    missing += report_scale(args.arch, scaling, scale_ms)
    pair_ms = 20 if args.smoke else args.scale_ms
    host = {"load_before": os.getloadavg(), "start": time.time()}
    pairs = [run_interleaved(args.arch, pair_ms)
             for _ in range(1 if args.smoke else max(1, args.scale_boots))]
    host.update(load_after=os.getloadavg(), seconds=time.time() - host["start"])
    missing += report_interleaved(args.arch, pairs, pair_ms, host)
    if missing:
        print("bench: incomplete or wrong table: %s" % ", ".join(missing))
    return not missing


def report_every_function(arch, exact, scale):
    """The function tracer on every function, from the exact boot: the
    loop's slowdown, and what one traced call costs; and, from the
    records a call, what the sites cost with nothing traced (one NOP
    each: the compiler's, measured once by building without them,
    docs/ftrace.md). Returns what is missing."""
    if "every_function" not in exact or "baseline" not in exact:
        return ["every-function"]
    cycles, records = exact["every_function"]
    base = exact["baseline"]
    per_record = (cycles - base) * scale / records if records else 0.0
    print("function tracer on every function: the vfs_read loop %.1f times slower"
          " (Linux's dd loop: %.1f times), %.1f records a call, %.0f insns a traced call"
          % (cycles / base, LINUX_EVERY_FUNCTION[arch], records, per_record))
    print("call sites with nothing traced: %.1f traced functions entered a call, so %.1f insns"
          " of NOPs a call (%d a site)" % (records, records * IDLE_SITE_INSNS[arch],
                                           IDLE_SITE_INSNS[arch]))
    if "every_function_graph" not in exact:
        return ["every-function-graph"]
    # The same functions as the function tracer's, each call of one
    # graphed: its records (a return each, an entry each but a leaf's)
    # are not its calls.
    calls = records
    cycles, records = exact["every_function_graph"]
    per_call = (cycles - base) * scale / calls if calls else 0.0
    print("function_graph on every function: the vfs_read loop %.1f times slower"
          " (Linux's dd loop: %d times), %.1f records a call, %.0f insns a graphed call"
          % (cycles / base, LINUX_EVERY_FUNCTION_GRAPH[arch], records, per_call))
    if "every_function_profile" not in exact:
        return ["every-function-profile"]
    cycles = exact["every_function_profile"]
    per_call = (cycles - base) * scale / calls if calls else 0.0
    print("function profiler on every function: the vfs_read loop %.1f times slower,"
          " %.0f insns a profiled call" % (cycles / base, per_call))
    return []


def report_events(args, exact, exact_smp, scale, scale_smp, calls):
    """The kprobe event rows, each beside the plain probe of its kind: its
    instructions per hit, their excess over that probe's, the issue's
    target for that excess and Linux's. Returns what is missing or
    wrong."""
    print("Kprobe events on vfs_read, insns/hit with -smp 1 (and -smp %d), and over the plain"
          " probe of the same kind:" % max(SCALE_CPUS))
    print("%-24s %-12s %9s %7s %-12s %7s %7s %7s" % (
        "kind", "path", "insns/hit", "smp 4", "over", "insns", "target", "Linux"))
    missing = []
    for name, label, plain, target, linux in EVENT_ROWS:
        insns, insns_smp = exact["rows"].get(name), exact_smp["rows"].get(name)
        base = exact["rows"].get(plain)
        if insns is None or insns_smp is None or base is None:
            missing.append(name)
            continue
        missing += wrong_row(exact, name, calls) + wrong_row(exact_smp, name, calls)
        over = (insns - base) * scale
        print("%-24s %-12s %9s %7s %-12s %7s %7s %7s" % (
            label, exact["paths"].get(name, "-"), fmt(insns * scale, 1),
            fmt(insns_smp * scale_smp, 1), plain, fmt(over, 1), fmt(target), fmt(linux)))
    if "many_events" in exact:
        n, defined, removed = exact["many_events"]
        print("%d events defined (%.3f s) and removed (%.3f s): %.3f s of emulated time"
              " (target: under %d s)" % (n, defined / 1e6, removed / 1e6,
                                         (defined + removed) / 1e6, MANY_EVENTS_TARGET_S))
    else:
        missing.append("events defined and removed")
    return missing


def report_hits(args, calls, boots):
    """The boots of the hit rows and the registration rows, and their
    table. Returns what is missing or wrong."""
    exact = run(args.arch, calls, icount=True)
    exact_smp = run(args.arch, calls, icount=True, cpus=max(SCALE_CPUS))
    timed = [] if args.smoke else [run(args.arch, calls, icount=False) for _ in range(boots)]

    print("Probe overhead per hit on vfs_read, %s, %d calls per row (fastest of 3);"
          % (args.arch, calls))
    print("insns/hit with -smp 1, then with -smp %d (the other CPUs idle) and the difference"
          " (target: within 3);" % max(SCALE_CPUS))
    print("ns/hit: the median of %d boots in emulated time, their range beside it"
          % len(timed))
    print("%-28s %-15s %9s %7s %5s %7s %7s %9s %-13s %8s" % (
        "kind", "path", "insns/hit", "smp 4", "diff", "target", "Linux", "ns/hit", " (range)",
        "Linux ns"))
    missing = [] if "ns_per_cycle" in exact else ["the counter's rate"]
    missing += [] if "ns_per_cycle" in exact_smp else ["the counter's rate with -smp 4"]
    scale = insns_per_cycle(exact) if not missing else 0.0
    scale_smp = insns_per_cycle(exact_smp) if not missing else 0.0
    notes = []
    for name, label, target, linux, linux_ns in ROWS:
        insns = exact["rows"].get(name)
        insns_smp = exact_smp["rows"].get(name)
        if insns is not None and insns_smp is not None:
            insns *= scale
            insns_smp *= scale_smp
            missing += wrong_row(exact, name, calls) + wrong_row(exact_smp, name, calls)
        elif name in exact["absent"] and name in archs.testdata(args.arch).BENCH_MAY_BE_ABSENT:
            notes.append("%s: not measured, no %s" % (label, exact["absent"][name]))
        else:
            missing.append(name)
        ns = emulated_ns(timed, name)
        spread = " (%.0f-%.0f)" % (min(ns), max(ns)) if len(ns) > 1 else ""
        diff = insns_smp - insns if insns is not None and insns_smp is not None else None
        print("%-28s %-15s %9s %7s %5s %7s %7s %9s %-13s %8s" % (
            label, exact["paths"].get(name, "-"), fmt(insns, 1), fmt(insns_smp, 1),
            fmt(diff, 1), fmt(target), fmt(linux),
            fmt(statistics.median(ns) if ns else None, 1), spread, fmt(linux_ns)))
    if args.arch != ROWS_ARCH:
        notes.append("targets and Linux figures are the issue's, for %s" % ROWS_ARCH)
    for note in notes:
        print(note)
    missing += report_events(args, exact, exact_smp, scale, scale_smp, calls)
    missing += report_registration(exact, scale)
    missing += report_every_function(args.arch, exact, scale)
    if "memory" in exact:
        print("memory per probe: %s" % exact["memory"])
    else:
        missing.append("memory")
    return missing


if __name__ == "__main__":
    sys.exit(main())
