#!/usr/bin/env python3
"""Boot ProbeOS under QEMU and check its shell, command by command.

The kernel is booted once and every test talks to the same machine, in
the order of TESTS below; `poweroff` comes last because it ends the
machine. If a test leaves the machine in an unknown state (a timeout,
QEMU exiting, a kernel PANIC), the machine is killed and the next test
boots a fresh one.

The machine has 4 CPUs (qemu.command: -smp 4, each CPU on its own host
thread, so that they really run at once), or --smp N of them. What the
tests expect of one architecture only is in arch/ARCH/testdata.py.

Each test prints `ok - NAME` or `not ok - NAME: reason`, and the last line
is `boot(ARCH): N passed, N failed`. The full serial transcript of every
boot goes to build/ARCH/boot-test.log.

    python3 tests/boot/boot_tests.py                    # all tests, x86_64
    python3 tests/boot/boot_tests.py --test sym         # boot, then one test
    python3 tests/boot/boot_tests.py --list
    python3 tests/boot/boot_tests.py --smp 1            # UP_TESTS on one CPU
    python3 tests/boot/boot_tests.py --group long       # LONG_TESTS alone

With --smp 1 the machine has one CPU (-accel tcg), only UP_TESTS run
unless --test names others, and the last line is `up(ARCH): N passed, N
failed, N skipped`.

--group splits the tests as make test runs them, in parts of their own
(tests/run_tests.py): `long` runs LONG_TESTS, the few that keep four
CPUs busy for minutes (last line `boot-long(ARCH): ...`), `selftest`
the kernel's selftests (`boot-selftest(ARCH): ...`), which must not run
beside those, and `main` all the others.

Only the Python 3 standard library is used.
"""

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import archs  # noqa: E402
import mksymtab  # noqa: E402  (which of nm's symbols the kernel's table keeps)
import qemu  # noqa: E402
from checks import (TestFailure, answers_and_heap_is_back, check, heap_is_back, info,  # noqa: E402
                    settled_heap_usage, show)

BOOT_TIMEOUT = 60       # TCG without KVM is slow on CI runners
COMMAND_TIMEOUT = 20
# Every suite, the two stress suites (each probing all of lib/ and the
# VFS) on 4 CPUs included: 140 s (x86_64) on an idle 2-core host, but
# 450-580 s seen while the other architecture's boot tests ran beside
# them, so a hang guard with room for a loaded host.
SELFTEST_TIMEOUT = 1200
POWEROFF_TIMEOUT = 10

HELP_COMMANDS = ["help", "ls", "cat", "rm", "mount", "umount", "sym", "ps", "mem", "uptime",
                 "worker", "selftest", "cpus", "dmesg", "poweroff", "echo", "sysctl",
                 "cd", "pwd", "mkdir", "grep", "head", "tail", "wc", "sort", "uniq", "seq",
                 "true", "false"]

UPTIME = re.compile(r"up (\d+)\.\d\d s \((\d+) ticks, (\d+) cycles\)")


def words(lines):
    return [w for line in lines for w in line.split()]


def lines_with_word(lines, word):
    return [line for line in lines if word in line.split()]


def expect_one_line(out, text, cmd):
    """The output is exactly one line and it contains text."""
    check(len(out) == 1 and text in out[0],
          "`%s`: expected one line containing %r, got %s" % (cmd, text, show(out)))


def expect_exact(out, line, cmd):
    check(out == [line], "`%s`: expected exactly %r, got %s" % (cmd, line, show(out)))


def parse_uptime(out, cmd="uptime", group=2):
    """The ticks (or, with group=3, the cycle counter) of an `uptime`."""
    for line in out:
        m = UPTIME.search(line)
        if m:
            return int(m.group(group))
    raise TestFailure("`%s`: expected a line like 'up 1.23 s (123 ticks, 4567 cycles)', got %s"
                      % (cmd, show(out)))


# -- the tests, in the order they run ---------------------------------
#
# A test gets a Machine sitting at the prompt and must leave it there.

TESTS = []
# Tests that apply to some architectures only, with the reason.
ONLY_ON = {}

def test(name, only_on=None):
    def register(fn):
        TESTS.append((name, fn))
        if only_on is not None:
            ONLY_ON[name] = only_on
        return fn
    return register


def archs_where(name):
    """The architectures whose testdata.py sets name to a true value."""
    return [arch for arch in archs.archs() if getattr(archs.testdata(arch), name)]


@test("boot")
def test_boot(m):
    # The harness has already booted the machine; this test only reports.
    info("boot took %.1f s to reach the prompt (information only)" % m.boot_time)


def check_help_output(out, cmd):
    problems = []
    indented = []
    for name in HELP_COMMANDS:
        found = [line for line in out if line.split()[:1] == [name]]
        if len(found) != 1:
            problems.append("%d lines for %r" % (len(found), name))
        elif not found[0].startswith(name):
            indented.append(found[0])
    if indented:
        problems.append("%d of the lines are indented, e.g. %r"
                        % (len(indented), indented[0]))
    check(not problems, "`%s`: expected one line starting with each command name: %s"
          % (cmd, "; ".join(problems)))


@test("help")
def test_help(m):
    out = m.command("help")
    check_help_output(out, "help")
    # The optimizer's switch is listed with the probe command.
    probe = [line for line in out if line.split()[:1] == ["probe"]]
    check(len(probe) == 1 and "optimize on|off" in probe[0],
          "`help`: expected one `probe` line naming `optimize on|off`, got %r" % probe)


@test("ls")
def test_ls(m):
    out = m.command("ls /")
    check("etc/" in words(out), "`ls /`: expected an entry 'etc/', got %s" % show(out))
    out = m.command("ls /etc")
    check("motd" in words(out), "`ls /etc`: expected an entry 'motd', got %s" % show(out))
    expect_one_line(m.command("ls /nope"), "No such file or directory", "ls /nope")


@test("cat")
def test_cat(m):
    out = m.command("cat /etc/motd")
    check(any("ProbeOS" in line for line in out),
          "`cat /etc/motd`: expected 'ProbeOS' in the output, got %s" % show(out))
    expect_one_line(m.command("cat /nope"), "No such file or directory", "cat /nope")
    expect_one_line(m.command("cat /etc"), "Is a directory", "cat /etc")
    # No FILE: standard input, which is empty with no pipe before cat.
    expect_lines_exactly(m, "cat", [])
    host = m.command("cat /etc/hostname")
    check(len(host) == 1, "`cat /etc/hostname`: expected one line, got %s" % show(host))
    expect_lines_exactly(m, "cat /etc/hostname /etc/hostname", host * 2)
    expect_lines_exactly(m, "cat /etc/hostname /nope /etc/hostname",
                         host + ["cat: /nope: No such file or directory"] + host)
    expect_lines_exactly(m, "seq 3 | cat", ["1", "2", "3"])


@test("standard_error")
def test_standard_error(m):
    """A command's error lines go to standard error, which stays on the
    console when its output goes down a pipe or into a file."""
    expect_lines_exactly(m, "cat /nonexistent | wc -l",
                         ["cat: /nonexistent: No such file or directory", "0"])
    expect_lines_exactly(m, "ls /nope | wc -l",
                         ["ls: cannot access '/nope': No such file or directory", "0"])
    expect_lines_exactly(m, "grep | wc -l",
                         ["grep: usage: grep [-cEivw] [-e PATTERN | PATTERN] [FILE]...", "0"])
    expect_lines_exactly(m, "nosuch | wc -l", ["unknown command: nosuch (try help)"])
    # time's real line goes to standard error, as bash's does.
    out = m.command("time seq 3 | wc -l")
    check(len(out) == 3 and out[0] == "" and out[1].split()[:1] == ["real"] and out[2] == "3",
          "`time seq 3 | wc -l`: expected the real line, then 3, got %s" % show(out))
    expect_lines_exactly(m, "ls /nope > /home/student/err.txt",
                         ["ls: cannot access '/nope': No such file or directory"])
    expect_lines_exactly(m, "wc -c /home/student/err.txt", ["0 /home/student/err.txt"])
    # dmesg prints the kernel's messages as its own output: they go down
    # the pipe.
    out = m.command("dmesg | wc -l")
    check(len(out) == 1 and out[0].isdigit() and int(out[0]) > 0,
          "`dmesg | wc -l`: expected one count, got %s" % show(out))


@test("rm")
def test_rm(m):
    """rm removes a file, and says in Linux's words why one cannot be."""
    path = "/home/student/todo.txt"
    out = m.command("rm " + path)
    check(out == [], "`rm %s`: expected no output, got %s" % (path, show(out)))
    expect_one_line(m.command("cat " + path), "No such file or directory", "cat after rm")
    for cmd, want in [
            ("rm " + path, "rm: cannot remove '%s': No such file or directory" % path),
            ("rm /etc", "rm: cannot remove '/etc': Is a directory"),
            ("rm /etc/motd/x", "rm: cannot remove '/etc/motd/x': Not a directory"),
            ("rm", "rm: usage: rm PATH...")]:
        expect_exact(m.command(cmd), want, cmd)
    out = m.command("ls /home/student")
    check(not any(line.split()[:1] == ["todo.txt"] for line in out),
          "`ls /home/student` after rm: todo.txt still listed in %s" % show(out))


# What the boot mounts, as `mount` and /proc/mounts show it: the root
# first, then the pseudo filesystems where Linux has them (kernel/main.c).
BOOT_MOUNTS = ["rootfs / ramfs rw 0 0",
               "proc /proc proc rw 0 0",
               "sysfs /sys sysfs rw 0 0",
               "debugfs /sys/kernel/debug debugfs rw 0 0",
               "tracefs /sys/kernel/tracing tracefs rw 0 0",
               "tracefs /sys/kernel/debug/tracing tracefs rw 0 0"]


@test("mount")
def test_mount(m):
    """`mount` lists the mounts in /proc/mounts' format. The Kprobes
    guide's `mount -t debugfs none /sys/kernel/debug` succeeds (on top of
    the boot's, as on Linux) and debugfs's files stay; `umount` takes it
    away again. Mistakes get one line each."""
    expect_lines_exactly(m, "mount", BOOT_MOUNTS)
    expect_lines_exactly(m, "cat /proc/mounts", BOOT_MOUNTS)
    before = m.command("ls /sys/kernel/debug")
    check("tracing/" in words(before), "`ls /sys/kernel/debug`: expected 'tracing/', got %s"
          % show(before))
    expect_lines_exactly(m, "mount -t debugfs none /sys/kernel/debug", [])
    expect_lines_exactly(m, "mount", BOOT_MOUNTS + ["none /sys/kernel/debug debugfs rw 0 0"])
    expect_lines_exactly(m, "ls /sys/kernel/debug", before)
    expect_lines_exactly(m, "umount /sys/kernel/debug", [])
    expect_lines_exactly(m, "mount", BOOT_MOUNTS)
    for cmd, want in [
            ("mount -t nofs none /proc", "mount: unknown filesystem type 'nofs'"),
            ("mount -t proc none /nope", "mount: /nope: No such file or directory"),
            ("mount -t proc none /etc/motd", "mount: /etc/motd: Not a directory"),
            ("mount -t debugfs", "mount: usage: mount [-t TYPE SOURCE DIR]"),
            ("umount /etc", "umount: /etc: not mounted"),
            ("umount /sys", "umount: /sys: something is mounted below it")]:
        expect_exact(m.command(cmd), want, cmd)
    expect_lines_exactly(m, "mount", BOOT_MOUNTS)


def expect_lines_exactly(m, cmd, want):
    out = m.command(cmd)
    check(out == want, "`%s`: expected %s, got %s" % (cmd, show(want, 10), show(out, 10)))


def expect_pwd(m, want):
    expect_exact(m.command("pwd"), want, "pwd (expected %s)" % want)


@test("cd_pwd")
def test_cd_pwd(m):
    """cd and pwd; relative paths, "." and ".." in every command, ".."
    across a mount point back into the filesystem below, and ".." of
    "/" staying at "/"."""
    expect_pwd(m, "/")
    motd = m.command("cat /etc/motd")
    check(motd and "ProbeOS" in motd[0], "`cat /etc/motd`: %s" % show(motd))
    expect_lines_exactly(m, "cat /etc/../etc/motd", motd)
    expect_lines_exactly(m, "cat /./etc//./motd", motd)
    for typed, want in [("cd /sys/kernel/tracing", "/sys/kernel/tracing"),
                        ("cd ..", "/sys/kernel"),
                        ("cd debug/tracing", "/sys/kernel/debug/tracing"),
                        ("cd ..", "/sys/kernel/debug"),
                        ("cd ../../..", "/"),
                        ("cd ..", "/"),
                        ("cd /proc/sys/..", "/proc"),
                        ("cd", "/home/student"),
                        ("cd ./projects//probes/", "/home/student/projects/probes")]:
        expect_lines_exactly(m, typed, [])
        expect_pwd(m, want)
    expect_lines_exactly(m, "cd /etc", [])
    expect_lines_exactly(m, "cat motd", motd)
    expect_lines_exactly(m, "cat ../etc/motd", motd)
    expect_lines_exactly(m, "ls", m.command("ls /etc"))
    expect_lines_exactly(m, "ls .", m.command("ls /etc"))
    expect_lines_exactly(m, "ls ..", m.command("ls /"))
    motd_size = int(m.command("ls /etc/motd")[0].split()[-1])
    expect_lines_exactly(m, "ls -l motd", ["- %d motd" % motd_size])
    expect_lines_exactly(m, "cd /", [])
    expect_lines_exactly(m, "ls", m.command("ls /"))


@test("cd_errors")
def test_cd_errors(m):
    """cd to a file or a missing directory: bash's one line, the working
    directory unchanged, the kernel alive and its memory as it was."""
    expect_lines_exactly(m, "cd /etc", [])
    before = settled_heap_usage(m)
    for typed, want in [("cd /etc/motd", "cd: /etc/motd: Not a directory"),
                        ("cd motd", "cd: motd: Not a directory"),
                        ("cd /nope", "cd: /nope: No such file or directory"),
                        ("cd nope/..", "cd: nope/..: No such file or directory"),
                        ("cd motd/..", "cd: motd/..: Not a directory"),
                        ("cd / /etc", "cd: too many arguments"),
                        ("pwd x", "pwd: usage: pwd")]:
        expect_exact(m.command(typed), want, typed)
        expect_pwd(m, "/etc")
    after = settled_heap_usage(m)
    check(after == before, "`mem` before the refused cds: %s; after: %s" % (before, after))
    parse_uptime(m.command("uptime"), "uptime after the refused cds")
    expect_lines_exactly(m, "cd /", [])


@test("mkdir_ls_l")
def test_mkdir_ls_l(m):
    """mkdir [-p], relative paths for rm and for redirections, ls -l's
    long listing, and what the pseudo filesystems refuse."""
    expect_lines_exactly(m, "cd /home/student", [])
    expect_lines_exactly(m, "mkdir -p cwd-test/a/b", [])
    expect_lines_exactly(m, "mkdir -p cwd-test/a/b /home/student/cwd-test/c", [])
    expect_lines_exactly(m, "cd cwd-test/a", [])
    expect_lines_exactly(m, "echo hello > b/../f.txt", [])
    expect_lines_exactly(m, "cat /home/student/cwd-test/a/f.txt", ["hello"])
    expect_lines_exactly(m, "ls -l", ["d 0 b", "- 6 f.txt"])
    expect_lines_exactly(m, "ls -l .. f.txt", ["- 6 f.txt", "", "..:", "d 0 a", "d 0 c"])
    expect_lines_exactly(m, "ls ..", ["a/", "c/"])
    motd_size = int(m.command("ls /etc/motd")[0].split()[-1])
    expect_lines_exactly(m, "ls -l /etc", ["-   8 hostname", "- %3d motd" % motd_size])
    expect_lines_exactly(m, "ls -l /nope", ["ls: cannot access '/nope': No such file or directory"])
    expect_lines_exactly(m, "ls -x", ["ls: invalid option -- 'x'"])
    for typed, want in [
            ("mkdir b", "mkdir: cannot create directory 'b': File exists"),
            ("mkdir f.txt", "mkdir: cannot create directory 'f.txt': File exists"),
            ("mkdir -p f.txt", "mkdir: cannot create directory 'f.txt': File exists"),
            ("mkdir f.txt/x", "mkdir: cannot create directory 'f.txt/x': Not a directory"),
            ("mkdir -p f.txt/x/y", "mkdir: cannot create directory 'f.txt/x': Not a directory"),
            ("mkdir nope/x", "mkdir: cannot create directory 'nope/x': No such file or directory"),
            ("mkdir .", "mkdir: cannot create directory '.': File exists"),
            ("mkdir /proc/x", "mkdir: cannot create directory '/proc/x': Operation not permitted"),
            ("mkdir /proc/sys", "mkdir: cannot create directory '/proc/sys': File exists"),
            ("mkdir -p /sys/kernel/debug/x/y",
             "mkdir: cannot create directory '/sys/kernel/debug/x': Operation not permitted"),
            ("mkdir", "mkdir: usage: mkdir [-p] DIR...")]:
        expect_exact(m.command(typed), want, typed)
    expect_lines_exactly(m, "rm ../a/f.txt", [])
    expect_lines_exactly(m, "ls", ["b/"])
    expect_lines_exactly(m, "rm .", ["rm: cannot remove '.': Is a directory"])
    expect_lines_exactly(m, "cd /", [])


def answers_with_heap_back(m, before, what):
    """After hostile input: the kernel still answers `uptime`, and its
    heap holds what it held before."""
    parse_uptime(m.command("uptime"), "uptime after " + what)
    heap_is_back(m, before, what)


@test("trailing_slash")
def test_trailing_slash(m):
    """A slash after a file's name says it is a directory: every command
    refuses it with Linux's `Not a directory` (the file is neither
    printed, overwritten nor removed), on ramfs, /proc and /sys; a
    directory's name with one works, and so does `mkdir DIR/`."""
    expect_lines_exactly(m, "mkdir /home/student/slash.d/", [])
    expect_lines_exactly(m, "mkdir -p /home/student/slash.d/a/b/", [])
    before = settled_heap_usage(m)  # with the directories, which stay
    hostname = m.command("cat /etc/hostname")
    for typed, want in [
            ("cat /etc/hostname/", "cat: /etc/hostname/: Not a directory"),
            ("cat /etc/hostname//", "cat: /etc/hostname//: Not a directory"),
            ("echo x > /etc/hostname/", "shell: /etc/hostname/: Not a directory"),
            ("echo x >> /etc/hostname/", "shell: /etc/hostname/: Not a directory"),
            ("rm /etc/hostname/", "rm: cannot remove '/etc/hostname/': Not a directory"),
            ("cd /etc/hostname/", "cd: /etc/hostname/: Not a directory"),
            ("ls /etc/hostname/", "ls: cannot access '/etc/hostname/': Not a directory"),
            ("ls -l /etc/hostname/", "ls: cannot access '/etc/hostname/': Not a directory"),
            ("mkdir /etc/hostname/", "mkdir: cannot create directory '/etc/hostname/': File exists"),
            ("insmod /etc/hostname/", "insmod: /etc/hostname/: Not a directory"),
            ("cat /proc/version/", "cat: /proc/version/: Not a directory"),
            ("echo 1 > /proc/version/", "shell: /proc/version/: Not a directory"),
            ("ls /proc/uptime/", "ls: cannot access '/proc/uptime/': Not a directory"),
            ("rm /nope/", "rm: cannot remove '/nope/': No such file or directory"),
            ("rm /etc/", "rm: cannot remove '/etc/': Is a directory"),
            ("echo x > /etc/new/", "shell: /etc/new/: Is a directory")]:
        expect_exact(m.command(typed), want, typed)
    expect_lines_exactly(m, "cat /etc/hostname", hostname)
    expect_exact(m.command("ls /etc/new"),
                 "ls: cannot access '/etc/new': No such file or directory", "ls /etc/new")
    path = "/sys/kernel/debug/kprobes/enabled"
    enabled = m.command("cat " + path)
    for typed, want in [("cat %s/" % path, "cat: %s/: Not a directory" % path),
                        ("echo 0 > %s/" % path, "shell: %s/: Not a directory" % path)]:
        expect_exact(m.command(typed), want, typed)
    expect_lines_exactly(m, "cat " + path, enabled)
    # A directory's name with a slash after it is the directory.
    expect_lines_exactly(m, "ls /etc/", m.command("ls /etc"))
    expect_lines_exactly(m, "ls /proc//", m.command("ls /proc"))
    expect_lines_exactly(m, "ls -l /sys/kernel/", m.command("ls -l /sys/kernel"))
    expect_lines_exactly(m, "cd /home/student/slash.d/a/", [])
    expect_pwd(m, "/home/student/slash.d/a")
    expect_lines_exactly(m, "echo in > b/../f", [])
    expect_lines_exactly(m, "ls -l ./", ["d 0 b", "- 3 f"])
    expect_lines_exactly(m, "rm f", [])
    expect_lines_exactly(m, "cd /", [])
    answers_with_heap_back(m, before, "paths with slashes at the end")


@test("ls_many_args")
def test_ls_many_args(m):
    """`ls` of 400 paths looks each up once (looking every path up again
    for each line made the listing quadratic in its arguments); a Ctrl-C
    stops a long listing at its next entry."""
    before = settled_heap_usage(m)
    n = 400
    expect_lines_exactly(m, "cd /etc", [])
    start = time.monotonic()
    out = m.command("ls" + " hostname" * n, 120)
    took = time.monotonic() - start
    check(out == ["hostname  8"] * n, "`ls` of %d files: got %s" % (n, show(out)))
    info("ls of %d paths: %.1f s of wall time" % (n, took))
    check(took < 10, "`ls` of %d paths took %.1f s" % (n, took))
    out = m.command("ls /etc /nope /etc/motd /etc")
    check(out[:1] == ["ls: cannot access '/nope': No such file or directory"]
          and out[1:2] and out[1].startswith("/etc/motd ") and out.count("/etc:") == 2,
          "`ls /etc /nope /etc/motd /etc`: got %s" % show(out, 10))
    # 800 listings of /proc, each several lines (as many as a line of
    # SHELL_MAX_LINE holds): Ctrl-C after the first. It must stop the
    # listing before the end; how soon depends on when the host, loaded,
    # sends it (CI once saw 389 listings go by first).
    many = 2 * n
    expect_lines_exactly(m, "cd /", [])
    out = interrupt(m, "ls" + " proc" * many, r"proc:\r?\n")
    listings = out.count("proc:")
    check(out[-1:] == ["^C"] and listings < many,
          "Ctrl-C in `ls /proc` * %d: expected ^C before the end, got %d listings, then %s"
          % (many, listings, show(out[-3:])))
    info("Ctrl-C stopped `ls` after %d of %d listings" % (listings, many))
    answers_with_heap_back(m, before, "ls of many paths")


@test("cat_input_is_output")
def test_cat_input_is_output(m):
    """`cat F >> F` and `grep X F >> F` are refused as GNU's refuse them
    (they would grow F without end), on standard error; `cat F > F`
    empties F first and passes, as does an empty F; the other text tools
    do not refuse."""
    before = settled_heap_usage(m)
    path = TOOLS_DIR + "/self.txt"
    write_lines(m, path, ["one", "two"])
    # The refusal goes to standard error, the console; F is unchanged.
    refused = "cat: %s: input file is output file" % path
    expect_lines_exactly(m, "cat %s >> %s" % (path, path), [refused])
    expect_lines_exactly(m, "cat " + path, ["one", "two"])
    expect_lines_exactly(m, "cd " + TOOLS_DIR, [])
    write_lines(m, "self.txt", ["one", "two"])
    expect_lines_exactly(m, "cat ./self.txt >> %s//self.txt" % TOOLS_DIR,
                         ["cat: ./self.txt: input file is output file"])
    expect_lines_exactly(m, "cat self.txt", ["one", "two"])
    expect_lines_exactly(m, "grep o self.txt >> self.txt",
                         ["grep: self.txt: input file is also the output"])
    expect_lines_exactly(m, "cat self.txt", ["one", "two"])
    write_lines(m, "self.txt", ["one", "two"])
    expect_lines_exactly(m, "head -1 self.txt >> self.txt", [])
    expect_lines_exactly(m, "cat self.txt", ["one", "two", "one"])
    expect_lines_exactly(m, "cat self.txt > self.txt", [])
    expect_lines_exactly(m, "ls -l self.txt", ["- 0 self.txt"])
    expect_lines_exactly(m, "cat self.txt >> self.txt", [])
    expect_lines_exactly(m, "rm self.txt", [])
    expect_lines_exactly(m, "cd /", [])
    answers_with_heap_back(m, before, "cat F >> F")


@test("cwd_removed")
def test_cwd_removed(m):
    """A module loaded by a relative path; the working directory in its
    debugfs directory when it goes: pwd says it is deleted, ls finds
    nothing, cd .. leads back out."""
    expect_lines_exactly(m, "cd /lib/modules", [])
    out = m.command("insmod ./mod_debugfs.ko")
    check(out == ["mod_debugfs: made /sys/kernel/debug/mod_debugfs"],
          "`insmod ./mod_debugfs.ko` in /lib/modules: %s" % show(out))
    expect_lines_exactly(m, "cd /sys/kernel/debug/mod_debugfs", [])
    expect_lines_exactly(m, "ls", ["message  0", "stats    0"])
    expect_lines_exactly(m, "rmmod mod_debugfs", ["mod_debugfs: removed the files"])
    expect_pwd(m, "/sys/kernel/debug/mod_debugfs (deleted)")
    expect_lines_exactly(m, "ls", [])
    expect_lines_exactly(m, "cat message", ["cat: message: No such file or directory"])
    expect_lines_exactly(m, "cd ..", [])
    expect_pwd(m, "/sys/kernel/debug")
    expect_lines_exactly(m, "cd /", [])


@test("help_cmd")
def test_help_cmd(m):
    """help CMD: the command's synopsis and its description; an unknown
    one is one line."""
    expect_lines_exactly(m, "help cd", [
        "cd: cd [DIR]", "    change the working directory (no DIR: /home/student, or /)"])
    expect_lines_exactly(m, "help pwd", ["pwd: pwd", "    print the working directory"])
    expect_lines_exactly(m, "help nosuch", ["help: no such command: nosuch"])
    # A command of several forms: help prints them all, and so does a
    # wrong use, on standard error.
    forms = ["add [-r [maxactive=N] | -j | -a] [-p] SYMBOL[+OFFSET]", "list", "on|off [TARGET]",
             "optimize on|off", "del TARGET|all", "show [TARGET]"]
    expect_lines_exactly(m, "help probe",
                         ["probe: probe " + forms[0]] + ["       probe " + f for f in forms[1:]]
                         + ["    kprobes, jprobes, kretprobes; optimize on|off"])
    expect_lines_exactly(m, "probe frob | wc -l",
                         ["probe: usage: probe " + forms[0]]
                         + ["              probe " + f for f in forms[1:]] + ["0"])
    out = m.command("help ls mkdir")
    check(len(out) == 4 and out[0] == "ls: ls [-l] [PATH...]" and out[1].startswith("    list ")
          and out[2] == "mkdir: mkdir [-p] DIR..." and out[3].startswith("    make "),
          "`help ls mkdir`: %s" % show(out))


@test("ls_proc_sys")
def test_ls_proc_sys(m):
    """/proc and /sys are there at boot, with Linux's directories; a
    generated file's size is 0, as on Linux."""
    for path, want in [("/", ["proc/", "sys/"]),
                       ("/proc", ["mounts", "sys/", "version", "kallsyms", "modules", "uptime",
                                  "meminfo", "cpuinfo", "interrupts"]),
                       ("/sys", ["kernel/", "module/"]),
                       ("/sys/kernel", ["debug/", "tracing/"]),
                       ("/sys/kernel/debug", ["tracing/"])]:
        out = m.command("ls " + path)
        check(set(want) <= set(words(out)), "`ls %s`: expected %s among %s"
              % (path, ", ".join(want), show(out, 10)))
    out = m.command("ls /proc/version")
    expect_exact(out, "/proc/version  0", "ls /proc/version")


@test("cat_proc_version")
def test_cat_proc_version(m):
    out = m.command("cat /proc/version")
    pattern = r"^ProbeOS version probeos-[0-9a-f]{12} \(gcc version \S+.*\) #1 SMP PREEMPT %s$" \
        % m.arch
    check(len(out) == 1 and re.match(pattern, out[0]),
          "`cat /proc/version`: expected one line matching %r, got %s" % (pattern, show(out)))
    out = m.command("rm /proc/version")
    expect_exact(out, "rm: cannot remove '/proc/version': Operation not permitted",
                 "rm /proc/version")


def kallsyms_line(addr, letter, name):
    """A line of /proc/kallsyms for one of the kernel's own symbols."""
    return "%016x %s %s" % (addr, letter, name)


@test("proc_kallsyms")
def test_proc_kallsyms(m):
    """/proc/kallsyms has every symbol of the kernel's table, in its
    order, each as Linux prints it (`ADDRESS TYPE NAME`): exactly the
    lines nm's view of the ELF gives, through mksymtab's selection rule.
    Thousands of lines, so `cat`'s small reads go through many fills of
    seq_file's buffer. (A module's lines are module_kallsyms's.)"""
    elf = os.path.join("build", m.arch, "probeos.elf")
    nm = archs.binutils(m.arch, "NM", "-n", "-S", "--defined-only", elf)
    want = [kallsyms_line(addr, letter, name)
            for addr, _, letter, name in mksymtab.parse_nm(nm.splitlines())]
    out = m.command("cat /proc/kallsyms", 120)
    differ = next((i for i, (a, b) in enumerate(zip(out, want)) if a != b),
                  min(len(out), len(want)))
    check(out == want, "`cat /proc/kallsyms`: %d lines, nm gives %d; first difference at"
          " line %d: %r, nm: %r" % (len(out), len(want), differ + 1,
                                    out[differ] if differ < len(out) else None,
                                    want[differ] if differ < len(want) else None))


