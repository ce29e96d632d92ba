"""Boot ProbeOS under QEMU and talk to its shell over the serial port.

QEMU is started with the build's command line, the one `make run` boots
(command()). The serial port is wired to QEMU's stdin and stdout
(-serial stdio), so a test types by writing to a pipe and reads the
console from another pipe.
A reader thread moves everything QEMU prints into a small line-based
"screen" (see Screen) so that echoed backspaces, line redraws and colour
escapes from GRUB come out as the text a person would see.

Typical use:

    with Machine("x86_64") as m:
        m.wait_prompt(timeout=60, echo=False)
        print(m.command("uptime"))
        status = m.poweroff()

Every wait has a timeout. Whatever goes wrong (timeout, QEMU exiting, the
kernel printing PANIC), a MachineError is raised and the context manager
kills QEMU; an atexit hook kills any machine still left running.

Only the Python 3 standard library is used.
"""

import atexit
import os
import re
import shlex
import subprocess
import threading
import time
import weakref

import archs

ROOT = archs.ROOT

PROMPT = "probeos> "

# The build's command line (arch/ARCH/arch.mk's QEMU and QEMU_FLAGS, as
# `make run` uses them, read through archs.config) with the serial port
# on QEMU's stdin and stdout and no monitor: a test reads and writes the
# serial port through pipes, and `make run`'s mon:stdio would take a
# Ctrl-A typed by a test as a monitor escape. The build's flags always
# name an accelerator: QEMU never picks KVM, and the tests behave the
# same on a laptop and on a CI runner without /dev/kvm.
SERIAL = ["-serial", "stdio", "-monitor", "none"]


def command(arch, cpus=1, accel=None, crash=None, share=None, share_readonly=False):
    """The QEMU command line that boots arch with cpus CPUs: with more
    than one, each on a host thread of its own (-accel tcg,thread=multi),
    so that they really run at the same time, as on hardware, and races
    can show. accel, if given, replaces the build's accelerator. With
    crash=KIND the kernel's command line has crash=KIND
    (kernel/crash_test.c). With share=DIR the host folder DIR is shared
    over virtio 9p (arch.mk's QEMU_9P_FLAGS), read-only with
    share_readonly (QEMU's readonly=on, next to the security model that
    both architectures' flags name)."""
    config = archs.config(arch, cpus, accel)
    flags = config["QEMU_FLAGS"] if crash is None else \
        config["QEMU_CRASH_FLAGS"].replace("%", crash)
    if share is not None:
        share_flags = config["QEMU_9P_FLAGS"].replace("%", share)
        if share_readonly:
            share_flags = share_flags.replace("security_model=none",
                                              "security_model=none,readonly=on")
        flags += " " + share_flags
    return [config["QEMU"]] + shlex.split(flags) + SERIAL


def boot_files(arch):
    """The files the command line needs, checked before starting QEMU so
    that a missing build gives a clear message instead of a boot timeout."""
    return archs.config(arch)["IMAGE"].split()


def poweroff_status(arch):
    """QEMU's exit status after `poweroff`."""
    return int(archs.config(arch)["POWEROFF_STATUS"])


# Input is typed in small pieces, as a person types: a real UART
# receives one byte at a time. (Machine.paste writes a block at once.)
TYPE_CHUNK = 16
TYPE_DELAY = 0.01


class MachineError(Exception):
    """The machine is in an unknown state and must be killed."""


class Timeout(MachineError):
    pass


class Died(MachineError):
    pass


class Panic(MachineError):
    pass


def default_log_path(arch):
    return os.path.join(ROOT, "build", arch, "boot-test.log")


# An escape sequence: CSI (ESC [ params final), a charset selection
# (ESC ( B), or a two-byte escape. Anything else after ESC is dropped.
_ESCAPE = re.compile(r"\x1b(?:\[([0-9;?]*)[ -/]*([@-~])|[()][0-9A-Za-z]|[@-Z\\-_])")
_ESCAPE_PREFIX = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*|[()])?\Z")


