#!/usr/bin/env python3
"""GDB on a running ProbeOS: tools/gdb/probeos.py's lx-symbols loads the
symbols of a loaded module at the addresses the kernel placed it.

One machine is booted with a GDB stub (-gdb tcp:127.0.0.1:PORT, a free
port) from the usual image, whose archive holds tests/modules/gdbtest.ko
(built by `make`), sharing a host folder as `make debug` shares the tree:
a scratch folder laid out as the tree's staging directory, holding a
copy of gdbtest.ko, so that insmod loads it from /host (docs/9p.md) as
the edit loop does. The steps, each
printed as `ok - NAME` or `not ok - NAME: reason`:

    insmod            `insmod gdbtest` runs its init, from the copy in
                      /host/build/ARCH/modules/lib/modules/ (modinfo
                      says which file); `sym gdbtest_value`
                      gives the function's address as the kernel sees it
    lx_symbols        GDB attaches (the guest stops), sources
                      tools/gdb/probeos.py and runs lx-symbols; then GDB
                      must name gdbtest_value at the kernel's address
                      (`info address`, `info symbol`), find its source line
                      (`info line`: the debug information is relocated),
                      read the module's variable from .data (`print`) and
                      list the module (`lx-lsmod`)
    lx_symbols_rmmod  with a breakpoint on module_unload, the guest runs,
                      `rmmod gdbtest` is typed, GDB stops there and
                      finishes it: lx-symbols's own breakpoint must have
                      dropped the module's symbols on the way (`info
                      symbol` no longer names it)
    break_in_init     a pending `break gdbtest_init`, then `insmod
                      gdbtest` typed while the guest runs: lx-symbols's
                      breakpoint loads the symbols before init runs, and
                      GDB stops in init (.init.text, called by module_load);
                      once module_load returns, the init code is no
                      longer named, the rest still is
    detach            GDB detaches; the insmod finishes, the shell answers
    attach_before_boot  as in `make debug`: a second machine waits for GDB
                      before its first instruction (-S); lx-symbols says
                      the kernel is not running yet, a pending breakpoint
                      on gdbtest_init is set, and the `insmod` typed once
                      the shell is up stops there, with the symbols loaded

The last line is `gdb(ARCH): N passed, N failed`. The serial transcript
goes to build/ARCH/gdb-test.log, GDB's to build/ARCH/gdb-test.gdb.log.

    python3 tests/boot/gdb_tests.py --arch aarch64

The GDB run is the build's (GDB in arch/ARCH/arch.mk: `gdb` for x86_64,
`gdb-multiarch` for aarch64), as `make debug` runs it.
Only the Python 3 standard library is used.
"""

import argparse
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import archs  # noqa: E402
import qemu  # noqa: E402
from checks import TestFailure, check, info, show  # noqa: E402

ROOT = qemu.ROOT
BOOT_TIMEOUT = 60
COMMAND_TIMEOUT = 20
GDB_TIMEOUT = 60        # one GDB command; TCG is slow to stop and resume

MODULE = "gdbtest"


# -- the module under test ----------------------------------------------
#
# gdbtest is tests/modules/gdbtest.c, which `make` builds into the boot
# archive like every module there; lx-symbols finds its .ko in the
# staging tree build/ARCH/modules/lib/modules/ by itself.

