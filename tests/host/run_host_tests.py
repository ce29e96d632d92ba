#!/usr/bin/env python3
"""Run the host unit tests and total their results.

Usage: run_host_tests.py [--python FILE.py]... [--check-symtab ELF]...
                         [--run PROGRAM]... [--insn-checker PROGRAM
                         --check-insn ELF...] [--aarch64-insn-checker
                         PROGRAM --check-aarch64-insn ELF...]
                         [--check-nokprobe ELF]... [--check-callgraph ELF]...
                         [--check-layers ELF]... [--check-ftrace-sites ELF]...
                         [--grep-differential TOOL] TEST_BINARY...

  TEST_BINARY        a cmocka test program; every test case counts
  --python FILE      a Python unittest file; every test case counts
  --check-symtab ELF check_symtab.py on ELF; every check counts
  --run PROGRAM      a program that must exit with 0; counts as one
  --check-insn ELF   the --insn-checker program (check_insn_boundaries)
                     on ELF; counts as one. An ELF that does not exist
                     (the kernel before `make`) is skipped with a note.
  --check-aarch64-insn ELF
                     the --aarch64-insn-checker program
                     (check_aarch64_insn) on ELF; the same way.
  --check-nokprobe ELF
                     check_nokprobe.py on a kernel ELF; every check
                     counts. A kernel not built yet is skipped, as above.
  --check-callgraph ELF
                     check_callgraph.py on a kernel ELF; the same way.
  --check-layers ELF
                     check_layers.py on a kernel ELF's objects; the same way.
  --check-ftrace-sites ELF
                     check_ftrace_sites.py on a kernel ELF; the same way.
  --grep-differential TOOL
                     grep_differential.py with TOOL (grep_tool): ProbeOS's
                     grep against the host's GNU grep; counts as one, or
                     is skipped on a host without GNU grep.

Prints each program's summary, then `host: N passed, N failed, N skipped`, and
exits with 1 if anything failed. A program that dies before printing its
summary (a crash, a sanitizer report) counts as one failure, and its whole
output is shown.
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


# Every program here finishes in seconds; one that does not is stuck
# (a reader looping on a malformed input) and fails instead of hanging.
TIMEOUT = 300


def run(cmd):
    """Run cmd; return (exit status, stdout and stderr together)."""
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return 1, out + "\nkilled: still running after %d s\n" % TIMEOUT
    return proc.returncode, proc.stdout


def cmocka(binary):
    """cmocka prints "[  PASSED  ] N test(s)." and, if any failed or were
    skipped, "[  FAILED  ] N test(s), listed below:" or "[  SKIPPED ] N
    test(s), listed below:" followed by their names."""
    status, out = run([binary])
    passed = re.search(r"^\[  PASSED  \] (\d+) test", out, re.M)
    failed = re.search(r"^\[  FAILED  \] (\d+) test", out, re.M)
    skipped = re.search(r"^\[  SKIPPED \] (\d+) test", out, re.M)
    ran = re.search(r"^\[==========\] (\d+) test\(s\) run", out, re.M)
    name = os.path.basename(binary)
    if not ran or not passed:
        return name, 0, 1, 0, out
    n_passed = int(passed.group(1))
    n_failed = int(failed.group(1)) if failed else 0
    n_skipped = int(skipped.group(1)) if skipped else 0
    if status != 0 and n_failed == 0:
        n_failed = 1        # e.g. a leak reported at exit
    summary = [line for line in out.splitlines()
               if line.startswith(("[==========]", "[  PASSED  ]",
                                   "[  FAILED  ]", "[  SKIPPED ]", "[  ERROR   ]",
                                   "[   LINE   ]", "ERROR:"))]
    return name, n_passed, n_failed, n_skipped, "\n".join(summary) + "\n"


def python_unittest(path):
    status, out = run([sys.executable, path, "-v"])
    ran = re.search(r"^Ran (\d+) test", out, re.M)
    name = os.path.basename(path)
    if not ran:
        return name, 0, 1, out
    total = int(ran.group(1))
    # The last line: "OK", "OK (skipped=1)" or "FAILED (failures=1, ...)".
    counts = re.search(r"^(?:OK|FAILED) \((.*)\)", out, re.M)
    n_failed = n_skipped = 0
    if counts:
        for kind, n in re.findall(r"(\w+)=(\d+)", counts.group(1)):
            if kind in ("failures", "errors"):
                n_failed += int(n)
            elif kind == "skipped":
                n_skipped += int(n)
    if status != 0 and n_failed == 0:
        n_failed = 1
    text = out if n_failed else out.strip().splitlines()[-1] + "\n"
    summary = f"[  tests   ] {total} run\n{text}"
    return name, total - n_failed - n_skipped, n_failed, n_skipped, summary


