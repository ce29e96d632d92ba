"""What every boot-time test script reports with: a failed check, and
lines of output quoted for a failure message; and what the kernel's
heap holds, for tests that check it is given back. Standard library
only."""

import re
import time

HEAP_LINE = re.compile(r"^heap: (\d+) bytes in (\d+) allocations,")


class TestFailure(Exception):
    """A check failed, but the machine answered: it is still usable."""


def check(cond, reason):
    if not cond:
        raise TestFailure(reason)


def show(lines, limit=6):
    """Lines of output, quoted, for a failure message."""
    if not lines:
        return "no output"
    shown = " | ".join(repr(line) for line in lines[:limit])
    if len(lines) > limit:
        shown += " | ... (%d lines)" % len(lines)
    return shown


def info(msg):
    """A line of information: TAP's comment, so no result."""
    print("# " + msg, flush=True)


def heap_usage(m):
    """(bytes, allocations) in use on the kernel heap, from `mem`."""
    out = m.command("mem")
    for line in out:
        found = HEAP_LINE.match(line)
        if found:
            return int(found.group(1)), int(found.group(2))
    raise TestFailure("`mem`: expected a line 'heap: N bytes in N allocations, ...', got %s"
                      % show(out))


def settled_heap_usage(m, seconds=5.0):
    """heap_usage once two readings 0.3 s apart agree: memory given back
    through call_rcu is freed a grace period later, by the rcu thread."""
    deadline = time.monotonic() + seconds
    last = heap_usage(m)
    while True:
        time.sleep(0.3)
        now = heap_usage(m)
        if now == last or time.monotonic() > deadline:
            return now
        last = now


def heap_is_back(m, before, what):
    """The heap holds what it held before what ran (settled_heap_usage):
    what it used was given back."""
    after = settled_heap_usage(m)
    check(after == before, "the heap after %s: %s, before %s" % (what, after, before))


def answers_and_heap_is_back(m, before, what):
    """After hostile input: the kernel still answers `uptime`, and the
    heap holds what it held before (heap_is_back)."""
    out = m.command("uptime")
    check(any(line.startswith("up ") for line in out), "`uptime` after %s: %s" % (what, show(out)))
    heap_is_back(m, before, what)
