#!/usr/bin/env python3
"""Crash tests: boot kernels told to crash (crash=KIND on the command line,
see kernel/crash_test.c) and check what the panic prints.

The machine has CPUS CPUs (qemu.command), so a panic happens while
other CPUs run. Each kind must print one `PANIC: <cause> at
<function>+0x../0x..` line, then `on CPU N; the other CPUs are stopped`, the
registers, and a `Call trace:` whose lines are symbolized and reach kmain
(or, in a thread of the crash's own, the crashing function), then stop.
The kernel halts rather than exits, so QEMU is killed once the panic has
been read (or after a timeout).

Usage: crash_tests.py [--arch ARCH]   (prints "crash(ARCH): N passed, N failed")
"""

import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import archs  # noqa: E402
import qemu  # noqa: E402

TIMEOUT = 60
CPUS = 4
STOPPED = re.compile(r"^on CPU \d+; the other CPUs are stopped$")
END = "--- end of panic: the kernel is halted ---"

# The guard page below a thread's stack caught its runaway recursion.
OVERFLOW = "kernel stack overflow in thread overflow on CPU "
# The scheduler found the stack's end mark gone (the second line of defence).
END_MARK = "sched: thread stack-end ran past the end of its 16384-byte stack"
# The stack tracer found it first, at a deeper call (kernel/trace/crash_kinds.c).
TRACER_END_MARK = "stack tracer: thread stack-end ran past the end of its 16384-byte stack"
# The lock, and the function that took it first (the same one).
RECURSION = ("spinlock: CPU 0 takes 'crash test' again; it already holds it "
             "(taken at crash_by_lock_recursion+0x")

# A NULL pointer written through in a module's init (crash=module-fault).
UNMAPPED = "access to an unmapped address"

# kind -> (cause in the PANIC line, function the panic names), for the
# kinds every architecture has and whose panic is the same on each; the
# others are each architecture's CRASH_KINDS (arch/ARCH/testdata.py).
KINDS = {
    "text-write": ("write to read-only kernel text (W^X)", "crash_by_text_write"),
    "kretprobe-bug": ("rethook BUG!: a return is not that of the newest hooked call", None),
    "jprobe-return": ("jprobe_return() called outside a jprobe's entry function", None),
    "sleep-in-handler": ("sched: thread idle would sleep inside a handler run at trap time", None),
    "stack-overflow": (OVERFLOW, "crash_recurse"),
    "stack-end-mark": (END_MARK, None),
    "stack-tracer-end-mark": (TRACER_END_MARK, None),
    "lock-recursion": (RECURSION, None),
    "module-fault": (UNMAPPED, "mod_crash_write"),
}


def kinds(arch):
    """Every kind arch has: its own (CRASH_KINDS) first, then KINDS."""
    return dict(archs.testdata(arch).CRASH_KINDS, **KINDS)


# For the kinds that crash in a loaded module: the module each of its
# functions in the trace must be named with, " [mod_crash]" as Linux's
# backtraces say it.
MODULE_FRAMES = {
    "module-fault": {"mod_crash_write": "mod_crash", "mod_crash_init": "mod_crash"},
}

# For the kinds that call panic(): the function whose call the trace
# must show (who found the bug), so a trace of the wrong path fails.
PANIC_CALLERS = {
    "kretprobe-bug": "kretprobe_trampoline_handler",
    "jprobe-return": "jprobe_return",
    "sleep-in-handler": "sleeping_handler",
    "stack-end-mark": "schedule_locked",
    "stack-tracer-end-mark": "end_mark_gone",
    "lock-recursion": "crash_by_lock_recursion",
}

# The function every trace must reach: the crash's caller chain from
# kmain, except in a thread of its own whose recursion fills the trace.
REACHES = {"stack-overflow": "crash_recurse", "stack-end-mark": "end_mark_thread",
           "stack-tracer-end-mark": "end_mark_then_deeper_call"}

# Names may carry the suffixes of GCC's split or specialized copies
# (crash_test_from_cmdline.cold), and code in a module its name.
SYMBOLIZED = re.compile(r"^  \[<[0-9a-f]{16}>\] ([\w.]+)\+0x[0-9a-f]+/0x[0-9a-f]+(?: \[(\w+)\])?$")


def run(arch, kind):
    """Boot, and return the console lines up to the end of the panic."""
    proc = subprocess.Popen(qemu.command(arch, CPUS, crash=kind), cwd=qemu.ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = b""
    deadline = time.monotonic() + TIMEOUT
    try:
        os.set_blocking(proc.stdout.fileno(), False)
        while END.encode() not in text and time.monotonic() < deadline:
            chunk = proc.stdout.read()
            if chunk:
                text += chunk
            elif proc.poll() is not None:
                break
            else:
                time.sleep(0.05)
    finally:
        proc.kill()
        proc.wait()
    return text.decode("utf-8", "replace").replace("\r", "").split("\n")


def check(arch, kind, lines):
    """The reason the panic output is wrong, or None."""
    cause, function = kinds(arch)[kind]
    if END not in lines:
        return "no end-of-panic line within %d s" % TIMEOUT
    panics = [l for l in lines if l.startswith("PANIC: ")]
    if function is None:
        # A panic() call rather than a trap: the message, then the trace
        # of the code that called panic().
        if len(panics) != 1 or not panics[0].startswith("PANIC: " + cause):
            return "expected one line 'PANIC: %s...', got %r" % (cause, panics)
        function = "panic"
    else:
        want = re.compile(r"^PANIC: %s.* at %s\+0x[0-9a-f]+/0x[0-9a-f]+(?: \[\w+\])?$"
                          % (re.escape(cause), re.escape(function)))
        if len(panics) != 1 or not want.match(panics[0]):
            return ("expected one line 'PANIC: %s... at %s+0x../0x..', got %r"
                    % (cause, function, panics))
        if not any(re.match(archs.testdata(arch).REGISTER_DUMP, l) for l in lines):
            return "no register dump"
    after = lines[lines.index(panics[0]) + 1:lines.index(panics[0]) + 2]
    if not after or not STOPPED.match(after[0]):
        return "expected 'on CPU N; the other CPUs are stopped' after the PANIC line, got %r" % after
    if "Call trace:" not in lines:
        return "no 'Call trace:' line"
    trace = lines[lines.index("Call trace:") + 1:lines.index(END)]
    frames = [m.groups() for m in map(SYMBOLIZED.match, trace) if m]
    names = [name for name, _ in frames]
    if len(names) != len(trace) or not names:
        return "call trace lines not all symbolized: %r" % trace
    for fn, module in MODULE_FRAMES.get(kind, {}).items():
        if (fn, module) not in frames:
            return "call trace should name %s [%s]: %r" % (fn, module, trace)
    if function != "panic" and names[0] != function:
        return "call trace should start at %s: %r" % (function, names)
    if function == "panic" and PANIC_CALLERS[kind] not in names:
        return "call trace should name %s: %r" % (PANIC_CALLERS[kind], names)
    reach = REACHES.get(kind, "kmain")
    if reach not in names:
        return "call trace should reach %s: %r" % (reach, names)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", default="x86_64", choices=archs.archs())
    args = ap.parse_args()
    passed = failed = 0
    for kind in kinds(args.arch):
        lines = run(args.arch, kind)
        reason = check(args.arch, kind, lines)
        if reason:
            failed += 1
            print("not ok - crash=%s: %s" % (kind, reason))
            for line in lines[-25:]:
                print("# | " + line)
        else:
            passed += 1
            print("ok - crash=%s" % kind)
    print("crash(%s): %d passed, %d failed" % (args.arch, passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