def free_port():
    """A TCP port nobody listens on now (QEMU takes it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- GDB, driven command by command -------------------------------------

PROMPT = "(gdb) "


class GdbError(Exception):
    pass


class Gdb:
    """GDB reading commands from a pipe. Each command is followed by an
    `echo` of a marker, and its output is what comes before the marker
    (stdout and stderr together, in order)."""

    def __init__(self, arch, log_path):
        self.arch = arch
        self.cmd = [archs.config(arch)["GDB"], "-nx", "-q",
                    os.path.join("build", arch, "probeos.elf")]
        self.lines = queue.Queue()
        self.transcript = []
        self.count = 0
        self.attached = False   # set by the caller: close() detaches first
        self.log_path = log_path
        try:
            self.proc = subprocess.Popen(self.cmd, cwd=ROOT, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        except OSError as e:
            raise TestFailure("cannot run %s: %s" % (self.cmd[0], e))
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in iter(self.proc.stdout.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self.transcript.append(line)
            # GDB prompts even when reading a pipe; the prompts (with no
            # newline) end up at the start of the next line printed.
            while line.startswith(PROMPT):
                line = line[len(PROMPT):]
            self.lines.put(line)
        self.lines.put(None)

    def send(self, command):
        self.transcript.append("(gdb) " + command)
        try:
            self.proc.stdin.write((command + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise GdbError("GDB is gone (%s)" % e)

    def command(self, command, timeout=GDB_TIMEOUT, on_sent=None):
        """Run one command; return its output lines. on_sent, if given,
        is called once the command has been sent (while it runs)."""
        self.count += 1
        marker = "@@gdb-test-%d@@" % self.count
        self.send(command)
        self.send("echo \\n%s\\n" % marker)
        if on_sent:
            on_sent()
        out = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise GdbError("GDB: no answer to %r within %g s; it printed %s"
                               % (command, timeout, show(out)))
            if line is None:
                raise GdbError("GDB exited during %r; it printed %s" % (command, show(out)))
            if line.endswith(marker):
                # The echo's leading newline ends a prompt-less last line.
                if out and out[-1] == "":
                    out.pop()
                return [l for l in out if l.strip()]
            out.append(line)

    def close(self):
        if self.proc.poll() is None:
            try:
                if self.attached:
                    self.send("detach")
                self.send("quit")
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (GdbError, OSError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.reader.join(timeout=5)
        if self.log_path:
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write("$ %s\n" % " ".join(self.cmd))
                f.write("\n".join(self.transcript) + "\n")


# -- the steps ----------------------------------------------------------

class Context:
    def __init__(self, arch):
        self.arch = arch
        self.serial_log = os.path.join(ROOT, "build", arch, "gdb-test.log")
        self.gdb_log = os.path.join(ROOT, "build", arch, "gdb-test.gdb.log")
        self.share = tempfile.TemporaryDirectory(prefix="probeos-gdb-")
        staged = os.path.join("build", arch, "modules", "lib", "modules")
        os.makedirs(os.path.join(self.share.name, staged))
        shutil.copy(os.path.join(ROOT, staged, MODULE + ".ko"),
                    os.path.join(self.share.name, staged))
        self.host_ko = "/host/%s/%s.ko" % (staged, MODULE)
        self.qemu_cmd = qemu.command(arch, share=self.share.name)
        self.port = None
        self.machine = None
        self.gdb = None
        self.ko = None
        self.addr = None


def start_machine(ctx, halted):
    """Boot with a GDB stub on a free port (ctx.port); with halted, QEMU
    waits for GDB before the first instruction (-S, as `make debug`),
    and otherwise the shell's prompt has been seen."""
    for attempt in range(3):
        ctx.port = free_port()
        cmd = ctx.qemu_cmd + ["-gdb", "tcp:127.0.0.1:%d" % ctx.port] + (["-S"] if halted else [])
        m = qemu.Machine(ctx.arch, qemu_cmd=cmd, log_path=ctx.serial_log,
                         log_title="gdb test%s" % (", halted at start" if halted else ""))
        try:
            m.start()
            if halted:
                # QEMU listens before it starts; if the port was taken it
                # has exited by now.
                time.sleep(0.5)
                if not m.alive():
                    raise qemu.Died("QEMU exited: %s" % " | ".join(m.stderr[-3:]))
            else:
                m.wait_prompt(BOOT_TIMEOUT, echo=False)
            return m
        except qemu.MachineError:
            m.close()
            # Someone took the port between free_port() and QEMU: again.
            if attempt < 2 and any("gdb" in l.lower() for l in m.stderr):
                continue
            raise