class Screen:
    """A line-based terminal: finished lines plus the line being drawn.

    Carriage return, backspace and the cursor/erase escapes move within
    the current line, so "abc\\b \\b" reads as "ab" and a shell that
    redraws its line with "\\r\\x1b[K" leaves only the new text. There
    is no screen width and no scrolling; lines are never wrapped.
    """

    def __init__(self):
        self.lines = []
        self.cur = []
        self.col = 0
        self.pending = ""  # an escape sequence cut in half by a read

    def current(self):
        return "".join(self.cur)

    def feed(self, text):
        text = self.pending + text
        self.pending = ""
        i = 0
        while i < len(text):
            c = text[i]
            if c == "\x1b":
                m = _ESCAPE.match(text, i)
                if m:
                    self._escape(m.group(1), m.group(2))
                    i = m.end()
                    continue
                if _ESCAPE_PREFIX.match(text, i):
                    self.pending = text[i:]
                    return
            elif c == "\n":
                self.lines.append(self.current())
                self.cur = []
                self.col = 0
            elif c == "\r":
                self.col = 0
            elif c == "\b":
                self.col = max(0, self.col - 1)
            elif c == "\t":
                self._put(" " * (8 - self.col % 8))
            elif c >= " " and c != "\x7f":
                self._put(c)
            i += 1

    def _put(self, s):
        for c in s:
            if self.col < len(self.cur):
                self.cur[self.col] = c
            else:
                self.cur.extend(" " * (self.col - len(self.cur)))
                self.cur.append(c)
            self.col += 1

    def _escape(self, params, final):
        if final is None:
            return  # not a CSI: nothing that changes text
        n = params.split(";")[0] if params else ""
        count = int(n) if n.isdigit() else 0
        if final == "K":
            if count == 0:
                del self.cur[self.col:]
            elif count == 1:
                self.cur[:self.col] = " " * min(self.col, len(self.cur))
            else:
                self.cur = []
        elif final == "D":
            self.col = max(0, self.col - max(count, 1))
        elif final == "C":
            self.col += max(count, 1)
        elif final == "G":
            self.col = max(count, 1) - 1
        elif final in "HfJ":
            # Cursor positioning or clearing the screen (GRUB menus):
            # start a fresh line rather than mixing text.
            if self.cur:
                self.lines.append(self.current())
            self.cur = []
            self.col = 0


_live_machines = weakref.WeakSet()


@atexit.register
def _kill_leftovers():
    for m in list(_live_machines):
        m.kill()


def _printable(text):
    """Show control characters other than newline and tab as \\xNN."""
    out = []
    for c in text:
        if c in "\n\t" or " " <= c < "\x7f":
            out.append(c)
        else:
            out.append("\\x%02x" % ord(c))
    return "".join(out)