def run_elf_checker(checker, name, elf):
    """A checker script (check_symtab.py, check_nokprobe.py,
    check_callgraph.py, check_layers.py, check_ftrace_sites.py) prints
    "CHECKER: N passed, M failed"; exiting non-zero with no failure
    counted is a failure too."""
    status, out = run([sys.executable, os.path.join(HERE, checker + ".py"), elf])
    m = re.search(r"^%s: (\d+) passed, (\d+) failed" % checker, out, re.M)
    if not m:
        return name, 0, 1, 0, out
    n_passed, n_failed = int(m.group(1)), int(m.group(2))
    if status != 0 and n_failed == 0:
        n_failed = 1
    return name, n_passed, n_failed, 0, out


def check_symtab(elf):
    return run_elf_checker("check_symtab", "check_symtab " + os.path.basename(elf), elf)


def check_kernel(checker):
    """The runner of one checker over a kernel ELF, which skips an ELF
    not built yet."""
    def run_on(elf):
        name = checker + " " + os.path.relpath(elf)
        if not os.path.exists(elf):
            return name, 0, 0, 1, f"skipped: {elf} does not exist (run make first)\n"
        return run_elf_checker(checker, name, elf)
    return run_on


def check_decoder(label, checker, elf):
    """A decoder checker prints "LABEL: N instructions compared, M
    mismatches" ("insn" for x86_64, "aarch64 insn" for aarch64)."""
    name = "check_%s %s" % (label.replace(" ", "_"), os.path.basename(elf))
    if not os.path.exists(elf):
        return name, 0, 0, 1, f"skipped: {elf} does not exist (run make first)\n"
    status, out = run([checker, elf])
    m = re.search(r"^%s: (\d+) instructions compared, (\d+) mismatches" % re.escape(label),
                  out, re.M)
    ok = m is not None and status == 0 and int(m.group(2)) == 0
    return name, int(ok), int(not ok), 0, out


def grep_differential(tool):
    """grep_differential.py prints "grep_differential: N cases compared,
    M mismatches", or "grep_differential: skipped: WHY"."""
    name = "grep_differential"
    status, out = run([sys.executable, os.path.join(HERE, "grep_differential.py"), tool])
    if re.search(r"^grep_differential: skipped", out, re.M) and status == 0:
        return name, 0, 0, 1, out
    m = re.search(r"^grep_differential: (\d+) cases compared, (\d+) mismatches", out, re.M)
    ok = m is not None and status == 0 and int(m.group(2)) == 0
    return name, int(ok), int(not ok), 0, out


def program(path):
    status, out = run([path])
    return os.path.basename(path), int(status == 0), int(status != 0), 0, out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", default=[])
    parser.add_argument("--check-symtab", action="append", default=[])
    parser.add_argument("--run", action="append", default=[])
    parser.add_argument("--insn-checker")
    parser.add_argument("--check-insn", action="append", default=[])
    parser.add_argument("--aarch64-insn-checker")
    parser.add_argument("--check-aarch64-insn", action="append", default=[])
    parser.add_argument("--check-nokprobe", action="append", default=[])
    parser.add_argument("--check-callgraph", action="append", default=[])
    parser.add_argument("--check-layers", action="append", default=[])
    parser.add_argument("--check-ftrace-sites", action="append", default=[])
    parser.add_argument("--grep-differential", action="append", default=[])
    parser.add_argument("binaries", nargs="*")
    args = parser.parse_args()
    if args.check_insn and not args.insn_checker:
        parser.error("--check-insn needs --insn-checker")
    if args.check_aarch64_insn and not args.aarch64_insn_checker:
        parser.error("--check-aarch64-insn needs --aarch64-insn-checker")

    jobs = ([(cmocka, b) for b in args.binaries]
            + [(python_unittest, p) for p in args.python]
            + [(check_symtab, e) for e in args.check_symtab]
            + [(program, p) for p in args.run]
            + [(lambda elf: check_decoder("insn", args.insn_checker, elf), e)
               for e in args.check_insn]
            + [(lambda elf: check_decoder("aarch64 insn", args.aarch64_insn_checker, elf), e)
               for e in args.check_aarch64_insn]
            + [(check_kernel("check_nokprobe"), e) for e in args.check_nokprobe]
            + [(check_kernel("check_callgraph"), e) for e in args.check_callgraph]
            + [(check_kernel("check_layers"), e) for e in args.check_layers]
            + [(check_kernel("check_ftrace_sites"), e) for e in args.check_ftrace_sites]
            + [(grep_differential, t) for t in args.grep_differential])
    total_passed = total_failed = total_skipped = 0
    for kind, target in jobs:
        name, passed, failed, skipped, summary = kind(target)
        print(f"== {name}: {passed} passed, {failed} failed, {skipped} skipped")
        sys.stdout.write(summary)
        total_passed += passed
        total_failed += failed
        total_skipped += skipped
    print(f"host: {total_passed} passed, {total_failed} failed, {total_skipped} skipped")
    return 1 if total_failed or not jobs else 0


if __name__ == "__main__":
    sys.exit(main())