def attach(ctx):
    """GDB on the kernel's ELF, attached to ctx.port, the script sourced."""
    ctx.gdb = g = Gdb(ctx.arch, ctx.gdb_log)
    g.command("set pagination off")
    g.command("set confirm off")
    g.command("set architecture %s" % archs.testdata(ctx.arch).GDB_ARCH)
    out = g.command("target remote 127.0.0.1:%d" % ctx.port)
    g.attached = True
    check(not any("error" in l.lower() or "refused" in l.lower() for l in out),
          "`target remote`: %s" % show(out))
    out = g.command("source tools/gdb/probeos.py")
    check(not out, "`source tools/gdb/probeos.py`: %s" % show(out))
    return g


def step_insmod(ctx):
    for log in (ctx.serial_log, ctx.gdb_log):
        if os.path.exists(log):
            os.remove(log)
    ctx.machine = m = start_machine(ctx, halted=False)

    out = m.command("insmod %s" % MODULE, COMMAND_TIMEOUT)
    check(any("gdbtest: init 5" in line for line in out),
          "`insmod %s`: expected 'gdbtest: init 5', got %s" % (MODULE, show(out)))
    out = m.command("modinfo %s" % MODULE, COMMAND_TIMEOUT)
    check(out[:1] == ["filename:       " + ctx.host_ko],
          "`modinfo %s`: expected the file %s, got %s" % (MODULE, ctx.host_ko, show(out[:1])))
    out = m.command("sym gdbtest_value", COMMAND_TIMEOUT)
    found = [re.match(r"^gdbtest_value (0x[0-9a-f]+) size 0x[0-9a-f]+ text \[gdbtest\]$", l)
             for l in out]
    found = [f for f in found if f]
    check(found, "`sym gdbtest_value`: expected 'gdbtest_value 0x... size 0x... text "
          "[gdbtest]', got %s" % show(out))
    ctx.addr = int(found[0].group(1), 16)
    info("the kernel placed gdbtest_value at 0x%x" % ctx.addr)


# A breakpoint's hit, "Breakpoint 2, ...". On aarch64 GDB may set one
# at two places of a function, and say "Breakpoint 2.1, 0x... in f ()"
# for the first: GCC's DWARF starts the function after its call site's
# NOPs (GDB_FUNCTION_START), so the symbol's own address is a place of
# its own.
BREAKPOINT_HIT = r"Breakpoint \d+(?:\.\d+)?, "
# Where that first place is named by its symbol, gdbtest_init has an
# alias at its address, module_init's init_module, which GDB may name.
INIT_FUNCTION = r".*(?:gdbtest_init|init_module) \(\)"


def expect(out, pattern, what):
    found = [re.search(pattern, line) for line in out]
    found = [f for f in found if f]
    check(found, "%s: expected /%s/, got %s" % (what, pattern, show(out)))
    return found[0]


def step_lx_symbols(ctx):
    g = attach(ctx)

    out = g.command("lx-symbols")
    expect(out, r"^gdbtest: symbols from .*gdbtest\.ko, \.text at 0x[0-9a-f]+ ", "lx-symbols")

    addr = ctx.addr
    start = addr + archs.testdata(ctx.arch).GDB_FUNCTION_START
    out = g.command("info address gdbtest_value")
    m = expect(out, r'Symbol "gdbtest_value" is a function at address (0x[0-9a-f]+)\.',
               "info address gdbtest_value")
    check(int(m.group(1), 16) == start,
          "info address gdbtest_value: GDB says 0x%x, the kernel 0x%x (GDB_FUNCTION_START %d)"
          % (int(m.group(1), 16), addr, start - addr))
    out = g.command("info symbol 0x%x" % addr)
    expect(out, r"^gdbtest_value in section \.text of .*gdbtest\.ko$",
           "info symbol 0x%x" % addr)
    # GDB breaks this answer over several lines: joined into one.
    out = [" ".join(" ".join(g.command("info line gdbtest_value")).split())]
    m = expect(out, r'^Line (\d+) of ".*gdbtest\.c" starts at address (0x[0-9a-f]+) '
               r'<gdbtest_value(\+\d+)?>', "info line gdbtest_value")
    check(int(m.group(2), 16) in range(addr, addr + 64),
          "info line gdbtest_value: line at 0x%s, not in the function at 0x%x"
          % (m.group(2), addr))
    # The module's .data, read from the guest's memory.
    out = g.command("print gdbtest_counter")
    expect(out, r"^\$\d+ = 5$", "print gdbtest_counter")
    out = g.command("lx-lsmod")
    expect(out, r"^gdbtest\s+0x[0-9a-f]+\s+live\s", "lx-lsmod")