def files_under(m, top):
    """Every file below the directory top, from `ls` (directories end in
    a slash), depth first."""
    found = []
    for line in m.command("ls " + top):
        name = line.split()[0] if line.split() else ""
        if not name:
            continue
        path = top.rstrip("/") + "/" + name.rstrip("/")
        if name.endswith("/"):
            if path != "/sys/kernel/debug/tracing":     # tracefs again, mounted twice
                found += files_under(m, path)
        elif path not in WRITE_ONLY and name not in WAITING:
            found.append(path)
    return found


# Files that only take writes, as on Linux (opening one to read is
# refused here, as pseudofs refuses what a file cannot do).
WRITE_ONLY = {"/sys/kernel/tracing/trace_marker"}
# The names of files whose read waits for what is to come
# (proc_sys_under_load's reads would wait for ever): tracefs's trace_pipe
# and each per_cpu/cpuN/trace_pipe.
WAITING = {"trace_pipe"}


TRACING = "/sys/kernel/tracing"
TRACE_BUFFER_KB = 64  # each CPU's ring at boot (kernel/trace/trace.c)
# Linux 6.1's header of `trace` after the counts line, with irq-info on.
TRACE_LEGEND = [
    "#",
    "#                                _-----=> irqs-off/BH-disabled",
    "#                               / _----=> need-resched",
    "#                              | / _---=> hardirq/softirq",
    "#                              || / _--=> preempt-depth",
    "#                              ||| / _-=> migrate-disable",
    "#                              |||| /     delay",
    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION",
    "#              | |         |   |||||     |         |",
]
MARKER_LINE = re.compile(r"^ *(\S+)-(\d+) +\[(\d{3})\] [d.][.][h.][0-9a-f.][.] +\d+\.\d{6}: "
                         r"tracing_mark_write: (.*)$")


def trace_records(m, cpus, tracer="nop"):
    """`cat trace`: check its header, Linux's, and return the count of
    records it states and its record lines."""
    out = m.command("cat %s/trace" % TRACING)
    check(len(out) >= 12 and out[0] == "# tracer: " + tracer and out[1] == "#",
          "`cat trace`: expected Linux's header, tracer %s, got %s" % (tracer, show(out[:3])))
    counts = re.match(r"^# entries-in-buffer/entries-written: (\d+)/(\d+)   #P:(\d+)$", out[2])
    check(counts is not None and int(counts.group(3)) == cpus,
          "`cat trace`: expected the counts line with #P:%d, got %r" % (cpus, out[2]))
    check(out[3:12] == TRACE_LEGEND, "`cat trace`: expected Linux's legend, got %s" % show(out[3:12]))
    check(int(counts.group(1)) == len(out) - 12,
          "`cat trace`: %s records counted, %d shown" % (counts.group(1), len(out) - 12))
    return int(counts.group(2)), out[12:]


@test("tracefs_files")
def test_tracefs_files(m):
    """The ring buffer's files in /sys/kernel/tracing, in Linux's
    formats: `echo > trace` clears, a trace_marker write is one record
    that `trace` shows as Linux does, tracing_on 0 drops writes,
    buffer_size_kb resizes (the records lost) and refuses 0, garbage and
    too large a size, leaving the buffer as it was; trace_pipe consumes
    what it reads, ends once tracing is off, and waits until a Ctrl-C
    when there is nothing."""
    names = words(m.command("ls " + TRACING))
    for name in ("trace", "trace_pipe", "trace_marker", "tracing_on", "buffer_size_kb",
                 "buffer_total_size_kb", "available_tracers", "current_tracer", "trace_clock",
                 "README"):
        check(name in names, "`ls %s`: no %s in %s" % (TRACING, name, names))
    expect_exact(m.command("cat %s/tracing_on" % TRACING), "1", "cat tracing_on")
    expect_exact(m.command("cat %s/buffer_size_kb" % TRACING), "64", "cat buffer_size_kb")
    expect_exact(m.command("cat %s/buffer_total_size_kb" % TRACING), str(64 * m.smp),
                 "cat buffer_total_size_kb")
    m.command("echo > %s/trace" % TRACING)
    written, lines = trace_records(m, m.smp)
    check(written == 0 and lines == [], "after `echo > trace`: %d written, %s" % (written, show(lines)))
    m.command("echo hello tracing > %s/trace_marker" % TRACING)
    written, lines = trace_records(m, m.smp)
    match = MARKER_LINE.match(lines[0]) if len(lines) == 1 else None
    check(written == 1 and match is not None and match.group(4) == "hello tracing",
          "after a trace_marker write: %d written, %s" % (written, show(lines)))
    # The debugfs path is the same tracefs.
    expect_lines_exactly(m, "cat /sys/kernel/debug/tracing/trace",
                         m.command("cat %s/trace" % TRACING))
    expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
    expect_exact(m.command("cat %s/tracing_on" % TRACING), "0", "cat tracing_on after 0")
    m.command("echo dropped > %s/trace_marker" % TRACING)
    written, lines = trace_records(m, m.smp)
    check(written == 1 and len(lines) == 1, "tracing_on 0: a write was kept: %s" % show(lines))
    expect_lines_exactly(m, "echo 1 > %s/tracing_on" % TRACING, [])
    for bad in ("0", "lots", "99999999"):
        expect_exact(m.command("echo %s > %s/buffer_size_kb" % (bad, TRACING)), WRITE_REFUSED,
                     "echo %s > buffer_size_kb" % bad)
    expect_exact(m.command("echo maybe > %s/tracing_on" % TRACING), WRITE_REFUSED,
                 "echo maybe > tracing_on")
    expect_exact(m.command("cat %s/buffer_size_kb" % TRACING), "64", "buffer_size_kb after refusals")
    written, lines = trace_records(m, m.smp)
    check(written == 1 and len(lines) == 1, "a refused resize lost the records: %s" % show(lines))
    expect_lines_exactly(m, "echo 128 > %s/buffer_size_kb" % TRACING, [])
    expect_exact(m.command("cat %s/buffer_size_kb" % TRACING), "128", "cat buffer_size_kb after 128")
    written, lines = trace_records(m, m.smp)
    check(written == 0 and lines == [], "after a resize: %d written, %s" % (written, show(lines)))
    m.command("echo again > %s/trace_marker" % TRACING)
    written, lines = trace_records(m, m.smp)
    check(written == 1 and len(lines) == 1, "after a resize, a marker: %s" % show(lines))
    expect_lines_exactly(m, "echo 64 > %s/buffer_size_kb" % TRACING, [])
    # trace_pipe consumes: two records read, then its end (tracing off),
    # and trace shows them no more.
    m.command("echo > %s/trace" % TRACING)
    for text in ("first", "second"):
        m.command("echo %s > %s/trace_marker" % (text, TRACING))
    expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
    out = m.command("cat %s/trace_pipe" % TRACING)
    texts = [MARKER_LINE.match(line).group(4) if MARKER_LINE.match(line) else line for line in out]
    check(texts == ["first", "second"], "`cat trace_pipe`: expected first, second, got %s" % show(out))
    written, lines = trace_records(m, m.smp)
    check(written == 2 and lines == [], "trace after trace_pipe: %d written, %s" % (written, show(lines)))
    expect_lines_exactly(m, "echo 1 > %s/tracing_on" % TRACING, [])
    # With nothing to read it waits, until a Ctrl-C.
    out = interrupt_midway(m, "cat %s/trace_pipe" % TRACING, 0.5)
    check(out == ["^C"], "Ctrl-C in `cat trace_pipe`: expected only ^C, got %s" % show(out))
    expect_exact(m.command("cat %s/trace_marker" % TRACING),
                 "cat: %s/trace_marker: Permission denied" % TRACING, "cat trace_marker")
    # A shell probe's hits are records of the same buffer, a line each.
    number, _ = probe_add(m, "vfs_read", "k", "vfs_read+0x0")
    m.command("echo > %s/trace" % TRACING)
    check(m.command("cat /etc/hostname") == ["probeos"], "`cat /etc/hostname` with a probe")
    _, lines = trace_records(m, m.smp)
    hit = re.compile(r"^ *\S+-\d+ +\[\d{3}\] \S{5} +\d+\.\d{6}: probe_%d: \(vfs_read\+0x0/0x[0-9a-f]+\)"
                     r" arg1=0x[0-9a-f]+ arg2=0x[0-9a-f]+ arg3=0x[0-9a-f]+" % number)
    check(lines and all(hit.match(line) for line in lines),
          "`cat trace` after `cat /etc/hostname` with probe %d on vfs_read: %s" % (number, show(lines)))
    expect_exact(m.command("probe del %d" % number), "probe %d: removed" % number, "probe del")
    # The choices: three tracers and one clock; other names refused.
    for name, shown in (("available_tracers", "function function_graph nop"),
                        ("current_tracer", "nop"), ("trace_clock", "[global]")):
        expect_exact(m.command("cat %s/%s" % (TRACING, name)), shown, "cat " + name)
    expect_lines_exactly(m, "echo nop > %s/current_tracer" % TRACING, [])
    expect_lines_exactly(m, "echo global > %s/trace_clock" % TRACING, [])
    for name, bad in (("current_tracer", "frobnicate"), ("trace_clock", "local")):
        expect_exact(m.command("echo %s > %s/%s" % (bad, TRACING, name)), WRITE_REFUSED,
                     "echo %s > %s" % (bad, name))
    readme = m.command("cat %s/README" % TRACING)
    check(readme[:1] == ["tracing mini-HOWTO (ProbeOS):"] and
          all(any(line.split()[:1] == [name] for line in readme)
              for name in ("trace", "trace_pipe", "current_tracer", "set_ftrace_pid")),
          "`cat README`: %s" % show(readme))


STATS_LINES = [r"entries: (\d+)", r"overrun: (\d+)", r"commit overrun: 0", r"bytes: (\d+)",
               r"oldest event ts: +\d+\.\d{6}", r"now ts: +\d+\.\d{6}", r"dropped events: \d+",
               r"read events: (\d+)"]


def cpu_stats(m, cpu):
    """per_cpu/cpuN/stats, checked line by line against Linux's format:
    (entries, bytes, read events)."""
    out = m.command("cat %s/per_cpu/cpu%d/stats" % (TRACING, cpu))
    found = [re.fullmatch(pattern, line) for pattern, line in zip(STATS_LINES, out)]
    check(len(out) == len(STATS_LINES) and all(found),
          "`cat per_cpu/cpu%d/stats`: expected Linux's %d lines, got %s" % (cpu, len(STATS_LINES), show(out)))
    return int(found[0].group(1)), int(found[3].group(1)), int(found[7].group(1))


@test("tracefs_per_cpu")
def test_tracefs_per_cpu(m):
    """per_cpu/cpuN for each CPU, with trace, trace_pipe and stats: a
    trace_marker record is in its CPU's trace and no other's, stats count
    it (its entries and bytes, then its read once trace_pipe of that CPU
    consumed it), and `echo > per_cpu/cpuN/trace` clears that CPU."""
    expect_lines_exactly(m, "ls %s/per_cpu" % TRACING, ["cpu%d/" % n for n in range(m.smp)])
    names = [w for w in words(m.command("ls %s/per_cpu/cpu0" % TRACING)) if not w.isdigit()]
    check(sorted(names) == ["stats", "trace", "trace_pipe"], "`ls per_cpu/cpu0`: %s" % names)
    m.command("echo > %s/trace" % TRACING)
    m.command("echo on one cpu > %s/trace_marker" % TRACING)
    _, lines = trace_records(m, m.smp)
    match = MARKER_LINE.match(lines[0]) if len(lines) == 1 else None
    check(match is not None, "a trace_marker write: %s" % show(lines))
    cpu = int(match.group(3))
    for n in range(m.smp):
        out = m.command("cat %s/per_cpu/cpu%d/trace" % (TRACING, n))
        records = [line for line in out if not line.startswith("#")]
        check(out[:1] == ["# tracer: nop"] and records == (lines if n == cpu else []),
              "`cat per_cpu/cpu%d/trace` (the marker was CPU %d's): %s" % (n, cpu, show(out[-3:])))
        entries, size, read = cpu_stats(m, n)
        check((entries, read) == ((1, 0) if n == cpu else (0, 0)) and (size > 0) == (n == cpu),
              "per_cpu/cpu%d/stats: %d entries, %d bytes, %d read" % (n, entries, size, read))
    expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
    out = m.command("cat %s/per_cpu/cpu%d/trace_pipe" % (TRACING, cpu))
    expect_lines_exactly(m, "echo 1 > %s/tracing_on" % TRACING, [])
    check(out == lines, "`cat per_cpu/cpu%d/trace_pipe`: expected %s, got %s" % (cpu, show(lines), show(out)))
    entries, _, read = cpu_stats(m, cpu)
    check((entries, read) == (0, 1), "stats after trace_pipe: %d entries, %d read" % (entries, read))
    m.command("echo again > %s/trace_marker" % TRACING)
    _, lines = trace_records(m, m.smp)
    match = MARKER_LINE.match(lines[-1]) if lines else None
    check(match is not None, "a second trace_marker write: %s" % show(lines))
    m.command("echo > %s/per_cpu/cpu%s/trace" % (TRACING, int(match.group(3))))
    _, lines = trace_records(m, m.smp)
    check(lines == [], "after `echo > per_cpu/cpu%d/trace`: %s" % (int(match.group(3)), show(lines)))


# A line of the function tracer's: Linux's common columns, then
# "FUNCTION <-PARENT".
FUNCTION_LINE = re.compile(r"^ *(\S+)-(\d+) +\[(\d{3})\] [d.][.][h.][0-9a-f.][.] +\d+\.\d{6}: "
                           r"(\S+(?: \[\S+\])?) <-(\S+(?: \[\S+\])?)$")


def function_calls(m, tracer="function"):
    """`cat trace` of the function tracer: its lines as (thread name,
    function, parent); any other line fails the test."""
    _, lines = trace_records(m, m.smp, tracer)
    calls = [FUNCTION_LINE.match(line) for line in lines]
    check(all(calls), "`cat trace`: a line not of Linux's function tracer: %s"
          % show([line for line, call in zip(lines, calls) if not call][:3]))
    return [(c.group(1), c.group(4), c.group(5)) for c in calls]


def set_filter(m, text, answer=(), file="set_ftrace_filter", op=">"):
    """echo text OP file, which must answer answer (nothing, by default)."""
    expect_lines_exactly(m, "echo '%s' %s %s/%s" % (text, op, TRACING, file), list(answer))


@test("function_tracer")
def test_function_tracer(m):
    """Linux's one-liner: `echo vfs_read > set_ftrace_filter; echo
    function > current_tracer; cat /etc/hostname; cat trace` shows
    vfs_read lines from the shell's thread in Linux's format, and
    enabled_functions the one site. The filter's words as Linux takes
    them: globs, `>>` to add, `!` to drop, an index into
    available_filter_functions, a word that picks nothing refused with
    -EINVAL (the filter kept), `:mod:` of a module not loaded kept and
    applied when it loads (its function traced), the module's functions
    gone from the filter when it goes; set_ftrace_notrace leaves
    functions out; `nop` stops it all."""
    expect_exact(m.command("cat %s/set_ftrace_filter" % TRACING), "#### all functions enabled ####",
                 "cat set_ftrace_filter at boot")
    expect_lines_exactly(m, "cat %s/enabled_functions" % TRACING, [])
    set_filter(m, "vfs_read")
    expect_exact(m.command("cat %s/set_ftrace_filter" % TRACING), "vfs_read", "cat set_ftrace_filter")
    expect_lines_exactly(m, "echo function > %s/current_tracer" % TRACING, [])
    expect_exact(m.command("cat %s/current_tracer" % TRACING), "function", "cat current_tracer")
    # Linux's flags: the tracer reads no registers (no R); a kprobe on
    # the same site does, and may move the instruction pointer (R I).
    expect_exact(m.command("cat %s/enabled_functions" % TRACING), "vfs_read (1)      ",
                 "cat enabled_functions")
    number, _ = probe_add(m, "vfs_read", "k", "vfs_read+0x0")
    expect_exact(m.command("cat %s/enabled_functions" % TRACING), "vfs_read (2) R I  ",
                 "cat enabled_functions with a kprobe on vfs_read too")
    expect_exact(m.command("probe del %d" % number), "probe %d: removed" % number,
                 "probe del %d" % number)
    expect_exact(m.command("cat %s/enabled_functions" % TRACING), "vfs_read (1)      ",
                 "cat enabled_functions, the kprobe gone")
    expect_lines_exactly(m, "echo > %s/trace" % TRACING, [])
    expect_exact(m.command("cat /etc/hostname"), "probeos", "cat /etc/hostname, traced")
    calls = function_calls(m)
    check(len(calls) >= CAT_READS and all(func == "vfs_read" and thread == "shell"
                                          for thread, func, _ in calls),
          "`cat trace` after `cat /etc/hostname`: expected %d or more vfs_read lines of the"
          " shell's thread, got %s" % (CAT_READS, calls))
    # Globs, >> and !: ramfs_* added, ramfs_read dropped again.
    set_filter(m, "ramfs_*", op=">>")
    set_filter(m, "!ramfs_read", op=">>")
    picked = m.command("cat %s/set_ftrace_filter" % TRACING)
    check("vfs_read" in picked and "ramfs_read" not in picked and
          any(name.startswith("ramfs_") for name in picked),
          "set_ftrace_filter after 'ramfs_*' and '!ramfs_read': %s" % show(picked))
    # Refusals keep the filter as it was.
    for bad in ("no_such_function", "0", "vfs_read:nosuchcommand", "!"):
        set_filter(m, bad, [WRITE_REFUSED])
    expect_lines_exactly(m, "cat %s/set_ftrace_filter" % TRACING, picked)
    # An index: the first function available.
    first = m.command("head -n 1 %s/available_filter_functions" % TRACING)
    set_filter(m, "1")
    expect_lines_exactly(m, "cat %s/set_ftrace_filter" % TRACING, first)
    # set_ftrace_notrace: every function of vfs_* but vfs_read.
    set_filter(m, "vfs_*")
    set_filter(m, "vfs_*", file="set_ftrace_notrace")
    set_filter(m, "!vfs_read", file="set_ftrace_notrace", op=">>")
    expect_lines_exactly(m, "echo > %s/trace" % TRACING, [])
    m.command("cat /etc/hostname")
    traced = {func for _, func, _ in function_calls(m)}
    check(traced == {"vfs_read"}, "with vfs_* filtered and all but vfs_read not traced:"
          " traced %s" % sorted(traced))
    set_filter(m, "", file="set_ftrace_notrace")
    expect_lines_exactly(m, "cat %s/set_ftrace_notrace" % TRACING, [])
    # A module's functions, before it loads and after it goes.
    set_filter(m, ":mod:mod_exporter")
    expect_exact(m.command("cat %s/set_ftrace_filter" % TRACING), "*:mod:mod_exporter",
                 "set_ftrace_filter with :mod: of a module not loaded")
    expect_lines_exactly(m, "cd /lib/modules", [])
    expect_exact(m.command("insmod mod_exporter.ko"), "mod_exporter: loaded", "insmod mod_exporter.ko")
    check("exporter_add [mod_exporter]" in
          m.command("grep mod_exporter %s/available_filter_functions" % TRACING),
          "available_filter_functions has no exporter_add [mod_exporter]")
    picked = m.command("cat %s/set_ftrace_filter" % TRACING)
    check("exporter_add [mod_exporter]" in picked and not [p for p in picked if ":mod:" in p],
          "set_ftrace_filter once mod_exporter loaded: %s" % show(picked))
    expect_lines_exactly(m, "echo > %s/trace" % TRACING, [])
    out = m.command("insmod mod_user.ko")
    check(out == ["mod_user: exporter_add(2, 3) = 5, calls = 1"], "insmod mod_user.ko: %s" % show(out))
    calls = function_calls(m)
    check([func for _, func, _ in calls] == ["exporter_add [mod_exporter]"],
          "`cat trace` after mod_user's init called exporter_add: %s" % calls)
    expect_exact(m.command("rmmod mod_user"), "mod_user: removed", "rmmod mod_user")
    expect_exact(m.command("rmmod mod_exporter"), "mod_exporter: removed after 1 calls",
                 "rmmod mod_exporter")
    expect_lines_exactly(m, "cd /", [])
    # Gone with the module: the filter is empty, but picks nothing still.
    expect_lines_exactly(m, "cat %s/set_ftrace_filter" % TRACING, [])
    expect_lines_exactly(m, "cat %s/enabled_functions" % TRACING, [])
    expect_lines_exactly(m, "echo nop > %s/current_tracer" % TRACING, [])
    set_filter(m, "")
    expect_exact(m.command("cat %s/set_ftrace_filter" % TRACING), "#### all functions enabled ####",
                 "cat set_ftrace_filter after `echo > set_ftrace_filter`")


PID_FILES = ("set_ftrace_pid", "set_ftrace_notrace_pid")


def traced_threads(m):
    """The threads `cat trace` shows function lines of, read with
    tracing off: {thread id: name}."""
    expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
    _, lines = trace_records(m, m.smp, "function")
    expect_lines_exactly(m, "echo 1 > %s/tracing_on" % TRACING, [])
    calls = [FUNCTION_LINE.match(line) for line in lines]
    check(all(calls), "`cat trace`: a line not of Linux's function tracer: %s"
          % show([line for line, call in zip(lines, calls) if not call][:3]))
    return {int(c.group(2)): c.group(1) for c in calls}


def threads_reading(m):
    """The threads traced while the shell runs `cat /etc/hostname` (and
    a worker reads its file)."""
    expect_lines_exactly(m, "echo > %s/trace" % TRACING, [])
    expect_exact(m.command("cat /etc/hostname"), "probeos", "cat /etc/hostname, traced")
    return traced_threads(m)


def expect_pids(m, file, ids):
    """cat file: the ids, one a line, or Linux's "no pid"."""
    expect_lines_exactly(m, "cat %s/%s" % (TRACING, file), [str(i) for i in ids] or ["no pid"])


@test("function_tracer_pids")
def test_function_tracer_pids(m):
    """set_ftrace_pid and set_ftrace_notrace_pid, with the function
    tracer filtered to vfs_read and a worker calling it beside the
    shell: "no pid" while empty; the shell's id alone traces only the
    shell; >> adds the worker's, listed in order; the shell's id in
    set_ftrace_notrace_pid leaves it out; emptied, every thread but the
    notrace one is traced; a word that is no id is refused with -EINVAL,
    the list kept; hex ids and repeats are taken as Linux takes them."""
    for f in PID_FILES:
        expect_pids(m, f, [])
    set_filter(m, "vfs_read")
    expect_lines_exactly(m, "echo function > %s/current_tracer" % TRACING, [])
    started = re.match(r"^worker: started \(thread (\d+) on CPU", m.command("worker start 1")[0])
    try:
        check(started is not None, "`worker start 1`: no thread id")
        worker = int(started.group(1))
        threads = threads_reading(m)
        shells = [i for i, name in threads.items() if name == "shell"]
        check(len(shells) == 1 and worker in threads,
              "vfs_read traced in every thread: expected the shell and worker %d, got %s"
              % (worker, threads))
        shell = shells[0]
        set_filter(m, str(shell), file="set_ftrace_pid")
        expect_pids(m, "set_ftrace_pid", [shell])
        threads = threads_reading(m)
        check(list(threads) == [shell], "set_ftrace_pid %d: traced %s" % (shell, threads))
        set_filter(m, str(worker), file="set_ftrace_pid", op=">>")
        expect_pids(m, "set_ftrace_pid", sorted([shell, worker]))
        threads = threads_reading(m)
        check(sorted(threads) == sorted([shell, worker]),
              "set_ftrace_pid %d %d: traced %s" % (shell, worker, threads))
        set_filter(m, str(shell), file="set_ftrace_notrace_pid")
        threads = threads_reading(m)
        check(list(threads) == [worker], "set_ftrace_notrace_pid %d: traced %s" % (shell, threads))
        set_filter(m, "", file="set_ftrace_pid")
        expect_pids(m, "set_ftrace_pid", [])
        threads = threads_reading(m)
        check(worker in threads and shell not in threads,
              "set_ftrace_pid empty, set_ftrace_notrace_pid %d: traced %s" % (shell, threads))
        # Linux's words: hex after 0x, an id listed once; refusals keep the list.
        set_filter(m, "7 0x10 7", file="set_ftrace_pid")
        expect_pids(m, "set_ftrace_pid", [7, 16])
        for bad in ("x", "-1", "1073741824", "3 4x"):
            set_filter(m, bad, [WRITE_REFUSED], file="set_ftrace_pid")
        expect_pids(m, "set_ftrace_pid", [7, 16])
    finally:
        m.command("worker stop")
        for f in PID_FILES:
            m.command("echo > %s/%s" % (TRACING, f))
        m.command("echo nop > %s/current_tracer" % TRACING)
        m.command("echo > %s/set_ftrace_filter" % TRACING)
    for f in PID_FILES:
        expect_pids(m, f, [])


FILTER_COPIES = 8     # available_filter_functions this many times over: 10,000 lines or more


