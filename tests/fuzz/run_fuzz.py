#!/usr/bin/env python3
"""Run the libFuzzer targets (tests/fuzz/fuzz.mk; docs/tests.md, "The fuzzer").

    run_fuzz.py test --cap SECONDS --target NAME:RUNS [--seeds NAME=PATTERN]...
    run_fuzz.py campaign --time SECONDS --target NAME:RUNS [--seeds NAME=PATTERN]...

Target NAME is the program BUILD/fuzz_NAME with the committed corpus
tests/fuzz/corpus/NAME/. --seeds adds the files a shell pattern matches
(** crosses folders), e.g. build output; a pattern that matches nothing
adds nothing.

test (make fuzz-test, part of make test): each target replays its corpus
and seeds, then runs RUNS more inputs with -seed=1, in a fresh working
folder BUILD/test/NAME/, so that every run is the same. Prints one line
per target and "fuzz: N passed, N failed". Exits with 1 on a crash.

campaign (make fuzz): each target in turn for SECONDS, with a random
seed, keeping its working corpus in BUILD/work/NAME/ from one campaign to
the next.

Either way a crashing input is written to BUILD/crashes/NAME/, and how to
reproduce it is printed. Only the Python 3 standard library is used.
"""

import argparse
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join("tests", "fuzz", "corpus")

# One input that runs this long is a hang (a parser looping on bad
# input): libFuzzer stops and writes it out as a "timeout-" file.
INPUT_TIMEOUT = 10


def seed_folder(build, name, patterns):
    """Copy the files the patterns match into BUILD/seeds/NAME/, named
    by their SHA-1 as libFuzzer names corpus files (so two files of the
    same name from different folders do not clash). Returns the folder,
    or None when there are no such files."""
    files = sorted({f for p in patterns for f in glob.glob(p, recursive=True)
                    if os.path.isfile(f)})
    if not files:
        return None
    folder = os.path.join(build, "seeds", name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for f in files:
        with open(f, "rb") as src:
            data = src.read()
        with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as dst:
            dst.write(data)
    return folder


def fuzzer_command(build, name, work, seeds, options):
    """The fuzzer's command line: new inputs go to work, the first
    folder; the committed corpus and the seeds are only read."""
    crashes = os.path.join(build, "crashes", name)
    os.makedirs(crashes, exist_ok=True)
    # A target's committed corpus exists once it has a file: a target
    # seeded only from build output starts without one.
    corpus = os.path.join(CORPUS, name)
    folders = [work] + ([corpus] if os.path.isdir(corpus) else []) + ([seeds] if seeds else [])
    return ([os.path.join(build, "fuzz_" + name)] + options +
            ["-timeout=%d" % INPUT_TIMEOUT, "-artifact_prefix=%s/" % crashes] + folders)


# The first line of a report: a harness check, a sanitizer, libFuzzer's
# own (a deadly signal, a timeout, a leak).
REPORT_START = re.compile(r"check failed:|runtime error:|^==\d+==ERROR:|ERROR: libFuzzer:", re.M)


def crash_report(log):
    """The part of the fuzzer's output that describes the crash (the
    whole output if no report is recognised)."""
    m = REPORT_START.search(log)
    if not m:
        return log
    return log[log.rfind("\n", 0, m.start()) + 1:]


def report_crash(build, name, log):
    """Print where libFuzzer wrote the input that broke the target, and
    what to do with it."""
    m = re.search(r"Test unit written to (\S+)", log)
    where = m.group(1) if m else "(libFuzzer did not say where; see its output above)"
    print("FAILED - %s: the target crashed; the input is %s" % (name, where))
    print("  reproduce: %s/fuzz_%s %s" % (build, name, where))
    print("  once the bug is fixed, commit the input into %s/%s/ so that"
          " every make test replays it" % (CORPUS, name))


def count_files(folder):
    return len(os.listdir(folder)) if os.path.isdir(folder) else 0


def run_test(build, name, runs, seeds, cap):
    """Replay, then a seeded run; True if nothing crashed. libFuzzer's
    chatter goes to BUILD/test/NAME.log, shown only when it failed."""
    work = os.path.join(build, "test", name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # -reload=0: libFuzzer would otherwise reread the working folder
    # every second, which makes a run depend on the machine's speed.
    options = ["-seed=1", "-runs=%d" % runs, "-max_total_time=%d" % cap,
               "-reload=0", "-print_final_stats=1"]
    cmd = fuzzer_command(build, name, work, seeds, options)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace")
    seconds = time.monotonic() - start
    log_path = work + ".log"
    with open(log_path, "w") as f:
        f.write(proc.stdout)

    if proc.returncode != 0:
        print(crash_report(proc.stdout))
        report_crash(build, name, proc.stdout)
        return False
    done = re.search(r"^stat::number_of_executed_units: (\d+)$", proc.stdout, re.M)
    executed = int(done.group(1)) if done else 0
    print("ok - %s: %d inputs in %.1f s, %d new in %s (log %s)"
          % (name, executed, seconds, count_files(work), work, log_path))
    if executed < runs:
        print("  note: stopped by the %d s cap before its %d runs: this machine is"
              " slower than the one RUNS was chosen on, so the run differs from CI's"
              % (cap, runs))
    return True


def run_campaign(build, name, seeds, seconds):
    """A long run with a random seed, its output shown as it comes;
    True if nothing crashed."""
    work = os.path.join(build, "work", name)
    os.makedirs(work, exist_ok=True)
    cmd = fuzzer_command(build, name, work, seeds, ["-max_total_time=%d" % seconds])
    print("=== fuzz %s for %d s: %s" % (name, seconds, " ".join(cmd)), flush=True)
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace")
    lines = []
    for line in proc.stdout:
        sys.stdout.write(line)
        lines.append(line)
    if proc.wait() != 0:
        report_crash(build, name, "".join(lines))
        return False
    print("ok - %s: working corpus %s (%d files)" % (name, work, count_files(work)))
    return True


def parse_targets(args):
    """[(name, runs, seed patterns)] in the order given."""
    seeds = {}
    for s in args.seeds:
        name, _, pattern = s.partition("=")
        seeds.setdefault(name, []).append(pattern)
    targets = []
    for t in args.target:
        name, _, runs = t.partition(":")
        targets.append((name, int(runs), seeds.get(name, [])))
    return targets


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["test", "campaign"])
    ap.add_argument("--build", default="build/fuzz")
    ap.add_argument("--target", action="append", default=[], metavar="NAME:RUNS")
    ap.add_argument("--seeds", action="append", default=[], metavar="NAME=PATTERN")
    ap.add_argument("--cap", type=int, default=30, help="test: seconds per target at most")
    ap.add_argument("--time", type=int, default=1200, help="campaign: seconds per target")
    args = ap.parse_args()
    os.chdir(ROOT)

    passed = failed = 0
    for name, runs, patterns in parse_targets(args):
        seeds = seed_folder(args.build, name, patterns)
        if args.mode == "test":
            ok = run_test(args.build, name, runs, seeds, args.cap)
        else:
            ok = run_campaign(args.build, name, seeds, args.time)
        passed += ok
        failed += not ok
        sys.stdout.flush()
    print("fuzz: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