def step_lx_symbols_rmmod(ctx):
    g, m = ctx.gdb, ctx.machine
    check(g is not None, "not run: GDB is not attached")
    g.command("break module_unload")
    out = g.command("continue", on_sent=lambda: m.send("rmmod %s\r" % MODULE))
    expect(out, BREAKPOINT_HIT + r"(?:0x[0-9a-f]+ in )?module_unload", "continue (then rmmod typed)")
    g.command("delete")
    # lx-symbols's breakpoint on symtab_remove_module drops the symbols.
    out = g.command("finish")
    expect(out, r"Run till exit from", "finish")
    expect(out, r"^gdbtest: unloaded, its symbols removed$", "finish (module_unload)")
    out = g.command("info symbol 0x%x" % ctx.addr)
    check(not any("gdbtest" in l for l in out),
          "info symbol 0x%x after rmmod: GDB still names the module: %s"
          % (ctx.addr, show(out)))
    out = g.command("lx-symbols")
    expect(out, r"^no modules loaded$", "lx-symbols after rmmod")
    out = g.command("lx-lsmod")
    expect(out, r"^no modules loaded$", "lx-lsmod after rmmod")


def step_break_in_init(ctx):
    g, m = ctx.gdb, ctx.machine
    check(g is not None, "not run: GDB is not attached")
    g.command("set breakpoint pending on")
    out = g.command("break gdbtest_init")
    expect(out, r"pending", "break gdbtest_init (before insmod)")
    # lx-symbols's breakpoint on symtab_add_module loads the symbols
    # before init runs, and the pending breakpoint resolves.
    out = g.command("continue", on_sent=lambda: m.send("insmod %s\r" % MODULE))
    expect(out, r"^gdbtest: symbols from .*gdbtest\.ko", "continue (then insmod typed)")
    expect(out, BREAKPOINT_HIT + INIT_FUNCTION, "continue (then insmod typed)")
    out = g.command("info symbol $pc")
    # init_module is an alias of gdbtest_init: GDB may name either.
    expect(out, r"^(gdbtest_init|init_module)(\s+\+\s+\d+)? in section \.init\.text of .*gdbtest\.ko$",
           "info symbol $pc in init")
    init_pc = int(expect(g.command("print/x $pc"), r"= (0x[0-9a-f]+)", "print/x $pc")
                  .group(1), 16)
    out = g.command("backtrace 8")
    expect(out, r"\bmodule_load\b", "backtrace in init")
    g.command("delete")
    # Once init has returned its memory goes, and the script's breakpoint
    # on symtab_drop_module_init reloads the module without it. (The
    # frames of start_module and load_locked are inlined in module_load:
    # GDB selects the first of them, and `finish` ends in module_load.)
    g.command("frame function module_load")
    out = g.command("finish")
    expect(out, r"Run till exit from", "finish (module_load)")
    expect(out, r"^gdbtest: symbols reloaded from .*gdbtest\.ko", "finish (module_load)")
    out = g.command("info symbol 0x%x" % init_pc)
    check(not any("gdbtest" in l or "init_module" in l for l in out),
          "info symbol 0x%x (freed init code): GDB still names it: %s" % (init_pc, show(out)))
    out = g.command("info symbol 0x%x" % ctx.addr)
    expect(out, r"^gdbtest_value in section \.text", "info symbol 0x%x after init" % ctx.addr)