@test("function_filter_heavy_input")
def test_function_filter_heavy_input(m):
    """set_ftrace_filter under heavy and hostile writes: a word of 4,000
    characters is refused with -EINVAL, the filter kept; a line of 4,000
    characters of names takes each once; 10,000 lines and more of names
    (available_filter_functions over and over) take every function once;
    and `echo function > current_tracer` while a probe sits on every
    instruction of vfs_read: the tracer's lines come, and the hits of the
    probe at its entry (which shares the call site) and of others, and
    once both are gone no site calls."""
    set_filter(m, "vfs_read")
    set_filter(m, "x" * 4000, [WRITE_REFUSED])
    expect_exact(m.command("cat %s/set_ftrace_filter" % TRACING), "vfs_read", "the filter kept")
    names = ["vfs_read", "vfs_write", "ramfs_read", "kfree"]
    line = " ".join(names * (4000 // len(" ".join(names)) + 1))[:4000].rsplit(" ", 1)[0]
    set_filter(m, line)
    expect_lines_exactly(m, "cat %s/set_ftrace_filter | sort" % TRACING, sorted(names))
    # Every function's name, FILTER_COPIES times (no module is loaded
    # here, so each line is a name alone).
    expect_lines_exactly(m, "cat %s/available_filter_functions > /home/student/f0" % TRACING, [])
    count = m.command("wc -l /home/student/f0")
    functions = int(count[0].split()[0])
    for i in range(3):
        expect_lines_exactly(m, "cat /home/student/f%d /home/student/f%d > /home/student/f%d" % (i, i, i + 1), [])
    lines = int(m.command("wc -l /home/student/f3")[0].split()[0])
    check(lines == FILTER_COPIES * functions and lines >= 10000,
          "f3: %d lines, expected %d" % (lines, FILTER_COPIES * functions))
    expect_lines(m, "cat /home/student/f3 > %s/set_ftrace_filter" % TRACING, [], PROBED_TIMEOUT)
    count = m.command("wc -l %s/set_ftrace_filter" % TRACING)
    check(int(count[0].split()[0]) == functions,
          "set_ftrace_filter after %d lines of names: %s, expected %d functions"
          % (lines, show(count), functions))
    m.command("rm /home/student/f0 /home/student/f1 /home/student/f2 /home/student/f3")
    set_filter(m, "vfs_read")

    def steps(numbers):
        add_probes(m, every_instruction(m, ["vfs_read"]), numbers)
        check(len(numbers) > 10, "probes on vfs_read's instructions: only %d added" % len(numbers))
        expect_lines_exactly(m, "echo function > %s/current_tracer" % TRACING, [])
        expect_lines_exactly(m, "echo > %s/trace" % TRACING, [])
        expect_exact(m.command("cat /etc/hostname", PROBED_TIMEOUT), "probeos",
                     "cat /etc/hostname, vfs_read traced and probed everywhere")
        expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
        try:
            calls = int(m.command("grep -c 'vfs_read <-' %s/trace" % TRACING)[0])
            hit = set()
            for number in numbers:
                if m.command("grep -c ': probe_%d: ' %s/trace" % (number, TRACING)) != ["0"]:
                    hit.add(number)
        finally:
            expect_lines_exactly(m, "echo 1 > %s/tracing_on" % TRACING, [])
            expect_lines_exactly(m, "echo nop > %s/current_tracer" % TRACING, [])
        check(calls >= CAT_READS, "vfs_read traced %d times, expected %d or more" % (calls, CAT_READS))
        check(numbers[0] in hit and len(hit) > 3,
              "probes on vfs_read's instructions that hit: %s of %s" % (sorted(hit), numbers))

    try:
        run_with_probes(m, steps)
    finally:
        m.command("echo nop > %s/current_tracer" % TRACING)
        set_filter(m, "")
    expect_lines_exactly(m, "cat %s/enabled_functions" % TRACING, [])
    expect_exact(m.command("probe list"), "no probes", "probe list")


STACK_ENABLED = "/proc/sys/kernel/stack_tracer_enabled"
KERNEL_STACK_SIZE = 16 * 1024   # kernel/mm/stack.h
STACK_ROW = re.compile(r"^ *(\d+)\) +(\d+) +(\d+)   (\S+\+0x[0-9a-f]+/0x[0-9a-f]+)$")


def stack_trace_rows(m):
    """`cat stack_trace`, checked against Linux's table: its two header
    lines and (index, depth, size, location) for each row, the depths
    falling, each size the drop to the next row's depth (the last's its
    own depth), every location a symbol."""
    out = m.command("cat %s/stack_trace" % TRACING)
    head = re.match(r"^        Depth    Size   Location    \((\d+) entries\)$", out[0]) if out else None
    check(head is not None and out[1:2] == ["        -----    ----   --------"],
          "`cat stack_trace`: expected Linux's header, got %s" % show(out[:2]))
    rows = [STACK_ROW.match(line) for line in out[2:]]
    check(all(rows) and len(rows) == int(head.group(1)),
          "`cat stack_trace`: %s entries said, rows %s" % (head.group(1), show(out[2:])))
    rows = [(int(r.group(1)), int(r.group(2)), int(r.group(3)), r.group(4)) for r in rows]
    depths = [depth for _, depth, _, _ in rows] + [0]
    check([i for i, _, _, _ in rows] == list(range(len(rows))) and
          all(size == depths[i] - depths[i + 1] for i, (_, _, size, _) in enumerate(rows)),
          "`cat stack_trace`: depths and sizes that do not add up: %s" % show(out[2:]))
    return rows


@test("stack_tracer")
def test_stack_tracer(m):
    """The stack tracer, as Linux's: off at boot (its sysctl 0); on, a
    `cat` leaves stack_max_size and the chain that reached it in
    stack_trace, whose frames are symbols and whose sizes add up to
    stack_max_size, below a thread's stack; `echo 0 > stack_max_size`
    starts over, and with stack_trace_filter set to vfs_read the chain
    starts at vfs_read's entry; refused writes change nothing; on the
    VFS's functions while the kprobes stress suite probes them, that
    suite passes; and off, no site calls and the heap is back."""
    before = settled_heap_usage(m)
    expect_exact(m.command("cat " + STACK_ENABLED), "0", "cat stack_tracer_enabled at boot")
    expect_exact(m.command("sysctl -w kernel.stack_tracer_enabled=1"),
                 "kernel.stack_tracer_enabled = 1", "sysctl -w kernel.stack_tracer_enabled=1")
    try:
        expect_exact(m.command("cat /etc/hostname"), "probeos", "cat /etc/hostname, stack traced")
        expect_lines_exactly(m, "echo 0 > " + STACK_ENABLED, [])
        deepest = int(m.command("cat %s/stack_max_size" % TRACING)[0])
        rows = stack_trace_rows(m)
        check(rows and rows[0][1] == deepest and 0 < deepest < KERNEL_STACK_SIZE,
              "stack_max_size %d, stack_trace's first depth %s" % (deepest, rows[:1]))
        # Refusals change nothing.
        for cmd in ("echo 2 > " + STACK_ENABLED, "echo x > %s/stack_max_size" % TRACING):
            expect_exact(m.command(cmd), WRITE_REFUSED, cmd)
        expect_exact(m.command("cat " + STACK_ENABLED), "0", "stack_tracer_enabled after a refusal")
        expect_exact(m.command("cat %s/stack_max_size" % TRACING), str(deepest),
                     "stack_max_size after a refusal")
        # Only vfs_read measured, from 0.
        set_filter(m, "vfs_read", file="stack_trace_filter")
        expect_exact(m.command("cat %s/stack_trace_filter" % TRACING), "vfs_read",
                     "cat stack_trace_filter")
        expect_lines_exactly(m, "echo 0 > %s/stack_max_size" % TRACING, [])
        expect_lines_exactly(m, "echo 1 > " + STACK_ENABLED, [])
        expect_exact(m.command("cat %s/enabled_functions" % TRACING), "vfs_read (1) R    ",
                     "enabled_functions with the stack tracer on vfs_read")
        expect_exact(m.command("cat /etc/hostname"), "probeos", "cat /etc/hostname, vfs_read measured")
        expect_lines_exactly(m, "echo 0 > " + STACK_ENABLED, [])
        rows = stack_trace_rows(m)
        check(rows and rows[0][3].startswith("vfs_read+0x0/") and rows[0][1] < deepest,
              "stack_trace with only vfs_read measured: %s" % rows[:3])
        # The VFS's functions, under the kprobes stress suite, which
        # probes them all (with [FTRACE] kprobes at their entries, the
        # stack tracer's sites shared): on every function the suite runs
        # five times slower, too long for make test.
        set_filter(m, "vfs_*", file="stack_trace_filter")
        expect_lines_exactly(m, "echo 1 > " + STACK_ENABLED, [])
        out = m.command("selftest kprobes-stress", SELFTEST_TIMEOUT)
        check(out[-1:] == ["selftest: 1 passed, 0 failed"] and "ok 1 kprobes-stress" in out,
              "`selftest kprobes-stress` with the stack tracer on: %s" % show(out[-4:]))
    finally:
        m.command("echo 0 > " + STACK_ENABLED, PROBED_TIMEOUT)
        m.command("echo > %s/stack_trace_filter" % TRACING)
    stack_trace_rows(m)
    expect_lines_exactly(m, "cat %s/enabled_functions" % TRACING, [])
    heap_is_back(m, before, "the stack tracer")


# function_graph (kernel/trace/trace_graph.c): Linux's header, and a line
# under funcgraph-proc: CPU, thread, duration (with its mark), then the
# call at two spaces a level.
GRAPH_HEADER = ["# CPU  DURATION                  FUNCTION CALLS",
                "# |     |   |                     |   |   |   |"]
GRAPH_PROC_HEADER = ["# CPU  TASK/PID         DURATION                  FUNCTION CALLS",
                     "# |     |    |           |   |                     |   |   |   |"]
# trace_options with function_graph current and funcgraph-proc set.
GRAPH_OPTIONS = ["funcgraph-cpu", "funcgraph-overhead", "funcgraph-proc", "funcgraph-duration",
                 "nofuncgraph-abstime", "funcgraph-irqs", "nofuncgraph-tail", "sleep-time",
                 "graph-time"]
GRAPH_LINE = re.compile(r"^ (?P<cpu>\d+)\) +(?P<comm>\S+)-(?P<pid>\d+) +\| (?P<mark>[ +!#*@$]) ?"
                        r"(?:(?P<dur>\d+(?:\.\d+)?) us)? *\|  (?P<indent> *)(?P<what>\S.*)$")
GRAPH_ARROW = re.compile(r"^ (?P<cpu>\d+)\) +(?P<comm>\S+)-(?P<pid>\d+) +\|   (?P<arrow>==========>|<==========) \|$")
GRAPH_BANNER = re.compile(r"^( -+| \d+\) +\S+-\d+ +=> +\S+-\d+ *|)$")
# A function's name, with its module's in brackets (Linux's %ps), or
# the address of one whose symbol is gone.
GRAPH_NAME = r"(?P<name>[\w.]+(?: \[\w+\])?)"
GRAPH_CALL = re.compile(r"^%s\(\) \{$" % GRAPH_NAME)
GRAPH_LEAF = re.compile(r"^%s\(\);$" % GRAPH_NAME)
GRAPH_RETURN = re.compile(r"^\}(?: /\* %s \*/)?$" % GRAPH_NAME)
# What function_graph's boot test changes, put back whatever happens.
# Rounds of function_graph_module_code's and function_graph_threads_exit's.
GRAPH_MODULE_ROUNDS = 10
GRAPH_THREAD_ROUNDS = 20
GRAPH_RESET = ["echo nop > %s/current_tracer" % TRACING, "echo 1 > %s/tracing_on" % TRACING,
               "echo > %s/set_graph_function" % TRACING, "echo > %s/set_graph_notrace" % TRACING,
               "echo 0 > %s/max_graph_depth" % TRACING, "echo 0 > %s/tracing_thresh" % TRACING,
               "echo 0 > %s/options/funcgraph-proc" % TRACING,
               "echo 0 > %s/options/funcgraph-tail" % TRACING,
               "echo %d > %s/buffer_size_kb" % (TRACE_BUFFER_KB, TRACING)]


def graph_calls(m, header=GRAPH_PROC_HEADER):
    """`cat trace` of function_graph under funcgraph-proc (the tracer
    stopped first, with tracing_on 0): Linux's header, then its lines as
    dicts of kind ("call", "leaf", "return", "irq-in", "irq-out"), pid,
    cpu, depth, name (None for a return not named) and duration (µs,
    None where the line has none); any other line but a thread switch's
    banner fails the test."""
    out = m.command("cat %s/trace" % TRACING, PROBED_TIMEOUT)
    check(out[:4] == ["# tracer: function_graph", "#"] + header,
          "`cat trace` of function_graph: expected Linux's header, got %s" % show(out[:4]))
    calls, bad = [], []
    for text in out[4:]:
        line, arrow = GRAPH_LINE.match(text), GRAPH_ARROW.match(text)
        if arrow:
            calls.append({"kind": "irq-in" if arrow.group("arrow")[0] == "=" else "irq-out",
                          "pid": int(arrow.group("pid")), "cpu": int(arrow.group("cpu"))})
            continue
        if not line:
            if not GRAPH_BANNER.match(text):
                bad.append(text)
            continue
        what = line.group("what")
        if what.startswith("/* ") and what.endswith(" */"):  # another record, amid the calls
            continue
        kind, name = None, None
        for k, pattern in (("call", GRAPH_CALL), ("leaf", GRAPH_LEAF), ("return", GRAPH_RETURN)):
            found = pattern.match(what)
            if found:
                kind, name = k, found.group("name")
        if kind is None or len(line.group("indent")) % 2 or \
                (kind == "call") != (line.group("dur") is None):
            bad.append(text)
            continue
        calls.append({"kind": kind, "name": name, "pid": int(line.group("pid")),
                      "cpu": int(line.group("cpu")), "depth": len(line.group("indent")) // 2,
                      "duration": float(line.group("dur")) if line.group("dur") else None})
    check(not bad, "`cat trace` of function_graph: lines not Linux's: %s" % show(bad[:5]))
    return calls


def graph_tree(calls):
    """The calls as trees, one per thread: each call a dict of name,
    duration (None until its return is seen) and children; and the list
    of (parent, child) names, with None for a parent the trace lost (or
    an interrupt's). A line's depth places it, as the records' depths
    say, so that calls whose entries were overwritten still nest."""
    stacks, edges, roots = {}, [], []
    for c in calls:
        key = (c["pid"], c["cpu"]) if c["pid"] == 0 else c["pid"]  # each CPU's idle thread is 0
        stack = stacks.setdefault(key, [])
        if c["kind"] in ("irq-in", "irq-out"):
            continue
        depth = c["depth"]
        if c["kind"] == "return":
            del stack[depth + 1:]
            node = stack[depth] if len(stack) > depth else None
            if node is not None:
                check(c["name"] in (None, node["name"]),
                      "function_graph: `} /* %s */` closes %s" % (c["name"], node["name"]))
                node["duration"] = c["duration"]
            del stack[depth:]
            continue
        del stack[depth:]
        stack.extend([None] * (depth - len(stack)))
        parent = stack[depth - 1] if depth else None
        node = {"name": c["name"], "duration": c["duration"], "children": []}
        (parent["children"] if parent else roots).append(node)
        edges.append((parent["name"] if parent else None, c["name"], c["cpu"]))
        if c["kind"] == "call":
            stack.append(node)
    return roots, edges


def each_node(nodes):
    for node in nodes:
        yield node
        yield from each_node(node["children"])


def kernel_calls(m):
    """{function: (names it calls or jumps to directly, whether it calls
    or jumps through a register)} from the kernel's disassembly, and the
    functions the entry code calls (the trap handlers' C halves), which
    a graph shows under whatever the trap interrupted."""
    elf = "build/%s/probeos.elf" % m.arch
    direct = re.compile(r"\s(?:call|callq|jmp|jmpq|bl|b)\s+[0-9a-f]+ <([\w.]+)>")
    indirect = re.compile(r"\s(?:call|callq|jmp|jmpq|notrack jmp)\s+\*|\s(?:blr|br)\s")
    head = re.compile(r"^([0-9a-f]+) <([\w.]+)>:$")
    calls, entry, current, in_entry = {}, set(), None, False
    bounds = {}
    for line in objdump(m, "-t", elf).splitlines():
        sym = line.split()
        if sym and sym[-1] in ("__entry_text_start", "__entry_text_end"):
            bounds[sym[-1]] = int(sym[0], 16)
    for line in objdump(m, "-d", "--no-show-raw-insn", elf).splitlines():
        h = head.match(line)
        if h:
            current = h.group(2)
            addr = int(h.group(1), 16)
            in_entry = bounds["__entry_text_start"] <= addr < bounds["__entry_text_end"]
            calls.setdefault(current, [set(), False])
            continue
        if current is None:
            continue
        d = direct.search(line)
        if d:
            (entry if in_entry else calls[current][0]).add(d.group(1))
        elif indirect.search(line):
            calls[current][1] = True
    return calls, entry


def reaches(calls, traced, parent, child):
    """Whether parent's code can call child: directly, or through
    functions the graph cannot show (no call site), or through a register
    from one of those."""
    todo, seen = [parent], {parent}
    while todo:
        f = todo.pop()
        targets, through_register = calls.get(f, (set(), False))
        if child in targets or through_register:
            return True
        for t in targets - seen:
            if t not in traced:
                seen.add(t)
                todo.append(t)
    return False


def graph_nests_as_the_code_calls(m, roots, edges, what):
    """Every call the graph shows under another, the code of that other
    can make (kernel_calls); durations are non-negative and each call's
    covers its children's."""
    calls, entry = kernel_calls(m)
    traced = set(m.command("cat %s/available_filter_functions" % TRACING, PROBED_TIMEOUT))
    # What the entry code reaches through untraced functions (x86_64's
    # trap_dispatch, say) shows under whatever the trap interrupted.
    todo = [f for f in entry if f not in traced]
    while todo:
        for callee in calls.get(todo.pop(), (set(), False))[0] - entry:
            entry.add(callee)
            if callee not in traced:
                todo.append(callee)
    wrong = [(p, c) for p, c, _ in edges
             if p is not None and c not in entry and not reaches(calls, traced, p, c)]
    check(not wrong, "%s: calls the code cannot make (caller, callee): %s" % (what, wrong[:8]))
    # A child's duration is measured inside its parent's, each to the
    # nanosecond but printed cut to three decimals (or fewer): a slack
    # of a nanosecond a child.
    short = []
    for node in each_node(roots):
        if node["duration"] is None:
            continue
        inside = [c["duration"] for c in node["children"] if c["duration"] is not None]
        if node["duration"] < 0 or sum(inside) > node["duration"] + 0.001 * (len(inside) + 1):
            short.append((node["name"], node["duration"], sum(inside)))
    check(not short, "%s: a call shorter than its children (name, µs, children's µs): %s"
          % (what, short[:5]))


def graph_of(m, command, answer, what):
    """Run command under function_graph (the current tracer), the trace
    cleared before and tracing stopped before it is read, and return
    graph_tree of the lines; tracing_on is back to 1 after."""
    expect_lines_exactly(m, "echo > %s/trace" % TRACING, [])
    expect_exact(m.command(command, PROBED_TIMEOUT), answer, what)
    expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
    try:
        return graph_tree(graph_calls(m))
    finally:
        m.command("echo 1 > %s/tracing_on" % TRACING)


@test("function_graph")
def test_function_graph(m):
    """function_graph, as Linux's: on every function, the graph of a
    `cat` nests as the kernel's code calls (checked on its disassembly),
    each duration covering its children's, in Linux's format; with
    set_graph_function vfs_read only vfs_read's calls and theirs,
    set_graph_notrace cutting a subtree, max_graph_depth 1 only outermost
    calls, tracing_thresh only the returns of long calls; a kretprobe
    and the graph on vfs_read both fire; the options change the lines;
    and with nop again no site calls and the heap is back."""
    before = settled_heap_usage(m)
    try:
        expect_lines_exactly(m, "echo %d > %s/buffer_size_kb" % (16 * TRACE_BUFFER_KB, TRACING), [])
        expect_lines_exactly(m, "echo 1 > %s/options/funcgraph-proc" % TRACING, [])
        expect_lines_exactly(m, "echo function_graph > %s/current_tracer" % TRACING, [])
        out = m.command("cat %s/trace_options" % TRACING)
        check(out == GRAPH_OPTIONS, "trace_options with function_graph and funcgraph-proc: "
              "expected %s, got %s" % (show(GRAPH_OPTIONS), show(out)))
        roots, edges = graph_of(m, "cat /etc/hostname", "probeos", "cat, every function graphed")
        names = {c for _, c, _ in edges}
        check({"vfs_read", "ramfs_read"} <= names and len(names) > 30,
              "function_graph of `cat`: expected vfs_read, ramfs_read among many, got %s"
              % sorted(names)[:30])
        check(("vfs_read", "ramfs_read") in {(p, c) for p, c, _ in edges},
              "function_graph of `cat`: ramfs_read not under vfs_read")
        graph_nests_as_the_code_calls(m, roots, edges, "function_graph of `cat`")

        # Only vfs_read's calls and theirs.
        set_filter(m, "vfs_read", file="set_graph_function")
        roots, edges = graph_of(m, "cat /etc/hostname", "probeos", "cat, under vfs_read")
        check(roots and {r["name"] for r in roots} == {"vfs_read"} and
              any(c["name"] == "ramfs_read" for r in roots for c in r["children"]),
              "set_graph_function vfs_read: expected only vfs_read at the top, calling "
              "ramfs_read, got %s" % sorted({r["name"] for r in roots}))
        graph_nests_as_the_code_calls(m, roots, edges, "set_graph_function vfs_read")
        # Without ramfs_read's subtree.
        set_filter(m, "ramfs_read", file="set_graph_notrace")
        roots, edges = graph_of(m, "cat /etc/hostname", "probeos", "cat, ramfs_read not graphed")
        shown = {n["name"] for n in each_node(roots)}
        check("vfs_read" in shown and "ramfs_read" not in shown,
              "set_graph_notrace ramfs_read: expected vfs_read without ramfs_read, got %s"
              % sorted(shown))
        set_filter(m, "", file="set_graph_notrace")
        set_filter(m, "", file="set_graph_function")

        # max_graph_depth: 1 is the outermost calls only; 0 and 10,000
        # no limit.
        expect_lines_exactly(m, "echo 1 > %s/max_graph_depth" % TRACING, [])
        roots, edges = graph_of(m, "cat /etc/hostname", "probeos", "cat, max_graph_depth 1")
        check(roots and all(not r["children"] for r in roots),
              "max_graph_depth 1: calls under the outermost: %s"
              % [r["name"] for r in roots if r["children"]][:5])
        for depth in (10000, 0):
            expect_lines_exactly(m, "echo %d > %s/max_graph_depth" % (depth, TRACING), [])
            expect_exact(m.command("cat %s/max_graph_depth" % TRACING), str(depth),
                         "cat max_graph_depth")
            roots, _ = graph_of(m, "cat /etc/hostname", "probeos", "cat, max_graph_depth %d" % depth)
            check(any(r["children"] for r in roots), "max_graph_depth %d: no nesting" % depth)

        # tracing_thresh: only returns, each named, none shorter.
        expect_lines_exactly(m, "echo 100 > %s/tracing_thresh" % TRACING, [])
        expect_lines_exactly(m, "echo > %s/trace" % TRACING, [])
        expect_exact(m.command("cat /etc/hostname", PROBED_TIMEOUT), "probeos", "cat, thresh 100")
        expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
        lines = graph_calls(m)
        m.command("echo 1 > %s/tracing_on" % TRACING)
        check(lines and all(c["kind"] == "return" and c["name"] and c["duration"] >= 100
                            for c in lines if c["kind"] not in ("irq-in", "irq-out")),
              "tracing_thresh 100: expected only named returns of 100 µs or more, got %s" % lines[:4])
        expect_lines_exactly(m, "echo 0 > %s/tracing_thresh" % TRACING, [])

        # A kretprobe and the graph on one function both fire.
        set_filter(m, "vfs_read")
        number, addr = probe_add(m, "-r vfs_read", "r", "vfs_read+0x0")
        try:
            _, hits_before, _ = probe_list_line(m, addr, "r", "vfs_read+0x0")
            roots, _ = graph_of(m, "cat /etc/hostname", "probeos", "cat, kretprobe and graph")
            _, hits, missed = probe_list_line(m, addr, "r", "vfs_read+0x0")
        finally:
            m.command("probe del %d" % number)
        graphed = [r for r in roots if r["name"] == "vfs_read" and r["duration"] is not None]
        check(hits - hits_before >= CAT_READS and missed == 0 and len(graphed) >= CAT_READS,
              "a kretprobe and function_graph on vfs_read: %d kretprobe hits (%d missed), "
              "%d graphed returns; expected %d or more each"
              % (hits - hits_before, missed, len(graphed), CAT_READS))
        set_filter(m, "")

        # The options change the lines.
        expect_lines_exactly(m, "echo funcgraph-tail > %s/trace_options" % TRACING, [])
        roots, _ = graph_of(m, "cat /etc/hostname", "probeos", "cat, funcgraph-tail")
        expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
        out = m.command("cat %s/trace" % TRACING, PROBED_TIMEOUT)
        m.command("echo 1 > %s/tracing_on" % TRACING)
        closing = [line for line in out if line.endswith("}")]
        check(not closing, "funcgraph-tail: a `}` without its function's name: %s" % closing[:3])
        expect_lines_exactly(m, "echo nofuncgraph-tail > %s/trace_options" % TRACING, [])
        expect_exact(m.command("cat %s/options/funcgraph-tail" % TRACING), "0",
                     "options/funcgraph-tail after nofuncgraph-tail")
        expect_exact(m.command("echo nosuch > %s/trace_options" % TRACING), WRITE_REFUSED,
                     "echo nosuch > trace_options")
        expect_lines_exactly(m, "echo 0 > %s/options/funcgraph-proc" % TRACING, [])
        out = m.command("cat %s/trace | head -4" % TRACING, PROBED_TIMEOUT)
        check(out[2:4] == GRAPH_HEADER,
              "function_graph's header without funcgraph-proc: %s" % show(out))
    finally:
        for cmd in GRAPH_RESET:
            m.command(cmd, PROBED_TIMEOUT)
    expect_lines_exactly(m, "cat %s/enabled_functions" % TRACING, [])
    heap_is_back(m, before, "function_graph")


@test("function_graph_toggled_under_load")
def test_function_graph_toggled_under_load(m):
    """function_graph on every function switched with function and nop
    100 times while workers read files on every CPU and a kretprobe sits
    on vfs_read: every switch answers (no wrong return: the return
    service panics on one), every CPU is still online, nothing calls
    afterwards, and the heap is back where it was (each thread's stack
    of hooked calls freed once its last one returned)."""
    switch_tracers_under_load(m, "-r vfs_read", "r",
                              lambda i: ("function_graph", "function" if i % 2 else "nop"))


@test("function_graph_module_code")
def test_function_graph_module_code(m):
    """function_graph on a module's code while modules come and go:
    set_graph_function ':mod:mod_exporter' waits for the module, then
    graphs exporter_add alone, named as Linux's %ps names it, when
    mod_user's init calls it, and the module's exit when rmmod runs it;
    once the module is removed the set is empty but still picks
    nothing, and the trace read after names the gone functions by their
    addresses, as Linux's does; on every function,
    rounds of insmod and rmmod of both while workers read on every CPU
    all answer, and the heap is back where it was."""
    before = settled_heap_usage(m)
    expect_lines_exactly(m, "cd /lib/modules", [])
    try:
        expect_lines_exactly(m, "echo 1 > %s/options/funcgraph-proc" % TRACING, [])
        set_filter(m, ":mod:mod_exporter", file="set_graph_function")
        expect_exact(m.command("cat %s/set_graph_function" % TRACING), "*:mod:mod_exporter",
                     "set_graph_function with :mod: of a module not loaded")
        expect_lines_exactly(m, "echo function_graph > %s/current_tracer" % TRACING, [])
        expect_exact(m.command("insmod mod_exporter.ko"), "mod_exporter: loaded", "insmod mod_exporter.ko")
        roots, _ = graph_of(m, "insmod mod_user.ko", "mod_user: exporter_add(2, 3) = 5, calls = 1",
                            "insmod mod_user.ko, mod_exporter graphed")
        check([(r["name"], r["children"]) for r in roots] == [("exporter_add [mod_exporter]", [])]
              and roots[0]["duration"] is not None and roots[0]["duration"] >= 0,
              "set_graph_function :mod:mod_exporter, the graph of mod_user's init: %s" % roots)
        address = {name: int(m.command("sym " + name)[0].split()[1], 16)
                   for name in ("exporter_add", "exporter_exit")}
        expect_exact(m.command("rmmod mod_user"), "mod_user: removed", "rmmod mod_user")
        expect_exact(m.command("rmmod mod_exporter"), "mod_exporter: removed after 1 calls",
                     "rmmod mod_exporter")
        expect_lines_exactly(m, "cat %s/set_graph_function" % TRACING, [])
        expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
        roots, _ = graph_tree(graph_calls(m))
        m.command("echo 1 > %s/tracing_on" % TRACING)
        named = [int(r["name"], 16) if re.match(r"0x[0-9a-f]+$", r["name"]) else r["name"]
                 for r in roots]
        check(named == [address["exporter_add"], address["exporter_exit"]] and
              any(c["name"] == "printk" for c in roots[1]["children"]),
              "the graph of exporter_add (at 0x%x) then exporter_exit (at 0x%x, calling printk),"
              " their module removed: %s" % (address["exporter_add"], address["exporter_exit"],
                                             [(r["name"], len(r["children"])) for r in roots]))
        roots, _ = graph_of(m, "cat /etc/hostname", "probeos", "cat, the module's functions gone")
        check(roots == [], "set_graph_function emptied by rmmod graphed %s"
              % sorted({r["name"] for r in roots}))
        # On every function, with workers on every CPU.
        set_filter(m, "", file="set_graph_function")
        m.command("worker start 4")
        try:
            for i in range(GRAPH_MODULE_ROUNDS):
                for cmd, answer in (("insmod mod_exporter.ko", "mod_exporter: loaded"),
                                    ("insmod mod_user.ko", "mod_user: exporter_add(2, 3) = 5, calls = 1"),
                                    ("rmmod mod_user", "mod_user: removed"),
                                    ("rmmod mod_exporter", "mod_exporter: removed after 1 calls")):
                    expect_exact(m.command(cmd, PROBED_TIMEOUT), answer, "round %d, %s" % (i, cmd))
        finally:
            m.command("worker stop", PROBED_TIMEOUT)
    finally:
        for cmd in GRAPH_RESET:
            m.command(cmd, PROBED_TIMEOUT)
        m.command("cd /")
    expect_lines_exactly(m, "cat %s/enabled_functions" % TRACING, [])
    heap_is_back(m, before, "function_graph on module code")


@test("function_graph_threads_exit")
def test_function_graph_threads_exit(m):
    """Threads that end inside hooked calls, which never return (a
    worker's last calls, into thread_exit and the switch away): under
    function_graph on every function, rounds of `worker start 4` and
    `worker stop` each start and stop four; the trace shows the workers'
    calls; and once the tracer is off the heap is back where it was
    (each ended thread's hooked calls and stack of frames given back)."""
    before = settled_heap_usage(m)
    try:
        expect_lines_exactly(m, "echo 1 > %s/options/funcgraph-proc" % TRACING, [])
        expect_lines_exactly(m, "echo function_graph > %s/current_tracer" % TRACING, [])
        for i in range(GRAPH_THREAD_ROUNDS):
            expect_lines_exactly(m, "echo > %s/trace" % TRACING, [])
            out = m.command("worker start 4", PROBED_TIMEOUT)
            check(len(out) == 4 and all(line.startswith("worker: started") for line in out),
                  "round %d, `worker start 4`: %s" % (i, show(out)))
            out = m.command("worker stop", PROBED_TIMEOUT)
            check(len(out) == 1 and out[0].startswith("worker: stopped after"),
                  "round %d, `worker stop`: %s" % (i, show(out)))
        expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
        # Not as a tree: a thread's records on one CPU's ring may have been
        # overwritten while those on another's were kept.
        shown = {c["name"] for c in graph_calls(m) if c.get("name")}
        check("worker_main" in shown, "function_graph of workers ending: no worker_main among %s"
              % sorted(shown)[:20])
    finally:
        for cmd in GRAPH_RESET:
            m.command(cmd, PROBED_TIMEOUT)
    expect_lines_exactly(m, "cat %s/enabled_functions" % TRACING, [])
    heap_is_back(m, before, "%d rounds of workers ending under function_graph"
                 % GRAPH_THREAD_ROUNDS)


PROFILE_HEADER = [
    "  Function                               Hit    Time            Avg             s^2",
    "  --------                               ---    ----            ---             ---"]
PROFILE_LINE = re.compile(r"^  (?P<name>\S+) +(?P<hits>\d+)    (?P<time>\d+(?:\.\d+)?) us +"
                          r"(?P<avg>\d+(?:\.\d+)?) us +(?P<s2>\d+(?:\.\d+)?) us +$")
PROFILE_BUSY = "echo: write error: Device or resource busy"
# What the profiler's boot test changes, put back whatever happens.
PROFILE_RESET = ["echo 0 > %s/function_profile_enabled" % TRACING,
                 "echo nop > %s/current_tracer" % TRACING,
                 "echo 1 > %s/options/sleep-time" % TRACING,
                 "echo 1 > %s/options/graph-time" % TRACING]


def profile_tables(m):
    """Every CPU's trace_stat/functionN, checked for Linux's header and
    lines, each sorted by time, the longest first: {cpu: {function:
    (hits, time µs, avg µs)}}."""
    tables = {}
    for cpu in range(m.smp):
        out = m.command("cat %s/trace_stat/function%d" % (TRACING, cpu), PROBED_TIMEOUT)
        check(out[:2] == PROFILE_HEADER, "trace_stat/function%d's header: %s" % (cpu, show(out[:2])))
        rows = [PROFILE_LINE.match(line) for line in out[2:]]
        bad = [line for line, row in zip(out[2:], rows) if not row]
        check(not bad, "trace_stat/function%d: lines not in Linux's format: %s" % (cpu, show(bad[:3])))
        times = [float(r["time"]) for r in rows]
        check(times == sorted(times, reverse=True),
              "trace_stat/function%d not sorted by time, the longest first: %s" % (cpu, times[:10]))
        for r in rows:
            hits, total, avg = int(r["hits"]), float(r["time"]), float(r["avg"])
            check(hits > 0 and abs(total / hits - avg) <= max(0.002, avg * 0.01) + 1,
                  "trace_stat/function%d: %s's average %s is not its time over its hits"
                  % (cpu, r["name"], show([r.group(0)])))
        tables[cpu] = {r["name"]: (int(r["hits"]), float(r["time"]), float(r["avg"])) for r in rows}
    return tables


def profiled_time(tables, name):
    """A function's time over every CPU's table, in µs."""
    return sum(t[name][1] for t in tables.values() if name in t)


def profile_a_pause(m, seconds=1.0):
    """Profile every function while the shell waits seconds for its next
    line (in console_getc, asleep): the tables."""
    expect_lines_exactly(m, "echo 1 > %s/function_profile_enabled" % TRACING, [])
    time.sleep(seconds)
    expect_lines_exactly(m, "echo 0 > %s/function_profile_enabled" % TRACING, [])
    return profile_tables(m)


@test("function_profiler")
def test_function_profiler(m):
    """The function profiler, as Linux's: function_profile_enabled and
    trace_stat/functionN in Linux's columns, sorted by time; vfs_read's
    hits over the CPUs equal a counting kprobe's over the same run; time
    asleep counts only with sleep-time, a callee's time in its caller's
    only with graph-time; -EBUSY beside function_graph (one user of the
    graph service, as on Linux 6.1); and a second run leaves the heap as
    the first did (the tables are made once and kept to be read)."""
    try:
        expect_exact(m.command("cat %s/function_profile_enabled" % TRACING), "0",
                     "function_profile_enabled at boot")
        number, addr = probe_add(m, "vfs_read", "k", "vfs_read+0x0")
        try:
            _, before, _ = probe_list_line(m, addr, "k", "vfs_read+0x0")
            expect_lines_exactly(m, "echo 1 > %s/function_profile_enabled" % TRACING, [])
            expect_exact(m.command("cat %s/function_profile_enabled" % TRACING), "1",
                         "function_profile_enabled on")
            for _ in range(3):
                expect_exact(m.command("cat /etc/hostname", PROBED_TIMEOUT), "probeos",
                             "cat /etc/hostname, profiled")
            expect_lines_exactly(m, "echo 0 > %s/function_profile_enabled" % TRACING, [])
            _, after, _ = probe_list_line(m, addr, "k", "vfs_read+0x0")
        finally:
            m.command("probe del %d" % number)
        tables = profile_tables(m)
        profiled = sum(t["vfs_read"][0] for t in tables.values() if "vfs_read" in t)
        check(profiled == after - before and profiled >= 3 * CAT_READS,
              "the profiler counted %d calls of vfs_read, a kprobe %d over the same run"
              % (profiled, after - before))
        check(len(set().union(*tables.values())) > 30,
              "the profiler on every function saw only %s" % sorted(set().union(*tables.values())))
        heap = settled_heap_usage(m)

        # The shell's second asleep in console_getc, under line_editor_read:
        # both count it while sleep-time and graph-time are set.
        tables = profile_a_pause(m)
        for name in ("console_getc", "line_editor_read"):
            check(profiled_time(tables, name) >= 800000,
                  "%s took %.0f µs over a 1 s pause, with sleep-time" % (name, profiled_time(tables, name)))
        expect_lines_exactly(m, "echo 0 > %s/options/sleep-time" % TRACING, [])
        tables = profile_a_pause(m)
        check(profiled_time(tables, "console_getc") < 300000,
              "console_getc took %.0f µs over a 1 s pause, without sleep-time"
              % profiled_time(tables, "console_getc"))
        expect_lines_exactly(m, "echo 1 > %s/options/sleep-time" % TRACING, [])
        expect_lines_exactly(m, "echo 0 > %s/options/graph-time" % TRACING, [])
        tables = profile_a_pause(m)
        check(profiled_time(tables, "line_editor_read") < 300000 and
              max(profiled_time(tables, name) for t in tables.values() for name in t) >= 800000,
              "without graph-time: line_editor_read took %.0f µs of its own over a 1 s pause, "
              "and no function took the pause" % profiled_time(tables, "line_editor_read"))
        expect_lines_exactly(m, "echo 1 > %s/options/graph-time" % TRACING, [])

        # One user of the graph service at a time.
        expect_lines_exactly(m, "echo function_graph > %s/current_tracer" % TRACING, [])
        expect_exact(m.command("echo 1 > %s/function_profile_enabled" % TRACING), PROFILE_BUSY,
                     "the profiler with function_graph current")
        expect_exact(m.command("cat %s/function_profile_enabled" % TRACING), "0",
                     "function_profile_enabled after -EBUSY")
        expect_lines_exactly(m, "echo nop > %s/current_tracer" % TRACING, [])
        expect_lines_exactly(m, "echo 1 > %s/function_profile_enabled" % TRACING, [])
        expect_exact(m.command("echo function_graph > %s/current_tracer" % TRACING), PROFILE_BUSY,
                     "function_graph with the profiler on")
        expect_lines_exactly(m, "echo 0 > %s/function_profile_enabled" % TRACING, [])
    finally:
        for cmd in PROFILE_RESET:
            m.command(cmd, PROBED_TIMEOUT)
    expect_lines_exactly(m, "cat %s/enabled_functions" % TRACING, [])
    heap_is_back(m, heap, "the profiler's later runs (before: after its first)")


@test("function_tracer_every_function")
def test_function_tracer_every_function(m):
    """The function tracer on every function it can trace: the shell
    answers, `cat trace` shows calls of several functions in Linux's
    format, and `nop` puts every site back (enabled_functions empty).
    The rings are made 16 times larger meanwhile: typing the next command
    is traced too (each character's interrupt), and at the boot size it
    could wrap the shell's CPU's ring past the `cat`'s vfs_read (seen on
    CI); whatever fails, the tracer, the rings and tracing_on are put
    back, or every later test would run ten times slower."""
    expect_lines_exactly(m, "echo %d > %s/buffer_size_kb" % (16 * TRACE_BUFFER_KB, TRACING), [])
    try:
        expect_lines_exactly(m, "echo function > %s/current_tracer" % TRACING, [])
        expect_exact(m.command("cat /etc/hostname", PROBED_TIMEOUT), "probeos",
                     "cat /etc/hostname, every function traced")
        expect_lines_exactly(m, "echo 0 > %s/tracing_on" % TRACING, [])
        funcs = {func for _, func, _ in function_calls(m)}
        check("vfs_read" in funcs and len(funcs) > 20,
              "`cat trace` with every function traced: expected vfs_read among many, got %s"
              % sorted(funcs)[:30])
    finally:
        m.command("echo nop > %s/current_tracer" % TRACING, PROBED_TIMEOUT)
        m.command("echo 1 > %s/tracing_on" % TRACING)
        m.command("echo %d > %s/buffer_size_kb" % (TRACE_BUFFER_KB, TRACING))
    expect_lines_exactly(m, "cat %s/enabled_functions" % TRACING, [])


TRACER_TOGGLES = 100


def switch_tracers_under_load(m, probe, kind, tracers_of):
    """Round i of TRACER_TOGGLES chooses each of tracers_of(i) in turn
    while workers read files on every CPU and `probe add PROBE` (of
    kind) sits on vfs_read: every choice answers, every CPU is still
    online, nothing calls afterwards, and the heap is back where it
    was."""
    before = settled_heap_usage(m)
    number, _ = probe_add(m, probe, kind, "vfs_read+0x0")
    m.command("worker start 4")
    try:
        for i in range(TRACER_TOGGLES):
            for tracer in tracers_of(i):
                cmd = "echo %s > %s/current_tracer" % (tracer, TRACING)
                out = m.command(cmd, PROBED_TIMEOUT)
                check(out == [], "round %d, `%s`: %s" % (i, cmd, show(out)))
    finally:
        m.command("echo nop > %s/current_tracer" % TRACING, PROBED_TIMEOUT)
        m.command("worker stop")
        m.command("probe del %d" % number)
    expect_lines_exactly(m, "cat %s/enabled_functions" % TRACING, [])
    states = [row.group(3) for row in (CPUS_LINE.match(line) for line in m.command("cpus")[1:]) if row]
    check(states == ["online"] * m.smp, "after %d rounds, `cpus`: %s" % (TRACER_TOGGLES, states))
    heap_is_back(m, before, "%d rounds under load" % TRACER_TOGGLES)


@test("function_tracer_toggled_under_load")
def test_function_tracer_toggled_under_load(m):
    """The function tracer on every function turned on and off 100 times
    while workers read files on every CPU and a kprobe sits on vfs_read's
    site beside it (each toggle moves ~1,300 sites between the NOP and
    the two trampolines under running CPUs, in steps every CPU must
    acknowledge): every toggle answers, every CPU is still online,
    nothing calls afterwards, and the heap is back where it was."""
    switch_tracers_under_load(m, "vfs_read", "k", lambda i: ("function", "nop"))


@test("proc_sys_under_load")
def test_proc_sys_under_load(m):
    """Every file under /proc and /sys read whole while workers read
    files on every CPU and probes come and go: each read ends with the
    prompt, the kernel lives, and the heap is back where it was."""
    before = settled_heap_usage(m)
    files = files_under(m, "/proc") + files_under(m, "/sys")
    check("/proc/version" in files, "expected /proc/version among %s" % files)
    m.command("worker start 4")
    for i, path in enumerate(files):
        if i % 2 == 0:
            m.command("probe add vfs_read")
        out = m.command("cat " + path, timeout=120)
        check(not any(line.startswith("cat: ") for line in out),
              "`cat %s` under load: %s" % (path, show(out)))
        if i % 2 == 1:
            m.command("probe del all")
    m.command("probe del all")
    m.command("worker stop")
    after = settled_heap_usage(m)
    check(after == before, "the heap after reading %d files under load: %s, before %s"
          % (len(files), after, before))


@test("sym")
def test_sym(m):
    out = m.command("sym vfs_read")
    pattern = re.compile(r"^vfs_read (0xffffffff[0-9a-f]{8}) size 0x([0-9a-f]+) text$")
    found = [pattern.match(line) for line in out if pattern.match(line)]
    check(len(out) == 1 and found,
          "`sym vfs_read`: expected one line 'vfs_read 0xffffffff........ size 0x... text',"
          " got %s" % show(out))
    addr = int(found[0].group(1), 16)
    size = int(found[0].group(2), 16)
    check(size > 5, "`sym vfs_read`: size 0x%x is too small to look up +0x5" % size)

    cmd = "sym 0x%x" % (addr + 5)
    out = m.command(cmd)
    m2 = [re.search(r"vfs_read\+0x5/0x([0-9a-f]+)", line) for line in out]
    m2 = [x for x in m2 if x]
    check(m2 and int(m2[0].group(1), 16) == size,
          "`%s`: expected 'vfs_read+0x5/0x%x', got %s" % (cmd, size, show(out)))

    expect_exact(m.command("sym no_such_symbol_xyz"),
                 "sym: no symbol 'no_such_symbol_xyz'", "sym no_such_symbol_xyz")
    expect_exact(m.command("sym 0x10"), "sym: no symbol at 0x10", "sym 0x10")


@test("ps")
def test_ps(m):
    out = m.command("ps")
    check(len(out) >= 3, "`ps`: expected a header and at least two threads, got %s"
          % show(out))
    header = out[0]
    check(header.strip() and not {"idle", "shell"} & set(header.split()),
          "`ps`: expected a header line first, got %r" % header)
    for name in ("idle", "shell"):
        check(lines_with_word(out[1:], name),
              "`ps`: no line for thread %r in %s" % (name, show(out, 10)))


@test("mem")
def test_mem(m):
    out = m.command("mem")
    for prefix in ("frames:", "heap:"):
        check(any(line.startswith(prefix) for line in out),
              "`mem`: expected a line starting %r, got %s" % (prefix, show(out)))
    heap = re.compile(r"^heap: \d+ bytes in \d+ allocations, \d+ pages mapped, \d+ free blocks$")
    check(any(heap.match(line) for line in out), "`mem`: the heap line: %s" % show(out))


@test("uptime")
def test_uptime(m):
    first = parse_uptime(m.command("uptime"))
    time.sleep(1)
    second = parse_uptime(m.command("uptime"))
    check(second > first,
          "`uptime`: ticks did not grow in 1 s (%d, then %d)" % (first, second))


CPUS_LINE = re.compile(r"^(\d+) +0x([0-9a-f]+) +(.*)$")


@test("cpus")
def test_cpus(m):
    """The boot line says every CPU came up, and `cpus` lists them, each
    online with its own hardware id (docs/smp.md)."""
    n = m.smp
    want = "smp: %d of %d CPUs online" % (n, n)
    boot = [line for line in m.screen.lines if line.startswith("smp: ")]
    check(want in boot, "boot: expected the line %r, got %s" % (want, show(boot)))
    out = m.command("cpus")
    check(out and out[0].split() == ["CPU", "HWID", "STATE"],
          "`cpus`: expected the header 'CPU HWID STATE', got %s" % show(out[:1]))
    rows = [CPUS_LINE.match(line) for line in out[1:]]
    check(len(rows) == n and all(rows),
          "`cpus`: expected %d lines 'N 0xHWID STATE', got %s" % (n, show(out[1:])))
    ids = [int(r.group(1)) for r in rows]
    hwids = {r.group(2) for r in rows}
    states = [r.group(3) for r in rows]
    check(ids == list(range(n)) and len(hwids) == n,
          "`cpus`: expected CPUs 0..%d with distinct hardware ids, got %s" % (n - 1, show(out)))
    check(states == ["online"] * n, "`cpus`: expected every CPU online, got %s" % states)


def worker_reads(m):
    out = m.command("worker")
    for line in out:
        r = re.match(r"^worker: running, (\d+) reads$", line)
        if r:
            return int(r.group(1))
    raise TestFailure("`worker`: expected 'worker: running, N reads', got %s" % show(out))


WORKER_STARTED = re.compile(r"^worker: started \(thread (\d+) on CPU (\d+), reading \S+\)$")
PS_LINE = re.compile(r"^ *(\d+) +(\d+) +(\w+) +(\d+) +(\S+)$")


def worker_steps(m):
    """One worker per CPU by default, each pinned to its CPU: `ps` shows
    each worker on the CPU it was started on."""
    out = m.command("worker start")
    started = [WORKER_STARTED.match(line) for line in out if line.startswith("worker: started")]
    check(started and all(started),
          "`worker start`: expected 'worker: started (thread N on CPU C, reading FILE)', got %s"
          % show(out))
    on = {int(r.group(1)): int(r.group(2)) for r in started}
    check(sorted(on.values()) == list(range(m.smp)),
          "`worker start`: expected one worker on each of CPUs 0..%d, got %s"
          % (m.smp - 1, show(out)))
    out = m.command("ps")
    check(out and out[0].split() == ["ID", "CPU", "STATE", "TICKS", "NAME"],
          "`ps`: expected the header 'ID CPU STATE TICKS NAME', got %s" % show(out[:1]))
    rows = {int(r.group(1)): r for r in map(PS_LINE.match, out[1:]) if r}
    for tid, cpu in on.items():
        check(tid in rows and rows[tid].group(5) == "worker" and int(rows[tid].group(2)) == cpu,
              "`ps`: expected worker thread %d on CPU %d, got %s" % (tid, cpu, show(out, 20)))

    first = worker_reads(m)
    time.sleep(1)
    second = worker_reads(m)
    check(second > first,
          "`worker`: reads did not grow in 1 s (%d, then %d)" % (first, second))

    out = m.command("worker start")
    check(any("worker: already running" in line for line in out),
          "second `worker start`: expected 'worker: already running', got %s" % show(out))

    out = m.command("worker stop")
    check(any(re.match(r"^worker: stopped after \d+ reads$", line) for line in out),
          "`worker stop`: expected 'worker: stopped after N reads', got %s" % show(out))

    # Gone is best; a thread still listed as dead or zombie is accepted.
    out = m.command("ps")
    left = lines_with_word(out, "worker")
    alive = [line for line in left
             if not re.search(r"dead|zombie", line, re.IGNORECASE)]
    check(not alive, "`ps` after `worker stop`: worker still listed: %s" % show(alive))
    if left:
        info("worker is still listed after stop, as %r" % left[0])


# A line of `dmesg`: the time the message was logged, its seconds
# right-aligned in five columns, then the message.
DMESG_LINE = re.compile(r"^\[ *\d+\.\d{6}\] (.*)$")
DMESG_DROPPED = re.compile(r"^dmesg: \d+ messages dropped: the log was full$")


def dmesg_messages(m, cmd="dmesg"):
    """The messages `dmesg` (or cmd) prints, without their times, after
    checking that every line is a message with its time or the count of
    messages dropped."""
    out = m.command(cmd)
    bad = [line for line in out if not DMESG_LINE.match(line) and not DMESG_DROPPED.match(line)]
    check(not bad, "`%s`: expected lines '[    S.UUUUUU] MESSAGE', got %s" % (cmd, show(bad)))
    return [DMESG_LINE.match(line).group(1) for line in out if DMESG_LINE.match(line)]


PROC_UPTIME = re.compile(r"^(\d+\.\d\d) (\d+\.\d\d)$")


@test("proc_uptime")
def test_proc_uptime(m):
    """/proc/uptime is Linux's `UP IDLE`, in seconds with two decimals;
    both grow, and the idle time, summed over the CPUs, never exceeds
    what that many CPUs could have idled. (The shell is waiting for
    input in between, so every CPU idles.)"""
    first = m.command("cat /proc/uptime")
    time.sleep(1)
    second = m.command("cat /proc/uptime")
    got = [PROC_UPTIME.match(out[0]) if len(out) == 1 else None for out in (first, second)]
    check(all(got), "`cat /proc/uptime`: expected 'UP IDLE', got %s then %s"
          % (show(first), show(second)))
    (up1, idle1), (up2, idle2) = [(float(g.group(1)), float(g.group(2))) for g in got]
    check(up2 >= up1 + 0.5 and idle2 > idle1,
          "/proc/uptime did not grow in 1 s: %s, then %s" % (first[0], second[0]))
    # One tick of slack per CPU: the uptime counts from a little later
    # than the first ticks.
    check(idle2 <= up2 * m.smp + 0.01 * m.smp,
          "/proc/uptime: %s s idle on %d CPUs in %s s" % (idle2, m.smp, up2))


@test("proc_cpuinfo")
def test_proc_cpuinfo(m):
    """/proc/cpuinfo has a block per CPU `cpus` lists, in order, each
    `processor : N` and then the architecture's fields in Linux's names
    and order (CPUINFO_FIELDS in testdata.py), every line `name<tabs>:
    value` with the colon in column 16, and an empty line after it."""
    hwids = [int(row.group(2), 16) for row in
             (CPUS_LINE.match(line) for line in m.command("cpus")[1:]) if row]
    fields = archs.testdata(m.arch).CPUINFO_FIELDS
    out = m.command("cat /proc/cpuinfo")
    per_cpu = 2 + len(fields)
    check(len(out) == per_cpu * len(hwids),
          "`cat /proc/cpuinfo`: %d lines for %d CPUs, expected %d each: %s"
          % (len(out), len(hwids), per_cpu, show(out, 12)))
    for cpu, hwid in enumerate(hwids):
        block = out[cpu * per_cpu:(cpu + 1) * per_cpu]
        want = [("processor", str(cpu))] + fields
        for line, (name, value) in zip(block, want):
            check(line[:16].rstrip() == name and line[16:18] == ": " and
                  re.fullmatch(value, line[18:]),
                  "/proc/cpuinfo, CPU %d: expected '%s : %s', got %r" % (cpu, name, value, line))
        check(block[-1] == "", "/proc/cpuinfo, CPU %d: no empty line after it" % cpu)
        apicid = [line[18:] for line in block if line.startswith("apicid ")]
        check(apicid in ([], [str(hwid)]),
              "/proc/cpuinfo, CPU %d: apicid %s, `cpus` says 0x%x" % (cpu, apicid, hwid))
    check("\nprocessor\t: 1" in "".join(m.raw).replace("\r", "") or len(hwids) == 1,
          "/proc/cpuinfo: `processor` not followed by a tab, as in Linux")


def proc_interrupts(m, ncpus):
    """/proc/interrupts, checked against Linux's layout for the
    architecture (INTERRUPT_ROWS in testdata.py): the header `CPU0 CPU1
    ...` over a column per CPU, then each row's label in 5 columns, a
    count in 11 per CPU and the row's text. Returns each row's counts."""
    rows = archs.testdata(m.arch).INTERRUPT_ROWS
    out = m.command("cat /proc/interrupts")
    header = " " * 11 + "".join("CPU%-8d" % cpu for cpu in range(ncpus))
    check(len(out) == 1 + len(rows) and out[0] == header,
          "`cat /proc/interrupts`: expected the header %r and %d rows, got %s"
          % (header, len(rows), show(out, 8)))
    counts = []
    for line, (label, text) in zip(out[1:], rows):
        fields = line[5:5 + 11 * ncpus]
        check(re.fullmatch(r" *%s: ?" % label, line[:5]) and
              re.fullmatch(r"( {0,9}\d+ ){%d}" % ncpus, fields) and
              re.fullmatch(text, line[5 + 11 * ncpus:]),
              "/proc/interrupts: expected the row %r ... %r, got %r" % (label, text, line))
        counts.append([int(n) for n in fields.split()])
    return counts


@test("proc_interrupts")
def test_proc_interrupts(m):
    """/proc/interrupts in Linux's layout; between two reads every CPU's
    timer count grows, and a change of the kernel's text (a probe added
    and removed: text_poke's IPIs, docs/smp.md) makes the function-call
    IPIs' row grow on the other CPUs."""
    data = archs.testdata(m.arch)
    first = proc_interrupts(m, m.smp)
    time.sleep(0.5)
    m.command("probe add vfs_read")
    m.command("probe del all")
    second = proc_interrupts(m, m.smp)
    timer = [b - a for a, b in zip(first[data.TIMER_ROW], second[data.TIMER_ROW])]
    check(all(d > 0 for d in timer),
          "/proc/interrupts: the timer's counts grew by %s in 0.5 s" % timer)
    calls = sum(second[data.CALL_ROW]) - sum(first[data.CALL_ROW])
    check(calls > 0 or m.smp == 1,
          "/proc/interrupts: no function-call IPI counted across a text change (%s, then %s)"
          % (first[data.CALL_ROW], second[data.CALL_ROW]))


MEM_FRAMES = re.compile(r"^frames: (\d+) used of (\d+) \((\d+) KiB free\)$")
MEMINFO_LINE = re.compile(r"^(\S+:) +(\d+) kB$")


def meminfo_and_mem(m):
    """/proc/meminfo as {name: kB}, and `mem`'s frames line read right
    after it, once two rounds in a row agree (threads that free memory
    after a grace period may still be at it)."""
    last = None
    for _ in range(10):
        out = m.command("cat /proc/meminfo")
        rows = [MEMINFO_LINE.match(line) for line in out]
        check(all(rows), "`cat /proc/meminfo`: expected lines 'Name:   N kB', got %s"
              % show(out))
        info_ = {r.group(1)[:-1]: int(r.group(2)) for r in rows}
        frames = [MEM_FRAMES.match(line) for line in m.command("mem")]
        frames = [f for f in frames if f]
        check(len(frames) == 1, "`mem`: no frames line")
        now = (out, info_, tuple(int(x) for x in frames[0].groups()))
        if last and last[1:] == now[1:]:
            return now
        last = now
        time.sleep(0.2)
    return last


@test("proc_meminfo")
def test_proc_meminfo(m):
    """/proc/meminfo has Linux's first lines, in Linux's columns (the
    name padded to 16, the number right-aligned in 8, then ' kB'), and
    says what `mem` says of the frames."""
    out, meminfo, (used, total, free_kib) = meminfo_and_mem(m)
    names = [line.split(":")[0] for line in out]
    check(names[:3] == ["MemTotal", "MemFree", "MemAvailable"],
          "/proc/meminfo: expected MemTotal, MemFree, MemAvailable first, got %s" % names)
    bad = [line for line in out if len(line) != 27 or not line[16:24].strip().isdigit()]
    check(not bad, "/proc/meminfo: not in Linux's columns: %s" % show(bad))
    # The file is made while cat has it open: its own buffer (a page or
    # two of the heap, given back at close) is not free then.
    check(meminfo["MemTotal"] == total * 4 and 0 <= free_kib - meminfo["MemFree"] <= 16,
          "/proc/meminfo says %d kB of %d kB free, `mem` %d KiB of %d"
          % (meminfo["MemFree"], meminfo["MemTotal"], free_kib, total * 4))
    check(meminfo["MemFree"] <= meminfo["MemAvailable"] <= meminfo["MemTotal"],
          "/proc/meminfo: MemAvailable %d kB" % meminfo["MemAvailable"])


@test("dmesg")
def test_dmesg(m):
    """The kernel log keeps the boot's lines, each with its time, and no
    command's output nor the prompt; `dmesg -c` prints it and then
    clears it; a bad option gets the one usage line."""
    uptime = m.command("uptime")
    parse_uptime(uptime)
    boot_line = "smp: %d of %d CPUs online" % (m.smp, m.smp)
    messages = dmesg_messages(m)
    check(boot_line in messages, "`dmesg`: expected the boot line %r, got %s"
          % (boot_line, show(messages)))
    shell = [line for line in messages if line in uptime or "probeos>" in line]
    check(not shell, "`dmesg`: the output of `uptime` (%s) or the prompt is in the log: %s"
          % (show(uptime), show(shell)))
    for bad in ("dmesg -x", "dmesg -c -C", "dmesg c"):
        expect_exact(m.command(bad), "dmesg: usage: dmesg [-c | -C]", bad)
    printed = dmesg_messages(m, "dmesg -c")
    check(printed[:len(messages)] == messages, "`dmesg -c`: expected the messages of `dmesg`"
          " %s first, got %s" % (show(messages), show(printed)))
    after = dmesg_messages(m)
    check(not set(after) & set(printed), "`dmesg` after `dmesg -c`: expected only newer"
          " messages, got %s" % show(after))


@test("worker")
def test_worker(m):
    try:
        worker_steps(m)
    except TestFailure:
        # Leave no worker running for the tests that follow.
        try:
            m.command("worker stop")
        except TestFailure:
            pass
        raise


def frames_used(m):
    """The used frames `mem` shows."""
    out = m.command("mem")
    for line in out:
        r = MEM_FRAMES.match(line)
        if r:
            return int(r.group(1))
    raise TestFailure("`mem`: expected 'frames: N used of N (N KiB free)', got %s" % show(out))


def kernel_stack_kb(m):
    """/proc/meminfo's KernelStack: the kB of the stacks threads hold."""
    for line in m.command("cat /proc/meminfo"):
        r = MEMINFO_LINE.match(line)
        if r and r.group(1) == "KernelStack:":
            return int(r.group(2))
    raise TestFailure("/proc/meminfo: no KernelStack line")


WORKER_ROUNDS = 6


@test("worker_frames")
def test_worker_frames(m):
    """Threads that come and go give their stacks back. /proc/meminfo's
    KernelStack counts the stacks exactly: 4 workers add 4 x 16 kB, and
    `worker stop`, which returns once the ended threads are freed, takes
    them all back. The frames `mem` counts move for other reasons too
    (the heap keeps the pages it grew by, call_rcu frees land when a
    grace period ends, which busy CPUs bring sooner), so they are only
    held to this: after WORKER_ROUNDS rounds, fewer frames are used than
    one round's 4 stacks hold, which a stack's frames lost each round
    would pass."""
    m.command("worker start 4")
    m.command("worker stop")
    stack_before, before = kernel_stack_kb(m), frames_used(m)
    for _ in range(WORKER_ROUNDS):
        m.command("worker start 4")
        stack_running = kernel_stack_kb(m)
        out = m.command("worker stop")
        check(any(line.startswith("worker: stopped") for line in out),
              "`worker stop`: expected 'worker: stopped after N reads', got %s" % show(out))
        stack_after = kernel_stack_kb(m)
        check(stack_running == stack_before + 4 * 16 and stack_after == stack_before,
              "KernelStack: %d kB before 4 workers, %d kB while they ran, %d kB after"
              % (stack_before, stack_running, stack_after))
    after = frames_used(m)
    check(after - before < 4 * 4, "`mem`: %d frames used before %d rounds of 4 workers,"
          " %d after" % (before, WORKER_ROUNDS, after))


@test("numbers_out_of_range")
def test_numbers_out_of_range(m):
    """A number too big, or below a command's smallest, is refused by
    every command with the same words, and the bounds in the base it was
    typed in (kernel/number_arg.c); nothing runs."""
    for cmd, want in [
            ("sym 0x1ffffffffffffffff",
             "sym: address 0x1ffffffffffffffff is out of range (at most 0xffffffffffffffff)"),
            ("worker start 99999999999999999999",
             "worker: count 99999999999999999999 is out of range (from 1 to 16)"),
            ("worker start 0", "worker: count 0 is out of range (from 1 to 16)"),
            ("bench 0x0", "bench: calls 0x0 is out of range (from 0x1 to 0x989680)"),
            ("bench scale 10001", "bench: ms 10001 is out of range (from 1 to 10000)"),
            ("probe show vfs_read+0xffffffffffffffff",
             "probe: offset 0xffffffffffffffff is out of range (at most 0xffffffff)"),
            ("probe add vfs_read+4294967296",
             "probe: offset 4294967296 is out of range (at most 4294967295)"),
            ("probe add -r maxactive=1025 vfs_read",
             "probe: maxactive 1025 is out of range (from 1 to 1024)"),
            ("probe del 18446744073709551616",
             "probe: probe number 18446744073709551616 is out of range"
             " (at most 18446744073709551615)")]:
        expect_exact(m.command(cmd), want, cmd)
    out = m.command("worker")
    check(out and not out[0].startswith("worker: running"),
          "`worker` after the refused starts: expected none running, got %s" % show(out))
    expect_exact(m.command("probe list"), "no probes", "probe list")


@test("unknown_command")
def test_unknown_command(m):
    expect_exact(m.command("frobnicate"), "unknown command: frobnicate (try help)",
                 "frobnicate")


@test("redirect")
def test_redirect(m):
    """`>` makes or empties a file, `>>` adds to it; a command's output
    goes there and nowhere else; what cannot be opened is one line, and
    nothing changes."""
    path = "/home/student/redirected.txt"
    check(m.command("echo 'one  two' > " + path) == [], "`echo > file` printed something")
    expect_exact(m.command("cat " + path), "one  two", "cat after >")
    check(m.command("echo three >>" + path) == [], "`echo >> file` printed something")
    check(m.command("cat /etc/motd >> " + path) == [], "`cat >> file` printed something")
    motd = m.command("cat /etc/motd")
    got = m.command("cat " + path)
    check(got == ["one  two", "three"] + motd,
          "after >>: expected the two lines and the motd, got %s" % show(got))
    check(m.command("echo -n > " + path) == [], "`echo -n > file` printed something")
    check(m.command("cat " + path) == [], "> did not empty the file")
    check(m.command("> " + path) == [], "`> file` alone printed something")
    check(m.command("uptime > " + path) == [], "`uptime > file` printed something")
    parse_uptime(m.command("cat " + path), "uptime read back from the file")
    for typed, msg in [("echo x > /etc", "shell: /etc: Is a directory"),
                       ("echo x > /nope/file", "shell: /nope/file: No such file or directory"),
                       ("echo x > /etc/motd/x", "shell: /etc/motd/x: Not a directory"),
                       ("echo x > /proc/version", "shell: /proc/version: Permission denied"),
                       ("echo x > /proc/kallsyms", "shell: /proc/kallsyms: Permission denied"),
                       ("echo x > /proc/newfile", "shell: /proc/newfile: Permission denied"),
                       ("frobnicate > " + path, "unknown command: frobnicate (try help)")]:
        expect_exact(m.command(typed), msg, typed)
    check(m.command("cat " + path) != [], "a refused line changed the file")
    check(m.command("rm " + path) == [], "`rm` of the redirected file printed something")


@test("long_line")
def test_long_line(m):
    # 4,096 characters are taken (as many words as fit), 4,097 refused.
    words = ["w%d" % i for i in range(800)]
    line = "echo " + " ".join(words)
    line += " " + "y" * (4096 - len(line) - 1)
    assert len(line) == 4096
    out = m.command(line, timeout=60)
    check(out == [line[len("echo "):]],
          "a 4,096-character echo: expected its words back, got %s" % show(out[:3]))
    msg = "shell: line too long (max 4096 characters)"
    out = m.command("x" * 4097, timeout=60)
    check(any(msg in line for line in out),
          "4,097-character line: expected %r, got %s" % (msg, show(out)))
    parse_uptime(m.command("uptime"), "uptime after the long line")


@test("echo")
def test_echo(m):
    cases = [
        ("echo", ""),
        ("echo hello   world", "hello world"),
        ("echo 'p:ev vfs_read count=%dx'", "p:ev vfs_read count=%dx"),
        ("echo \"a 'b' > c\"", "a 'b' > c"),
        ("echo \"q\\\"q\" a\\ b x'y z'\"w\"", 'q"q a b xy zw'),
        ("echo -n", None),
    ]
    for typed, want in cases:
        out = m.command(typed)
        if want is None:
            check(out == [], "`%s`: expected no output, got %s" % (typed, show(out)))
        else:
            expect_exact(out, want, typed)
    for typed, msg in [("echo 'open", "shell: missing closing '"),
                       ('echo "open', 'shell: missing closing "'),
                       ("echo x >", "shell: > needs a file name"),
                       ("echo x >>", "shell: >> needs a file name"),
                       ("echo x > a > b", "shell: only one > or >> per command")]:
        expect_exact(m.command(typed), msg, typed)


def check_like_help(m, typed, shown):
    """Typing `typed` must give exactly what `help` gives. Comparing with
    `help` itself keeps this a test of line editing, not of `help`."""
    want = m.command("help")
    check("help" in words(want), "`help` printed no line for itself: %s" % show(want))
    m.send(typed)
    out = m.wait_prompt(COMMAND_TIMEOUT)
    check(out == want, "%s: expected the output of `help`, got %s" % (shown, show(out)))


@test("control_bytes")
def test_control_bytes(m):
    check_like_help(m, b"\x01\x02help\x80\xff\r", "\\x01\\x02help\\x80\\xff")


@test("backspace")
def test_backspace(m):
    check_like_help(m, b"helq\x7fp\r", "helq<DEL>p")


@test("ctrl_u")
def test_ctrl_u(m):
    m.send(b"garbage\x15uptime\r")
    parse_uptime(m.wait_prompt(COMMAND_TIMEOUT), "garbage<Ctrl-U>uptime")


@test("ctrl_c")
def test_ctrl_c(m):
    m.send(b"garbage\x03")
    try:
        out = m.wait_prompt(COMMAND_TIMEOUT)
    except qemu.Timeout:
        raise qemu.Timeout("no new prompt after 'garbage<Ctrl-C>'")
    # The line is dropped, not run: nothing between the echo and the prompt.
    check(not [line for line in out if line.strip()],
          "'garbage<Ctrl-C>' printed %s" % show(out))
    parse_uptime(m.command("uptime"), "uptime after Ctrl-C")


# -- pipes, lists and the text tools (docs/shell.md) ------------------

TOOLS_DIR = "/home/student"


def write_lines(m, path, lines):
    """Make the file at path hold lines, one echo each."""
    for i, line in enumerate(lines):
        check(m.command("echo '%s' %s %s" % (line, ">>" if i else ">", path)) == [],
              "writing %s printed something" % path)


def expect_lines(m, typed, want, timeout=COMMAND_TIMEOUT):
    out = m.command(typed, timeout)
    check(out == want, "`%s`: expected %s, got %s" % (typed, show(want), show(out)))


@test("list")
def test_list(m):
    """`;` runs one command after another, a lone `;` may end the line,
    and sh's syntax errors are one line each, with nothing run."""
    before = settled_heap_usage(m)
    expect_lines(m, "echo a;echo b ; echo c;", ["a", "b", "c"])
    expect_lines(m, "echo 'a;b' \\; \"c|d\"", ["a;b ; c|d"])
    for typed, token in [("echo a ;; echo b", ";;"), (";", ";"), ("; echo a", ";"),
                         ("echo a ; ; echo b", ";"), ("| wc", "|"), ("echo a |", "|"),
                         ("echo a | | wc", "|"), ("echo a |; wc", ";")]:
        expect_exact(m.command(typed), "shell: syntax error near unexpected token '%s'" % token,
                     typed)
    parse_uptime(m.command("uptime"), "uptime after the refused lines")
    heap_is_back(m, before, "the lists and the refused lines")


@test("shell_and_or")
def test_shell_and_or(m):
    """`A && B` runs B only if A's status is 0, `A || B` only if it is
    not, left to right as in sh; a pipeline's status is its last
    command's; an error, an unknown command, a redirection that cannot be
    opened and grep's no match are failures; a dangling && or || is
    refused as a dangling | is, and & (no job control) is refused."""
    before = settled_heap_usage(m)
    for typed, want in [
            ("echo a && echo b", ["a", "b"]),
            ("false && echo x", []),
            ("false || echo y", ["y"]),
            ("true || echo z", []),
            ("true && true && echo all", ["all"]),
            ("false && echo x || echo y", ["y"]),
            ("true || echo x && echo z", ["z"]),
            ("false || false; echo after", ["after"]),
            ("cat /nonexistent && echo no", ["cat: /nonexistent: No such file or directory"]),
            ("cat /nonexistent || echo yes",
             ["cat: /nonexistent: No such file or directory", "yes"]),
            ("echo a | grep a && echo piped", ["a", "piped"]),
            ("seq 3 | grep 4 || echo none", ["none"]),
            ("cat /nonexistent | wc -l && echo last", ["cat: /nonexistent: No such file or directory",
                                                       "0", "last"]),
            ("frobnicate || echo unknown", ["unknown command: frobnicate (try help)", "unknown"]),
            ("echo a > /nonexistent/f || echo refused",
             ["shell: /nonexistent/f: No such file or directory", "refused"]),
            ("sym || echo usage", ["sym: usage: sym NAME|ADDRESS", "usage"]),
            ("echo '&&' \\|\\| \"a&b\"", ["&& || a&b"])]:
        expect_lines(m, typed, want)
    # selftest's status: 0 when every case passed.
    out = m.command("selftest shell && echo all-passed", 60)
    check(out[-1:] == ["all-passed"], "`selftest shell && echo all-passed`: %s" % show(out[-3:]))
    # time's status is its command's; its real line goes to standard error.
    out = m.command("time false || echo timed")
    check(out[-1:] == ["timed"] and any(line.startswith("real") for line in out),
          "`time false || echo timed`: %s" % show(out))
    for typed, token in [("echo a &&", "&&"), ("&& echo a", "&&"), ("echo a ||", "||"),
                         ("echo a && || b", "||"), ("echo a && ; b", ";")]:
        expect_exact(m.command(typed), "shell: syntax error near unexpected token '%s'" % token,
                     typed)
    for typed in ["echo a & echo b", "echo a &"]:
        expect_exact(m.command(typed), "shell: background jobs (&) are not supported", typed)
    # A Ctrl-C ends the whole line: neither side of the || runs after it.
    out = interrupt(m, "seq 1 100000000 || echo after", r"\d+\r?\n")
    check(out[-1:] == ["^C"] and "after" not in out,
          "Ctrl-C in `seq ... || echo after`: %s" % show(out[-3:]))
    heap_is_back(m, before, "the && and || lines")


@test("pipe")
def test_pipe(m):
    """A pipeline's output goes from command to command, whatever its
    length and even when a command prints nothing or fails; a command
    redirected to a file sends nothing down the pipe; an unknown command
    anywhere in it is one line and nothing runs; the heap is back."""
    path = TOOLS_DIR + "/piped.txt"
    before = settled_heap_usage(m)
    expect_lines(m, "echo hello world | wc", ["      1       2      12"])
    expect_lines(m, "seq 20 | head -n 15 | tail -n 5 | sort -r | head -n 1", ["15"])
    expect_lines(m, "echo -n | wc -l", ["0"])
    expect_lines(m, "seq 3 | grep 4", [])
    expect_lines(m, "seq 3 | grep 4 | wc -l", ["0"])
    # An error line goes to standard error, not down the pipe.
    expect_lines(m, "cat /nope | wc -l", ["cat: /nope: No such file or directory", "0"])
    expect_lines(m, "echo x > %s | wc -c" % path, ["0"])
    expect_lines(m, "cat " + path, ["x"])
    expect_lines(m, "seq 3 | grep 2 > %s; cat %s" % (path, path), ["2"])
    expect_lines(m, "rm " + path, [])
    for typed in ["frobnicate | wc", "seq 3 | frobnicate", "seq 3 | wc | frobnicate -x"]:
        expect_exact(m.command(typed), "unknown command: frobnicate (try help)", typed)
    # The rest of the line still runs, as after any failed command.
    expect_lines(m, "frobnicate | wc; echo after",
                 ["unknown command: frobnicate (try help)", "after"])
    heap_is_back(m, before, "the pipelines")


@test("pipe_worker")
def test_pipe_worker(m):
    """`worker start 4 | wc -l`: the shell's four lines go down the pipe;
    the workers, other threads, never print into it."""
    before = settled_heap_usage(m)
    try:
        expect_lines(m, "worker start 4 | wc -l", ["4"])
        out = m.command("worker")
        check(out and out[0].startswith("worker: running"), "`worker`: %s" % show(out))
    finally:
        out = m.command("worker stop")
    check(out and out[0].startswith("worker: stopped after"), "`worker stop`: %s" % show(out))
    heap_is_back(m, before, "worker start 4 | wc -l")


@test("pipe_kallsyms")
def test_pipe_kallsyms(m):
    """`cat /proc/kallsyms | grep -w vfs_read` is nm's line for vfs_read:
    thousands of lines through a pipe, and a whole-word match."""
    elf = os.path.join("build", m.arch, "probeos.elf")
    nm = archs.binutils(m.arch, "NM", "-n", "-S", "--defined-only", elf)
    want = [kallsyms_line(addr, letter, name)
            for addr, _, letter, name in mksymtab.parse_nm(nm.splitlines()) if name == "vfs_read"]
    check(len(want) == 1, "nm: expected one vfs_read, got %s" % want)
    expect_lines(m, "cat /proc/kallsyms | grep -w vfs_read", want, 120)
    expect_lines(m, "grep -c -w vfs_read /proc/kallsyms", ["1"], 120)


# How soon a pipeline whose last stage ended early must return: its
# first stage would run for minutes if nothing stopped it, so only a
# hang-up makes this limit; the rest is room for a loaded host.
HUNG_UP_WITHIN = 10


def timed_lines(m, typed, want, within):
    """`typed` prints want, and its prompt is back within seconds."""
    start = time.monotonic()
    expect_lines(m, typed, want, within)
    took = time.monotonic() - start
    check(took < within, "`%s` took %.1f s" % (typed, took))


@test("pipe_streams")
def test_pipe_streams(m):
    """A pipeline's stages run at once, joined by bounded pipes: a last
    stage that ends early stops the ones before it, those writing and
    those waiting for input alike; the same command may run in two
    stages at once; and no thread or memory is left behind."""
    threads = len(m.command("ps"))
    before = settled_heap_usage(m)
    timed_lines(m, "seq 1 100000000 | head -n 1", ["1"], HUNG_UP_WITHIN)
    out = m.command("cat /proc/kallsyms | head -n 1", HUNG_UP_WITHIN)
    check(len(out) == 1 and re.match(r"^[0-9a-f]+ \w ", out[0]),
          "`cat /proc/kallsyms | head -n 1`: %s" % show(out))
    both = [str(n) for n in range(1, 301) if "1" in str(n) and "0" in str(n)]
    expect_lines(m, "seq 300 | grep 1 | grep 0", both)
    expect_lines(m, "seq 100000 | grep 99999 | grep 9 | wc -l", ["1"], 60)
    # cat waits in trace_pipe's read for a second record that never
    # comes: head's end must stop it.
    m.command("echo > %s/trace" % TRACING)
    m.command("echo hello > %s/trace_marker" % TRACING)
    start = time.monotonic()
    out = m.command("cat %s/trace_pipe | head -n 1" % TRACING, HUNG_UP_WITHIN)
    check(len(out) == 1 and out[0].endswith("hello") and time.monotonic() - start < HUNG_UP_WITHIN,
          "`cat trace_pipe | head -n 1`: %s" % show(out))
    for _ in range(20):
        expect_lines(m, "seq 2000 | grep 7 | tail -n 1", ["1997"])
    heap_is_back(m, before, "the pipelines")
    check(len(m.command("ps")) == threads, "threads left after the pipelines: %s" % show(m.command("ps")))


@test("ctrl_c_pipeline")
def test_ctrl_c_pipeline(m):
    """One Ctrl-C ends every stage of a running pipeline and the rest of
    its line: ^C once, the prompt back, nothing left behind."""
    threads = len(m.command("ps"))
    before = settled_heap_usage(m)
    out = interrupt_midway(m, "seq 1 100000000 | grep 7 | wc -l; echo not run")
    check(out == ["^C"], "Ctrl-C in `seq | grep 7 | wc -l`: expected only ^C, got %s" % show(out))
    expect_lines(m, "echo after", ["after"])
    heap_is_back(m, before, "the interrupted pipeline")
    check(len(m.command("ps")) == threads, "threads left after Ctrl-C: %s" % show(m.command("ps")))


GREP_LINES = ["vfs_read", "vfs_readdir", "VFS_READ x", "__vfs_read"]


@test("grep")
def test_grep(m):
    """grep's options, its regular expressions and its files, as GNU grep
    answers them; a malformed expression is GNU's one line."""
    path = TOOLS_DIR + "/grep.txt"
    before = settled_heap_usage(m)
    write_lines(m, path, GREP_LINES)
    for args, want in [("vfs_read", ["vfs_read", "vfs_readdir", "__vfs_read"]),
                       ("-w vfs_read", ["vfs_read"]),
                       ("-iw vfs_read", ["vfs_read", "VFS_READ x"]),
                       ("-i -w vfs_read", ["vfs_read", "VFS_READ x"]),
                       ("-c vfs", ["3"]),
                       ("-vc vfs", ["1"]),
                       ("-v 'read$'", ["vfs_readdir", "VFS_READ x"]),
                       ("'^v.*\\(dir\\|read\\)$'", ["vfs_read", "vfs_readdir"]),
                       ("'^[[:alpha:]]\\{3\\}_'", ["vfs_read", "vfs_readdir", "VFS_READ x"]),
                       ("-E '^(_|V)+'", ["VFS_READ x", "__vfs_read"]),
                       ("-E 'dir$|x$'", ["vfs_readdir", "VFS_READ x"]),
                       ("-e -x", []),
                       ("dir -c", ["1"])]:
        expect_lines(m, "grep %s %s" % (args, path), want)
        expect_lines(m, "cat %s | grep %s" % (path, args), want)
    expect_lines(m, "grep -c vfs %s /etc/hostname" % path, ["%s:3" % path, "/etc/hostname:0"])
    expect_lines(m, "grep dir %s /nope" % path,
                 ["%s:vfs_readdir" % path, "grep: /nope: No such file or directory"])
    expect_lines(m, "grep x /etc", ["grep: /etc: Is a directory"])
    for pattern, msg in [("'a\\('", "Unmatched ( or \\("), ("-E '(a'", "Unmatched ( or \\("),
                         ("'a\\)'", "Unmatched ) or \\)"),
                         ("'[[:digit:]'", "Unmatched [, [^, [:, [., or [="),
                         ("'a\\{2,1\\}'", "Invalid content of \\{\\}"),
                         ("'[[:foo:]]'", "Invalid character class name"),
                         ("'[b-a]'", "Invalid range end"), ("'x\\'", "Trailing backslash"),
                         # GNU's regex compiler refuses before its DFA, and
                         # takes a ) after a leading * for a literal.
                         ("'[:alpha:]\\('", "Unmatched ( or \\("),
                         ("'a\\<\\{'", "invalid content of \\{\\}"),
                         ("-E '(*)'", "Unmatched ( or \\(")]:
        expect_exact(m.command("grep %s %s" % (pattern, path)), "grep: " + msg, "grep " + pattern)
    usage = "grep: usage: grep [-cEivw] [-e PATTERN | PATTERN] [FILE]..."
    for typed in ["grep", "grep -q x", "grep --count x", "grep -e"]:
        expect_exact(m.command(typed), usage, typed)
    expect_lines(m, "rm " + path, [])
    heap_is_back(m, before, "grep and its refusals")


# -- typed lines whose depth is the input's (issue 35) ----------------
# Each used to recurse once per level until the shell's stack ran out.


@test("time_nested")
def test_time_nested(m):
    """`time time X` times X once, with one real line, as bash does; a
    line of 400 `time` words is no deeper than one."""
    before = settled_heap_usage(m)
    real = re.compile(r"^real\s+\d+m\d+\.\d{3}s$")
    for times in (1, 3, 400):
        typed = "time " * times + "uptime"
        out = m.command(typed, 60)
        reals = [line for line in out if real.match(line)]
        check(len(reals) == 1, "`time` x%d uptime: expected one real line, got %s"
              % (times, show(out)))
        parse_uptime(out, "time x%d uptime" % times)
    expect_exact(m.command("time time"), "time: usage: time COMMAND [ARGS...]", "time time")
    answers_and_heap_is_back(m, before, "400 nested times")


@test("grep_nested_groups")
def test_grep_nested_groups(m):
    """Groups nest 32 deep (REGEX_MAX_DEPTH), in an ERE and a BRE; one
    more, or a thousand, is one line, not a compiler off its stack."""
    path = TOOLS_DIR + "/nested.txt"
    before = settled_heap_usage(m)
    write_lines(m, path, ["xax", "xbx"])
    # A BRE's \( is two characters: 900 of them and their \) fill most
    # of a 4,096-character line.
    for ere, opening, closing, most in ((True, "(", ")", 1000), (False, "\\(", "\\)", 900)):
        flag = "-E " if ere else ""
        for depth, want in ((32, ["xax"]), (33, ["grep: Groups nested too deep"]),
                            (most, ["grep: Groups nested too deep"])):
            pattern = opening * depth + "a" + closing * depth
            typed = "grep %s'%s' %s" % (flag, pattern, path)
            expect_lines(m, typed, want)
    expect_lines(m, "rm " + path, [])
    answers_and_heap_is_back(m, before, "grep with 1,000 nested groups")


HOSTNAME = "/etc/hostname"


@test("sysctl_bad_names")
def test_sysctl_bad_names(m):
    """A sysctl name is parts split by single dots or slashes: repeated,
    leading or trailing separators are refused (no part is ".."), so no
    name leaves /proc/sys and /etc/hostname stays as it was."""
    before = settled_heap_usage(m)
    hostname = m.command("cat " + HOSTNAME)
    repeated = "sysctl: separators should not be repeated: "
    at_end = "sysctl: a name may not start or end with a separator: "
    for typed, name, why in [
            ("sysctl -w //.//.etc.hostname=pwned", "//.//.etc.hostname", at_end),
            ("sysctl -w debug//..//..//etc/hostname=pwned", "debug//..//..//etc/hostname",
             repeated),
            ("sysctl -w debug/./../../etc/hostname=pwned", "debug/./../../etc/hostname",
             repeated),
            ("sysctl debug..x", "debug..x", repeated),
            ("sysctl .debug", ".debug", at_end),
            ("sysctl debug/", "debug/", at_end),
            ("sysctl -w ..=1", "..", at_end)]:
        expect_exact(m.command(typed), why + name, typed)
    check(m.command("cat " + HOSTNAME) == hostname,
          "%s changed by the refused names: %s" % (HOSTNAME, show(m.command("cat " + HOSTNAME))))
    expect_exact(m.command("sysctl debug/nope"),
                 "sysctl: cannot stat /proc/sys/debug/nope: No such file or directory",
                 "sysctl debug/nope")
    answers_and_heap_is_back(m, before, "the refused sysctl names")


@test("head_tail")
def test_head_tail(m):
    """head and tail: -n N, -nN, -N, tail's +N, 10 by default, a header
    per file when there are several, and their errors."""
    path = TOOLS_DIR + "/twelve.txt"
    check(m.command("seq 12 > " + path) == [], "seq > FILE printed something")
    numbers = [str(n) for n in range(1, 13)]
    for typed, want in [("head %s" % path, numbers[:10]), ("seq 12 | head", numbers[:10]),
                        ("seq 12 | head -n 2", ["1", "2"]), ("seq 12 | head -n2", ["1", "2"]),
                        ("seq 12 | head -2", ["1", "2"]), ("seq 12 | head -n 0", []),
                        ("head %s -n 1" % path, ["1"]),
                        ("tail %s" % path, numbers[2:]), ("seq 12 | tail -n 2", ["11", "12"]),
                        ("seq 12 | tail -3", ["10", "11", "12"]),
                        ("seq 12 | tail -n +11", ["11", "12"]),
                        ("seq 2 | tail -n 5", ["1", "2"]),
                        ("head -n 1 %s %s" % (path, path),
                         ["==> %s <==" % path, "1", "", "==> %s <==" % path, "1"]),
                        ("tail -n 1 %s %s" % (path, path),
                         ["==> %s <==" % path, "12", "", "==> %s <==" % path, "12"]),
                        ("head -n x", ["head: invalid number of lines: 'x'"]),
                        ("tail -n +x", ["tail: invalid number of lines: '+x'"]),
                        ("head -c 3", ["head: usage: head [-n N] [FILE]..."]),
                        ("tail -f", ["tail: usage: tail [-n [+]N] [FILE]..."]),
                        ("head /nope",
                         ["head: cannot open '/nope' for reading: No such file or directory"]),
                        ("tail /nope",
                         ["tail: cannot open '/nope' for reading: No such file or directory"])]:
        expect_lines(m, typed, want)
    expect_lines(m, "rm " + path, [])


@test("wc")
def test_wc(m):
    """wc's counts and GNU's columns: 7 wide from a pipe, one count alone
    unpadded, as wide as the files' sizes added up for files."""
    one, two = TOOLS_DIR + "/wc1.txt", TOOLS_DIR + "/wc2.txt"
    write_lines(m, one, ["one two", " three "])      # 2 lines, 3 words, 16 bytes
    write_lines(m, two, ["x"] * 50)                  # 50 lines and words, 100 bytes
    for typed, want in [("seq 10 | wc -l", ["10"]), ("seq 10 | wc -c", ["21"]),
                        ("seq 10 | wc", ["     10      10      21"]),
                        ("seq 10 | wc -lw", ["     10      10"]),
                        ("seq 10 | wc -cl", ["     10      21"]),
                        ("wc -l " + one, ["2 " + one]),
                        ("wc " + one, [" 2  3 16 " + one]),
                        ("wc -w %s %s" % (one, two), ["  3 " + one, " 50 " + two, " 53 total"]),
                        ("wc /nope", ["wc: /nope: No such file or directory"]),
                        ("wc -m", ["wc: usage: wc [-clw] [FILE]..."])]:
        expect_lines(m, typed, want)
    expect_lines(m, "rm %s %s" % (one, two), [])


@test("sort")
def test_sort(m):
    """sort, -n as GNU reads numbers, -r, and 100,000 lines (a merge sort,
    not a quadratic one); the heap is back."""
    path = TOOLS_DIR + "/sort.txt"
    write_lines(m, path, ["10", " 4", "-2", "+5", "abc", "1.5", "1.10", "B", "a"])
    expect_lines(m, "sort " + path, [" 4", "+5", "-2", "1.10", "1.5", "10", "B", "a", "abc"])
    expect_lines(m, "sort -n " + path, ["-2", "+5", "B", "a", "abc", "1.10", "1.5", " 4", "10"])
    expect_lines(m, "cat %s | sort -rn" % path,
                 ["10", " 4", "1.5", "1.10", "abc", "a", "B", "+5", "-2"])
    expect_lines(m, "sort -n /nope", ["sort: cannot read: /nope: No such file or directory"])
    expect_lines(m, "sort -k 1", ["sort: usage: sort [-nr] [FILE]..."])
    expect_lines(m, "rm " + path, [])
    before = settled_heap_usage(m)
    expect_lines(m, "seq 100000 | sort -r | head -n 3", ["99999", "99998", "99997"], 120)
    expect_lines(m, "seq 100000 | sort -rn | tail -n 2", ["2", "1"], 120)
    expect_lines(m, "seq 100000 | sort | uniq | wc -l", ["100000"], 120)
    heap_is_back(m, before, "sorting 100,000 lines")


@test("uniq")
def test_uniq(m):
    path = TOOLS_DIR + "/uniq.txt"
    write_lines(m, path, ["a", "a", "b", "a"])
    expect_lines(m, "uniq " + path, ["a", "b", "a"])
    expect_lines(m, "cat %s | uniq -c" % path, ["      2 a", "      1 b", "      1 a"])
    expect_lines(m, "sort %s | uniq -c" % path, ["      3 a", "      1 b"])
    expect_lines(m, "uniq /nope", ["uniq: /nope: No such file or directory"])
    expect_lines(m, "uniq %s %s" % (path, path), ["uniq: usage: uniq [-c] [FILE]"])
    expect_lines(m, "uniq -d", ["uniq: usage: uniq [-c] [FILE]"])
    expect_lines(m, "rm " + path, [])


@test("seq")
def test_seq(m):
    for typed, want in [("seq 3", ["1", "2", "3"]), ("seq 2 4", ["2", "3", "4"]),
                        ("seq 10 -4 1", ["10", "6", "2"]), ("seq -1 1", ["-1", "0", "1"]),
                        ("seq 5 1", []),
                        ("seq 1 0 5", ["seq: invalid Zero increment value: '0'"]),
                        ("seq 1.5", ["seq: invalid integer argument: '1.5'"]),
                        ("seq", ["seq: usage: seq [FIRST [INCREMENT]] LAST"])]:
        expect_lines(m, typed, want)


def interrupt(m, typed, started):
    """Type typed, wait until started (a regex) shows it runs, press
    Ctrl-C; returns the lines printed from then to the prompt."""
    m.send(typed + "\r")
    m.wait_for(started, COMMAND_TIMEOUT)
    m.send(b"\x03")
    try:
        return m.wait_prompt(COMMAND_TIMEOUT, echo=False)
    except qemu.Timeout:
        raise qemu.Timeout("no prompt after Ctrl-C in `%s`" % typed)


@test("ctrl_c_command")
def test_ctrl_c_command(m):
    """Ctrl-C stops a long pipeline and a long command at their next
    check; the shell prints ^C and its prompt, the rest of the line is
    not run, and the kernel lives with its heap back."""
    before = settled_heap_usage(m)
    # Nothing shows that a pipeline runs: it has started once its line
    # is echoed (a Ctrl-C that came before would stop it all the same).
    out = interrupt(m, "seq 1 100000000 | wc -l; echo not run", re.escape("; echo not run") + "\n")
    check(out[-1:] == ["^C"] and not [line for line in out if "not run" in line],
          "Ctrl-C in `seq 1 100000000 | wc -l`: expected ^C, got %s" % show(out[-3:]))
    out = interrupt(m, "seq 1 100000000", r"\n1\r?\n")
    check(out[-1:] == ["^C"] and all(re.match(r"^\d+$", line) for line in out[:-1]),
          "Ctrl-C in `seq 1 100000000`: expected numbers, then ^C, got %s" % show(out[-3:]))
    parse_uptime(m.command("uptime"), "uptime after Ctrl-C")
    heap_is_back(m, before, "the interrupted commands")


# How soon after a Ctrl-C a command's prompt must be back. A command
# looks for it every few milliseconds of its work, so on an idle machine
# the prompt is back well within a second; the rest is room for a loaded
# host (two test parts at once on two cores). The inputs are long enough
# that a command which looked only between lines would miss the limit.
STOPPED_WITHIN = 10.0


def one_line_file(m, path, doublings):
    """Make path one line of 4,000 a's doubled doublings times (no
    newline), by cat: `cat W > H; cat H >> W` doubles W."""
    half = path + ".half"
    expect_lines(m, "echo -n %s > %s" % ("a" * 4000, path), [])
    for _ in range(doublings):
        expect_lines(m, "cat {w} > {h}; cat {h} >> {w}".format(w=path, h=half), [], 60)
    expect_lines(m, "rm " + half, [])


def interrupt_midway(m, typed, busy=1.0):
    """Type typed, let it work busy seconds, press Ctrl-C; checks the
    prompt is back within STOPPED_WITHIN seconds after ^C and returns
    the lines printed."""
    shown = typed if len(typed) < 70 else typed[:60] + "..."
    m.send(typed + "\r")
    m.wait_for(re.escape(typed[-20:]) + "\r?\n", COMMAND_TIMEOUT)
    time.sleep(busy)
    m.send(b"\x03")
    sent = time.monotonic()
    try:
        out = m.wait_prompt(STOPPED_WITHIN, echo=False)
    except qemu.Timeout:
        raise qemu.Timeout("no prompt within %g s of Ctrl-C in `%s`" % (STOPPED_WITHIN, shown))
    info("`%s`: the prompt %.2f s after Ctrl-C" % (shown, time.monotonic() - sent))
    check(out[-1:] == ["^C"], "Ctrl-C in `%s`: expected ^C last, got %s" % (shown, show(out[-3:])))
    return out


@test("ctrl_c_long_work")
def test_ctrl_c_long_work(m):
    """Ctrl-C stops grep within one long line (its matcher asks every few
    characters), wc within a big file and between files, and sort within
    a merge pass; none prints a result, the shell answers and the heap
    is back."""
    line = TOOLS_DIR + "/one-line"
    lines = TOOLS_DIR + "/many-lines"
    one_line_file(m, line, 11)	# 8,192,000 bytes, one line
    expect_lines(m, "seq 1 400000 > " + lines, [], 60)
    before = settled_heap_usage(m)
    # Slow patterns, and the Ctrl-C soon after the start, so that it comes
    # while the matcher is still on the line: `grep -v b` found no b in
    # under a second on aarch64 and was printing the line when it came.
    for typed in ["grep -c '\\(a\\|aa\\)*b' " + line, "grep -v '\\(a\\|aa\\)*b' " + line,
                  "grep -E -c 'a{5}b|\\<b' " + line]:
        out = interrupt_midway(m, typed, 0.3)
        check(out == ["^C"], "Ctrl-C in `%s`: expected only ^C, got %s" % (typed, show(out[-3:])))
    out = interrupt_midway(m, "wc " + " ".join([line] * 40))
    check(not [text for text in out if "total" in text],
          "Ctrl-C in `wc` of 40 files: the total was printed: %s" % show(out[-3:]))
    out = interrupt_midway(m, "sort -rn %s > %s.sorted" % (lines, lines), 0.5)
    check(out == ["^C"], "Ctrl-C in `sort -rn`: expected only ^C, got %s" % show(out[-3:]))
    parse_uptime(m.command("uptime"), "uptime after Ctrl-C")
    expect_lines(m, "rm %s.sorted" % lines, [])	# made by the redirection
    heap_is_back(m, before, "the interrupted commands")
    expect_lines(m, "rm %s %s" % (line, lines), [])


@test("history")
def test_history(m):
    parse_uptime(m.command("uptime"))
    m.send(b"\x1b[A\r")
    parse_uptime(m.wait_prompt(COMMAND_TIMEOUT), "<Up><Enter> after uptime")


@test("tab")
def test_tab(m):
    # A TAB separates words, as a space does.
    m.send(b"ls\t/\r")
    out = m.wait_prompt(COMMAND_TIMEOUT)
    check("etc/" in words(out), "`ls<TAB>/`: expected the listing of / with an entry 'etc/',"
          " got %s" % show(out))


# -- probes ---------------------------------------------------------------

PROBE_ADDED = re.compile(r"^probe (\d+): ([kjr]) (\S+) at 0x([0-9a-f]{16})$")
# The vfs_read calls of one `cat` of a file shorter than 512 bytes
# (/etc/motd, /etc/hostname): one that reads it and one that finds its
# end, since cat reads until vfs_read returns 0, as Unix cat does.
CAT_READS = 2


def probe_add_result(out, kind, where):
    """Check the output of `probe add`; returns (number, address)."""
    found = PROBE_ADDED.match(out[0]) if len(out) == 1 else None
    check(found and found.group(2) == kind and found.group(3) == where,
          "`probe add`: expected 'probe N: %s %s at 0x...', got %s" % (kind, where, show(out)))
    return int(found.group(1)), found.group(4)


def probe_add(m, args, kind, where):
    """`probe add ARGS`; returns (number, address) after checking the line."""
    return probe_add_result(m.command("probe add " + args), kind, where)


def probe_list_line(m, addr, kind, where, with_optimized=True):
    """The `probe list` line of one probe the shell added: (flags, hits,
    missed). The line starts with the probe's number and ends with its
    owner, the shell. The optimizer may add [OPTIMIZED] at any moment;
    with_optimized=False leaves it out of the flags for tests about other
    flags."""
    out = m.command("probe list")
    pattern = re.compile(r"^\d+  %s  %s  %s((?:  \[[A-Z]+\])*)  hits=(\d+) missed=(\d+)"
                         r"  owner=shell$" % (addr, kind, re.escape(where)))
    for line in out:
        found = pattern.match(line)
        if found:
            flags = [f for f in found.group(1).split() if with_optimized or f != "[OPTIMIZED]"]
            return flags, int(found.group(2)), int(found.group(3))
    raise TestFailure("`probe list`: no line for %s %s %s in %s"
                      % (addr, kind, where, show(out, 10)))


@test("probe_add_del")
def test_probe_add_del(m):
    """The shortest round trip: a probe hit once, then every probe gone.
    (With --smp, the same while the other CPUs are up.)"""
    expect_exact(m.command("probe list"), "no probes", "probe list")
    _, addr = probe_add(m, "vfs_read", "k", "vfs_read+0x0")
    out = m.command("cat /etc/motd")
    check(any("ProbeOS" in line for line in out), "cat with a probe: %s" % show(out))
    _, hits, missed = probe_list_line(m, addr, "k", "vfs_read+0x0")
    check(hits == CAT_READS and missed == 0, "after one `cat /etc/motd`: expected hits=%d"
          " missed=0, got hits=%d missed=%d" % (CAT_READS, hits, missed))
    expect_exact(m.command("probe del all"), "probe: removed 1 probes", "probe del all")
    expect_exact(m.command("probe list"), "no probes", "probe list")


PASTE_PAIRS = 500      # pairs of `probe add` and `probe del` lines: 16 KB, 16 input rings
PASTE_TIMEOUT = 60     # for all of them to run, with room for a loaded host
# The first pasted line: a command that keeps the shell busy for a known
# while (bench scale's 9 rows of MS ms each, per 1, 2 or 4 CPUs). On one
# CPU the shell runs `probe add` and `probe del` faster than QEMU passes
# the bytes on, and the input ring would never fill; behind this command
# the whole paste piles up.
PASTE_FIRST = "bench scale 100"


@test("paste")
def test_paste(m):
    """Pasted input is never lost: a slow command (PASTE_FIRST), then 500
    pairs of `probe add vfs_read` and `probe del vfs_read`, then `uptime`,
    in ONE write (Machine.paste), far more than the console's 1 KiB input
    ring holds. The kernel must stop taking bytes from the UART while the
    ring is full (flow control, kernel/console.c), so that QEMU holds the
    rest back: every line must run, in order, and no probe be left. (The
    pairs name the place, not the number: the bench registers probes of
    its own, which take numbers before the pasted ones.)"""
    first, addr = probe_add(m, "vfs_read", "k", "vfs_read+0x0")
    expect_exact(m.command("probe del %d" % first), "probe %d: removed" % first,
                 "probe del %d" % first)
    block = PASTE_FIRST + "\r" + "probe add vfs_read\rprobe del vfs_read\r" * PASTE_PAIRS + "uptime\r"
    start = m.mark
    began = time.monotonic()
    m.paste(block)

    def counts():
        got = m.screen.lines[start:]
        added = sum(1 for line in got if PROBE_ADDED.match(line))
        removed = sum(1 for line in got if re.match(r"^probe \d+: removed$", line))
        return "%d probes added and %d removed of %d" % (added, removed, PASTE_PAIRS)

    try:
        m.wait_for(UPTIME.pattern, PASTE_TIMEOUT)
        m.wait_prompt(COMMAND_TIMEOUT, echo=False)
    except qemu.Timeout as e:
        # Lost bytes usually took the final `uptime` with them.
        raise qemu.Timeout("%s after pasting %d bytes; %s" % (e, len(block), counts()))
    info("%d bytes pasted, all run in %.1f s" % (len(block), time.monotonic() - began))
    got = m.screen.lines[start:]
    done = got.index("bench: done") + 1 if "bench: done" in got else 0
    check(done and got[0] == qemu.PROMPT + PASTE_FIRST and
          all(line.startswith("bench: ") for line in got[1:done]),
          "pasted `%s`: expected its echo, then lines 'bench: ...' up to 'bench: done', got %s"
          % (PASTE_FIRST, show(got[:done or 3])))
    got = got[done:]
    # Each line's echo and output, in order; then the output of uptime.
    # The pasted probes take consecutive numbers, after the first probe's
    # and the bench's.
    added = PROBE_ADDED.match(got[1]) if len(got) > 1 else None
    check(added and int(added.group(1)) > first,
          "the first pasted `probe add`: expected 'probe N: ...' with N > %d, got %s"
          % (first, show(got[:2])))
    want = []
    for n in range(int(added.group(1)), int(added.group(1)) + PASTE_PAIRS):
        want += [qemu.PROMPT + "probe add vfs_read", "probe %d: k vfs_read+0x0 at 0x%s" % (n, addr),
                 qemu.PROMPT + "probe del vfs_read", "probe %d: removed" % n]
    want.append(qemu.PROMPT + "uptime")
    wrong = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), len(want))
    check(wrong == len(want) and len(got) == len(want) + 1,
          "pasted lines: %s; expected %d lines of echo and output after `%s`, got %d; the"
          " first wrong one, line %d: expected %s, got %s"
          % (counts(), len(want) + 1, PASTE_FIRST, len(got), wrong, show(want[wrong:wrong + 2]),
             show(got[wrong:wrong + 2])))
    parse_uptime(got[-1:], "the pasted uptime")
    expect_exact(m.command("probe list"), "no probes", "probe list after the paste")


