#!/usr/bin/env python3
"""Run every ProbeOS test suite and add up the results (`make test`).

The parts are these, each a child process; the table at the end lists
them in the order they are taken (below):

    host            make host-tests          line "host: N passed, N failed, N skipped"
    fuzz            make fuzz-test           line "fuzz: N passed, N failed"
    symtab(ARCH)    tests/host/check_symtab.py build/ARCH/probeos.elf
                                             line "check_symtab: N passed, N failed"
    boot-selftest(ARCH) tests/boot/boot_tests.py --arch ARCH --group selftest
                                             line "boot-selftest(ARCH): N passed, N failed, N skipped"
    boot(ARCH)      tests/boot/boot_tests.py --arch ARCH --group main
                                             line "boot(ARCH): N passed, N failed, N skipped"
    boot-long(ARCH) tests/boot/boot_tests.py --arch ARCH --group long
                                             line "boot-long(ARCH): N passed, N failed, N skipped"
    up(ARCH)        tests/boot/boot_tests.py --arch ARCH --smp 1
                                             line "up(ARCH): N passed, N failed, N skipped"
    gdb(ARCH)       tests/boot/gdb_tests.py --arch ARCH
                                             line "gdb(ARCH): N passed, N failed"
    crash(ARCH)     tests/boot/crash_tests.py --arch ARCH
                                             line "crash(ARCH): N passed, N failed"
    bench(ARCH)     tools/bench.py --arch ARCH --smoke
                                             line "bench(ARCH): N passed, N failed"
    bench-host(ARCH) tools/bench_host.py --arch ARCH --smoke
                                             line "bench-host(ARCH): N passed, N failed"

Two parts run at once (--jobs, default 2: the machines this runs on have
two cores), each as soon as a place is free, taken in the order below;
a part holds one or more lanes, and two parts that share a lane never
run together:

  smp    boot: two machines of four CPUs running the boot tests on two
         cores slow each other past the timeouts of the tests that wait
         for a guest (a Ctrl-C answered within seconds).
  long   boot-long: its tests keep four CPUs busy for minutes but wait
         with minutes to spare, so one runs beside a boot part.
  qemu   the other parts that boot QEMU, machines of one CPU.
  make   host and fuzz, two makes in one tree.

The boot-selftest parts run alone, first: the selftests wait for every
CPU again and again, and beside any other part (even machines of one
CPU, or a make) x86_64's took 521 s instead of 147 alone, close to
their 600 s limit, and aarch64's 303 instead of 191 (CI). Then the boot
parts end to end, each with a boot-long part beside it (the longer
with the longer), and the rest in the places left.

With more than one job, a part's output is shown whole when it ends, so
that two parts' lines never mix; with --jobs 1, as it comes.

A part that prints no summary line, exits with an error while claiming
no failures, or runs past its time limit counts as one failure. The
output ends with a table of the parts and one line "N passed, N failed, N skipped"
with the totals; the exit status is 1 if anything failed.

    python3 tests/run_tests.py                     # everything, x86_64
    python3 tests/run_tests.py --only boot --arch x86_64
    python3 tests/run_tests.py --boot-test sym     # boot, then `sym` only
    python3 tests/run_tests.py --jobs 1            # one part at a time

Only the Python 3 standard library is used.
"""

import argparse
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "boot"))
import archs  # noqa: E402

HOST_TIMEOUT = 600
# Each fuzz target's bounded run is sized to take 10-20 s (its RUNS in
# tests/fuzz/fuzz.mk) and stops itself after 30 s; this leaves room for
# building the fuzzers and for more targets.
FUZZ_TIMEOUT = 600
SYMTAB_TIMEOUT = 120
# The boot tests time themselves (boot 60 s, selftest 600 s, 20 s per
# command); this only catches a harness that hangs, so it is generous.
BOOT_TIMEOUT = 1800
CRASH_TIMEOUT = 300
# One boot, a module build and a GDB session; the limit only catches a
# session that hangs.
GDB_TIMEOUT = 300
# The boot tests again on one CPU (UP_TESTS): one boot and the
# selftests, so well under the boot tests' limit.
UP_TIMEOUT = 900
# `make bench` has a short smoke run here (is the table complete?); the
# numbers themselves are never asserted. The smoke is a few short boots,
# its -smp 4 and scaling boots included; the limit leaves room for a
# loaded host.
BENCH_TIMEOUT = 900
# tools/bench_host.py's smoke: one boot reading a 4 MiB host file; the
# limit leaves room for a loaded host.
BENCH_HOST_TIMEOUT = 300


def nm_env(arch):
    """check_symtab.py runs $NM: unless it is set, the nm the build uses
    for arch (the cross toolchain's for another architecture)."""
    if "NM" in os.environ:
        return {}
    return {"NM": archs.config(arch)["NM"]}


