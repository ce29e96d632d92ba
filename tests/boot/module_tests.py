"""Boot tests of loadable modules: insmod, rmmod, lsmod, modinfo,
modprobe, probes on module code and [GONE], Linux's sample modules and
ours.

The modules come from the boot archive's /lib/modules/: samples/kprobes/
and tests/modules/ (built by `make`), Linux's samples/kprobes/ (built by
`make linux-samples`, which `make test` runs) and the broken files of
tests/modules/bad (tools/mkbadmodules.py). boot_tests.py calls define()
with its test decorator, so these tests run in its order and on its
machine.
"""

import importlib.util
import os
import re
import time

import archs
from checks import check, info, show

ROOT = archs.ROOT
_spec = importlib.util.spec_from_file_location(
    "mkbadmodules", os.path.join(ROOT, "tools", "mkbadmodules.py"))
mkbadmodules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mkbadmodules)

HEX = r"[0-9a-f]{16}"


def define(test):
    """Register the module tests with boot_tests.py's decorator."""

    def run(m, cmd, timeout=30):
        return m.command(cmd, timeout)

    def expect_lines(out, patterns, cmd):
        """Each pattern (a regular expression) matches some line of out."""
        for p in patterns:
            check(any(re.search(p, line) for line in out),
                  "`%s`: no line matches %r in %s" % (cmd, p, show(out, 12)))

    def expect_no_line(out, pattern, cmd):
        bad = [line for line in out if re.search(pattern, line)]
        check(not bad, "`%s`: unexpected %s" % (cmd, show(bad)))

    def loaded(m):
        """What lsmod lists, newest first: each module's name, with its
        size, how many modules use it and which (a list of names)."""
        out = run(m, "lsmod")
        check(out and out[0] == "Module                  Size  Used by",
              "`lsmod`: no header in %s" % show(out))
        rows = {}
        for line in out[1:]:
            f = line.split()
            rows[f[0]] = [int(f[1]), int(f[2]), f[3].split(",") if len(f) > 3 else []]
        return rows

    def proc_modules(m):
        """The lines of /proc/modules, newest module first, each split in
        Linux's columns: name, size, how many use it, which ("-" or names
        each with a comma after it), state, address."""
        out = run(m, "cat /proc/modules")
        pattern = r"^(\S+) (\d+) (\d+) (-|(?:\S+,)+) (Live|Loading|Unloading) 0x(%s)$" % HEX
        rows = [re.match(pattern, line) for line in out]
        check(all(rows), "/proc/modules: a line not in Linux's format in %s" % show(out))
        return [r.groups() for r in rows]

    def no_modules_left(m):
        left = loaded(m)
        check(not left, "modules still loaded: %s" % ", ".join(sorted(left)))

    def no_probes_left(m):
        out = run(m, "probe list")
        check(out == ["no probes"], "`probe list`: expected no probes, got %s" % show(out))

    def insmod(m, args, patterns=(), timeout=30):
        """Load a module that must load; its output must match patterns."""
        cmd = "insmod " + args
        out = run(m, cmd, timeout)
        check(not any(line.startswith("insmod:") for line in out),
              "`%s` failed: %s" % (cmd, show(out)))
        expect_lines(out, patterns, cmd)
        return out

    def settled_mem(m):
        """`mem` once it stops changing: an unregistered probe's point is
        freed by an RCU callback, a grace period after the call returns."""
        last = run(m, "mem")
        for _ in range(30):
            time.sleep(0.2)
            now = run(m, "mem")
            if now == last:
                return now
            last = now
        return last

    def mem_given_back(m, before, what):
        """`mem` settles where it was before what was done."""
        after = settled_mem(m)
        check(after == before, "`mem` before %s: %s; after: %s" % (what, show(before), show(after)))

    def cat_hostname(m):
        return run(m, "cat /etc/hostname")

    def module_test(name):
        """A test that starts from no modules and no probes: what an earlier
        failed test left behind is removed first (and said), so that one
        failure does not fail every test after it."""
        def register(fn):
            def run_clean(m):
                left = loaded(m)
                if left:
                    info("removing modules left by an earlier test: %s" % ", ".join(left))
                    for name_ in left:  # newest first: users before what they use
                        run(m, "rmmod " + name_)
                run(m, "probe del all")
                fn(m)
            return test(name)(run_clean)
        return register

    @test("modules_listed")
    def test_modules_listed(m):
        out = run(m, "ls /lib/modules")
        names = {line.split()[0] for line in out if line.split()}
        want = {"kprobe_regs.ko", "jprobe_args.ko", "kretprobe_time.ko", "fault_inject.ko",
                "mod_exporter.ko", "mod_user.ko", "kprobe_example.ko", "kretprobe_example.ko",
                "mod_compat.ko", "modules.dep"}
        check(want <= names, "`ls /lib/modules`: missing %s" % ", ".join(sorted(want - names)))
        no_modules_left(m)

    @module_test("module_ftrace_sites")
    def test_module_ftrace_sites(m):
        """A loaded module's functions are in available_filter_functions,
        Linux's way, "NAME [MODULE]", after the kernel's: those of its
        core code (exporter_add, its exit), not its freed init; and gone
        once it is removed."""
        listing = "cat /sys/kernel/tracing/available_filter_functions"
        before = run(m, listing)
        check(len(before) > 500 and "vfs_read" in before and "exporter_add" not in before,
              "`%s` with no module: %d lines, %s" % (listing, len(before), show(before[:5])))
        insmod(m, "mod_exporter", [r"^mod_exporter: loaded$"])
        out = run(m, listing)
        added = out[len(before):]
        check(out[:len(before)] == before and "exporter_add [mod_exporter]" in added
              and "exporter_exit [mod_exporter]" in added
              and not any(line.startswith("exporter_init") for line in added)
              and all(line.endswith(" [mod_exporter]") for line in added),
              "`%s` with mod_exporter: its lines %s" % (listing, show(added)))
        run(m, "rmmod mod_exporter")
        after = run(m, listing)
        check(after == before, "`%s` after rmmod: %d lines, %d before" % (listing, len(after), len(before)))

    def worker_start_stop(m, cmd="worker start 2"):
        """Make two threads (kernel_clone, twice), let them go; the
        output of the start, with any handler lines."""
        out = run(m, cmd)
        check(len([line for line in out if line.startswith("worker: started")]) == 2,
              "`%s`: expected two workers, got %s" % (cmd, show(out)))
        stop = run(m, "worker stop")
        check(len(stop) == 1 and stop[0].startswith("worker: stopped"),
              "`worker stop`: %s" % show(stop))
        return out

    @module_test("module_kprobe_example")
    def test_module_kprobe_example(m):
        """Linux's samples/kprobes/kprobe_example.c, unchanged, with no
        parameter: it probes kernel_clone, which makes every thread."""
        insmod(m, "kprobe_example", [r"^kprobe_init: Planted kprobe at %s$" % HEX])
        out = [line for line in run(m, "cat /proc/modules") if line.startswith("kprobe_example ")]
        check(len(out) == 1 and out[0].split()[4] == "Live",
              "/proc/modules: kprobe_example not Live: %s" % show(out))
        # Its handlers print at each thread made: two workers, two of each.
        out = worker_start_stop(m)
        regs = archs.testdata(m.arch).KPROBE_EXAMPLE_REGS
        for name, pattern in [
                ("handler_pre", r"^handler_pre: <kernel_clone> p->addr = 0x%s, %s$" % (HEX, regs)),
                ("handler_post", r"^handler_post: <kernel_clone> p->addr = 0x%s, " % HEX)]:
            hits = [line for line in out if re.search(pattern, line)]
            check(len(hits) == 2, "`worker start 2`: expected 2 %s lines, got %s"
                  % (name, show(out)))
        # Its handlers are __kprobes: blacklisted, by name and by module.
        for name in ("handler_pre", "kprobe_example:handler_post"):
            out = run(m, "probe add " + name)
            check(out == ["probe: %s is blacklisted" % name],
                  "`probe add %s`: %s" % (name, show(out)))
        out = run(m, "sym handler_pre")
        check(len(out) == 1 and out[0].endswith("text [kprobe_example]"),
              "`sym handler_pre`: %s" % show(out))
        addr = int(out[0].split()[1], 16)
        out = run(m, "sym 0x%x" % (addr + 4))
        check(len(out) == 1 and re.match(r"^handler_pre\+0x4/0x[0-9a-f]+ \[kprobe_example\]$",
                                         out[0]), "`sym 0x%x`: %s" % (addr + 4, show(out)))
        out = run(m, "rmmod kprobe_example")
        expect_lines(out, [r"^kprobe_exit: kprobe at %s unregistered$" % HEX], "rmmod")
        out = worker_start_stop(m)
        expect_no_line(out, r"^handler_", "worker start 2 (after rmmod)")
        no_modules_left(m)
        no_probes_left(m)

    @module_test("module_probe_owners")
    def test_module_probe_owners(m):
        """`probe list` numbers every registered probe, the shell's and a
        module's alike, and names its owner: `shell`, or the module
        (kprobe_example, whose init registers its probe). The debugfs
        list keeps Linux's columns, without either. Bare `probe show`
        shows every probe; `probe show N` a module's too. `probe del N`,
        `probe off N` and `probe on N` refuse the module's probe in one
        line naming the module, and change nothing: it stays listed, as
        it was, and its handlers still run."""
        out = run(m, "probe add vfs_read")
        got = re.match(r"^probe (\d+): k vfs_read\+0x0 at 0x(%s)$" % HEX, out[0]) \
            if len(out) == 1 else None
        check(got, "`probe add vfs_read`: %s" % show(out))
        mine, addr = int(got.group(1)), got.group(2)
        insmod(m, "kprobe_example symbol=vfs_read",
               [r"^kprobe_init: Planted kprobe at %s$" % addr])

        listing = "cat /sys/kernel/debug/kprobes/list"
        # Its own read goes through vfs_read: kprobe_example's handlers print.
        out = [line for line in run(m, listing) if not line.startswith("handler_")]
        check(len(out) == 2 and all(re.match(r"^%s  k  vfs_read\+0x0    \[FTRACE\]$" % addr, line)
                                    for line in out),
              "`%s`: expected two lines in Linux's columns, no number, no owner, got %s"
              % (listing, show(out)))

        before = run(m, "probe list")
        pattern = r"^(\d+)  %s  k  vfs_read\+0x0  \[FTRACE\]  hits=\d+ missed=0  owner=(\S+)$" % addr
        listed = [re.match(pattern, line) for line in before]
        check(len(before) == 2 and all(listed) and
              [(int(l.group(1)), l.group(2)) for l in listed][0] == (mine, "shell") and
              listed[1].group(2) == "kprobe_example" and int(listed[1].group(1)) > mine,
              "`probe list`: expected probe %d owned by the shell, then a higher number owned"
              " by kprobe_example, got %s" % (mine, show(before)))
        theirs = int(listed[1].group(1))
        out = run(m, "probe show")
        heads = [line for line in out if line.startswith("probe ")]
        owners = [line for line in out if line.startswith("  owner ")]
        check(heads == ["probe %d: k vfs_read+0x0 at 0x%s [FTRACE]" % (n, addr)
                        for n in (mine, theirs)]
              and owners == ["  owner     shell", "  owner     kprobe_example"],
              "bare `probe show`: expected probes %d (shell) and %d (kprobe_example), got %s"
              % (mine, theirs, show(out, 30)))
        out = run(m, "probe show %d" % theirs)
        expect_lines(out, [r"^probe %d: k vfs_read\+0x0 at 0x%s \[FTRACE\]$" % (theirs, addr),
                           r"^  owner     kprobe_example$", r"^  original ", r"^  live ",
                           r"^  hits      \d+$"], "probe show %d" % theirs)

        refusal = "probe: probe %d belongs to module kprobe_example (rmmod it)" % theirs
        for cmd in ("del", "off", "on"):
            out = run(m, "probe %s %d" % (cmd, theirs))
            check(out == [refusal], "`probe %s %d`: expected %r, got %s"
                  % (cmd, theirs, refusal, show(out)))
        out = run(m, "probe list")
        check(out == before, "`probe list` after the refusals: expected %s, got %s"
              % (show(before), show(out)))
        out = cat_hostname(m)
        expect_lines(out, [r"^handler_pre: <vfs_read> p->addr = 0x%s, " % addr], "cat")

        # A place names both: the shell's is removed, the module's refused.
        out = run(m, "probe del vfs_read")
        check(out == ["probe %d: removed" % mine, refusal],
              "`probe del vfs_read`: expected probe %d removed and %r, got %s"
              % (mine, refusal, show(out)))
        out = run(m, "probe del all")
        check(out == ["probe: removed 0 probes"], "`probe del all`: %s" % show(out))
        out = run(m, "probe list")
        check(len(out) == 1 and re.match(r"^%d  %s  k  vfs_read\+0x0  \[FTRACE\]  hits=[1-9]\d* missed=0"
                                         r"  owner=kprobe_example$" % (theirs, addr), out[0]),
              "`probe list`: expected only kprobe_example's probe, with its hits, got %s"
              % show(out))
        run(m, "rmmod kprobe_example")
        no_probes_left(m)
        check(run(m, "probe show") == ["no probes"], "bare `probe show` with no probes")
        no_modules_left(m)

    @module_test("module_kretprobe_example")
    def test_module_kretprobe_example(m):
        """Linux's kretprobe_example.c with no parameter: a return probe on
        kernel_clone. Its entry handler skips kernel threads (no mm), and
        every ProbeOS thread is one, so its return handler never prints:
        the probe is hit at each thread made, and it prints nothing."""
        insmod(m, "kretprobe_example",
               [r"^Planted return probe at kernel_clone: %s$" % HEX])
        out = run(m, "probe list")
        line = r"^\d+  %s  r  kernel_clone\+0x0  .*hits=%d missed=0  owner=kretprobe_example$"
        expect_lines(out, [line % (HEX, 0)], "probe list")
        out = worker_start_stop(m)
        check(all(line.startswith("worker: started") for line in out),
              "`worker start 2`: the sample must print nothing: %s" % show(out))
        out = run(m, "probe list")
        expect_lines(out, [line % (HEX, 2)], "probe list")
        out = run(m, "probe add entry_handler")
        check(out == ["probe: entry_handler is blacklisted"],
              "`probe add entry_handler` (NOKPROBE_SYMBOL): %s" % show(out))
        out = run(m, "rmmod kretprobe_example")
        expect_lines(out, [r"^kretprobe at %s unregistered$" % HEX,
                           r"^Missed probing 0 instances of kernel_clone$"], "rmmod")
        no_modules_left(m)
        no_probes_left(m)

    @module_test("module_samples")
    def test_module_samples(m):
        """Our samples/kprobes/: registers, arguments, timing, faults."""
        insmod(m, "kprobe_regs symbol=vfs_read")
        out = cat_hostname(m)
        reg = archs.testdata(m.arch).PC_NAME
        expect_lines(out, [r"^kprobe_regs: vfs_read hit 1 at %s$" % HEX,
                           r"^kprobe_regs:  %s %s " % (reg, HEX)], "cat")
        run(m, "rmmod kprobe_regs")

        insmod(m, "jprobe_args")
        out = cat_hostname(m)
        expect_lines(out, [r"^jprobe_args: vfs_read\(file %s, buf %s, count 512, \*pos 0\)$"
                           % (HEX, HEX)], "cat")
        run(m, "rmmod jprobe_args")

        insmod(m, "kretprobe_time func=vfs_read")
        out = cat_hostname(m)
        expect_lines(out, [r"^kretprobe_time: vfs_read returned 8 \(0x8\) after \d+ ns$"], "cat")
        run(m, "rmmod kretprobe_time")

        insmod(m, "fault_inject func=vfs_read")
        out = cat_hostname(m)
        expect_lines(out, [r"^fault_inject: vfs_read fails with -5$",
                           r"^cat: .*Input/output error"], "cat (a fault injected)")
        run(m, "rmmod fault_inject")
        out = cat_hostname(m)
        check(out == ["probeos"], "after rmmod fault_inject, `cat`: %s" % show(out))
        no_modules_left(m)
        no_probes_left(m)

    @module_test("module_exports_and_gone")
    def test_module_exports_and_gone(m):
        insmod(m, "mod_exporter", [r"^mod_exporter: loaded$"])
        # A module's function by its bare name (kprobe_example's test and
        # mod_init_probe use the module:name form).
        out = run(m, "probe add exporter_add")
        got = re.match(r"^probe (\d+): k exporter_add\+0x0 at 0x", out[0]) \
            if len(out) == 1 else None
        check(got, "probe add: %s" % show(out))
        number = got.group(1)
        out = run(m, "probe list")
        # The module's functions have call sites too: the probe rides on it.
        expect_lines(out, [r"^%s  %s  k  exporter_add\+0x0 \[mod_exporter\]  \[FTRACE\]  hits=0"
                           r" missed=0  owner=shell$" % (number, HEX)], "probe list")
        insmod(m, "mod_user", [r"^mod_user: exporter_add\(2, 3\) = 5, calls = 1$"])
        users = loaded(m)["mod_exporter"][1:]
        check(users == [1, ["mod_user"]],
              "`lsmod`: mod_exporter should be used by mod_user, is by %s" % users)
        out = run(m, "rmmod mod_exporter")
        check(out == ["rmmod: mod_exporter is in use by mod_user"], "rmmod: %s" % show(out))
        run(m, "rmmod mod_user")
        out = run(m, "rmmod mod_exporter")
        expect_lines(out, [r"^mod_exporter: removed after 1 calls$"], "rmmod mod_exporter")
        out = run(m, "probe list")
        expect_lines(out, [r"^%s  %s  k  exporter_add\+0x0 \[mod_exporter\]  \[GONE\]  \[FTRACE\]"
                           r"  hits=1 missed=0  owner=shell$" % (number, HEX)], "probe list")
        out = run(m, "probe show " + number)
        expect_lines(out, [r"\[GONE\]", r"^  owner     shell$",
                           r"^  gone      exporter_add\+0x0 \[mod_exporter\]: module mod_exporter"
                           r" was removed; `probe del %s` removes it$" % number], "probe show")
        out = run(m, "probe del " + number)
        check(out == ["probe %s: removed" % number], "probe del: %s" % show(out))
        no_probes_left(m)
        no_modules_left(m)

    def ko_symbols(m, name):
        """The (letter, name) of each symbol /proc/kallsyms must list for
        the module name once its init code is freed, from its .ko: every
        function and object of a section the loader keeps (not .init.*,
        freed after init, nor .modinfo, which it reads but, as Linux,
        does not load), with nm's letter
        in small case, or a capital for what the module exports (it has a
        __ksymtab_NAME entry), as Linux shows a module's."""
        ko = os.path.join("build", m.arch, "modules", "lib", "modules", name + ".ko")
        letters = dict((f[2], f[1]) for f in
                       (line.split() for line in
                        archs.binutils(m.arch, "NM", "--defined-only", ko).splitlines()))
        exported = {s[len("__ksymtab_"):] for s in letters if s.startswith("__ksymtab_")}
        want = []
        for line in archs.binutils(m.arch, "OBJDUMP", "-t", ko).splitlines():
            # "0000000000000000 g     F .text\t000000000000000b exporter_add"
            left, _, right = line.partition("\t")
            flags, sym = left.split()[1:], right.split()[1:]
            if not sym or not {"F", "O"} & set(flags[:-1]) or \
                    flags[-1].startswith(".init") or flags[-1] == ".modinfo":
                continue
            letter = letters[sym[0]].lower()
            want.append((letter.upper() if sym[0] in exported else letter, sym[0]))
        return sorted(want)

    @module_test("module_kallsyms")
    def test_module_kallsyms(m):
        """A loaded module's symbols follow the kernel's in /proc/kallsyms,
        each `ADDRESS TYPE NAME<tab>[MODULE]` as in Linux: what its .ko
        says it has (ko_symbols), at the addresses `sym` finds; after
        rmmod they are gone."""
        insmod(m, "mod_exporter")
        insmod(m, "mod_user")
        out = run(m, "cat /proc/kallsyms", 120)
        kernel = [line for line in out if "[" not in line]
        check(out[:len(kernel)] == kernel, "/proc/kallsyms: a module's line among the kernel's")
        for name in ("mod_exporter", "mod_user"):
            lines = [line.split() for line in out if line.endswith("[%s]" % name)]
            got = sorted((f[1], f[2]) for f in lines)
            want = ko_symbols(m, name)
            check(got == want, "/proc/kallsyms, [%s]: expected %s, got %s" % (name, want, got))
            check(all(len(f) == 4 and re.match(HEX + "$", f[0]) for f in lines),
                  "/proc/kallsyms, [%s]: %s" % (name, show([" ".join(f) for f in lines])))
        addr = run(m, "sym exporter_add")[0].split()[1][2:]
        line = "%s T exporter_add\t[mod_exporter]" % addr
        check(line in "".join(m.raw), "/proc/kallsyms: no line %r" % line)
        run(m, "rmmod mod_user")
        run(m, "rmmod mod_exporter")
        out = run(m, "cat /proc/kallsyms", 120)
        check(out == kernel, "/proc/kallsyms after rmmod: %d lines, %d before insmod"
              % (len(out), len(kernel)))
        no_modules_left(m)

    @module_test("module_proc_modules")
    def test_module_proc_modules(m):
        """/proc/modules has Linux's columns and says what lsmod says (both
        print from the same functions); a module's address is where its
        code is."""
        insmod(m, "mod_exporter")
        insmod(m, "mod_user")
        rows = proc_modules(m)
        listed = loaded(m)
        check([r[0] for r in rows] == ["mod_user", "mod_exporter"] == list(listed),
              "/proc/modules %s, lsmod %s: expected mod_user, then mod_exporter"
              % ([r[0] for r in rows], list(listed)))
        for name, size, count, users, state, _ in rows:
            names = [] if users == "-" else users.rstrip(",").split(",")
            check(listed[name] == [int(size), int(count), names] and state == "Live",
                  "%s: /proc/modules says %s, lsmod %s" % (name, (size, count, users, state),
                                                          listed[name]))
        base = int(rows[1][5], 16)
        addr = int(run(m, "sym exporter_add")[0].split()[1], 16)
        check(base <= addr < base + int(rows[1][1]),
              "exporter_add at 0x%x, outside mod_exporter's 0x%x + %s" % (addr, base, rows[1][1]))
        run(m, "rmmod mod_user")
        run(m, "rmmod mod_exporter")
        out = run(m, "cat /proc/modules")
        check(out == [], "/proc/modules with no module loaded: %s" % show(out))
        no_modules_left(m)

    @module_test("module_init_code_gone")
    def test_module_init_code_gone(m):
        """A module's probe on its own init code: [GONE] once init has
        returned, owned by the module, which `probe show` names as the
        way to remove it, and which `probe del` leaves it to."""
        insmod(m, "mod_init_probe", [r"^mod_init_probe: init_step\(21\) = 42, probe hits = 1$"])
        before = out = run(m, "probe list")
        listed = [re.match(r"^(\d+)  %s  k  init_step\+0x0 \[mod_init_probe\]  \[GONE\]  hits=1 "
                           r"missed=0  owner=mod_init_probe$" % HEX, line) for line in out]
        check(len(out) == 1 and listed[0], "`probe list`: expected one [GONE] line, owner"
              " mod_init_probe, got %s" % show(out))
        number = listed[0].group(1)
        out = run(m, "probe show " + number)
        expect_lines(out, [r"^probe %s: k init_step\+0x0 \[mod_init_probe\] at 0x%s \[GONE\]$"
                           % (number, HEX), r"^  owner     mod_init_probe$",
                           r"^  gone      init_step\+0x0 \[mod_init_probe\]: the init code of"
                           r" module mod_init_probe was freed; `rmmod mod_init_probe` removes it$"],
                     "probe show " + number)
        out = run(m, "probe del " + number)
        check(out == ["probe: probe %s belongs to module mod_init_probe (rmmod it)" % number],
              "`probe del %s` of a module's probe: %s" % (number, show(out)))
        out = run(m, "probe list")
        check(out == before, "`probe list` after a refused `probe del`: expected %s, got %s"
              % (show(before), show(out)))
        out = run(m, "rmmod mod_init_probe")
        expect_lines(out, [r"^mod_init_probe: unregistered$"], "rmmod")
        expect_no_line(out, r"warning", "rmmod")
        no_probes_left(m)

    @module_test("module_debugfs_list")
    def test_module_debugfs_list(m):
        """/sys/kernel/debug/kprobes/list on module code: the module's name
        bare in its own column, as Linux prints it; [GONE] once the code is
        freed, for a module removed under a probe that stays and for a
        module's init code. The blacklist has a module's never-probe
        functions while it is loaded."""
        listing = "cat /sys/kernel/debug/kprobes/list"
        insmod(m, "mod_exporter", [r"^mod_exporter: loaded$"])
        out = run(m, "probe add exporter_add")
        check(len(out) == 1 and out[0].startswith("probe "), "probe add: %s" % show(out))
        number = out[0].split()[1].rstrip(":")
        expect_lines(run(m, listing),
                     [r"^%s  k  exporter_add\+0x0  mod_exporter \[FTRACE\]$" % HEX], listing)
        run(m, "rmmod mod_exporter")
        expect_lines(run(m, listing),
                     [r"^%s  k  exporter_add\+0x0  mod_exporter \[GONE\]\[FTRACE\]$" % HEX],
                     listing)
        run(m, "probe del " + number)
        insmod(m, "mod_init_probe", [r"^mod_init_probe: init_step"])
        expect_lines(run(m, listing),
                     [r"^%s  k  init_step\+0x0  mod_init_probe \[GONE\]$" % HEX], listing)
        run(m, "rmmod mod_init_probe")
        check(run(m, listing) == [], "`%s` after rmmod: not empty" % listing)
        blacklist = "cat /sys/kernel/debug/kprobes/blacklist"
        if "kretprobe_example.ko" in " ".join(run(m, "ls /lib/modules")):
            insmod(m, "kretprobe_example func=vfs_read")
            expect_lines(run(m, blacklist, 60),
                         [r"^0x[0-9a-f]{16}-0x[0-9a-f]{16}\s+entry_handler \[kretprobe_example\]$"],
                         blacklist)
            run(m, "rmmod kretprobe_example")
        expect_no_line(run(m, blacklist, 60), r"\[kretprobe_example\]", blacklist)
        no_modules_left(m)
        no_probes_left(m)

    @module_test("module_init_fails")
    def test_module_init_fails(m):
        out = run(m, "insmod mod_init_fails")
        expect_lines(out, [r"^mod_init_fails: registered a kprobe: 0; now failing",
                           r"^kprobes: warning: module mod_init_fails left a kprobe "
                           r"registered on vfs_read\+0x0; unregistering it$",
                           r"^insmod: init of mod_init_fails failed: -19 \(No such device\)"],
                     "insmod mod_init_fails")
        no_modules_left(m)
        no_probes_left(m)
        out = cat_hostname(m)
        check(out == ["probeos"], "`cat` after the failed init: %s" % show(out))

    @module_test("module_leaves_probe")
    def test_module_leaves_probe(m):
        insmod(m, "mod_leaves_probe")
        cat_hostname(m)
        out = run(m, "rmmod mod_leaves_probe")
        # Two hits: the cat's read of the file, and the read that finds its end.
        expect_lines(out, [r"^mod_leaves_probe: 2 hits; exiting without unregister_kprobe$",
                           r"^kprobes: warning: module mod_leaves_probe left a kprobe "
                           r"registered on vfs_read\+0x0; unregistering it$"], "rmmod")
        no_probes_left(m)
        out = cat_hostname(m)
        check(out == ["probeos"], "`cat` after rmmod: %s" % show(out))

    @module_test("module_params")
    def test_module_params(m):
        insmod(m, "mod_params p_int=-5 p_uint=7 p_long=-9000000000 p_ulong=0x10 p_bool "
                  "p_charp=hello p_string=xyz",
               [r"^mod_params: int=-5 uint=7 long=-9000000000 ulong=16 bool=1 "
                r"charp=hello string=xyz$"])
        # Their values in sysfs, as Linux shows them.
        for name, want in [("p_int", "-5"), ("p_uint", "7"), ("p_long", "-9000000000"),
                           ("p_ulong", "16"), ("p_bool", "Y"), ("p_charp", "hello"),
                           ("p_string", "xyz")]:
            cmd = "cat /sys/module/mod_params/parameters/" + name
            out = run(m, cmd)
            check(out == [want], "`%s`: expected %r, got %s" % (cmd, want, show(out)))
        run(m, "rmmod mod_params")
        out = run(m, "ls /sys/module/mod_params")
        check(len(out) == 1 and "No such file or directory" in out[0],
              "`ls /sys/module/mod_params` after rmmod: %s" % show(out))
        for args, want in [
                ("x=1", "insmod: unknown parameter 'x'"),
                ("p_int=abc", "insmod: bad value 'abc' for parameter 'p_int' (an int)"),
                ("p_int=4294967296",
                 "insmod: bad value '4294967296' for parameter 'p_int' (an int, out of range)"),
                ("p_int=-2147483649",
                 "insmod: bad value '-2147483649' for parameter 'p_int' (an int, out of range)"),
                ("p_long=9223372036854775808",
                 "insmod: bad value '9223372036854775808' for parameter 'p_long'"
                 " (a long, out of range)"),
                # Too big even for the parser's 64 bits: still "out of range".
                ("p_ulong=18446744073709551616",
                 "insmod: bad value '18446744073709551616' for parameter 'p_ulong'"
                 " (an unsigned long, out of range)"),
                ("p_uint=4294967296",
                 "insmod: bad value '4294967296' for parameter 'p_uint'"
                 " (an unsigned int, out of range)"),
                ("p_ulong=-1", "insmod: bad value '-1' for parameter 'p_ulong' (an unsigned long)"),
                ("p_bool=maybe",
                 "insmod: bad value 'maybe' for parameter 'p_bool' (a bool (y/n))"),
                ("p_string=abcdefgh",
                 "insmod: value for parameter 'p_string' is longer than 7 characters")]:
            out = run(m, "insmod mod_params " + args)
            check(out == [want], "`insmod mod_params %s`: expected %r, got %s"
                  % (args, want, show(out)))
        no_modules_left(m)

    @module_test("module_debugfs")
    def test_module_debugfs(m):
        """tests/modules/mod_debugfs.c makes debugfs files as a Linux module
        does: a file with read and write operations of its own, one of
        seq_file's. They are read through the mount, the module's parameter
        is in /sys/module, and after rmmod they are gone: removed by its
        exit, or, when it leaves them (leave=1), by the kernel, which says
        so. (Writing them is the selftest pseudofs's part.)"""
        base = "/sys/kernel/debug/mod_debugfs"
        insmod(m, "mod_debugfs", [r"^mod_debugfs: made /sys/kernel/debug/mod_debugfs$"])
        for cmd, want in [("ls " + base, ["message  0", "stats    0"]),
                          ("cat %s/message" % base, ["hello from mod_debugfs"]),
                          ("cat %s/stats" % base, ["writes 0", "message 23 bytes"]),
                          ("cat /sys/module/mod_debugfs/parameters/leave", ["N"]),
                          ("rmmod mod_debugfs", ["mod_debugfs: removed the files"])]:
            out = run(m, cmd)
            check(out == want, "`%s`: expected %s, got %s" % (cmd, show(want), show(out)))

        def gone():
            out = run(m, "ls " + base)
            check(len(out) == 1 and "No such file or directory" in out[0],
                  "`ls %s` after rmmod: expected it gone, got %s" % (base, show(out)))
            out = run(m, "ls /sys/module")
            check("mod_debugfs/" not in out, "`ls /sys/module` after rmmod: %s" % show(out))
        gone()
        insmod(m, "mod_debugfs leave=1")
        out = run(m, "cat /sys/module/mod_debugfs/parameters/leave")
        check(out == ["Y"], "`cat .../parameters/leave` with leave=1: %s" % show(out))
        out = run(m, "rmmod mod_debugfs")
        want = ["mod_debugfs: leaving the files behind",
                "debugfs: warning: module mod_debugfs left the directory mod_debugfs;"
                " removing it"]
        check(out == want, "`rmmod mod_debugfs` (leave=1): expected %s, got %s"
              % (show(want), show(out)))
        gone()
        no_modules_left(m)

    @module_test("module_two_files")
    def test_module_two_files(m):
        insmod(m, "mod_two_files", [r"^mod_two_files: helper\(20\) = 42$"])
        run(m, "rmmod mod_two_files")
        no_modules_left(m)

    def staged(m, name):
        """The bytes of /lib/modules/NAME.ko as the build staged it."""
        with open(os.path.join(ROOT, "build", m.arch, "modules", "lib", "modules",
                               name + ".ko"), "rb") as f:
            return f.read()

    def modinfo_strings(data):
        """The key=value strings of a module file's .modinfo, in order."""
        elf = mkbadmodules.Elf(data)
        sh = elf.shdr(elf.section(".modinfo"))
        return [t.decode() for t in bytes(elf.data[sh[4]:sh[4] + sh[5]]).split(b"\0") if t]

    def field(key, value):
        """A line of modinfo: the name padded to 16 columns, as Linux's."""
        return ("%-16s%s" % (key + ":", value)).rstrip()

    @module_test("module_modinfo")
    def test_module_modinfo(m):
        """modinfo reads a module file without loading it: the fields of
        its .modinfo in their order (the build adds depends=, name= and
        vermagic=), then one parm: line a parameter, NAME:DESC (TYPE) as
        Linux's modinfo joins parm= and parmtype=; by path or by name."""
        data = staged(m, "mod_user")
        want = [field("filename", "/lib/modules/mod_user.ko"), field("size", len(data))]
        want += [field(*kv.split("=", 1)) for kv in modinfo_strings(data)]
        check(field("depends", "mod_exporter") in want,
              "mod_user.ko's .modinfo has no depends=mod_exporter: %s" % show(want))
        for arg in ("/lib/modules/mod_user.ko", "mod_user", "mod_user.ko"):
            out = [line.rstrip() for line in run(m, "modinfo " + arg)]
            check(out == want, "`modinfo %s`: expected %s, got %s" % (arg, show(want), show(out)))
        out = [line.rstrip() for line in run(m, "modinfo mod_params")]
        params = [line for line in out if line.startswith("parm:")]
        want = [field("parm", "p_int:an int (int)")] + \
            [field("parm", "%s:%s" % (p, t)) for p, t in [
                ("p_string", "string"), ("p_charp", "charp"), ("p_bool", "bool"),
                ("p_ulong", "ulong"), ("p_long", "long"), ("p_uint", "uint")]]
        check(sorted(params) == sorted(want) and out[-len(params):] == params,
              "`modinfo mod_params`: parm lines %s, expected %s, last" % (show(params), show(want)))
        out = [line.rstrip() for line in run(m, "modinfo mod_compat")]
        expect_lines(out, ["^" + re.escape(field("description",
                                                 "uses the Linux API of older module code")) + "$",
                           "^" + re.escape(field("author", "ProbeOS")) + "$",
                           "^" + re.escape(field("parm", "symbol:the symbol to look up (string)"))
                           + "$",
                           "^" + re.escape(field("parm", "repeat:int")) + "$"], "modinfo mod_compat")
        # Any architecture's module: its fields read the same.
        other = archs.config(m.arch)["OTHER_ARCH"]
        out = run(m, "modinfo /lib/modules/bad/other_arch.ko")
        expect_lines(out, [r"^name:\s+mod_params$", r"^vermagic:\s+probeos-\S+ .* %s$" % other],
                     "modinfo other_arch.ko")
        # A file that is no module, or no file: one line each, nothing kept.
        before = settled_mem(m)
        for arg, want in [
                ("/lib/modules/bad/text.ko",
                 "modinfo: ERROR: could not get modinfo from 'text': not an ELF file"),
                ("/lib/modules/bad/modinfo_nobits.ko",
                 r"modinfo: ERROR: could not get modinfo from 'modinfo_nobits': section \d+ "
                 r"\(\.modinfo\) has type 0x8"),
                ("/etc/motd", "modinfo: ERROR: could not get modinfo from 'motd': not an ELF file"),
                ("nosuch", r"modinfo: ERROR: Module nosuch not found\.$"),
                ("/lib/modules/nosuch.ko",
                 r"modinfo: ERROR: Module file /lib/modules/nosuch\.ko not found\.$")]:
            out = run(m, "modinfo " + arg)
            check(len(out) == 1 and re.match(want, out[0]),
                  "`modinfo %s`: expected one line matching %r, got %s" % (arg, want, show(out)))
        mem_given_back(m, before, "modinfo of bad files")
        no_modules_left(m)

    def loaded_names(m):
        return sorted(loaded(m))

    @module_test("module_modprobe")
    def test_module_modprobe(m):
        """modprobe loads what /lib/modules/modules.dep says a module
        needs first, skips what is loaded; modprobe -r removes the module,
        then what it needed that nothing else uses."""
        before = settled_mem(m)
        out = run(m, "cat /lib/modules/modules.dep")
        check("mod_user.ko: mod_exporter.ko" in out and "mod_exporter.ko:" in out,
              "/lib/modules/modules.dep: %s" % show(out))
        out = run(m, "modprobe mod_user")
        check(out == ["mod_exporter: loaded", "mod_user: exporter_add(2, 3) = 5, calls = 1"],
              "`modprobe mod_user`: %s" % show(out))
        check(loaded(m)["mod_exporter"][1:] == [1, ["mod_user"]],
              "`lsmod` after modprobe mod_user: %s" % loaded(m))
        out = run(m, "modprobe mod_user")
        check(out == [], "`modprobe mod_user` when loaded: %s" % show(out))
        out = run(m, "modprobe -r mod_user")
        check(out == ["mod_user: removed", "mod_exporter: removed after 1 calls"],
              "`modprobe -r mod_user`: %s" % show(out))
        no_modules_left(m)
        # A dependency another module still uses stays.
        run(m, "modprobe mod_user")
        out = run(m, "modprobe mod_needs_gone")
        check(out == ["mod_needs_gone: 8"], "`modprobe mod_needs_gone`: %s" % show(out))
        run(m, "modprobe -r mod_user")
        names = loaded_names(m)
        check(names == ["mod_exporter", "mod_gone", "mod_needs_gone"],
              "after modprobe -r mod_user, with mod_needs_gone loaded: %s" % names)
        run(m, "modprobe -r mod_needs_gone")
        no_modules_left(m)
        # Parameters go to the module asked for.
        out = run(m, "modprobe mod_params p_int=3 p_string=ab")
        expect_lines(out, [r"^mod_params: int=3 .* string=ab$"], "modprobe mod_params")
        run(m, "modprobe -r mod_params")
        for cmd, want in [
                ("modprobe -r mod_user", "modprobe: FATAL: Module mod_user is not in kernel."),
                ("modprobe nosuch",
                 "modprobe: FATAL: Module nosuch not found in directory /lib/modules"),
                ("modprobe", ["modprobe: usage: modprobe NAME [name=value ...]",
                              "                 modprobe -r NAME"])]:
            want = want if isinstance(want, list) else [want]
            out = run(m, cmd)
            check(out == want, "`%s`: expected %s, got %s" % (cmd, show(want), show(out)))
        run(m, "modprobe mod_user")
        out = run(m, "modprobe -r mod_exporter")
        check(out == ["modprobe: FATAL: Module mod_exporter is in use."],
              "`modprobe -r mod_exporter` under mod_user: %s" % show(out))
        run(m, "modprobe -r mod_user")
        no_modules_left(m)
        mem_given_back(m, before, "modprobe")

    @module_test("module_modprobe_dependency_fails")
    def test_module_modprobe_dependency_fails(m):
        """mod_needs_failing needs mod_exporter and mod_init_fails, whose
        init fails: modprobe loads mod_exporter, then removes it again,
        and one line of its own says why."""
        # mod_init_fails registers a probe: the first probe of a boot
        # leaves its instruction-slot page as the cache's spare
        # (kernel/mm/insn_slot.c), so one comes and goes before counting.
        run(m, "probe add vfs_read")
        run(m, "probe del all")
        before = settled_mem(m)
        out = run(m, "modprobe mod_needs_failing")
        expect_lines(out, [r"^mod_exporter: loaded$",
                           r"^insmod: init of mod_init_fails failed: -19 \(No such device\)",
                           r"^mod_exporter: removed after 0 calls$"], "modprobe mod_needs_failing")
        why = [line for line in out if line.startswith("modprobe:")]
        check(why == ["modprobe: ERROR: could not insert 'mod_init_fails': No such device"],
              "`modprobe mod_needs_failing`: expected one modprobe line, got %s" % show(out))
        expect_no_line(out, r"mod_needs_failing: loaded", "modprobe mod_needs_failing")
        no_modules_left(m)
        no_probes_left(m)
        mem_given_back(m, before, "modprobe")

    @module_test("module_modprobe_dependency_missing")
    def test_module_modprobe_dependency_missing(m):
        """A modules.dep gone stale: mod_gone.ko, which mod_needs_gone
        needs, is deleted. modprobe loads mod_exporter, finds no mod_gone,
        removes mod_exporter again, and one line says why."""
        out = run(m, "rm /lib/modules/mod_gone.ko")
        check(out == [], "`rm /lib/modules/mod_gone.ko`: %s" % show(out))
        before = settled_mem(m)
        out = run(m, "modprobe mod_needs_gone")
        want = ["mod_exporter: loaded",
                "modprobe: FATAL: Module mod_gone not found in directory /lib/modules",
                "mod_exporter: removed after 0 calls"]
        check(out == want, "`modprobe mod_needs_gone`: expected %s, got %s"
              % (show(want), show(out)))
        no_modules_left(m)
        mem_given_back(m, before, "modprobe")

    @module_test("module_compat")
    def test_module_compat(m):
        """tests/modules/mod_compat.c uses what older module code does:
        kallsyms_lookup_name (the address `sym` gives, 0 for no symbol),
        NR_CPUS, NAME_MAX, PATH_MAX and the S_I* permissions."""
        addr = run(m, "sym kernel_clone")[0].split()[1][2:].lstrip("0")
        insmod(m, "mod_compat", [
            r"^mod_compat: kernel_clone at 0x%s, no_such_symbol at 0x0$" % addr,
            r"^mod_compat: NR_CPUS=8 \(8 slots\) NAME_MAX=255 PATH_MAX=4096$",
            r"^mod_compat: S_IRUGO=444 S_IWUGO=222 S_IXUGO=111 S_IRWXUGO=777 "
            r"S_IRUSR=400 S_IWUSR=200$"])
        out = run(m, "cat /sys/module/mod_compat/parameters/symbol")
        check(out == ["kernel_clone"], "mod_compat's symbol parameter: %s" % show(out))
        run(m, "rmmod mod_compat")
        # A module's symbol, by name and in the module:name form.
        insmod(m, "mod_exporter")
        addr = run(m, "sym exporter_add")[0].split()[1][2:].lstrip("0")
        for name in ("exporter_add", "mod_exporter:exporter_add"):
            insmod(m, "mod_compat symbol=" + name,
                   [r"^mod_compat: %s at 0x%s, " % (name, addr)])
            run(m, "rmmod mod_compat")
        run(m, "rmmod mod_exporter")
        no_modules_left(m)

    @module_test("module_jprobe_example_refused")
    def test_module_jprobe_example(m):
        """Linux's jprobe_example.c (before 4.15) hard-codes _do_fork or
        do_fork, which ProbeOS does not have: it prints its own error and
        is not loaded. Its source cannot be shipped here (see
        docs/modules.md), so the test runs only if it was built with
        `make M=...`."""
        out = run(m, "ls /lib/modules")
        if not any(line.split()[:1] == ["jprobe_example.ko"] for line in out):
            info("jprobe_example.ko is not in /lib/modules: not checked")
            return
        out = run(m, "insmod jprobe_example")
        expect_lines(out, [r"register_jprobe failed, returned -2$",
                           r"^insmod: init of jprobe_example failed: -1 "], "insmod")
        no_modules_left(m)

    @module_test("module_bad_files")
    def test_module_bad_files(m):
        """Every file of tools/mkbadmodules.py refused with its one line,
        the kernel alive, nothing loaded, and the memory given back."""
        before = settled_mem(m)
        cases, _ = mkbadmodules.bad_modules(os.path.join(ROOT, "build"), m.arch,
                                            archs.config(m.arch)["OTHER_ARCH"])
        cases += [("/etc/motd", "", r"^insmod: not an ELF file$"),
                  ("/lib/modules/none.ko", "",
                   r"^insmod: /lib/modules/none.ko: No such file")]
        for name, args, want in cases:
            path = name if name.startswith("/") else "/lib/modules/bad/" + name
            cmd = ("insmod %s %s" % (path, args)).strip()
            out = run(m, cmd)
            check(len(out) == 1 and re.search(want, out[0]),
                  "`%s`: expected one line matching %r, got %s" % (cmd, want, show(out)))
        out = cat_hostname(m)
        check(out == ["probeos"], "`cat` after the refusals: %s" % show(out))
        no_modules_left(m)
        mem_given_back(m, before, "the refusals")

    @module_test("module_100_cycles")
    def test_module_100_cycles(m):
        before = settled_mem(m)
        for i in range(100):
            out = run(m, "insmod kprobe_example symbol=vfs_read")
            check(any("Planted kprobe" in line for line in out),
                  "cycle %d: insmod: %s" % (i, show(out)))
            if i % 10 == 0:
                cat_hostname(m)
            out = run(m, "rmmod kprobe_example")
            check(any("unregistered" in line for line in out),
                  "cycle %d: rmmod: %s" % (i, show(out)))
        mem_given_back(m, before, "100 insmod/rmmod cycles")
        no_modules_left(m)