class Machine:
    """One QEMU process running ProbeOS.

    `mark` is the index in screen.lines where the current exchange
    started; every wait returns the text since the mark and moves it to
    the line the cursor is on, which is where the next echo will go.
    """

    def __init__(self, arch="x86_64", qemu_cmd=None, root=ROOT,
                 log_path=None, log_title=None, smp=None):
        if arch not in archs.archs():
            raise ValueError("unknown architecture %r (known: %s)" %
                             (arch, ", ".join(archs.archs())))
        self.arch = arch
        self.root = root
        self.smp = smp or 1
        self.cmd = list(qemu_cmd) if qemu_cmd else command(arch, self.smp)
        self.custom_cmd = qemu_cmd is not None
        self.log_path = log_path
        self.log_title = log_title
        self.proc = None
        self.screen = Screen()
        self.raw = []  # every chunk of serial output, decoded
        self.inputs = []  # (seconds since start, bytes) typed
        self.stderr = []
        self.mark = 0
        self.eof = False
        self.panic = None  # the line that said PANIC, once seen
        self._scan_tail = ""  # end of the last chunk, for PANIC split across reads
        self._cond = threading.Condition()
        self._threads = []
        self.started_at = None
        self.exit_status = None
        self._log_saved = False

    # -- starting and stopping ---------------------------------------

    def start(self):
        if not self.custom_cmd:
            for path in boot_files(self.arch):
                if not os.path.exists(os.path.join(self.root, path)):
                    raise Died("%s does not exist (build it first)" % path)
        self.started_at = time.monotonic()
        try:
            self.proc = subprocess.Popen(self.cmd, cwd=self.root,
                                         stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE)
        except OSError as e:
            raise Died("cannot run %s: %s" % (self.cmd[0], e))
        _live_machines.add(self)
        for fn, f in ((self._read_serial, self.proc.stdout),
                      (self._read_stderr, self.proc.stderr)):
            t = threading.Thread(target=fn, args=(f,), daemon=True)
            t.start()
            self._threads.append(t)
        return self

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """Stop QEMU if it is still running. Safe to call twice."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        for t in self._threads:
            t.join(timeout=2)
        self.exit_status = self.proc.returncode
        _live_machines.discard(self)

    def close(self):
        self.kill()
        if self.log_path and self.proc is not None and not self._log_saved:
            self.save_log(self.log_path)

    def __enter__(self):
        if self.proc is None:
            self.start()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()
        if exc is not None and not isinstance(exc, (KeyboardInterrupt, SystemExit)):
            print(self.tail_report())
        return False

    # -- the reader threads ------------------------------------------

    def _read_serial(self, f):
        fd = f.fileno()
        while True:
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            with self._cond:
                if not data:
                    self.eof = True
                    self._cond.notify_all()
                    return
                # latin-1 maps every byte to one character, so
                # nothing the kernel prints can make decoding fail.
                text = data.decode("latin-1")
                self.raw.append(text)
                self.screen.feed(text)
                self._scan_panic(text)
                self._cond.notify_all()

    def _scan_panic(self, text):
        if self.panic is not None:
            return
        window = self._scan_tail + text
        self._scan_tail = window[-8:]
        if "PANIC" in window:
            full = "".join(self.raw)
            at = full.rfind("PANIC")
            start = full.rfind("\n", 0, at) + 1
            end = full.find("\n", at)
            self.panic = full[start:end if end >= 0 else len(full)].strip()

    def _read_stderr(self, f):
        for line in iter(f.readline, b""):
            with self._cond:
                self.stderr.append(line.decode("utf-8", "replace").rstrip())

    # -- waiting -------------------------------------------------------

    def _wait(self, ready, what, timeout):
        """Wait until ready() (called with the lock held) is true.

        Raises Panic as soon as PANIC appears, Died if QEMU exits
        first, Timeout after timeout seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                if self.panic is not None:
                    raise Panic("kernel panic while waiting for %s: %s" %
                                (what, self.panic))
                if ready():
                    return
                if self.eof:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Timeout("no %s within %g s" % (what, timeout))
                self._cond.wait(min(left, 1.0))
        # Outside the lock, so that the stderr reader can finish.
        raise Died("QEMU exited while waiting for %s%s" %
                   (what, self._stderr_note()))

    def _stderr_note(self):
        if self.proc is not None:
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
            self._threads[-1].join(timeout=2)  # the stderr reader
        note = ""
        if self.proc is not None and self.proc.returncode is not None:
            note += " (exit status %d)" % self.proc.returncode
        if self.stderr:
            note += "; QEMU said: " + " | ".join(self.stderr[-5:])
        return note

    def _since_mark(self):
        return self.screen.lines[self.mark:] + [self.screen.current()]

    def wait_for(self, pattern, timeout=20):
        """Wait until pattern (a regex string or compiled regex) matches
        the text since the last exchange. Returns that text up to the
        end of the match; the next exchange starts on the cursor's line.
        """
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        found = []

        def ready():
            text = "\n".join(self._since_mark())
            m = regex.search(text)
            if m:
                found.append(text[:m.end()])
            return m is not None

        self._wait(ready, "output matching %r" % regex.pattern, timeout)
        self.mark = len(self.screen.lines)
        return found[0]

    def wait_text(self, text, timeout=20):
        """wait_for() with a literal string."""
        return self.wait_for(re.escape(text), timeout)

    def wait_prompt(self, timeout=20, echo=True):
        """Wait for the shell prompt at the start of a new line.

        With echo=True the first line since the mark is the line that
        was typed (prompt and echo) and it is left out; the prompt must
        then be on a later line, so the old prompt cannot satisfy the
        wait. Returns the lines printed in between.
        """
        first = self.mark + 1 if echo else self.mark

        def ready():
            return (len(self.screen.lines) >= first and
                    self.screen.current() == PROMPT)

        self._wait(ready, "prompt %r" % PROMPT, timeout)
        out = self.screen.lines[first:]
        self.mark = len(self.screen.lines)
        return out

    # -- typing --------------------------------------------------------

    def send(self, data):
        """Type bytes (or a latin-1 string) into the serial port."""
        self._write(data, TYPE_CHUNK)

    def paste(self, data):
        """Write bytes (or a latin-1 string) into the serial port in one
        write, as a terminal pastes: QEMU then has far more input waiting
        than the kernel's input ring holds, and the kernel must hold the
        rest back (flow control) rather than drop it."""
        self._write(data, None)

    def _write(self, data, chunk):
        """Write data chunk bytes at a time, TYPE_DELAY apart, or all of
        it in one write if chunk is None."""
        if isinstance(data, str):
            data = data.encode("latin-1")
        if not self.alive():
            raise Died("QEMU is not running%s" % self._stderr_note())
        self.inputs.append((time.monotonic() - self.started_at, data))
        chunk = chunk or max(len(data), 1)
        try:
            for i in range(0, len(data), chunk):
                self.proc.stdin.write(data[i:i + chunk])
                self.proc.stdin.flush()
                if i + chunk < len(data):
                    time.sleep(TYPE_DELAY)
        except (BrokenPipeError, OSError) as e:
            raise Died("cannot write to QEMU: %s%s" % (e, self._stderr_note()))

    def command(self, line, timeout=20):
        """Run one shell command; return its output as a list of lines,
        without the echoed command line and the next prompt."""
        self.send(line + "\r")
        return self.wait_prompt(timeout)

    def commands(self, lines, timeout=20):
        """Run several shell commands, pasted in one write (see paste), and
        return a list of each one's output lines, as command() returns
        them. The shell reads and echoes one line at a time, so the
        prompt and echo of each line part its output from the one before;
        a line echoed out of turn fails as a MachineError. timeout is per
        command."""
        start = self.mark
        self.paste("".join(line + "\r" for line in lines))

        def ready():
            got = self.screen.lines[start:]
            echoed = sum(1 for line in got if line.startswith(PROMPT))
            return echoed >= len(lines) and self.screen.current() == PROMPT

        self._wait(ready, "%d prompts after %d pasted commands" % (len(lines), len(lines)),
                   timeout * len(lines))
        got = self.screen.lines[start:]
        self.mark = len(self.screen.lines)
        outputs = []
        for line in got:
            if line.startswith(PROMPT):
                want = PROMPT + lines[len(outputs)]
                if line != want:
                    raise MachineError("pasted commands: expected the echo %r, got %r"
                                       % (want, line))
                outputs.append([])
            elif outputs:
                outputs[-1].append(line)
        return outputs

    def command_amid(self, line, noise, timeout=20):
        """command() on a console where other text may appear at any
        moment, even in the middle of the echo or of a line of output
        (probes that print each hit do that). Every match of the regex
        noise, which must match such text whole, newline included, is cut
        out of the raw serial output (carriage returns dropped) before it
        is split into lines; the Screen is not used. Returns the output
        lines and the pieces of noise cut (their re.Match objects)."""
        with self._cond:
            start = self._last_line_start()
            # The prompt this command ends with comes after the old one,
            # which is on the line the text starts with.
            skip = len(self._raw_from(start))
        self.send(line + "\r")
        found = []
        # Looking for the prompt: in the chunks not yet looked at, after
        # the end of those that were (a prompt may be cut in two by a
        # read). A flood of noise (200,000 printed hits in one command)
        # comes in thousands of chunks, and searching all of the text
        # again for each one took minutes.
        search = {"chunks": len(self.raw), "tail": self._raw_from(start)[skip:],
                  "prompt": False}

        def ready():
            if not search["prompt"]:
                piece = search["tail"] + "".join(self.raw[search["chunks"]:])
                search["chunks"] = len(self.raw)
                search["tail"] = piece[-(len(PROMPT) - 1):]
                search["prompt"] = PROMPT in piece
                if not search["prompt"]:
                    return False
            # Cutting the noise costs more than looking for the prompt:
            # it waits for one.
            text = self._raw_from(start).replace("\r", "")
            kept = noise.sub("", text)
            end = kept.find("\n" + PROMPT)
            if end < 0:
                return False
            # The first line is the old prompt and the echo of line.
            found.append((kept[:end + 1].split("\n")[1:-1], list(noise.finditer(text))))
            return True

        self._wait(ready, "prompt %r after %r (noise cut out)" % (PROMPT, line), timeout)
        self.mark = len(self.screen.lines)
        return found[0]

    def _last_line_start(self):
        """Where the last line of the serial output so far starts, as
        (chunk, offset) in self.raw. Noise (see command_amid) may be half
        printed; its start is at the start of a line or after the prompt."""
        for chunk in range(len(self.raw) - 1, -1, -1):
            at = self.raw[chunk].rfind("\n")
            if at >= 0:
                return chunk, at + 1
        return 0, 0

    def _raw_from(self, start):
        chunk, offset = start
        return "".join(self.raw[chunk:])[offset:]

    def poweroff(self, timeout=10):
        """Type `poweroff` and wait for QEMU to exit; return its status."""
        self.send("poweroff\r")
        try:
            status = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Timeout("QEMU still running %g s after poweroff" % timeout)
        for t in self._threads:
            t.join(timeout=2)
        if self.panic is not None:
            raise Panic("kernel panic during poweroff: %s" % self.panic)
        self.exit_status = status
        return status

    # -- transcript ----------------------------------------------------

    def boot_seconds(self):
        return time.monotonic() - self.started_at

    def tail(self, n=40):
        """The last n lines of the console as a person would see them."""
        with self._cond:
            lines = self.screen.lines + [self.screen.current()]
        if lines and lines[-1] == "":
            lines.pop()
        return lines[-n:]

    def tail_report(self, n=40, prefix="# "):
        lines = ["%sLast %d console lines (%s):" % (prefix, n, self.arch)]
        lines += [prefix + "| " + _printable(line) for line in self.tail(n)]
        if self.stderr:
            lines.append(prefix + "QEMU stderr:")
            lines += [prefix + "| " + line for line in self.stderr[-10:]]
        if self.log_path:
            path = os.path.abspath(self.log_path)
            if path.startswith(os.getcwd() + os.sep):
                path = os.path.relpath(path)
            lines.append(prefix + "Full transcript: %s" % path)
        return "\n".join(lines)

    def save_log(self, path, append=True):
        """Write the raw serial output (control characters shown as
        \\xNN, CR dropped), what was typed, and QEMU's stderr."""
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with self._cond:
            raw = "".join(self.raw)
            inputs = list(self.inputs)
            stderr = list(self.stderr)
        with open(path, "a" if append else "w", encoding="utf-8") as f:
            title = self.log_title or "boot"
            f.write("===== %s: %s\n" % (title, shlex.join(self.cmd)))
            f.write(_printable(raw.replace("\r", "")))
            if not raw.endswith("\n"):
                f.write("\n")
            f.write("----- typed (seconds after start, bytes):\n")
            for when, data in inputs:
                f.write("%8.3f %r\n" % (when, data))
            if stderr:
                f.write("----- QEMU stderr:\n")
                f.write("\n".join(stderr) + "\n")
            status = self.proc.returncode if self.proc else None
            f.write("----- QEMU exit status: %s\n\n" % status)
        self._log_saved = True