class Part:
    def __init__(self, name, cmd, summary, timeout, needs=(), env=None, lanes=(), alone=False):
        self.name = name
        self.lanes = set(lanes) or {name}  # parts sharing a lane never run at once
        self.alone = alone      # runs with no other part beside it
        self.cmd = cmd
        self.summary = re.compile(summary)  # must capture passed, failed
        self.timeout = timeout
        self.needs = needs      # files that must exist first
        self.env = env or {}    # added to the environment
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.note = ""
        self.output = []        # every line it printed
        self.seconds = 0.0      # how long it ran


def boot_part(arch, group, boot_tests, lanes, alone=False):
    """The boot tests of group on arch (or the boot_tests named)."""
    name = "boot" if group == "main" else "boot-" + group
    cmd = [sys.executable, "tests/boot/boot_tests.py", "--arch", arch]
    for test in boot_tests:
        cmd += ["--test", test]
    return Part("%s(%s)" % (name, arch), cmd + ([] if boot_tests else ["--group", group]),
                r"^%s\(%s\): (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$"
                % (name, re.escape(arch)), BOOT_TIMEOUT, lanes=lanes, alone=alone)


def make_parts(archs, only, boot_tests):
    """The parts to run, in the order the module's comment gives."""
    checks, selftests, boots, longs, first, middle = [], [], [], [], [], []
    if not only or "host" in only:
        first.append(Part("host", ["make", "--no-print-directory", "host-tests"],
                          r"^host: (\d+) passed, (\d+) failed, (\d+) skipped$", HOST_TIMEOUT,
                          lanes=["make"]))
    if not only or "fuzz" in only:
        first.append(Part("fuzz", ["make", "--no-print-directory", "fuzz-test"],
                          r"^fuzz: (\d+) passed, (\d+) failed$", FUZZ_TIMEOUT, lanes=["make"]))
    whole = not boot_tests      # the groups only when every test runs
    for arch in archs:
        if not only or "symtab" in only:
            elf = "build/%s/probeos.elf" % arch
            checks.append(Part("symtab(%s)" % arch,
                              [sys.executable, "tests/host/check_symtab.py", elf],
                              r"^check_symtab: (\d+) passed, (\d+) failed$",
                              SYMTAB_TIMEOUT, needs=[elf], env=nm_env(arch)))
        if not only or "boot" in only:
            if whole:
                selftests.append(boot_part(arch, "selftest", (), ["smp"], alone=True))
                longs.insert(0, boot_part(arch, "long", (), ["long"]))
            boots.append(boot_part(arch, "main", boot_tests, ["smp"]))
        if (not only or "up" in only) and whole:
            middle.append(Part("up(%s)" % arch,
                               [sys.executable, "tests/boot/boot_tests.py", "--arch", arch,
                                "--smp", "1"],
                               r"^up\(%s\): (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$"
                               % re.escape(arch),
                               UP_TIMEOUT, lanes=["qemu"]))
        if (not only or "bench" in only) and whole:
            middle.append(Part("bench(%s)" % arch,
                               [sys.executable, "tools/bench.py", "--arch", arch, "--smoke"],
                               r"^bench\(%s\): (\d+) passed, (\d+) failed$" % re.escape(arch),
                               BENCH_TIMEOUT, lanes=["qemu"]))
            middle.append(Part("bench-host(%s)" % arch,
                               [sys.executable, "tools/bench_host.py", "--arch", arch, "--smoke"],
                               r"^bench-host\(%s\): (\d+) passed, (\d+) failed$"
                               % re.escape(arch), BENCH_HOST_TIMEOUT, lanes=["qemu"]))
        if (not only or "gdb" in only) and whole:
            middle.append(Part("gdb(%s)" % arch,
                               [sys.executable, "tests/boot/gdb_tests.py", "--arch", arch],
                               r"^gdb\(%s\): (\d+) passed, (\d+) failed$" % re.escape(arch),
                               GDB_TIMEOUT, needs=["build/%s/probeos.elf" % arch], lanes=["qemu"]))
        if (not only or "crash" in only) and whole:
            middle.append(Part("crash(%s)" % arch,
                               [sys.executable, "tests/boot/crash_tests.py", "--arch", arch],
                               r"^crash\(%s\): (\d+) passed, (\d+) failed$" % re.escape(arch),
                               CRASH_TIMEOUT, lanes=["qemu"]))
    # aarch64's long part is the longer: beside x86_64's boot part, the
    # longer of those.
    return checks + selftests + boots + longs + first + middle


def stop(proc):
    """End the child and everything it started (it leads its own
    process group), giving it a moment to clean up first."""
    if proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            pass