@test("probe_kprobe")
def test_probe_kprobe(m):
    expect_exact(m.command("probe list"), "no probes", "probe list")
    number, addr = probe_add(m, "vfs_read", "k", "vfs_read+0x0")
    m.command("cat /etc/motd")
    flags, hits, missed = probe_list_line(m, addr, "k", "vfs_read+0x0", False)
    # vfs_read's entry is its call site: the probe rides on it.
    check(flags == ["[FTRACE]"] and hits == CAT_READS and missed == 0,
          "after one `cat /etc/motd`: expected [FTRACE], hits=%d missed=0, got flags %s hits=%d"
          " missed=%d"
          % (CAT_READS, flags, hits, missed))
    # Disable one probe: [DISABLED], and hits stop.
    expect_exact(m.command("probe off vfs_read"), "probe %d: disabled" % number, "probe off")
    m.command("cat /etc/motd")
    flags, hits, _ = probe_list_line(m, addr, "k", "vfs_read+0x0", False)
    check(flags == ["[DISABLED]", "[FTRACE]"] and hits == CAT_READS,
          "disabled probe: expected [DISABLED] and hits=%d, got %s hits=%d"
          % (CAT_READS, flags, hits))
    expect_exact(m.command("probe on vfs_read"), "probe %d: enabled" % number, "probe on")
    m.command("cat /etc/motd")
    _, hits, _ = probe_list_line(m, addr, "k", "vfs_read+0x0")
    check(hits == 2 * CAT_READS, "re-enabled probe: expected hits=%d, got %d"
          % (2 * CAT_READS, hits))
    # The global knob.
    expect_exact(m.command("probe off"), "probes disarmed", "probe off")
    out = m.command("probe list")
    check(out and out[0] == "probes disarmed",
          "`probe list` when disarmed: expected first line 'probes disarmed', got %s" % show(out))
    m.command("cat /etc/motd")
    flags, hits, _ = probe_list_line(m, addr, "k", "vfs_read+0x0", False)
    check(hits == 2 * CAT_READS and flags == ["[FTRACE]"], "globally disarmed: expected"
          " hits=%d and [FTRACE] alone, got %s hits=%d" % (2 * CAT_READS, flags, hits))
    expect_exact(m.command("probe on"), "probes armed", "probe on")
    m.command("cat /etc/motd")
    _, hits, _ = probe_list_line(m, addr, "k", "vfs_read+0x0")
    check(hits == 3 * CAT_READS, "re-armed: expected hits=%d, got %d" % (3 * CAT_READS, hits))
    out = m.command("probe show %d" % number)
    text = {line.split()[0]: line.split()[1:] for line in out if line.strip()}
    check("original" in text and "live" in text and text["original"] != text["live"],
          "`probe show` of an armed probe: expected original and live bytes that differ,"
          " got %s" % show(out, 12))
    check(text.get("hits") == [str(3 * CAT_READS)], "`probe show`: expected 'hits %d', got %s"
          % (3 * CAT_READS, show(out, 12)))


