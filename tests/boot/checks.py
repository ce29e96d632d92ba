"""What every boot-time test script reports with: a failed check, and
lines of output quoted for a failure message. Standard library only."""


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
