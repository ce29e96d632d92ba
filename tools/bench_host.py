#!/usr/bin/env python3
"""`make bench-host`: how fast the kernel reads the host's folder over
virtio 9P (kernel/fs/ninepfs*.c, docs/9p.md).

Each boot shares a scratch folder holding a 4 MiB file of random bytes
and, in the shell, copies it into ramfs (`cat /host/big > /tmp/big`),
then times `wc -c` of each copy with the shell's `time` (the kernel's
clock, emulated time: QEMU without -icount, one CPU) a few times. wc
reads the whole file before it counts, so 4 MiB over the time of
`wc -c /host/big` is a lower bound on the read's speed, the counting
included; the ramfs copy's time is the counting alone, and the
difference of the two estimates the read alone (noisily: the counting
takes most of the time). Medians of the boots, with their ranges.
The aim is 50 MB/s or better (issue 29); it is printed, never asserted:
a benchmark is not a test.

Usage: tools/bench_host.py [--arch ARCH] [--boots N] [--smoke]
  --boots  boots to take the median of (default 5)
  --smoke  one boot, one timing of each: check the table is complete
           (exit 1 if not); prints "bench-host(ARCH): N passed, N failed"
"""

import argparse
import os
import re
import statistics
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "boot"))
import archs  # noqa: E402
import qemu  # noqa: E402

FILE_SIZE = 4 << 20
MB = 1e6
AIM_MB_S = 50
REAL = re.compile(r"^real\s+(\d+)m(\d+)\.(\d{3})s$")


def seconds(out, what):
    """The seconds of the `real` line of `time wc -c what`'s output, which
    must have counted the whole file."""
    want = "%d %s" % (FILE_SIZE, what)
    if out[:1] != [want]:
        raise ValueError("`wc -c %s`: expected %r, got %r" % (what, want, out[:1]))
    for line in out:
        mt = REAL.match(line)
        if mt:
            return int(mt.group(1)) * 60 + int(mt.group(2)) + int(mt.group(3)) / 1000
    raise ValueError("%s: no 'real' line in %r" % (what, out[-3:]))


def one_boot(arch, share, timings):
    """Boot sharing share; return the best (shortest) times of wc -c of
    the 4 MiB file through /host and from ramfs, in seconds."""
    cmd = qemu.command(arch, 1, share=share)
    host, ram = [], []
    with qemu.Machine(arch, qemu_cmd=cmd) as m:
        m.wait_prompt(120, echo=False)
        m.command("mkdir -p /tmp", 20)
        m.command("cat /host/big > /tmp/big", 120)
        for _ in range(timings):
            host.append(seconds(m.command("time wc -c /host/big", 120), "/host/big"))
            ram.append(seconds(m.command("time wc -c /tmp/big", 120), "/tmp/big"))
        m.poweroff()
    return min(host), min(ram)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", default="x86_64", choices=archs.archs())
    ap.add_argument("--boots", type=int, default=5)
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args()
    boots, timings = (1, 1) if args.smoke else (max(1, args.boots), 3)
    ok = True
    with tempfile.TemporaryDirectory(prefix="probeos-bench-host-") as share:
        with open(os.path.join(share, "big"), "wb") as f:
            f.write(os.urandom(FILE_SIZE))
        try:
            runs = [one_boot(args.arch, share, timings) for _ in range(boots)]
        except (qemu.MachineError, ValueError) as e:
            print("bench-host: no table: %s" % e)
            runs, ok = [], False
    if runs:
        counted = [FILE_SIZE / MB / h for h, _ in runs]
        read = [FILE_SIZE / MB / (h - r) for h, r in runs if h > r]
        print("bench-host(%s): a 4 MiB host file, %d boot(s), the best of %d timings each,"
              " emulated time (one CPU, no -icount):" % (args.arch, boots, timings))
        print("  wc -c /host/big: %.3f s (median): %.0f MB/s read and counted (range %.0f-%.0f);"
              " aim %d MB/s or better" % (statistics.median(h for h, _ in runs),
                                          statistics.median(counted), min(counted),
                                          max(counted), AIM_MB_S))
        print("  wc -c /tmp/big (ramfs, the counting alone): %.3f s (median)"
              % statistics.median(r for _, r in runs))
        if read:
            print("  the 9P read alone, from the difference: about %.0f MB/s (range %.0f-%.0f:"
                  " a difference of two near times is noisy)"
                  % (statistics.median(read), min(read), max(read)))
    if args.smoke:
        print("bench-host(%s): %d passed, %d failed" % (args.arch, ok, not ok))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