def step_detach(ctx):
    g, m = ctx.gdb, ctx.machine
    check(g is not None and m is not None, "not run: no machine or no GDB")
    out = g.command("detach")
    expect(out, r"[Dd]etaching", "detach")
    g.attached = False
    g.close()
    ctx.gdb = None
    # The insmod typed while GDB held the guest finishes.
    m.wait_for(r"gdbtest: init 5\n%s\Z" % re.escape(qemu.PROMPT), COMMAND_TIMEOUT)
    out = m.command("lsmod", COMMAND_TIMEOUT)
    check(any(MODULE in l for l in out), "`lsmod` after insmod: %s" % show(out))
    out = m.command("rmmod %s" % MODULE, COMMAND_TIMEOUT)
    check(any("gdbtest: exit" in l for l in out), "`rmmod %s`: %s" % (MODULE, show(out)))


def step_attach_before_boot(ctx):
    """`make debug`'s way: GDB attaches before the first instruction."""
    if ctx.machine is not None:
        ctx.machine.close()
        ctx.machine = None
    ctx.machine = m = start_machine(ctx, halted=True)
    g = attach(ctx)
    out = g.command("lx-symbols")
    expect(out, r"^the kernel is not running yet", "lx-symbols before boot")
    g.command("set breakpoint pending on")
    expect(g.command("break gdbtest_init"), r"pending", "break gdbtest_init (before boot)")

    def type_insmod():
        m.wait_prompt(BOOT_TIMEOUT, echo=False)
        m.send("insmod %s\r" % MODULE)

    out = g.command("continue", timeout=BOOT_TIMEOUT + GDB_TIMEOUT, on_sent=type_insmod)
    expect(out, r"^gdbtest: symbols from .*gdbtest\.ko", "continue (boot, then insmod typed)")
    expect(out, BREAKPOINT_HIT + INIT_FUNCTION, "continue (boot, then insmod typed)")
    out = g.command("print gdbtest_counter")
    expect(out, r"^\$\d+ = 5$", "print gdbtest_counter in init")
    out = g.command("detach")
    expect(out, r"[Dd]etaching", "detach")
    g.attached = False
    g.close()
    ctx.gdb = None
    m.wait_for(r"gdbtest: init 5\n%s\Z" % re.escape(qemu.PROMPT), COMMAND_TIMEOUT)


STEPS = [
    ("insmod", step_insmod),
    ("lx_symbols", step_lx_symbols),
    ("lx_symbols_rmmod", step_lx_symbols_rmmod),
    ("break_in_init", step_break_in_init),
    ("detach", step_detach),
    ("attach_before_boot", step_attach_before_boot),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", default="x86_64", choices=archs.archs())
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda s, f: sys.exit(128 + s))
    signal.signal(signal.SIGHUP, lambda s, f: sys.exit(128 + s))

    ctx = Context(args.arch)
    passed = failed = 0
    broken = None   # the step after which nothing can go on
    try:
        for name, fn in STEPS:
            if broken:
                print("not ok - %s: not run, %s failed" % (name, broken), flush=True)
                failed += 1
                continue
            try:
                fn(ctx)
            except (TestFailure, GdbError, qemu.MachineError,
                    subprocess.TimeoutExpired, OSError) as e:
                print("not ok - %s: %s" % (name, e), flush=True)
                failed += 1
                broken = name
                if ctx.machine is not None:
                    print(ctx.machine.tail_report(20), flush=True)
                if ctx.gdb is not None:
                    info("GDB's last lines:")
                    for line in ctx.gdb.transcript[-20:]:
                        info("| " + line)
            else:
                print("ok - %s" % name, flush=True)
                passed += 1
    finally:
        if ctx.gdb is not None:
            ctx.gdb.close()
        if ctx.machine is not None:
            ctx.machine.close()
        ctx.share.cleanup()
    print("gdb(%s): %d passed, %d failed" % (args.arch, passed, failed), flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