@test("probe_kretprobe_jprobe_trace")
def test_probe_ret_and_jprobe(m):
    expect_exact(m.command("trace clear"), "trace: cleared", "trace clear")
    rnum, _ = probe_add(m, "-r maxactive=4 vfs_read", "r", "vfs_read+0x0")
    jnum, _ = probe_add(m, "-j vfs_read", "j", "vfs_read+0x0")
    expect_exact(m.command("probe add -j vfs_read"), "probe: vfs_read already has a jprobe",
                 "second jprobe")
    out = m.command("cat /etc/hostname")
    check(out == ["probeos"], "`cat /etc/hostname` with probes: expected 'probeos', got %s"
          % show(out))
    out, _, lost = trace_output(m)
    ret = [l for l in out if ("#%d r vfs_read+0x0/" % rnum) in l]
    jp = [l for l in out if ("#%d j vfs_read+0x0/" % jnum) in l]
    # One record per vfs_read of the cat: the one that read the 8 bytes,
    # and the one that found the end.
    check(len(ret) == CAT_READS and "ret=0x8 (8)" in ret[0] and "ret=0x0 (0)" in ret[1],
          "`trace`: expected two kretprobe records, with ret=0x8 (8) and ret=0x0 (0), got %s"
          % show(out, 10))
    # The duration is measured from the call's entry (the shell's
    # entry_handler stores the start in the instance's data). Without
    # that start it would be the whole cycle count since boot, so a
    # duration below half of the counter read afterwards shows it is one
    # call's.
    cycles = parse_uptime(m.command("uptime"), group=3)
    took = re.search(r"after (\d+) cycles", ret[0])
    check(took and 0 < int(took.group(1)) < cycles // 2,
          "`trace`: expected the call's duration 'after N cycles' with 0 < N < %d"
          " (half the counter's %d), got %s" % (cycles // 2, cycles, show(ret)))
    check(len(jp) == CAT_READS and all(" 0x200 " in j and "shell(" in j for j in jp),
          "`trace`: expected two jprobe records in the shell with count 0x200,"
          " got %s" % show(out, 10))
    check(lost == 0, "`trace`: expected 0 lost, got %d" % lost)
    out = m.command("probe show %d" % rnum)
    check(any("instances 0 in use, 4 free" in line for line in out),
          "`probe show` of a kretprobe: expected 'instances 0 in use, 4 free', got %s"
          % show(out, 12))
    check_vfs_read_entry(m, jnum)


def show_field(out, name):
    """The rest of the `probe show` line that starts with name, or None."""
    for line in out:
        if line.split()[:1] == [name]:
            return line.split(None, 1)[1]
    return None


def check_vfs_read_entry(m, jnum):
    """vfs_read's first byte is its function-tracer call site: the
    jprobe there is [FTRACE], its `probe show` says the site calls it
    with no trap; a kprobe with a post-handler (`probe add -a`) shares the
    point and its post-handler runs once per hit, with nothing stepped."""
    out = m.command("probe show %d" % jnum)
    insn, path = show_field(out, "insn"), show_field(out, "path")
    check(out[:1] and out[0].endswith(" [FTRACE]") and insn and "call site" in insn and
          path and path.startswith("ftrace:"),
          "`probe show` of the jprobe on vfs_read: expected [FTRACE], an insn line about the"
          " call site and 'path ftrace: ...', got %s" % show(out, 12))
    pnum, _ = probe_add(m, "-a vfs_read", "k", "vfs_read+0x0")
    m.command("cat /etc/hostname")
    out = m.command("probe show %d" % pnum)
    hits, post = show_field(out, "hits"), show_field(out, "post")
    check(post and hits and post.split()[0] == hits and int(hits) > 0 and
          (show_field(out, "path") or "").startswith("ftrace:"),
          "`probe show` of a post-handler probe on vfs_read: expected as many post-handler"
          " runs as hits, on ftrace, got %s" % show(out, 12))
    expect_exact(m.command("probe del %d" % pnum), "probe %d: removed" % pnum, "probe del")


@test("probe_worker")
def test_probe_worker(m):
    out = m.command("worker start")
    check(out and out[0].startswith("worker: started"), "`worker start`: got %s" % show(out))
    try:
        time.sleep(1)
        out = m.command("trace")
        check(any("worker(" in line for line in out),
              "`trace` with the worker running: expected records from the worker thread,"
              " got %s" % show(out[-5:]))
        first = m.command("probe list")
        time.sleep(1)
        second = m.command("probe list")
        hits = lambda lines: [int(l.split("hits=")[1].split()[0]) for l in lines if "hits=" in l]
        check(hits(first) and len(hits(second)) == len(hits(first)) and
              all(b > a for a, b in zip(hits(first), hits(second))),
              "hits should grow while the worker runs: %s then %s"
              % (show(first), show(second)))
    finally:
        m.command("worker stop")


@test("probe_errors")
def test_probe_errors(m):
    cases = [
        ("probe add vfs_raed", "probe: no symbol 'vfs_raed'"),
        ("probe add text_poke", "probe: text_poke is blacklisted"),
        ("probe del 77", "probe: no probe 77"),
        ("probe show 77", "probe: no probe 77"),
        ("probe off 77", "probe: no probe 77"),
        ("probe add -r vfs_read+0x3", "probe: a kretprobe must be at a function's entry"),
        ("probe add vfs_read+zz", "probe: bad location 'vfs_read+zz' (SYMBOL or SYMBOL+OFFSET)"),
        ("probe show vfs_read+zz", "probe: bad location 'vfs_read+zz' (SYMBOL or SYMBOL+OFFSET)"),
        ("probe show vfs_raed+0x4", "probe: no symbol 'vfs_raed'"),
        ("probe add kernel_symtab", "probe: kernel_symtab+0x0 is not in a function"),
    ]
    for cmd, want in cases:
        expect_exact(m.command(cmd), want, cmd)
    # Past the end of vfs_read is some other function: refused, with
    # vfs_read's size (which depends on the compiler).
    # A TARGET there names no probe, and says why the same way.
    for cmd in ("probe add vfs_read+0x100000", "probe show vfs_read+0x100000"):
        out = m.command(cmd)
        check(len(out) == 1 and re.fullmatch(
            r"probe: vfs_read\+0x100000 is past the end of vfs_read \(0x[0-9a-f]+ bytes\)",
            out[0]), "`%s`: expected 'past the end of vfs_read', got %s" % (cmd, show(out)))
    # The call site's bytes are refused as its own. Past it, some offset
    # of the next few bytes is inside an instruction; which one depends
    # on the compiler, so try them. Boundaries are accepted, and removed
    # again.
    site = archs.testdata(m.arch).FTRACE_SITE_SIZE
    expect_exact(m.command("probe add vfs_read+0x1"), "probe: vfs_read+0x1 is inside its call"
                 " site (a probe at vfs_read+0x0 rides on the site)", "probe add vfs_read+0x1")
    refused = False
    for offset in range(site + 1, site + 5):
        where = "vfs_read+0x%x" % offset
        out = m.command("probe add " + where)
        if out == ["probe: %s is not an instruction boundary" % where]:
            refused = True
        else:
            number, _ = probe_add_result(out, "k", where)
            # A number that only matches when cut to 32 bits.
            alias = number + (1 << 32)
            expect_exact(m.command("probe show %d" % alias), "probe: no probe %d" % alias,
                         "probe show")
            expect_exact(m.command("probe del %d" % number),
                         "probe %d: removed" % number, "probe del")
    check(refused, "no offset of vfs_read+0x%x..0x%x was refused as not an instruction boundary"
          % (site + 1, site + 4))
    # A wrong use prints every form of the command, the first after
    # "NAME: usage: " and the others lined up under it.
    lead = " " * len("probe: usage: ")
    probe_usage = ["probe: usage: probe add [-r [maxactive=N] | -j | -a] [-p] SYMBOL[+OFFSET]"] + [
        lead + "probe " + form for form in
        ("list", "on|off [TARGET]", "optimize on|off", "del TARGET|all", "show [TARGET]")]
    for cmd, want in (("probe", probe_usage), ("probe frob", probe_usage),
                      ("probe add -x vfs_read", probe_usage),
                      ("trace frob", ["trace: usage: trace [clear]"])):
        expect_lines_exactly(m, cmd, want)
    out = m.command("uptime")
    parse_uptime(out)


@test("probe_many_at_one_place")
def test_probe_many_at_one_place(m):
    # A target acts on at most 32 probes, and says so when more match.
    for _ in range(33):
        probe_add(m, "vfs_write", "k", "vfs_write+0x0")
    out = m.command("probe del vfs_write")
    removed = [line for line in out if line.endswith(": removed")]
    check(len(removed) == 32 and
          "probe: 33 probes match vfs_write; only the first 32 are taken" in out,
          "`probe del vfs_write` with 33 probes: expected 32 removed and a note, got %s"
          % show(out))
    out = m.command("probe del vfs_write")
    check(len(out) == 1 and out[0].endswith(": removed"),
          "second `probe del vfs_write`: expected the last one removed, got %s" % show(out))


@test("probe_del")
def test_probe_del(m):
    out = m.command("probe del vfs_read")
    check(len(out) == 3 and all(line.endswith(": removed") for line in out),
          "`probe del vfs_read`: expected three 'probe N: removed' lines, got %s" % show(out))
    expect_exact(m.command("probe list"), "no probes", "probe list")
    out = m.command("cat /etc/motd")
    check(any("ProbeOS" in line for line in out), "cat after removing the probes: %s" % show(out))


@test("probe_contradictory_flags")
def test_probe_contradictory_flags(m):
    """`probe add` refuses flags that ask for two kinds of probe, or a
    kretprobe's maxactive= for another kind, in one line, and adds
    nothing."""
    contradict = "probe: -r and -j contradict each other: a probe is a kretprobe or a jprobe"
    for cmd in ("probe add -j -r vfs_read", "probe add -r -j vfs_read"):
        expect_exact(m.command(cmd), contradict, cmd)
    cmd = "probe add -j maxactive=4 vfs_read"
    expect_exact(m.command(cmd), "probe: maxactive= is for kretprobes (-r) only", cmd)
    expect_exact(m.command("probe list"), "no probes", "probe list")


# -- probes in code that holds a lock -----------------------------------------
#
# A hit used to take locks: the probe table's, the kretprobe instances',
# the trace's, the console's. A probe in code that held one of them, on
# the same CPU, then spun for ever on it: `probe add` of such a place,
# or a command that ran through it, never answered. The tests below run
# such sequences (and a printing probe, whose hits print where the
# console's lock is held); the kernel must answer every command, with
# the right output. (objdump, elf_functions and disassembly are with the
# trace tests below.)

def unique_functions(m):
    """{name: size} of the kernel's functions, but for names it has twice
    (`probe add` could not tell which is meant)."""
    found = elf_functions(m, "build/%s/probeos.elf" % m.arch)
    return {name: sizes[0] for name, sizes in found.items() if len(sizes) == 1}


@test("hang_wait_queue_wait")
def test_hang_wait_queue_wait(m):
    """A probe on every instruction of wait_queue_wait, then a probe on
    vfs_read, which wakes the optimizer thread, and a `cat`. Threads
    sleep in wait_queue_wait (the shell, the optimizer, the rcu thread)
    and come back out of it holding the lock they passed it, so the
    probes after that lock is taken fire with it held. The optimizer
    thread used to pass the probe table's lock, which every hit took:
    a probe on the final return hung the kernel at once."""
    elf = "build/%s/probeos.elf" % m.arch
    size = unique_functions(m).get("wait_queue_wait")
    check(size, "wait_queue_wait: not one function of that name in %s" % elf)
    insns = disassembly(m, elf, "wait_queue_wait", size)
    returns = [offset for offset, text in insns if text.split()[0] in ("ret", "retq")]
    check(returns, "wait_queue_wait: no return instruction found with objdump: %s"
          % show(["+0x%x %s" % insn for insn in insns[-3:]]))
    final_ret = "wait_queue_wait+0x%x" % returns[-1]

    def steps(numbers):
        added, refused = {}, []
        for offset, _ in insns:
            where = "wait_queue_wait+0x%x" % offset
            out = m.command("probe add " + where)
            if len(out) == 1 and PROBE_ADDED.match(out[0]):
                number, addr = probe_add_result(out, "k", where)
                numbers.append(number)
                added[where] = addr
            else:
                refused.append(out)
        # Some instructions may not be probed (on aarch64, those between
        # a load-exclusive and its store, and the call site's second
        # NOP); the final return must be.
        odd = [out for out in refused if len(out) != 1 or not PROBE_REFUSED.match(out[0])]
        check(final_ret in added and not odd,
              "`probe add` of wait_queue_wait's instructions: %d added (the final return %s"
              " %s), refused for another reason: %s"
              % (len(added), final_ret, "among them" if final_ret in added else "not",
                 show([o[0] for o in odd if o])))
        info("%d probes in wait_queue_wait, %d refused" % (len(added), len(refused)))
        number, read_addr = probe_add(m, "vfs_read", "k", "vfs_read+0x0")
        numbers.append(number)
        out = m.command("cat /etc/motd")
        check(any("ProbeOS" in line for line in out),
              "`cat /etc/motd` with probes in wait_queue_wait: expected 'ProbeOS', got %s"
              % show(out))
        out = m.command("probe list")
        listed = [line for line in out if " hits=" in line]
        check(len(listed) == len(numbers), "`probe list`: expected %d probes, got %d lines: %s"
              % (len(numbers), len(listed), show(out)))
        _, hits, _ = probe_list_line(m, read_addr, "k", "vfs_read+0x0")
        check(hits == CAT_READS, "vfs_read after one `cat`: expected hits=%d, got %d"
              % (CAT_READS, hits))
        _, hits, _ = probe_list_line(m, added[final_ret], "k", final_ret)
        check(hits > 0, "%s, the final return: expected hits (the shell returns through"
              " it after each key, the optimizer thread after the probe on vfs_read),"
              " got 0" % final_ret)

    run_with_probes(m, steps)


@test("hang_kretprobe_on_kfree")
def test_hang_kretprobe_on_kfree(m):
    """A kretprobe on kfree (then, the same again, on free_insert, which
    kfree calls with the heap's lock held), one on vfs_read, a `cat`,
    then both removed, vfs_read's first. Removing a kretprobe used to
    kfree its instances under the one lock of all kretprobe instances,
    and the kretprobe on kfree then took an instance under that lock."""
    kernel = unique_functions(m)
    for fn in ("kfree", "free_insert"):
        if fn not in kernel:
            info("%s: not one function of that name in this kernel; skipped" % fn)
            continue

        def steps(numbers):
            free_num, free_addr = probe_add(m, "-r " + fn, "r", fn + "+0x0")
            numbers.append(free_num)
            read_num, read_addr = probe_add(m, "-r vfs_read", "r", "vfs_read+0x0")
            numbers.append(read_num)
            out = m.command("cat /etc/motd")
            check(any("ProbeOS" in line for line in out),
                  "`cat /etc/motd` with kretprobes on %s and vfs_read: expected 'ProbeOS',"
                  " got %s" % (fn, show(out)))
            _, hits, _ = probe_list_line(m, read_addr, "r", "vfs_read+0x0")
            check(hits == CAT_READS, "kretprobe on vfs_read after one `cat`: expected hits=%d,"
                  " got %d" % (CAT_READS, hits))
            _, hits, _ = probe_list_line(m, free_addr, "r", fn + "+0x0")
            check(hits > 0, "kretprobe on %s after a `cat` (which frees its open file):"
                  " expected hits, got 0" % fn)
            # Removed newest first: vfs_read's kretprobe, then fn's.
            numbers.reverse()

        run_with_probes(m, steps)
        expect_exact(m.command("probe list"), "no probes", "probe list")
    out = m.command("cat /etc/motd")
    check(any("ProbeOS" in line for line in out), "`cat` after removing the kretprobes: %s"
          % show(out))




@test("kretprobe_orphan_given_back")
def test_kretprobe_orphan_given_back(m):
    """A kretprobe on wait_queue_wait is removed while the optimizer
    thread sleeps inside it holding one of its instances. The instances
    must outlive the probe until that call returns (it returns through
    the trampoline into them), and then be freed: the heap goes back to
    what it was before the probe."""
    before = settled_heap_usage(m)

    def steps(numbers):
        number, _ = probe_add(m, "-r wait_queue_wait", "r", "wait_queue_wait+0x0")
        numbers.append(number)
        # A kprobe past vfs_read's call site is queued for the optimizer,
        # which wakes up, deals with it, and goes back to sleep in
        # wait_queue_wait - through the kretprobe now (which, on the
        # function's call site, is no work of the optimizer's itself).
        where = past_site(m)
        waker, waker_addr = probe_add(m, where, "k", where)
        wait_list_flag(m, waker_addr, "k", where, True)
        expect_exact(m.command("probe del %d" % waker), "probe %d: removed" % waker, "probe del")
        out = m.command("probe show %d" % number)
        used = [re.search(r"instances (\d+) in use", line) for line in out]
        used = [int(u.group(1)) for u in used if u]
        check(used and used[0] > 0, "`probe show` of a kretprobe on wait_queue_wait: expected"
              " instances in use (by the threads asleep in it, the optimizer among them),"
              " got %s" % show(out, 12))

    run_with_probes(m, steps)
    orphaned = settled_heap_usage(m)
    check(orphaned[0] > before[0],
          "after `probe del` of the kretprobe on wait_queue_wait: expected its instances"
          " kept while the optimizer thread sleeps in one, but the heap is back to %d bytes"
          " in %d allocations" % before)
    # A probe queued for the optimizer wakes it: its wait_queue_wait returns.
    run_with_probes(m, lambda numbers: numbers.append(
        probe_add(m, past_site(m), "k", past_site(m))[0]))
    after = settled_heap_usage(m)
    check(after == before, "heap before the kretprobe on wait_queue_wait: %d bytes in %d"
          " allocations; with it removed and the optimizer thread's call returned: %d bytes"
          " in %d allocations (%d bytes in %d allocations while the call was pending)"
          % (before + after + orphaned))


# Rounds of the removal loop below: on several CPUs, a race that needed
# hundreds of rounds to show shows here; on one CPU no other CPU can hit
# a probe while it goes, and fewer rounds check the same steps.
REMOVAL_ROUNDS = 1000
REMOVAL_ROUNDS_UP = 200
REMOVAL_LINES = ["probe add -r vfs_read; probe add -j vfs_read; probe del all",
                 "probe add vfs_read; probe add -r vfs_read; probe add -j vfs_read;"
                 " probe del all"]


@test("probe_removal_under_hits")
def test_probe_removal_under_hits(m):
    """Probes on vfs_read added and removed again and again while a
    worker on every CPU calls vfs_read: a kretprobe and a jprobe, then a
    kprobe, a kretprobe and a jprobe, in turn, 1,000 rounds (200 on one
    CPU).
    Unregistering must wait for the hits in flight (a jprobe's return
    reads its point, the shell's return handler its kretprobe), and a
    breakpoint met just after its point went must run the real
    instruction: any of those wrong panics the kernel within a few
    hundred rounds on 4 CPUs. Each round must say what it did, and the
    heap be back where it was."""
    rounds = REMOVAL_ROUNDS if m.smp > 1 else REMOVAL_ROUNDS_UP
    before = settled_heap_usage(m)
    out = m.command("worker start %d" % m.smp)
    check(out and all(line.startswith("worker: started") for line in out),
          "`worker start %d`: got %s" % (m.smp, show(out)))
    try:
        lines = [REMOVAL_LINES[i % 2] for i in range(rounds)]
        for i, (line, out) in enumerate(zip(lines, commands_pasted(m, lines, timeout=60))):
            want = "probe: removed %d probes" % (2 + i % 2)
            check(out and out[-1] == want and len(out) == 3 + i % 2,
                  "round %d, `%s`: expected %d `probe N: ...` lines and %r, got %s"
                  % (i, line, 2 + i % 2, want, show(out)))
    finally:
        m.command("worker stop")
    parse_uptime(m.command("uptime"))
    heap_is_back(m, before, "%d rounds of probes added and removed" % rounds)


# What printing probes (`probe add -p`) add to the console, wherever it
# falls, even inside the echo of a command or a line of its output: a
# hit, printed as a line of `trace` prints it (print_record in trace.c;
# the seconds right-aligned in six columns, so that a space printed just
# before the hit stays with its own text; then the microseconds and the
# CPU), and printk's count of handler messages it could not keep. A hit
# is printed with one kprintf call, so printk keeps or drops it whole. `trace` prints its records in the same
# form: they are cut out too.
PRINTED = re.compile(
    r"(?: {5}\d| {4}\d\d| {3}\d{3}| {2}\d{4}| \d{5}|\d{6,})\.\d{6}  \[cpu \d+\]  \S+\(\d+\)  "
    r"#(?P<probe>\d+) [kjr] \S+  "
    r"(?:args(?: 0x[0-9a-f]+){6}|ret=0x[0-9a-f]+ \(-?\d+\) after \d+ cycles)\n"
    r"|printk: (?P<dropped>\d+) messages from probe handlers dropped\n")


def command_with_printed_hits(m, line, timeout=COMMAND_TIMEOUT):
    """Run one command while printing probes may print anywhere. Returns
    (output, probe numbers of the hits printed, messages printk said it
    dropped): the output as the command printed it, the printed hits cut
    out of the serial text first (Machine.command_amid), so that a lost
    or garbled character of the command's own output still shows."""
    out, cut = m.command_amid(line, PRINTED, timeout)
    hits = [int(c.group("probe")) for c in cut if c.group("probe")]
    dropped = sum(int(c.group("dropped")) for c in cut if c.group("dropped"))
    return out, hits, dropped


@test("printing_probe_on_console_path")
def test_printing_probe_on_console_path(m):
    """Probes that print each hit (`probe add -p`) on every function of
    lib/format.c, which formats the console's output with the console
    lock held. A hit there cannot print at once: printk keeps its line
    and prints it after the text it interrupted. Commands must answer
    with their output whole, and the hits must be printed."""
    # The UART's putc, below the formatting, is never probed.
    expect_exact(m.command("probe add -p arch_console_putc"),
                 "probe: arch_console_putc is blacklisted", "probe add -p arch_console_putc")
    want_ls = m.command("ls /")
    ours = elf_functions(m, "build/%s/obj/lib/format.c.o" % m.arch)
    names = sorted(set(ours) & set(unique_functions(m)))
    check("vformat" in names, "vformat is not among lib/format.c's functions: %s" % names)
    info("printing probes on %s" % " ".join(names))

    def run(line):
        return command_with_printed_hits(m, line)[0]

    def steps(numbers):
        for name in names:
            numbers.append(probe_add_result(run("probe add -p " + name), "k", name + "+0x0")[0])
        out, hits, _ = command_with_printed_hits(m, "ls /")
        check(out == want_ls, "`ls /` with printing probes on lib/format.c: expected %s,"
              " got %s" % (show(want_ls, 12), show(out, 12)))
        # Each line of `ls /` is a kprintf: vformat runs with the console
        # lock held, so its hits are the deferred ones.
        vformat = numbers[names.index("vformat")]
        check(vformat in hits and set(hits) <= set(numbers),
              "`ls /` with printing probes: expected hit lines of vformat's probe #%d, and"
              " only of the probes %s; got hit lines of %s" % (vformat, numbers, sorted(set(hits))))
        out, _, _ = command_with_printed_hits(m, "cat /etc/hostname")
        check(out == ["probeos"], "`cat /etc/hostname` with printing probes: expected"
              " 'probeos', got %s" % show(out))

    run_with_probes(m, steps, command=run)
    expect_exact(m.command("probe list"), "no probes", "probe list")



@test("dmesg_keeps_printed_hits")
def test_dmesg_keeps_printed_hits(m):
    """A printing probe's hit lines are kernel messages: they still show
    on the console, and the kernel log keeps them too, the same text;
    the command's own output it does not keep. `dmesg -C` then clears
    the log without printing."""
    check(m.command("dmesg -C") == [], "`dmesg -C`: expected no output")

    def steps(numbers):
        numbers.append(probe_add(m, "-p vfs_read", "k", "vfs_read+0x0")[0])
        out, cut = m.command_amid("cat /etc/hostname", PRINTED)
        hits = [c.group(0).rstrip("\n") for c in cut if c.group("probe")]
        check(out == ["probeos"] and hits, "`cat /etc/hostname` with a printing probe on"
              " vfs_read: expected 'probeos' and hit lines, got %s and %s" % (show(out), show(hits)))
        messages = dmesg_messages(m)
        check(messages == hits, "`dmesg`: expected exactly the hit lines printed on the"
              " console, %s, got %s" % (show(hits), show(messages)))

    run_with_probes(m, steps)
    check(m.command("dmesg -C") == [], "`dmesg -C`: expected no output")
    messages = dmesg_messages(m)
    check(not messages, "`dmesg` after `dmesg -C`: expected nothing, got %s" % show(messages))


@test("printk_counts_dropped_messages")
def test_printk_counts_dropped_messages(m):
    """A printing probe on every instruction of vformat: one kprintf, run
    with the console lock held, then makes far more deferred hit lines
    than printk's buffer keeps (4 KiB per CPU). Those that do not fit are
    dropped whole and counted, and the count is printed; the command's
    own output stays whole. (The probes are added under `probe off`:
    armed, each would print its hits for every key of the next `probe
    add`.)"""
    want_ls = m.command("ls /")

    def run(line):
        return command_with_printed_hits(m, line)[0]

    def steps(numbers):
        expect_exact(m.command("probe off"), "probes disarmed", "probe off")
        add_probes(m, every_instruction(m, ["vformat"]), numbers, "-p ")
        check(len(numbers) > 20, "`probe add -p` at vformat's instructions: only %d added"
              % len(numbers))
        info("%d printing probes in vformat" % len(numbers))
        expect_exact(run("probe on"), "probes armed", "probe on")
        out, hits, dropped = command_with_printed_hits(m, "ls /")
        check(out == want_ls, "`ls /` with printing probes on every instruction of vformat:"
              " expected %s, got %s" % (show(want_ls, 12), show(out, 12)))
        check(hits and dropped > 0, "`ls /` with printing probes on every instruction of"
              " vformat: expected hit lines and a 'printk: N messages from probe handlers"
              " dropped' line, got %d hit lines and %d dropped" % (len(hits), dropped))
        expect_exact(run("probe off"), "probes disarmed", "probe off")

    try:
        run_with_probes(m, steps)
    finally:
        m.command("probe on")
    expect_exact(m.command("probe list"), "no probes", "probe list")

# -- the trace buffer -----------------------------------------------------

TRACE_RECORDS = 600     # per CPU at least: 64 KiB rings of 104-byte hit records (kernel/probes/trace.c)
TRACE_SUMMARY = re.compile(r"^trace: (\d+) records, (\d+) lost$")
# A record of `trace`: the seconds since boot to the microsecond, the CPU
# that recorded it, the thread, the probe's number...
TRACE_LINE = re.compile(r"^ +(?P<seconds>\d+)\.(?P<micro>\d{6})  \[cpu (?P<cpu>\d+)\]  "
                        r"\S+\(\d+\)  #(?P<probe>\d+) [kjr] \S+  (?:args|ret=)")

OBJDUMP_SYMBOL = re.compile(r"^[0-9a-f]+ (.{7}) \S+\s+([0-9a-f]+) (\S+)$")
OBJDUMP_INSN = re.compile(r"^ *([0-9a-f]+):\s+(.*)$")


def objdump(m, *args):
    """The output of objdump, the build's for this machine's architecture,
    on a file of the build."""
    tool = archs.config(m.arch)["OBJDUMP"]
    if not shutil.which(tool):
        raise TestFailure("no objdump for %s (%s is not installed)" % (m.arch, tool))
    return subprocess.run([tool] + list(args), cwd=m.root, check=True,
                          stdout=subprocess.PIPE, text=True).stdout


def elf_functions(m, path):
    """{name: [size, ...]} of the functions an ELF file defines."""
    found = {}
    for line in objdump(m, "-t", path).splitlines():
        sym = OBJDUMP_SYMBOL.match(line)
        if sym and "F" in sym.group(1):
            found.setdefault(sym.group(3), []).append(int(sym.group(2), 16))
    return found


def disassembly(m, elf, name, size):
    """[(offset, instruction text)] of every instruction of the function
    name in the kernel, e.g. (0x66, "ret")."""
    listing = objdump(m, "-d", "--no-show-raw-insn", "--disassemble=" + name, elf)
    insns = [(int(insn.group(1), 16), insn.group(2).strip())
             for insn in map(OBJDUMP_INSN.match, listing.splitlines()) if insn]
    return [(addr - insns[0][0], text) for addr, text in insns if addr - insns[0][0] < size]


def instruction_offsets(m, elf, name, size):
    """The offset of every instruction of the function name in the kernel."""
    return [offset for offset, _ in disassembly(m, elf, name, size)]


def every_instruction(m, names):
    """Every instruction of the kernel's functions names as `probe add`
    locations, but for names the kernel has twice (see unique_functions)."""
    elf = "build/%s/probeos.elf" % m.arch
    kernel = unique_functions(m)
    return ["%s+0x%x" % (name, offset)
            for name in sorted(set(names) & set(kernel))
            for offset in instruction_offsets(m, elf, name, kernel[name])]


TRACE_SOURCES = ("kernel/probes/trace.c", "kernel/probes/cmd/trace_cmd.c",
                 "kernel/trace/ring_buffer.c", "kernel/trace/ring.c")


def trace_reader_probes(m):
    """Every instruction of the functions of the probe records, of the
    rings they are read from and of the `trace` command (TRACE_SOURCES)."""
    functions = {}
    for source in TRACE_SOURCES:
        functions.update(elf_functions(m, "build/%s/obj/%s.o" % (m.arch, source)))
    return every_instruction(m, functions)


# The answers of `probe add` that refuse a location a test chose well:
# code that must never be probed, instructions that cannot be, and the
# inside of a call site (aarch64's second NOP).
PROBE_REFUSED = re.compile(r"^probe: (\S+ is blacklisted|the instruction at \S+ cannot be probed|"
                           r"\S+ is inside its call site \(a probe at \S+ rides on the site\))$")


# Lines pasted at once by commands_pasted: a line costs the typing of its
# characters a chunk at a time and a wait for its prompt; pasted, only
# the kernel's own time.
PASTED_AT_ONCE = 50


def commands_pasted(m, lines, timeout=COMMAND_TIMEOUT):
    """Each line's output (see Machine.commands), the lines pasted
    PASTED_AT_ONCE at a time."""
    for i in range(0, len(lines), PASTED_AT_ONCE):
        yield from m.commands(lines[i:i + PASTED_AT_ONCE], timeout)


def add_probes(m, locations, numbers, options=""):
    """`probe add OPTIONS WHERE` for each location, appending the numbers
    of the probes added to numbers; returns how many were refused. Any
    answer but an added probe or one of PROBE_REFUSED fails the test."""
    refused = 0
    for where, out in zip(locations, commands_pasted(
            m, ["probe add %s%s" % (options, where) for where in locations])):
        added = PROBE_ADDED.match(out[0]) if len(out) == 1 else None
        if added and added.group(3) == where:
            numbers.append(int(added.group(1)))
        else:
            check(len(out) == 1 and PROBE_REFUSED.match(out[0]),
                  "`probe add %s%s`: expected 'probe N: ...' or a refusal as blacklisted or"
                  " unprobeable, got %s" % (options, where, show(out)))
            refused += 1
    return refused


def remove_probes(m, numbers, command=None):
    """`probe del` each number, in order, typed with command (a function
    from a line to its output lines), or by default pasted
    (commands_pasted)."""
    lines = ["probe del %d" % number for number in numbers]
    outputs = map(command, lines) if command else commands_pasted(m, lines)
    for number, line, out in zip(numbers, lines, outputs):
        expect_exact(out, "probe %d: removed" % number, line)


def run_with_probes(m, steps, command=None):
    """steps(numbers) adds probes and appends their numbers; they are
    removed afterwards, also when a check fails, in the order of the list
    and typed with command (see remove_probes). (Not when the machine is
    lost: it is thrown away then.)"""
    numbers = []
    try:
        steps(numbers)
    except TestFailure:
        remove_probes(m, numbers, command)
        raise
    remove_probes(m, numbers, command)


def trace_output(m, cmd="trace"):
    """`trace`: (record lines, records, lost), checking that every line
    before the summary is a record and that the summary counts them."""
    out = m.command(cmd)
    summary = TRACE_SUMMARY.match(out[-1]) if out else None
    check(summary, "`%s`: expected a last line 'trace: N records, M lost', got %s"
          % (cmd, show(out[-1:])))
    lines = out[:-1]
    bad = [line for line in lines if not TRACE_LINE.match(line)]
    check(not bad and len(lines) == int(summary.group(1)),
          "`%s`: expected %s record lines, got %d lines (not records: %s)"
          % (cmd, summary.group(1), len(lines), show(bad)))
    return lines, int(summary.group(1)), int(summary.group(2))


@test("trace_probed_in_trace")
def test_trace_probed_in_trace(m):
    """A probe on every instruction of `trace` and `trace clear` (every
    function of TRACE_SOURCES): each hit records while the command runs, and
    neither waits for the other. (When the command held a lock that
    recording takes, this hung at the first hit under the lock.)"""
    locations = trace_reader_probes(m)
    check(any(where.startswith("cmd_trace+") for where in locations),
          "no instruction of cmd_trace found with objdump: %s" % locations[:3])

    def steps(numbers):
        # The recording code itself is blacklisted; a few instructions
        # may not be probeable.
        refused = add_probes(m, locations, numbers)
        check(numbers, "`probe add` of the trace's instructions: none added")
        info("%d probes in the trace's code, %d refused" % (len(numbers), refused))
        expect_exact(m.command("trace clear"), "trace: cleared", "trace clear")
        lines, _, _ = trace_output(m)
        ours = set(numbers)
        check(any(int(TRACE_LINE.match(line).group("probe")) in ours for line in lines),
              "`trace` with probes in the trace's code: expected records of those probes"
              " (hit by `trace clear`), got %s" % show(lines))

    run_with_probes(m, steps)


@test("trace_printing_probed")
def test_trace_printing_probed(m):
    """With probes on what printing a record calls, `trace` still prints
    every record made before it started, and loses none while fewer than
    a ring's worth were made. (Printed straight from the ring, each
    record printed recorded dozens over the ones still to print.)"""
    def steps(numbers):
        for fn in ("memcpy", "strlen", "vformat"):
            numbers.append(probe_add(m, fn, "k", fn + "+0x0")[0])
        expect_exact(m.command("trace clear"), "trace: cleared", "trace clear")
        check("etc/" in words(m.command("ls /")), "`ls /` with probes: no 'etc/'")
        check(m.command("cat /etc/hostname") == ["probeos"],
              "`cat /etc/hostname` with probes: expected 'probeos'")
        lines, records, lost = trace_output(m)
        check(records >= 20 and (lost == 0 or records + lost > TRACE_RECORDS),
              "`trace` after `ls /` and `cat` with probes on memcpy, strlen and vformat:"
              " expected at least 20 records and 0 lost (fewer than %d were made),"
              " got %d records, %d lost" % (TRACE_RECORDS, records, lost))
        seen = {int(TRACE_LINE.match(line).group("probe")) for line in lines}
        check(seen == set(numbers), "`trace`: expected records of probes %s, got %s"
              % (sorted(numbers), sorted(seen)))

    run_with_probes(m, steps)


@test("trace_merged_across_cpus")
def test_trace_merged_across_cpus(m):
    """With a worker on every CPU calling vfs_read under a kprobe, `trace`
    shows records of several CPUs (with more than one), each naming a CPU
    the machine has, and prints them in the order of their times: each
    CPU's ring is in order, and `trace` merges the rings by the cycle
    counter the CPUs share."""
    def steps(numbers):
        numbers.append(probe_add(m, "vfs_read", "k", "vfs_read+0x0")[0])
        expect_exact(m.command("trace clear"), "trace: cleared", "trace clear")
        out = m.command("worker start")
        check(out and out[0].startswith("worker: started"), "`worker start`: got %s" % show(out))
        try:
            time.sleep(1)
            lines, _, _ = trace_output(m)
        finally:
            m.command("worker stop")
        records = [TRACE_LINE.match(line) for line in lines]
        cpus = {int(r.group("cpu")) for r in records}
        info("records of CPUs %s" % sorted(cpus))
        check(cpus and cpus <= set(range(m.smp)) and (m.smp == 1 or len(cpus) > 1),
              "`trace` with a worker on each of %d CPUs: expected records of more than one"
              " CPU, each below %d; got CPUs %s" % (m.smp, m.smp, sorted(cpus)))
        times = [int(r.group("seconds")) * 1000000 + int(r.group("micro")) for r in records]
        back = [(a, b) for a, b, earlier, later in zip(lines, lines[1:], times, times[1:])
                if later < earlier]
        check(not back, "`trace`: expected records in time order; %d go back in time, the"
              " first: %s" % (len(back), show(list(back[0]) if back else [])))

    run_with_probes(m, steps)


# -- a printing probe on every instruction that takes a lock -------------

# What spin_lock (kernel/spinlock.h) compiles to, an atomic exchange of 1
# into the lock's 32-bit flag, and where it can be told apart spin_unlock,
# a release store of 0, is each architecture's SPINLOCK_CODE
# (arch/ARCH/testdata.py).
# Functions that surely take a lock: the heap's, the console input's, a
# wait queue's, the scheduler's and the ramfs'. If the search finds
# fewer, it is the search that is wrong.
KNOWN_SPINLOCK_USERS = ("kmalloc", "kfree", "console_getc", "wait_queue_wait", "thread_yield",
                        "ramfs_read")
OBJDUMP_FUNCTION = re.compile(r"^[0-9a-f]+ <(\S+)>:$", re.M)

PROBED_TIMEOUT = 600    # a command whose every lock prints dozens of hits: `probe del all` of thousands of probes, slowest on aarch64 with four CPUs
MAX_LISTED = 128        # lines of `probe list`: kernel/probes/cmd/probe_cmd.c
PROBE_LIST_LINE = re.compile(r"^\d+  [0-9a-f]{16}  k  (\S+)(?:  \[[A-Z]+\])*  hits=\d+ missed=\d+"
                             r"  owner=shell$")


def functions_matching(m, elf, patterns):
    """The names of the functions in elf whose disassembly one of the
    regular expressions matches."""
    parts = OBJDUMP_FUNCTION.split(objdump(m, "-d", "--no-show-raw-insn", elf))
    return {name for name, code in zip(parts[1::2], parts[2::2])
            if any(re.search(p, code) for p in patterns)}


def exact(out):
    return out


def counts_aside(out):
    """Every number replaced: bytes and frames in use, thread numbers and
    reads differ from one run to the next."""
    return [re.sub(r"\d+", "N", line) for line in out]


def threads_of(out):
    """`ps`: the header, and each thread's ID and NAME (states and ticks
    change all the time)."""
    return out[:1] + [" ".join(line.split()[:1] + line.split()[-1:]) for line in out[1:]]


# Commands that take locks all over the kernel, and what of their output
# must not change when every such lock prints hits.
WORKLOADS = [("ls /", exact), ("cat /etc/motd", exact), ("cat /etc/hostname", exact),
             ("mem", counts_aside), ("ps", threads_of), ("worker start", counts_aside),
             ("worker", counts_aside), ("worker stop", counts_aside)]


def run_workloads(run):
    """[(command, what of its output must not change)], running each
    command with run(command) -> output lines."""
    return [(cmd, shape(run(cmd))) for cmd, shape in WORKLOADS]


def compare_workloads(got, want, when):
    for (cmd, out), (_, ref) in zip(got, want):
        check(out == ref, "%s: `%s` printed %s, expected (as without probes) %s"
              % (when, cmd, show(out), show(ref)))


@test("probe_every_spinlock_user")
def test_probe_every_spinlock_user(m):
    """A printing probe (`probe add -p`: it records each hit and prints
    it) on every instruction of every function that takes or releases a
    spinlock, found in the object code (SPINLOCK_CODE), not in a list
    (on x86_64 only the takers can be found: a release is a plain store).
    With them armed, the workloads, `trace`, `probe list` and `probe del
    all` must answer, and every command must print what it printed
    without probes, once the hits are cut out of its output. (A hit
    under a lock that the hit path, or the print of the hit, takes again
    waits for ever: the kernel hangs.)

    The probes are added while `probe off` keeps them disarmed, and armed
    together by `probe on`: armed, each added probe would print its hits
    for every key typed in each of the thousands of `probe add` lines
    that follow. Then every command's output, echo included, is mixed
    with hits, so the shell is talked to through command_with_printed_hits."""
    users = functions_matching(m, "build/%s/probeos.elf" % m.arch,
                               archs.testdata(m.arch).SPINLOCK_CODE)
    missing = [name for name in KNOWN_SPINLOCK_USERS if name not in users]
    check(not missing, "objdump: no spinlock found in %s, though they take one; found in %s"
          % (", ".join(missing), show(sorted(users), 50)))
    locations = every_instruction(m, users)
    reference = run_workloads(m.command)
    hits = []

    def probed(cmd, timeout=PROBED_TIMEOUT):
        """cmd's output lines, the printed hits cut out; counts the hits."""
        out, printed, _ = command_with_printed_hits(m, cmd, timeout)
        hits.append(len(printed))
        return out

    numbers = []
    expect_exact(m.command("probe off"), "probes disarmed", "probe off")
    try:
        refused = add_probes(m, locations, numbers, "-p ")
        info("%d probes on %d spinlock users, %d refused"
             % (len(numbers), len(users), refused))
        check(numbers, "`probe add -p` at the spinlock users' instructions: none added")
        expect_exact(probed("probe on"), "probes armed", "probe on")
        compare_workloads(run_workloads(probed), reference, "with the probes")
        check(sum(hits) > 0, "the workloads printed no hits")

        # trace's records have the form of printed hits, so they are cut
        # out with them: what is left is its last line, and at least as
        # many lines as it counts records were cut.
        out = probed("trace")
        summary = TRACE_SUMMARY.match(out[-1]) if len(out) == 1 else None
        check(summary and 0 < int(summary.group(1)) <= hits[-1],
              "`trace` with the probes: expected records, then 'trace: N records, M lost'"
              " (N > 0), and %d lines of records and hits were cut out; left %s"
              % (hits[-1], show(out[-3:])))

        out = probed("probe list")
        listed = [PROBE_LIST_LINE.match(line) for line in out[:MAX_LISTED]]
        more = len(numbers) - MAX_LISTED
        check(len(out) == min(len(numbers), MAX_LISTED) + (more > 0) and all(listed) and
              {line.group(1) for line in listed} <= set(locations) and
              (more <= 0 or out[-1] == "(%d more not shown)" % more),
              "`probe list`: expected a line for each of the first %d of %d probes,"
              " then '(%d more not shown)', got %s"
              % (MAX_LISTED, len(numbers), more, show(out)))

        expect_exact(probed("probe del all"), "probe: removed %d probes" % len(numbers),
                     "probe del all")
    except TestFailure:
        # Leave no probe, and no worker, behind for the tests that follow.
        probed("probe del all")
        m.command("probe on")
        m.command("worker stop")
        raise
    expect_exact(m.command("probe list"), "no probes", "probe list after `probe del all`")
    # Compared through m.command, which cuts nothing: a hit still printed
    # would show.
    compare_workloads(run_workloads(m.command), reference, "after `probe del all`")


# The architectures with a jump optimizer: those that say why it refuses
# the selftest function opt_probed_indirect, which each builds to be
# refused for a reason of its own (OPTIMIZER_REFUSAL in testdata.py).
OPTIMIZER_ARCHS = archs_where("OPTIMIZER_REFUSAL")


def past_site(m, func="vfs_read"):
    """The first place in func after its call site, where a kprobe traps
    (and may be optimized) rather than riding on the site ([FTRACE]):
    "vfs_read+0x5" on x86_64, as Linux's own multiple_kprobes.tc probes,
    "vfs_read+0x8" on aarch64."""
    return "%s+0x%x" % (func, archs.testdata(m.arch).FTRACE_SITE_SIZE)


def wait_list_flag(m, addr, kind, where, want, seconds=5.0):
    """Poll `probe list` until the probe's flags include [OPTIMIZED] (want
    True) or not; returns its flags."""
    deadline = time.monotonic() + seconds
    while True:
        flags, _, _ = probe_list_line(m, addr, kind, where)
        if ("[OPTIMIZED]" in flags) == want or time.monotonic() > deadline:
            return flags
        time.sleep(0.2)


@test("probe_optimizer", only_on=OPTIMIZER_ARCHS)
def test_probe_optimizer(m):
    where = past_site(m)
    number, addr = probe_add(m, where, "k", where)
    try:
        flags = wait_list_flag(m, addr, "k", where, True)
        check("[OPTIMIZED]" in flags, "a probe on vfs_read should be [OPTIMIZED] within"
              " seconds, got flags %s" % flags)
        out = m.command("probe show %d" % number)
        check(any(l.strip().startswith("optimized: jump to detour buffer 0x") for l in out),
              "`probe show`: expected an 'optimized: jump to detour buffer' line, got %s"
              % show(out, 12))
        m.command("cat /etc/motd")
        _, hits, _ = probe_list_line(m, addr, "k", where)
        check(hits == CAT_READS, "an optimized probe fires: expected hits=%d, got %d"
              % (CAT_READS, hits))
        expect_exact(m.command("probe optimize off"), "probes: optimization off",
                     "probe optimize off")
        flags = wait_list_flag(m, addr, "k", where, False, 0)
        check("[OPTIMIZED]" not in flags, "after `probe optimize off`: got flags %s" % flags)
        expect_exact(m.command("probe optimize on"), "probes: optimization on",
                     "probe optimize on")
        flags = wait_list_flag(m, addr, "k", where, True)
        check("[OPTIMIZED]" in flags, "after `probe optimize on`: got flags %s" % flags)
        # A refusal is explained: this selftest function cannot be optimized.
        refusal = archs.testdata(m.arch).OPTIMIZER_REFUSAL
        want = re.compile(r"^not optimized: %s opt_probed_indirect\+0x[0-9a-f]+$"
                          % re.escape(refusal))
        refused, _ = probe_add(m, "opt_probed_indirect", "k", "opt_probed_indirect+0x0")
        deadline = time.monotonic() + 5
        while True:
            out = m.command("probe show %d" % refused)
            why = [l.strip() for l in out if l.strip().startswith("not optimized")]
            if any(want.match(w) for w in why) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        check(why and want.match(why[0]),
              "`probe show` of opt_probed_indirect: expected 'not optimized: %s"
              " opt_probed_indirect+0x..', got %s" % (refusal, show(out, 12)))
        expect_exact(m.command("probe del %d" % refused), "probe %d: removed" % refused,
                     "probe del")
    finally:
        m.command("probe del %d" % number)


@test("bench_keeps_optimizer_setting", only_on=OPTIMIZER_ARCHS)
def test_bench_keeps_optimizer_setting(m):
    """`bench` switches the optimizer on and off for its rows; it must
    leave it as the user had it. (It used to switch it on at the end, so a
    probe added after `probe optimize off` and `bench` was optimized.)"""
    expect_exact(m.command("probe optimize off"), "probes: optimization off",
                 "probe optimize off")
    try:
        out = m.command("bench 200", timeout=120)
        check(out and out[-1] == "bench: done", "`bench 200`: expected a last line"
              " 'bench: done', got %s" % show(out[-3:]))
        where = past_site(m)
        number, addr = probe_add(m, where, "k", where)
        try:
            m.command("cat /etc/motd")
            time.sleep(1)   # the optimizer's delay is 50 ms
            flags, hits, _ = probe_list_line(m, addr, "k", where)
            check("[OPTIMIZED]" not in flags and hits == CAT_READS,
                  "after `probe optimize off` and `bench`, a new probe on vfs_read:"
                  " expected it not optimized and hits=%d, got flags %r, hits=%d"
                  % (CAT_READS, flags, hits))
        finally:
            m.command("probe del %d" % number)
    finally:
        m.command("probe optimize on")


# ---- Linux's kprobes files: debugfs's kprobes/ and the sysctl --------
#
# The lines a student types from the Kprobes guide (Appendices A and B)
# and SUSE's guide (section 5.4), verbatim.

KPROBES_DIR = "/sys/kernel/debug/kprobes"
OPTIMIZATION = "/proc/sys/debug/kprobes-optimization"
# A line of kprobes/list (kernel/probes/files/probe_line.h): the screen
# may drop the blanks that end a line without flags, so they are optional.
DEBUGFS_LIST_LINE = re.compile(r"^([0-9a-f]{16})  ([kjr])  (\S+)(?:  (\S+))? *((?:\[[A-Z]+\])*)$")
# A line of `probe list` of a probe the shell added: its number, the same
# columns, the counts and the owner.
PROBE_LIST_COLUMNS = re.compile(r"^\d+  ([0-9a-f]{16})  ([kjr])  (\S+)(?: \[(\S+)\])?"
                                r"((?:  \[[A-Z]+\])*)  hits=\d+ missed=\d+  owner=shell$")
WRITE_REFUSED = "echo: write error: Invalid argument"


def linux_list_line(addr, kind, place, module, flags):
    """The line Linux's report_probe prints for these columns."""
    return "%s  %s  %s  %s %s" % (addr, kind, place, module or " ", "".join(flags))


def debugfs_list(m):
    """kprobes/list as rows (addr, kind, place, module, [flags]), each
    checked against the exact line Linux would print for it."""
    rows = []
    for line in m.command("cat %s/list" % KPROBES_DIR):
        found = DEBUGFS_LIST_LINE.match(line)
        check(found, "`cat %s/list`: a line not in Linux's columns: %r" % (KPROBES_DIR, line))
        addr, kind, place, module, flags = found.groups()
        flags = re.findall(r"\[[A-Z]+\]", flags)
        want = linux_list_line(addr, kind, place, module, flags)
        check(line.rstrip() == want.rstrip(), "kprobes/list: expected %r, got %r" % (want, line))
        rows.append((addr, kind, place, module, flags))
    return rows


def probe_list_rows(m):
    """`probe list` as the same rows as debugfs_list's."""
    rows = []
    for line in m.command("probe list"):
        found = PROBE_LIST_COLUMNS.match(line)
        if found:
            addr, kind, place, module, flags = found.groups()
            rows.append((addr, kind, place, module, flags.split()))
    return rows


def wait_debugfs_flag(m, addr, kind, want, seconds=5.0):
    """Poll kprobes/list until the probe at addr of kind has [OPTIMIZED]
    (want True) or not; returns its flags."""
    deadline = time.monotonic() + seconds
    while True:
        flags = [r[4] for r in debugfs_list(m) if r[0] == addr and r[1] == kind]
        check(len(flags) == 1, "kprobes/list: expected one %s probe at %s" % (kind, addr))
        if ("[OPTIMIZED]" in flags[0]) == want or time.monotonic() > deadline:
            return flags[0]
        time.sleep(0.2)


def mount_debugfs(m):
    """Start from no probes (an earlier test run alone may leave some), and
    type the guides' mount line: debugfs is mounted at boot already, so it
    mounts again over it or says so, in one line at most."""
    m.command("probe del all")
    out = m.command("mount -t debugfs none /sys/kernel/debug")
    check(len(out) <= 1, "`mount -t debugfs none /sys/kernel/debug`: %s" % show(out))
    check(m.command("ls %s" % KPROBES_DIR) != [], "ls %s: empty" % KPROBES_DIR)


@test("kprobes_debugfs_list")
def test_kprobes_debugfs_list(m):
    """kprobes/list, column by column against `probe list`: a kprobe (with
    a post-handler), a disabled jprobe and a kretprobe, all three on
    vfs_read's call site ([FTRACE]), and an optimized kprobe past
    vfs_open's."""
    mount_debugfs(m)
    check(debugfs_list(m) == [], "kprobes/list with no probes: not empty")
    probe_add(m, "-a vfs_read", "k", "vfs_read+0x0")
    jnum, _ = probe_add(m, "-j vfs_read", "j", "vfs_read+0x0")
    m.command("probe off %d" % jnum)
    probe_add(m, "-r vfs_read", "r", "vfs_read+0x0")
    opt_where = past_site(m, "vfs_open")
    _, opt_addr = probe_add(m, opt_where, "k", opt_where)
    try:
        flags = wait_debugfs_flag(m, opt_addr, "k", True)
        check(flags == ["[OPTIMIZED]"], "kprobes/list: %s's kprobe should be"
              " [OPTIMIZED] within seconds, got %s" % (opt_where, flags))
        listed, shown = debugfs_list(m), probe_list_rows(m)
        check(listed == shown, "kprobes/list and `probe list` differ:\n  %s\n  %s"
              % (listed, shown))
        kinds = [(r[1], r[2], r[4]) for r in listed]
        check(kinds == [("k", "vfs_read+0x0", ["[FTRACE]"]),
                        ("j", "vfs_read+0x0", ["[DISABLED]", "[FTRACE]"]),
                        ("r", "vfs_read+0x0", ["[FTRACE]"]), ("k", opt_where, ["[OPTIMIZED]"])],
              "kprobes/list: %s" % kinds)
    finally:
        m.command("probe del all")
    check(debugfs_list(m) == [], "kprobes/list after `probe del all`: not empty")


def enabled(m):
    out = m.command("cat %s/enabled" % KPROBES_DIR)
    check(out in (["0"], ["1"]), "`cat %s/enabled`: %s" % (KPROBES_DIR, show(out)))
    return out[0]


def write_enabled(m, value, refused=False):
    """echo VALUE > kprobes/enabled (VALUE as typed, quotes and all)."""
    cmd = "echo %s > %s/enabled" % (value, KPROBES_DIR)
    out = m.command(cmd)
    check(out == ([WRITE_REFUSED] if refused else []), "`%s`: %s" % (cmd, show(out)))


@test("kprobes_debugfs_enabled")
def test_kprobes_debugfs_enabled(m):
    """The global switch: "0" freezes every probe's hits, "1" lets the
    enabled ones go on; a [DISABLED] probe stays disabled. A write is
    read as kstrtobool reads it: its first characters."""
    mount_debugfs(m)
    check(enabled(m) == "1", "kprobes/enabled at the start: expected 1")
    _, addr = probe_add(m, "vfs_read", "k", "vfs_read+0x0")
    dnum, _ = probe_add(m, "-r vfs_read", "r", "vfs_read+0x0")
    m.command("probe off %d" % dnum)
    try:
        m.command("cat /etc/motd")
        _, hits, _ = probe_list_line(m, addr, "k", "vfs_read+0x0", with_optimized=False)
        check(hits == CAT_READS, "armed: expected hits=%d, got %d" % (CAT_READS, hits))
        out = m.command('echo "0" > %s/enabled' % KPROBES_DIR)
        check(out == [], '`echo "0" > enabled`: %s' % show(out))
        check(enabled(m) == "0", 'kprobes/enabled after "0": expected 0')
        check(m.command("probe list")[:1] == ["probes disarmed"],
              '`probe list` after "0": expected "probes disarmed" first')
        m.command("cat /etc/motd")
        _, frozen, _ = probe_list_line(m, addr, "k", "vfs_read+0x0", with_optimized=False)
        check(frozen == hits, "disarmed: hits should stay %d, got %d" % (hits, frozen))
        out = m.command('echo "1" > %s/enabled' % KPROBES_DIR)
        check(out == [], '`echo "1" > enabled`: %s' % show(out))
        m.command("cat /etc/motd")
        _, grown, _ = probe_list_line(m, addr, "k", "vfs_read+0x0", with_optimized=False)
        check(grown == hits + CAT_READS, "re-armed: expected hits=%d, got %d"
              % (hits + CAT_READS, grown))
        check(enabled(m) == "1", 'kprobes/enabled after "1": expected 1')
        # (The point it shares may be optimized: [OPTIMIZED] is the point's.)
        flags = [r[4] for r in debugfs_list(m) if r[1] == "r"]
        check(len(flags) == 1 and "[DISABLED]" in flags[0], "re-armed: the disabled"
              " kretprobe should stay [DISABLED], got %s" % flags)
        # Refused, and nothing changes: not a boolean's first characters.
        for value in ("2", "", '""', "o", "enable", "-1"):
            write_enabled(m, value, refused=True)
            check(enabled(m) == "1", "kprobes/enabled after refused %r: expected 1" % value)
        # Only the first characters count, as in Linux.
        for value, want in (("off", "0"), ('"yes please"', "1"), ("n", "0"), ("1x", "1"),
                            ("F", "0"), ("On", "1")):
            write_enabled(m, value)
            check(enabled(m) == want, "kprobes/enabled after %s: expected %s" % (value, want))
    finally:
        m.command("echo 1 > %s/enabled" % KPROBES_DIR)
        m.command("probe del all")


@test("kprobes_sysctl_optimization", only_on=OPTIMIZER_ARCHS)
def test_kprobes_sysctl_optimization(m):
    """/proc/sys/debug/kprobes-optimization and `sysctl`: 0 takes
    [OPTIMIZED] away, 1 brings it back; other values are refused."""
    mount_debugfs(m)
    expect_exact(m.command("cat " + OPTIMIZATION), "1", "cat " + OPTIMIZATION)
    where = past_site(m)
    _, addr = probe_add(m, where, "k", where)
    try:
        check(wait_debugfs_flag(m, addr, "k", True) == ["[OPTIMIZED]"],
              "a kprobe on %s should be [OPTIMIZED] within seconds" % where)
        out = m.command("echo 0 > " + OPTIMIZATION)
        check(out == [], "`echo 0 > %s`: %s" % (OPTIMIZATION, show(out)))
        expect_exact(m.command("cat " + OPTIMIZATION), "0", "cat after echo 0")
        check(wait_debugfs_flag(m, addr, "k", False, 0) == [], "after echo 0: still optimized")
        for line, name, value in (("sysctl -w debug.kprobes-optimization=1",
                                   "debug.kprobes-optimization", "1"),
                                  ("sysctl -w debug.kprobes_optimization=0",
                                   "debug.kprobes_optimization", "0"),
                                  ("sysctl -w debug.kprobes-optimization=1",
                                   "debug.kprobes-optimization", "1")):
            expect_exact(m.command(line), "%s = %s" % (name, value), line)
            expect_exact(m.command("sysctl debug.kprobes-optimization"),
                         "debug.kprobes-optimization = %s" % value, "sysctl after " + line)
            flags = wait_debugfs_flag(m, addr, "k", value == "1", 5 if value == "1" else 0)
            check(("[OPTIMIZED]" in flags) == (value == "1"),
                  "after `%s`: flags %s" % (line, flags))
        for cmd, want in (
                ("echo 2 > " + OPTIMIZATION, WRITE_REFUSED),
                ("echo 1x > " + OPTIMIZATION, WRITE_REFUSED),
                ("sysctl -w debug.kprobes-optimization=2",
                 'sysctl: setting key "debug.kprobes-optimization": Invalid argument'),
                ("sysctl -w debug.kprobes-optimization",
                 'sysctl: "debug.kprobes-optimization" must be of the form name=value'),
                ("sysctl debug.nope",
                 "sysctl: cannot stat /proc/sys/debug/nope: No such file or directory")):
            expect_exact(m.command(cmd), want, cmd)
        expect_exact(m.command("cat " + OPTIMIZATION), "1", "cat after refused writes")
        out = m.command("sysctl -a")
        check("debug.kprobes-optimization = 1" in out, "`sysctl -a`: %s" % show(out))
        expect_exact(m.command("sysctl debug"), "debug.kprobes-optimization = 1", "sysctl debug")
    finally:
        m.command("sysctl -w debug.kprobes-optimization=1")
        m.command("probe del all")


BLACKLIST_LINE = re.compile(r"^0x([0-9a-f]{16})-0x([0-9a-f]{16})\s+(\S+)(?: \[(\S+)\])?$")


def blacklist(m):
    """kprobes/blacklist as (start, end, name, module) rows, checked."""
    rows = []
    for line in m.command("cat %s/blacklist" % KPROBES_DIR, timeout=60):
        found = BLACKLIST_LINE.match(line)
        check(found, "kprobes/blacklist: a line not in Linux's form: %r" % line)
        start, end = int(found.group(1), 16), int(found.group(2), 16)
        check(start < end, "kprobes/blacklist: an empty range: %r" % line)
        rows.append((start, end, found.group(3), found.group(4)))
    return rows


@test("kprobes_debugfs_blacklist")
def test_kprobes_debugfs_blacklist(m):
    """kprobes/blacklist: one line per never-probe function, each one that
    `probe add` refuses; list and blacklist take no write."""
    mount_debugfs(m)
    rows = blacklist(m)
    names = [r[2] for r in rows]
    check(len(rows) > 100, "kprobes/blacklist: only %d lines" % len(rows))
    for name in ("register_kprobe", "jprobe_trampoline", "kprobes_kill_range_locked"):
        check(name in names, "kprobes/blacklist: no line for %s" % name)
    for name in (names[0], "register_kprobe", "kprobes_kill_range_locked"):
        expect_exact(m.command("probe add " + name), "probe: %s is blacklisted" % name,
                     "probe add " + name)
    # Files without a write are refused at open, as Linux's mode bits do.
    for name in ("list", "blacklist"):
        path = "%s/%s" % (KPROBES_DIR, name)
        expect_exact(m.command("echo hi > " + path), "shell: %s: Permission denied" % path,
                     "echo hi > " + path)
    check(blacklist(m) == rows, "kprobes/blacklist changed after a refused write")


@test("kprobes_files_while_probes_change")
def test_kprobes_files_while_probes_change(m):
    """Every file read between probes coming and going: each read is whole
    and in its form. (The kprobes-list selftest reads 10,000 probes while
    another CPU adds and removes one.)"""
    mount_debugfs(m)
    for round_ in range(3):
        probe_add(m, "vfs_open", "k", "vfs_open+0x0")
        check(len(debugfs_list(m)) == 1, "round %d: kprobes/list: expected 1 line" % round_)
        probe_add(m, "-r vfs_read", "r", "vfs_read+0x0")
        check(len(debugfs_list(m)) == 2, "round %d: kprobes/list: expected 2 lines" % round_)
        check(enabled(m) == "1", "round %d: kprobes/enabled" % round_)
        check(len(blacklist(m)) > 100, "round %d: kprobes/blacklist" % round_)
        expect_exact(m.command("cat " + OPTIMIZATION), "1", "round %d: cat %s"
                     % (round_, OPTIMIZATION))
        m.command("probe del all")
        check(debugfs_list(m) == [], "round %d: kprobes/list after `probe del all`" % round_)


# Every selftest suite the kernel must run, with the architecture's own
# (SELFTEST_SUITES in testdata.py): a suite that went missing (not
# linked, renamed) fails the test rather than leaving fewer cases to pass.
SELFTEST_SUITES = ["memory", "stacks", "sched", "shell", "smp", "smp_call", "symtab", "vfs", "paths", "seq_file",
                   "pseudofs", "log", "ring_buffer", "tracefs", "ftrace_sites", "ftrace", "kprobes", "kretprobes",
                   "rethook", "fgraph", "kprobes-list",
                   "optprobes-stress", "optprobes", "kprobes-stress", "probes-smp-stress", "probes-removal", "traps",
                   "modules", "module_files", "virtio_9p", "ninepfs"]
KTAP_SUITE = re.compile(r"^(not )?ok \d+ (\S+)$")
KTAP_CASE = re.compile(r"^ +(not )?ok \d+ \S+$")


import module_tests  # noqa: E402
module_tests.define(test)
import ninep_tests  # noqa: E402
ninep_tests.define(test)
import event_tests  # noqa: E402
event_tests.define(test)


@test("selftest")
def test_selftest(m):
    out = m.command("selftest", SELFTEST_TIMEOUT)
    text = [line for line in out if line.strip()]
    check(text and text[0] == "KTAP version 1",
          "`selftest`: expected output to start with 'KTAP version 1', got %s"
          % show(text[:1]))
    summary = re.match(r"^selftest: (\d+) passed, (\d+) failed$", text[-1])
    check(summary, "`selftest`: expected the last line 'selftest: N passed, N failed',"
          " got %r" % text[-1])
    passed, failed = int(summary.group(1)), int(summary.group(2))
    failures = [line.strip() for line in text if line.lstrip().startswith("not ok")]
    check(failed == 0 and not failures,
          "`selftest`: %d failed: %s" % (failed, show(failures, 10)))
    suites = sorted(mt.group(2) for mt in map(KTAP_SUITE.match, text) if mt)
    want = sorted(SELFTEST_SUITES + archs.testdata(m.arch).SELFTEST_SUITES)
    check(suites == want, "`selftest`: expected the suites %s, got %s" % (want, suites))
    cases = sum(1 for line in text if KTAP_CASE.match(line))
    check(passed > 0 and cases == passed + failed,
          "`selftest`: %d case lines for %d passed and %d failed" % (cases, passed, failed))
    info("selftest: %d passed in %d suites" % (passed, len(suites)))


VIRTIO_NO_9P = "virtio: no 9p device: no host folder shared"
VIRTIO_9P_FOUND = re.compile(r"^virtio: 9p device 'host' \((pci [0-9a-f:.]+|mmio 0x[0-9a-f]+)\)$")


def serial_lines(m):
    """Everything the machine wrote to its console, as lines."""
    return "".join(m.raw).replace("\r", "").split("\n")


@test("virtio_9p_absent")
def test_virtio_9p_absent(m):
    """With no 9p device the boot says no host folder is shared."""
    lines = serial_lines(m)
    found = [line for line in lines if line.startswith("virtio:")]
    check(found == [VIRTIO_NO_9P],
          "expected the one boot line %r, got %r" % (VIRTIO_NO_9P, found))


@test("virtio_9p")
def test_virtio_9p(m):
    """Sharing a scratch folder over virtio 9p: the boot names the device
    and its tag, and a request sent by hand comes back with its tag (the
    selftest virtio_9p)."""
    with tempfile.TemporaryDirectory(prefix="probeos-9p-") as share:
        cmd = qemu.command(m.arch, m.smp, share=share)
        with qemu.Machine(m.arch, qemu_cmd=cmd, log_path=m.log_path,
                          log_title="virtio 9p", smp=m.smp) as shared:
            shared.wait_prompt(BOOT_TIMEOUT, echo=False)
            found = [line for line in serial_lines(shared) if line.startswith("virtio:")]
            check(len(found) == 1 and VIRTIO_9P_FOUND.match(found[0]),
                  "expected one boot line like \"virtio: 9p device 'host' (...)\", got %r"
                  % found)
            out = shared.command("selftest virtio_9p")
            check(out[-1:] == ["selftest: 3 passed, 0 failed"],
                  "`selftest virtio_9p`: expected 3 passed, got %s" % show(out[-6:], 6))


@test("typed_during_boot", only_on=archs_where("TYPED_DURING_BOOT"))
def test_typed_during_boot(m):
    """Keys typed before the kernel is up reach the shell whole. (Not
    where a boot loader's menu takes them: on x86_64 GRUB's.)"""
    with qemu.Machine(m.arch, qemu_cmd=m.cmd if m.custom_cmd else None, log_path=m.log_path,
                      log_title="typed during boot") as early:
        early.send("uptime\r")
        try:
            early.wait_for(UPTIME.pattern, BOOT_TIMEOUT)
        except qemu.MachineError as e:
            raise TestFailure("`uptime` typed during boot never ran (%s); the console shows %s"
                              % (e, show(early.screen.lines[-6:], 6)))


@test("poweroff")
def test_poweroff(m):
    want = qemu.poweroff_status(m.arch)
    status = m.poweroff(POWEROFF_TIMEOUT)
    check(status == want, "`poweroff`: QEMU exit status %d, expected %d" % (status, want))


# -- the harness --------------------------------------------------------

DEFAULT_CPUS = 4
# What --smp 1 runs: that the kernel still boots and works on one CPU,
# with no other CPU to send an IPI to.
UP_TESTS = ["boot", "cpus", "ls_proc_sys", "proc_kallsyms", "proc_uptime", "proc_cpuinfo",
            "proc_interrupts", "proc_meminfo", "dmesg", "help", "cat", "trailing_slash",
            "ls_many_args", "cat_input_is_output", "worker",
            "probe_add_del", "paste", "kprobes_debugfs_enabled",
            "kprobes_files_while_probes_change", "module_bad_files", "time_nested",
            "grep_nested_groups", "sysctl_bad_names", "host_folder_deep", "probe_removal_under_hits",
            "selftest", "poweroff"]

# The tests that keep the machine's CPUs busy for minutes, with waits of
# minutes: --group long.
LONG_TESTS = ["stack_tracer", "probe_every_spinlock_user", "kprobe_events_from_file"]
# The tests --group NAME runs; --group main runs the others. Beside a
# machine running LONG_TESTS the selftests took 529 s on x86_64 instead
# of 147, so make test keeps the two groups apart.
GROUPS = {"long": LONG_TESTS, "selftest": ["selftest"]}


class Harness:
    def __init__(self, arch, qemu_cmd, log_path, smp=None, name=None):
        self.arch = arch
        self.qemu_cmd = qemu_cmd
        self.log_path = log_path
        self.smp = smp
        self.name = name or ("up" if smp == 1 else "boot")  # of the summary line
        self.machine = None
        self.boots = 0
        self.boot_error = None  # why the last boot failed; then no more tries
        self.passed = 0
        self.failed = 0
        self.skipped = 0

    def boot(self):
        self.boots += 1
        m = qemu.Machine(self.arch, qemu_cmd=self.qemu_cmd, log_path=self.log_path,
                         log_title="boot %d" % self.boots, smp=self.smp)
        try:
            m.start()
            m.wait_prompt(BOOT_TIMEOUT, echo=False)
        except BaseException as e:
            if isinstance(e, qemu.MachineError) and m.proc is not None:
                self.report_tail(m)
            m.close()
            raise
        m.boot_time = m.boot_seconds()
        if self.boots > 1:
            info("booted again in %.1f s" % m.boot_time)
        return m

    def discard(self):
        if self.machine is not None:
            self.machine.close()
            self.machine = None

    def report_tail(self, m):
        print(m.tail_report(), flush=True)

    def result(self, name, reason=None):
        if reason is None:
            self.passed += 1
            print("ok - %s" % name, flush=True)
        else:
            self.failed += 1
            print("not ok - %s: %s" % (name, reason), flush=True)

    def run_one(self, name, fn):
        if name in ONLY_ON and self.arch not in ONLY_ON[name]:
            self.skipped += 1
            print("ok - %s # SKIP only on %s" % (name, ", ".join(ONLY_ON[name])), flush=True)
            return
        if self.machine is None:
            if self.boot_error is not None:
                self.result(name, "not run: the machine could not be booted")
                return
            try:
                self.machine = self.boot()
            except qemu.MachineError as e:
                self.boot_error = str(e)
                self.result(name, "boot failed: %s" % e)
                return
        m = self.machine
        try:
            fn(m)
        except TestFailure as e:
            self.result(name, str(e))
            self.report_tail(m)
        except qemu.MachineError as e:
            self.result(name, str(e))
            self.report_tail(m)
            self.discard()
        except Exception as e:  # a bug in the test itself
            self.result(name, "%s: %s" % (type(e).__name__, e))
            self.report_tail(m)
            self.discard()
        else:
            self.result(name)
        if name == "poweroff":
            self.discard()

    def run(self, tests):
        if os.path.exists(self.log_path):
            os.remove(self.log_path)
        seconds = []
        try:
            for name, fn in tests:
                start = time.monotonic()
                self.run_one(name, fn)
                seconds.append((time.monotonic() - start, name))
        finally:
            self.discard()
        # Where the part's time goes (boots count in the test after them),
        # for whoever shortens `make test`; never asserted.
        slowest = sorted(seconds, reverse=True)[:SLOWEST_SHOWN]
        print("# slowest: " + ", ".join("%s %.0f s" % (n, t) for t, n in slowest), flush=True)
        print("%s(%s): %d passed, %d failed, %d skipped"
              % (self.name, self.arch, self.passed, self.failed, self.skipped), flush=True)
        return self.failed == 0


SLOWEST_SHOWN = 8


def select_tests(names):
    if not names:
        return list(TESTS)
    known = dict(TESTS)
    unknown = [n for n in names if n not in known]
    if unknown:
        sys.exit("unknown test %s; known tests: %s"
                 % (", ".join(unknown), " ".join(n for n, _ in TESTS)))
    return [(n, fn) for n, fn in TESTS if n in names]


def exit_on_signal(signum, frame):
    # Turn SIGTERM/SIGHUP into an exception so that `finally` kills QEMU.
    raise SystemExit(128 + signum)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", default="x86_64", choices=archs.archs())
    ap.add_argument("--test", action="append", default=[], metavar="NAME",
                    help="run only this test (repeatable); the machine is booted first")
    ap.add_argument("--list", action="store_true", help="list the tests and exit")
    ap.add_argument("--qemu", metavar="COMMAND",
                    help="boot with this command line instead of the built-in one")
    ap.add_argument("--log", metavar="PATH", help="transcript file "
                    "(default build/ARCH/boot-test.log, or up-test.log with --smp 1)")
    ap.add_argument("--group", choices=["all", "main"] + sorted(GROUPS), default="all",
                    help="run all the tests (the default), only one group of them "
                    "(%s), or those of no group (main)" % ", ".join(sorted(GROUPS)))
    ap.add_argument("--smp", type=int, metavar="N", default=DEFAULT_CPUS,
                    help="boot with N CPUs (default %d); with 1, run UP_TESTS "
                    "(or the --test ones)" % DEFAULT_CPUS)
    args = ap.parse_args()

    if args.list:
        for name, _ in TESTS:
            print(name)
        return 0
    signal.signal(signal.SIGTERM, exit_on_signal)
    signal.signal(signal.SIGHUP, exit_on_signal)

    if args.smp < 1:
        ap.error("--smp needs at least 1 CPU")
    tests = select_tests(args.test or (UP_TESTS if args.smp == 1 else []))
    if args.group == "main":
        grouped = {n for names in GROUPS.values() for n in names}
        tests = [(n, fn) for n, fn in tests if n not in grouped]
    elif args.group != "all":
        tests = [(n, fn) for n, fn in tests if n in GROUPS[args.group]]
    qemu_cmd = shlex.split(args.qemu) if args.qemu else None
    log_path = args.log or qemu.default_log_path(args.arch)
    if args.smp == 1 and not args.log:
        log_path = os.path.join(os.path.dirname(log_path), "up-test.log")
    name = "boot-" + args.group if args.group in GROUPS else None
    if name and not args.log:
        log_path = os.path.join(os.path.dirname(log_path), "%s-test.log" % name)
    harness = Harness(args.arch, qemu_cmd, log_path, args.smp, name)
    return 0 if harness.run(tests) else 1


if __name__ == "__main__":
    sys.exit(main())