def run_part(part, stream):
    """Run one part; part.output keeps its lines, which are echoed as they
    come if stream is true."""
    missing = [p for p in part.needs if not os.path.exists(os.path.join(ROOT, p))]
    if missing:
        part.output = ["%s: %s does not exist (build it first)" % (part.name, missing[0])]
        part.failed = 1
        part.note = "missing " + missing[0]
        return

    env = dict(os.environ, PYTHONUNBUFFERED="1", **part.env)
    try:
        proc = subprocess.Popen(part.cmd, cwd=ROOT, env=env,
                                stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
    except OSError as e:
        part.output = ["%s: cannot run %s: %s" % (part.name, part.cmd[0], e)]
        part.failed = 1
        part.note = "could not start"
        return

    lines = []

    def pump():
        for raw in iter(proc.stdout.readline, b""):
            line = raw.decode("utf-8", "replace")
            if stream:
                sys.stdout.write(line)
                sys.stdout.flush()
            lines.append(line.rstrip("\r\n"))

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    timed_out = False
    try:
        proc.wait(timeout=part.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        stop(proc)
        reader.join(timeout=10)

    found = False
    for line in lines:
        m = part.summary.match(line)
        if m:
            found = True
            part.passed += int(m.group(1))
            part.failed += int(m.group(2))
            if m.lastindex and m.lastindex >= 3 and m.group(3):
                part.skipped += int(m.group(3))

    notes = []
    if timed_out:
        notes.append("timed out after %d s" % part.timeout)
    elif proc.returncode != 0:
        notes.append("exit status %d" % proc.returncode)
    if not found:
        notes.append("no summary line")
    if notes and (part.failed == 0 or not found or timed_out):
        part.failed += 1
    part.note = ", ".join(notes)
    part.output = lines


def shown_command(part):
    return " ".join("python3" if arg == sys.executable else arg for arg in part.cmd)


def run_one(part, stream, done):
    """Run part (timing it), show its output whole unless it streamed,
    and put it on the queue done."""
    started = time.monotonic()
    run_part(part, stream)
    part.seconds = time.monotonic() - started
    if not stream:
        print("=== %s: %s (output, %.0f s)" % (part.name, shown_command(part), part.seconds))
        for line in part.output:
            print(line)
    elif part.failed and part.note.startswith(("missing", "could not")):
        print(part.output[0])
    sys.stdout.flush()
    done.put(part)


def next_ready(waiting, busy, running):
    """The first of the waiting parts that may start now: none of its
    lanes busy, and none that runs alone before it in the order (that
    one starts once nothing runs, and nothing after it starts first)."""
    for part in waiting:
        if part.alone:
            return part if running == 0 else None
        if not part.lanes & busy:
            return part
    return None


def run_parts(parts, jobs):
    """Run the parts, jobs at a time, in the order given, each as soon as
    next_ready allows."""
    waiting = list(parts)
    busy = set()        # the lanes of the parts running
    alone = False       # a part that runs alone is running
    done = queue.Queue()
    running = 0
    stream = jobs == 1
    while waiting or running:
        part = next_ready(waiting, busy, running)
        if part and running < jobs and not alone:
            waiting.remove(part)
            busy |= part.lanes
            alone = part.alone
            running += 1
            print("=== %s: %s%s" % (part.name, shown_command(part),
                                    "" if stream else " (started)"), flush=True)
            threading.Thread(target=run_one, args=(part, stream, done), daemon=True).start()
            continue
        finished = done.get()
        busy -= finished.lanes
        alone = False
        running -= 1


def print_table(parts):
    width = max([len(p.name) for p in parts] + [4])
    print()
    print("%-*s  %6s  %6s  %7s  %7s  %s" % (width, "part", "passed", "failed", "skipped",
                                            "seconds", "result"))
    for p in parts:
        status = "ok" if p.failed == 0 else "FAILED"
        if p.note:
            status += " (%s)" % p.note
        print("%-*s  %6d  %6d  %7d  %7.0f  %s" % (width, p.name, p.passed, p.failed, p.skipped,
                                                 p.seconds, status))


# Each failed part's failed tests and last lines, printed again after
# the table, so that the end of a long log (all a CI page may show) says
# why it failed.
FAILED_TAIL_LINES = 12
FAILED_TEST_LINES = 10


def print_failed_tails(parts):
    for p in parts:
        if p.failed and p.output:
            failed = [line for line in p.output if line.startswith("not ok")]
            print("--- %s: %d failed test lines, then its last lines:" % (p.name, len(failed)))
            for line in failed[:FAILED_TEST_LINES] + p.output[-FAILED_TAIL_LINES:]:
                print("  " + line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", action="append", metavar="ARCH",
                    help="architecture to test (repeatable; default x86_64)")
    ap.add_argument("--only", action="append", choices=["host", "fuzz", "symtab", "boot", "up", "gdb", "crash", "bench"],
                    help="run only this part (repeatable)")
    ap.add_argument("--boot-test", action="append", default=[], metavar="NAME",
                    help="run only this boot test (repeatable); implies --only boot"
                    " unless --only is given")
    ap.add_argument("--jobs", type=int, default=2, metavar="N",
                    help="parts to run at once (default 2)")
    args = ap.parse_args()

    archs = args.arch or ["x86_64"]
    only = args.only or (["boot"] if args.boot_test else [])
    parts = make_parts(archs, only, args.boot_test)
    started = time.monotonic()
    run_parts(parts, max(1, args.jobs))

    print_table(parts)
    print_failed_tails(parts)
    passed = sum(p.passed for p in parts)
    failed = sum(p.failed for p in parts)
    skipped = sum(p.skipped for p in parts)
    print("the parts took %.0f s, %d at a time" % (time.monotonic() - started,
                                                   max(1, args.jobs)))
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
