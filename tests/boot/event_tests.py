"""Boot tests of kprobe events: kprobe_events, the events/ files,
kprobe_profile and error_log in /sys/kernel/tracing (docs/events.md),
checked against Linux's formats and against the kernel's own values.

boot_tests.py calls define() with its test decorator, so these tests run
in its order and on its machine (4 CPUs, with `worker start 4` where
events must fire on every CPU at once).
"""

import os
import re
import tempfile
import time

import archs
import ninep_tests
from checks import check, heap_is_back, heap_usage, info, settled_heap_usage, show

TRACING = "/sys/kernel/tracing"
ROOT = archs.ROOT
# Definitions in one file, as Linux's "10,000 definitions" bad input.
MANY_DEFINITIONS = 10000

# A line of `trace` made by an event: Linux's columns, then the event's
# name and its text.
EVENT_LINE = re.compile(r"^ *(\S+)-(\d+) +\[(\d{3})\] (\S{5}) +(\d+\.\d{6}): (\w+): (.*)$")


def first_piece():
    """The count the shell's first read of a file asks for
    (kernel/shell/input.c): what `cat` passes vfs_read."""
    with open(os.path.join(ROOT, "kernel", "shell", "input.c")) as f:
        return int(re.search(r"^#define FIRST_PIECE (\d+)$", f.read(), re.M).group(1))


def define(test):
    """Register the event tests with boot_tests.py's decorator."""

    def write(m, text, file="kprobe_events", op=">>"):
        """Write text to a tracing file; the lines the shell printed."""
        return m.command("echo '%s' %s %s/%s" % (text, op, TRACING, file))

    def written(m, text, file="kprobe_events", op=">>"):
        out = write(m, text, file, op)
        check(out == [], "`echo '%s' %s %s`: %s" % (text, op, file, show(out)))

    def refused(m, text, errno_text, file="kprobe_events", op=">>"):
        out = write(m, text, file, op)
        check(any(errno_text in line for line in out),
              "`echo '%s' %s %s`: expected %r, got %s" % (text, op, file, errno_text, show(out)))

    def cat(m, path, timeout=20):
        return m.command("cat %s/%s" % (TRACING, path), timeout)

    def events(m):
        """The event lines of trace: (task, pid, cpu, event, text)."""
        out = cat(m, "trace", 180)
        rows = []
        for line in out:
            if line.startswith("#") or line.startswith(" => ") or line.endswith(": <stack trace>"):
                continue
            e = EVENT_LINE.match(line)
            check(e, "trace: a line not in Linux's format: %r" % line)
            rows.append((e.group(1), int(e.group(2)), int(e.group(3)), e.group(6), e.group(7)))
        return rows

    def args_of(text):
        """An event's "(where) name=value ..." as where and {name: value}."""
        where = re.match(r"^\((.*?)\)", text)
        check(where, "event text %r: no (where)" % text)
        return where.group(1), dict(re.findall(r" (\w+)=(\S+)", text[where.end():]))

    def clear(m):
        written(m, "", "trace", ">")

    def heap_before(m):
        """The heap's use, with error_log emptied (it keeps its entries
        in memory of their own)."""
        written(m, "", "error_log", ">")
        return settled_heap_usage(m)

    def settle_heap(m, seconds=300):
        """Wait for the heap's use to stay put for 3 s: a removal's frees
        run a grace period later, in the rcu thread, and many take long."""
        deadline = time.monotonic() + seconds
        last, since = heap_usage(m), time.monotonic()
        while time.monotonic() - since < 3 and time.monotonic() < deadline:
            time.sleep(0.5)
            now = heap_usage(m)
            if now != last:
                last, since = now, time.monotonic()

    def heap_back(m, before, what):
        written(m, "", "error_log", ">")
        heap_is_back(m, before, what)

    @test("kprobe_events")
    def test_kprobe_events(m):
        """A kprobe event and a kretprobe event on vfs_read, a string on
        vfs_open: the definitions as kprobe_events shows them, the files
        of each, and the values its records hold against the kernel's
        own: the count cat asked for, the bytes it got, the path it
        opened, the thread's name, the hits kprobe_profile counts."""
        data = archs.testdata(m.arch)
        a1, a2, a3 = data.ARG_REGS
        before = heap_before(m)
        written(m, "p:myread vfs_read count=%%%s:u64" % a3)
        written(m, "r vfs_read $retval:s64")
        written(m, "p:kprobes/op vfs_open path=+0(%%%s):string $comm" % a1)
        want = ["p:kprobes/myread vfs_read count=%%%s:u64" % a3,
                "r:kprobes/r_vfs_read_0 vfs_read arg1=$retval:s64",
                "p:kprobes/op vfs_open path=+0(%%%s):string arg2=$comm" % a1]
        check(cat(m, "kprobe_events") == want, "kprobe_events: %s" % show(cat(m, "kprobe_events")))
        check(cat(m, "dynamic_events") == want, "dynamic_events: %s" % show(cat(m, "dynamic_events")))
        names = m.command("ls %s/events/kprobes" % TRACING)
        check(sorted(line.split()[0].rstrip("/") for line in names) == ["enable", "myread", "op",
                                                                       "r_vfs_read_0"],
              "ls events/kprobes: %s" % show(names))
        files = sorted(line.split()[0] for line in m.command("ls %s/events/kprobes/myread" % TRACING))
        check(files == ["enable", "filter", "format", "hist", "id", "trigger"],
              "ls events/kprobes/myread: %s" % files)
        ident = cat(m, "events/kprobes/myread/id")
        fmt = cat(m, "events/kprobes/myread/format")
        check(fmt[:3] == ["name: myread", "ID: %s" % ident[0], "format:"],
              "myread/format: %s" % show(fmt))
        # The console shows the tabs as spaces: the words are compared.
        words = [" ".join(line.split()) for line in fmt]
        check("field:unsigned long __probe_ip; offset:8; size:8; signed:0;" in words and
              "field:u64 count; offset:16; size:8; signed:0;" in words and
              fmt[-1] == 'print fmt: "(%lx) count=%Lu", REC->__probe_ip, REC->count',
              "myread/format: %s" % show(fmt, 12))
        fmt = cat(m, "events/kprobes/r_vfs_read_0/format")
        check(fmt[-1] == 'print fmt: "(%lx <- %lx) arg1=%Ld", REC->__probe_func, '
              'REC->__probe_ret_ip, REC->arg1', "r_vfs_read_0/format: %s" % show(fmt, 12))
        check(cat(m, "events/kprobes/myread/enable") == ["0"], "enable before")
        check(cat(m, "events/enable") == ["0"], "events/enable before")
        written(m, "1", "events/kprobes/myread/enable", ">")
        check(cat(m, "events/kprobes/enable") == ["X"], "kprobes/enable with one of three on")
        written(m, "1", "events/kprobes/enable", ">")
        check(cat(m, "events/enable") == ["1"], "events/enable with all on")
        # Their probes are the kernel's own, owned by the events.
        plist = m.command("probe list")
        for owner in ("kprobes/myread", "kprobes/r_vfs_read_0", "kprobes/op"):
            check(any(line.endswith("owner=" + owner) for line in plist),
                  "probe list: no probe of %s in %s" % (owner, show(plist)))
        ident = next(line.split()[0] for line in plist if line.endswith("owner=kprobes/myread"))
        out = m.command("probe del %s" % ident)
        check(any("belongs to event kprobes/myread" in line for line in out),
              "probe del of an event's probe: %s" % show(out))
        clear(m)
        check(m.command("cat /etc/hostname") == ["probeos"], "cat /etc/hostname")
        written(m, "0", "events/enable", ">")
        rows = [r for r in events(m) if r[0] == "shell"]
        reads = [args_of(r[4]) for r in rows if r[3] == "myread"]
        rets = [args_of(r[4]) for r in rows if r[3] == "r_vfs_read_0"]
        opens = [args_of(r[4]) for r in rows if r[3] == "op"]
        check(len(reads) == 2 and all(w.startswith("vfs_read+0x0/") and a == {"count": str(first_piece())}
                                      for w, a in reads),
              "myread: expected two reads of %d, got %s" % (first_piece(), reads))
        check([a["arg1"] for _, a in rets] == [str(len("probeos\n")), "0"] and
              all(re.match(r"^\S+\+0x[0-9a-f]+/0x[0-9a-f]+ <- vfs_read$", w) for w, _ in rets),
              "r_vfs_read_0: expected the file's bytes, then 0: %s" % rets)
        check(opens and opens[0][1] == {"path": '"/etc/hostname"', "arg2": '"shell"'},
              "op: expected the path and the thread's name, got %s" % opens)
        profile = {line.split()[0]: [int(x) for x in line.split()[1:]]
                   for line in cat(m, "kprobe_profile")}
        check(profile.get("myread", [0])[0] >= 2 and profile.get("myread")[1] == 0,
              "kprobe_profile: %s" % profile)
        # Removal: one by name, the rest with >.
        written(m, "-:myread")
        written(m, "-:kprobes/op")
        written(m, "", op=">")
        check(cat(m, "kprobe_events") == [], "kprobe_events after removal")
        check(m.command("probe list") == ["no probes"], "probe list after removal")
        check(m.command("ls %s/events" % TRACING)[0].split()[0] == "enable",
              "events/ after removal: %s" % show(m.command("ls %s/events" % TRACING)))
        heap_back(m, before, "kprobe events defined, hit and removed")

    @test("kprobe_events_pipe")
    def test_kprobe_events_pipe(m):
        """An event's records read through trace_pipe, which consumes
        them (trace shows them no more), in Linux's line; a string at an
        address nothing is mapped at recorded as Linux's (fault); a
        function pointer in memory as :symbol, the ramfs files' read
        (struct file_operations: owner, llseek, read)."""
        data = archs.testdata(m.arch)
        before = heap_before(m)
        written(m, "p:kprobes/pp vfs_read count=%%%s:u64 bad=@8:string op=@ramfs_file_fops+16:symbol"
                % data.ARG_REGS[2])
        written(m, "1", "events/kprobes/pp/enable", ">")
        clear(m)
        m.command("cat /etc/hostname")
        written(m, "0", "events/kprobes/pp/enable", ">")
        written(m, "0", "tracing_on", ">")
        # trace_pipe ends once tracing is off and it has read something.
        out = m.command("cat %s/trace_pipe" % TRACING, 60)
        rows = []
        for line in out:
            e = EVENT_LINE.match(line)
            check(e, "trace_pipe: a line not in Linux's format: %r" % line)
            if e.group(1) == "shell" and e.group(6) == "pp":
                rows.append(args_of(e.group(7)))
        want = {"count": str(first_piece()), "bad": "(fault)"}
        check(len(rows) == 2 and all(w.startswith("vfs_read+0x0/") and
                                     {k: a.get(k) for k in want} == want and
                                     a.get("op", "").startswith("ramfs_read+0x0/0x")
                                     for w, a in rows),
              "trace_pipe: expected two records of %s and op=ramfs_read, got %s" % (want, rows))
        check(not [r for r in events(m) if r[3] == "pp"], "trace after trace_pipe read it")
        written(m, "1", "tracing_on", ">")
        written(m, "-:pp")
        heap_back(m, before, "an event read through trace_pipe")

    @test("kprobe_events_refused")
    def test_kprobe_events_refused(m):
        """Linux's refusals, each with its errno, its error_log entry and
        the caret at its place; removal and truncation refused while an
        event is enabled; a line of 4,000 characters; MAXACTIVE."""
        data = archs.testdata(m.arch)
        before = heap_before(m)
        written(m, "", "error_log", ">")
        cases = [("p vfs_read ^$retval", "$retval is not available on probe"),
                 ("p:foo/^bar.1 vfs_read", "Event name must follow the same rules as C identifiers"),
                 ("p vfs_read ^%none_reg", "Invalid register name"),
                 ("p ^non_exist_func", "Invalid probed address or symbol"),
                 ("r^100000 vfs_read", "Maxactive is too big"),
                 ("p vfs_read +0(^$comm)", "$comm can not be dereferenced")]
        for line, _ in cases:
            refused(m, line.replace("^", ""), "write error")
        log = cat(m, "error_log")
        check(len(log) == 3 * len(cases), "error_log: %s" % show(log, 20))
        for i, (line, message) in enumerate(cases):
            head, command, caret = log[3 * i:3 * i + 3]
            check(re.match(r"^\[ *\d+\.\d{6}\] trace_kprobe: error: " + re.escape(message) + "$", head),
                  "error_log entry %d: %r" % (i, head))
            check(command == "  Command: " + line.replace("^", ""), "error_log command: %r" % command)
            check(caret == " " * (len("  Command: ") + line.index("^")) + "^",
                  "error_log caret of %r: %r" % (line, caret))
        written(m, "", "error_log", ">")
        check(cat(m, "error_log") == [], "error_log after echo >")
        # Eight entries kept, the oldest going first.
        for i in range(10):
            refused(m, "p vfs_read x%d=$none" % i, "write error")
        log = cat(m, "error_log")
        check(len(log) == 24 and log[1].endswith("x2=$none") and log[-2].endswith("x9=$none"),
              "error_log keeps the last 8: %s" % show(log, 30))
        written(m, "", "error_log", ">")
        # 4,000 characters: refused for its argument's length, not cut.
        long_arg = "x=" + "+0(" * 980 + "%" + data.ARG_REGS[0] + ")" * 980
        refused(m, "p vfs_read " + long_arg, "write error")
        check(cat(m, "error_log")[0].endswith("Argument expression is too long"),
              "a 4,000-character line: %s" % show(cat(m, "error_log")))
        refused(m, "-:nothere", "No such file or directory")
        written(m, "r16:maxret vfs_read")
        written(m, "p:grp/ev vfs_read")
        refused(m, "p:grp/ev vfs_read", "File exists")
        check(cat(m, "kprobe_events") == ["r16:kprobes/maxret vfs_read", "p:grp/ev vfs_read"],
              "kprobe_events: %s" % show(cat(m, "kprobe_events")))
        written(m, "1", "events/grp/ev/enable", ">")
        refused(m, "-:grp/ev", "Device or resource busy")
        refused(m, "", "Device or resource busy", op=">")
        check(len(cat(m, "kprobe_events")) == 2, "nothing removed while enabled")
        written(m, "0", "events/grp/ev/enable", ">")
        written(m, "", op=">")
        check(cat(m, "kprobe_events") == [], "kprobe_events after truncation")
        heap_back(m, before, "refused definitions")

    @test("kprobe_events_module")
    def test_kprobe_events_module(m):
        """An event on a module's function defined before the module
        loads, its probe placed when it comes, [GONE] when it goes and
        placed again when it comes back: the arguments and the return
        value of exporter_add(2, 3), called by mod_user's init."""
        data = archs.testdata(m.arch)
        a1, a2, _ = data.ARG_REGS
        before = heap_before(m)
        written(m, "p:madd mod_exporter:exporter_add a=%%%s:s32 b=%%%s:s32" % (a1, a2))
        written(m, "r:mret mod_exporter:exporter_add sum=$retval:s32")
        check(m.command("probe list") == ["no probes"], "probes before the module")
        written(m, "1", "events/enable", ">")
        for rounds in range(2):
            clear(m)
            for mod in ("mod_exporter", "mod_user"):
                out = m.command("insmod %s" % mod)
                check(not any(line.startswith("insmod:") for line in out), "insmod %s: %s" % (mod, show(out)))
            # Read while the module is there: its symbols name the lines.
            rows = events(m)
            adds = [args_of(r[4]) for r in rows if r[3] == "madd"]
            rets = [args_of(r[4]) for r in rows if r[3] == "mret"]
            check(len(adds) == 1 and adds[0][1] == {"a": "2", "b": "3"} and
                  adds[0][0].startswith("exporter_add+0x0/") and adds[0][0].endswith(" [mod_exporter]"),
                  "madd, round %d: %s" % (rounds, adds))
            # The caller is mod_user's init, whose code (and names) are
            # freed once it has run: an address.
            check(len(rets) == 1 and rets[0][1] == {"sum": "5"} and
                  rets[0][0].endswith(" <- exporter_add [mod_exporter]"),
                  "mret, round %d: %s" % (rounds, rets))
            for mod in ("mod_user", "mod_exporter"):
                m.command("rmmod %s" % mod)
            gone = m.command("cat /sys/kernel/debug/kprobes/list")
            check(len(gone) == 2 and all("[GONE]" in line for line in gone),
                  "kprobes/list after rmmod: %s" % show(gone))
        written(m, "0", "events/enable", ">")
        written(m, "", op=">")
        check(m.command("probe list") == ["no probes"], "probes after removal")
        heap_back(m, before, "events on module code")

    @test("kprobe_events_under_load")
    def test_kprobe_events_under_load(m):
        """Events defined, enabled and removed while 4 workers hit them on
        every CPU: each record whole, with the chunk the workers read
        (kernel/worker.c); then 256 events on one function added and
        removed (Linux's multiple_kprobes.tc)."""
        data = archs.testdata(m.arch)
        a1, a2, a3 = data.ARG_REGS
        with open(os.path.join(ROOT, "kernel", "worker.c")) as f:
            chunk = re.search(r"^#define CHUNK (\d+)$", f.read(), re.M).group(1)
        before = heap_before(m)
        m.command("worker start 4")
        for i in range(8):
            written(m, "p:w%d vfs_read c=%%%s:u32 f=+0(%%%s):x64 $comm" % (i, a3, a1))
            written(m, "1", "events/kprobes/w%d/enable" % i, ">")
            written(m, "r:wr%d vfs_read $retval:s32" % i)
            written(m, "1", "events/kprobes/wr%d/enable" % i, ">")
            if i >= 2:
                for name in ("w%d" % (i - 2), "wr%d" % (i - 2)):
                    written(m, "0", "events/kprobes/%s/enable" % name, ">")
                    written(m, "-:%s" % name)
        written(m, "0", "tracing_on", ">")
        rows = [r for r in events(m) if r[0].startswith("worker")]
        cpus = {r[2] for r in rows}
        check(len(cpus) >= min(4, m.smp), "worker records from CPUs %s" % sorted(cpus))
        for task, pid, cpu, name, text in rows:
            where, a = args_of(text)
            if name.startswith("wr"):
                # Two kretprobes on one call: each names the real caller.
                check(re.match(r"^worker_main\+0x[0-9a-f]+/0x[0-9a-f]+ <- vfs_read$", where) and
                      0 <= int(a["arg1"]) <= int(chunk), "%s: %r" % (name, text))
            else:
                check(a["c"] == chunk and a["arg3"] == '"%s"' % task and re.match(r"^0x[0-9a-f]+$", a["f"]),
                      "%s: %r" % (name, text))
        written(m, "1", "tracing_on", ">")
        m.command("worker stop")
        written(m, "0", "events/enable", ">")
        written(m, "", op=">")
        heap_back(m, before, "events under load")
        lines = ["echo 'p:kprobes/many%d vfs_read' >> %s/kprobe_events" % (i, TRACING)
                 for i in range(256)]

        def define_many():
            for i in range(0, 256, 32):
                outs = m.commands(lines[i:i + 32])
                check(all(o == [] for o in outs), "256 events: %s" % [o for o in outs if o][:2])
            check(len(cat(m, "kprobe_events")) == 256, "256 events defined")

        # 256 probes' per-CPU counts take a second chunk of per-CPU
        # memory, which the allocator keeps as a spare once they are gone
        # (kernel/mm/percpu_alloc.c): the heap is compared after a round.
        define_many()
        written(m, "", op=">")
        before = heap_before(m)
        define_many()
        written(m, "1", "events/enable", ">")
        clear(m)
        m.command("cat /etc/hostname")
        written(m, "0", "events/enable", ">")
        hits = [r for r in events(m) if r[0] == "shell" and r[3].startswith("many")]
        check(len(hits) == 2 * 256, "256 events on vfs_read, two reads: %d records" % len(hits))
        written(m, "", op=">")
        check(cat(m, "kprobe_events") == [] and m.command("probe list") == ["no probes"],
              "256 events removed")
        heap_back(m, before, "256 events, the second time")

    @test("kprobe_events_from_file")
    def test_kprobe_events_from_file(m):
        """10,000 definitions in a file of the host's folder, `cat` into
        kprobe_events, as a script of them is fed on Linux (the shell's
        redirection writes whole lines): every one defined, in its
        order, each firing at each read while all are enabled, none
        missed; then `>` removes them all and the heap is as it was. A
        machine of its own shares the file."""
        data = archs.testdata(m.arch)
        lines = []
        for i in range(MANY_DEFINITIONS):
            if i % 10 == 9:
                lines.append("r:kprobes/many%d vfs_read ret=$retval:s64" % i)
            else:
                lines.append("p:kprobes/many%d vfs_read n=%%%s:u64" % (i, data.ARG_REGS[2]))
        with tempfile.TemporaryDirectory(prefix="probeos-events-") as share:
            with open(os.path.join(share, "defs"), "w") as f:
                f.write("".join(line + "\n" for line in lines))
            with open(os.path.join(share, "warm"), "w") as f:
                f.write("".join(line + "\n" for line in lines[:1000]))
            with ninep_tests.boot_sharing(m, share, title="10,000 events") as h:
                # Many probes' per-CPU counts leave a spare chunk of
                # per-CPU memory behind (kernel/mm/percpu_alloc.c): a
                # first round of 1,000 makes it before the heap is read.
                check(h.command("cat /host/warm > %s/kprobe_events" % TRACING, 300) == [] and
                      h.command("echo > %s/kprobe_events" % TRACING, 300) == [],
                      "1,000 events defined and removed")
                settle_heap(h)
                before = heap_before(h)
                out = [line for line in h.command("time cat /host/defs > %s/kprobe_events"
                                                  % TRACING, 900) if line]
                check(len(out) == 1 and out[0].startswith("real "),
                      "defining %d events: %s" % (MANY_DEFINITIONS, show(out)))
                info("%d events defined: %s" % (MANY_DEFINITIONS, out[0]))
                count = h.command("cat %s/kprobe_events | wc -l" % TRACING, 120)
                check(count == [str(MANY_DEFINITIONS)], "kprobe_events' lines: %s" % show(count))
                # The first, a return one, the last, as written.
                shown = h.command("grep -E '/many(0|9|%d) ' %s/kprobe_events"
                                  % (MANY_DEFINITIONS - 1, TRACING), 120)
                want = [lines[0], lines[9], lines[-1]]
                check(shown == want, "definitions shown: %s" % show(shown))
                for value in ("1", "0"):
                    start = time.monotonic()
                    out = h.command("echo %s > %s/events/kprobes/enable" % (value, TRACING), 900)
                    check(out == [], "events/kprobes/enable %s: %s" % (value, show(out)))
                    info("%d events' enable %s: %.1f s" % (MANY_DEFINITIONS, value,
                                                           time.monotonic() - start))
                    if value == "1":
                        h.command("cat /etc/hostname")
                # kprobe_profile's columns: name, hits, misses. cat made
                # two reads; every event saw both, and missed none.
                profile = "%s/kprobe_profile" % TRACING
                both = h.command("grep -c -E '^ +many[0-9]+ +2 +0$' %s" % profile, 120)
                check(both == [str(MANY_DEFINITIONS)],
                      "events that saw cat's two reads and missed none: %s of %d; others: %s"
                      % (show(both), MANY_DEFINITIONS,
                         show(h.command("grep -v -E ' 2 +0$' %s | head -n 3" % profile, 120))))
                out = [line for line in h.command("time echo > %s/kprobe_events" % TRACING, 600)
                       if line]
                check(len(out) == 1 and out[0].startswith("real "),
                      "removing %d events: %s" % (MANY_DEFINITIONS, show(out)))
                info("%d events removed: %s" % (MANY_DEFINITIONS, out[0]))
                check(h.command("cat %s/kprobe_events | wc -l" % TRACING) == ["0"] and
                      h.command("probe list") == ["no probes"], "10,000 events removed")
                # The rcu thread frees 50,000 allocations, a kfree walking
                # the heap's free list each: seconds.
                settle_heap(h)
                heap_back(h, before, "10,000 events")

    @test("kprobe_events_filter")
    def test_kprobe_events_filter(m):
        """A filter on a kretprobe event keeps the returns it matches (of
        cat's two reads, the one that returned bytes); one on the thread's
        name keeps the shell's reads among the workers'; a filter refused
        shows Linux's caret and reason in the file and in error_log; "0"
        removes it."""
        data = archs.testdata(m.arch)
        before = heap_before(m)
        written(m, "r:fret vfs_read ret=$retval:s64")
        written(m, "p:fsh vfs_read count=%%%s:u64" % data.ARG_REGS[2])
        check(cat(m, "events/kprobes/fret/filter") == ["none"], "a filter before any is written")
        written(m, "ret > 0", "events/kprobes/fret/filter", ">")
        written(m, 'comm == "shell" && count >= 512', "events/kprobes/fsh/filter", ">")
        check(cat(m, "events/kprobes/fret/filter") == ["ret > 0"], "fret/filter")
        written(m, "1", "events/enable", ">")
        m.command("worker start 4")
        clear(m)
        check(m.command("cat /etc/hostname") == ["probeos"], "cat /etc/hostname")
        written(m, "0", "events/enable", ">")
        m.command("worker stop")
        rows = events(m)
        shell_rets = [args_of(r[4])[1] for r in rows if r[3] == "fret" and r[0] == "shell"]
        check({"ret": "8"} in shell_rets and {"ret": "0"} not in shell_rets,
              "fret with ret > 0: %s" % shell_rets)
        check(all(int(args_of(r[4])[1]["ret"]) > 0 for r in rows if r[3] == "fret"),
              "fret kept a return that is not > 0: %s" % show([r[4] for r in rows if r[3] == "fret"]))
        fsh = [r for r in rows if r[3] == "fsh"]
        check(len(fsh) == 2 and all(r[0] == "shell" for r in fsh),
              "fsh kept only the shell's two reads: %s" % show([r[0] for r in fsh]))
        written(m, "", "error_log", ">")
        refused(m, "ret > 0 && nosuch == 1", "Invalid argument", "events/kprobes/fret/filter", ">")
        shown = cat(m, "events/kprobes/fret/filter")
        check(shown == ["ret > 0 && nosuch == 1", " " * len("ret > 0 && nosuch") + "^",
                        "parse_error: Field not found"], "a refused filter: %s" % show(shown))
        log = cat(m, "error_log")
        check(len(log) == 3 and log[0].endswith("event filter parse error: error: Field not found"),
              "error_log of a refused filter: %s" % show(log))
        written(m, "0", "events/kprobes/fsh/filter", ">")
        check(cat(m, "events/kprobes/fsh/filter") == ["none"], "filter removed")
        written(m, "", op=">")
        heap_back(m, before, "filters")

    @test("kprobe_events_trigger")
    def test_kprobe_events_trigger(m):
        """Linux's triggers on a kprobe event: traceoff:1 turns tracing_on
        off after the first hit's record, with the count shown going to
        0; enable_event arms another event that records only once it has
        fired ("0*" meanwhile); stacktrace records the hit's call stack;
        "!" removes each, whatever filter it is written with; an event a
        trigger names is not removed."""
        data = archs.testdata(m.arch)
        before = heap_before(m)
        written(m, "p:tp vfs_read count=%%%s:u64" % data.ARG_REGS[2])
        written(m, "r:tret vfs_read ret=$retval:s64")
        trig = "events/kprobes/tp/trigger"
        check(cat(m, trig) == ["# Available triggers:",
                               "# traceon traceoff stacktrace enable_event disable_event hist"],
              "an empty trigger file: %s" % show(cat(m, trig)))
        # A trigger arms its event, so the first read after it fires it.
        written(m, "1", "events/kprobes/tp/enable", ">")
        clear(m)
        written(m, "traceoff:1", trig)
        m.command("cat /etc/hostname")
        written(m, "0", "events/kprobes/tp/enable", ">")
        refused(m, "traceoff", "File exists", trig)
        refused(m, "snapshot", "Invalid argument", trig)
        check(cat(m, "tracing_on") == ["0"], "tracing_on after traceoff:1")
        rows = [r for r in events(m) if r[3] == "tp"]
        check(len(rows) == 1, "one record before traceoff: %s" % show([r[4] for r in rows]))
        check(cat(m, trig) == ["traceoff:count=0"], "trigger after it fired: %s" % show(cat(m, trig)))
        written(m, "!traceoff", trig)
        written(m, "1", "tracing_on", ">")
        # enable_event: tret armed but silent until tp's first hit.
        written(m, "enable_event:kprobes:tret:1", trig)
        check(cat(m, "events/kprobes/tret/enable") == ["0*"], "tret in soft mode: %s"
              % show(cat(m, "events/kprobes/tret/enable")))
        refused(m, "-:tret", "Device or resource busy")
        written(m, "1", "events/kprobes/tp/enable", ">")
        clear(m)
        m.command("cat /etc/hostname")
        written(m, "0", "events/kprobes/tp/enable", ">")
        rets = [args_of(r[4])[1] for r in events(m) if r[3] == "tret" and r[0] == "shell"]
        check(rets == [{"ret": "8"}, {"ret": "0"}], "tret after enable_event: %s" % rets)
        written(m, "!enable_event:kprobes:tret", trig)
        check(cat(m, "events/kprobes/tret/enable") == ["0"], "tret after the trigger went")
        # stacktrace, under a filter.
        written(m, "stacktrace:1 if count >= 512", trig)
        written(m, "1", "events/kprobes/tp/enable", ">")
        clear(m)
        m.command("cat /etc/hostname")
        written(m, "0", "events/kprobes/tp/enable", ">")
        out = cat(m, "trace", 60)
        stack = [line for line in out if line.startswith(" => ")]
        check(sum(1 for line in out if line.endswith(": <stack trace>")) == 1 and
              " => vfs_read" in stack and " => fill" in stack,
              "stacktrace: %s" % show([line for line in out if not line.startswith("#")], 20))
        # A removal names the trigger by its command alone, as Linux's:
        # its filter is not even compiled.
        written(m, "!stacktrace if no_such_field == 1", trig)
        check(cat(m, trig) == ["# Available triggers:",
                               "# traceon traceoff stacktrace enable_event disable_event hist"],
              "the trigger file after the removals: %s" % show(cat(m, trig)))
        written(m, "", op=">")
        heap_back(m, before, "triggers")

    def hist_of(m, event):
        """An event's hist file, a table for each of its histograms: [(trigger
        info, [(keys, hitcount, {value: sum})], {total: n})], checked
        against Linux's layout."""
        out = cat(m, "events/kprobes/%s/hist" % event, 60)
        starts = [i for i, line in enumerate(out) if line == "# event histogram"]
        tables = []
        for n, at in enumerate(starts):
            lines = out[at:starts[n + 1] - 2 if n + 1 < len(starts) else len(out)]
            check(n == 0 or out[at - 2:at] == ["", ""], "%s/hist: no blank lines between tables: %s"
                  % (event, show(out[at - 3:at + 1])))
            check(lines[1] == "#" and lines[2].startswith("# trigger info: ") and
                  lines[3:5] == ["#", ""], "%s/hist's head: %s" % (event, show(lines[:6])))
            rows, totals = [], {}
            for line in lines[5:]:
                e = re.match(r"^\{ (.*) \} hitcount: +(\d+)((?:  \w+: +\S+)*)$", line)
                t = re.match(r"^    (Hits|Entries|Dropped): (\d+)$", line)
                if e:
                    rows.append((e.group(1), int(e.group(2)),
                                 dict(re.findall(r"(\w+): +(\S+)", e.group(3)))))
                elif t:
                    totals[t.group(1)] = int(t.group(2))
                else:
                    check(line in ("", "Totals:"), "%s/hist: a line not in Linux's format: %r"
                          % (event, line))
            check(sorted(totals) == ["Dropped", "Entries", "Hits"] and totals["Entries"] == len(rows),
                  "%s/hist's totals: %s" % (event, show(lines[-5:])))
            tables.append((lines[2][len("# trigger info: "):], rows, totals))
        check(out == [] or starts[:1] == [0], "%s/hist: %s" % (event, show(out[:3])))
        return tables

    @test("kprobe_events_hist")
    def test_kprobe_events_hist(m):
        """Linux's histograms on kprobe events: a log2 histogram of
        vfs_read's count whose hitcounts sum to its hits, fed on all four
        CPUs while the event itself records nothing ("0*"); one keyed on
        the CPU, with every CPU in it; a kretprobe's $retval in log2
        buckets sorted by key; execname and a value's sum; pause, cont
        and clear; refusals with Linux's errors; and removal, with the
        heap back."""
        data = archs.testdata(m.arch)
        before = heap_before(m)
        written(m, "p:hr vfs_read count=%%%s:u64" % data.ARG_REGS[2])
        written(m, "r:hret vfs_read ret=$retval:s64")
        trig = "events/kprobes/hr/trigger"
        written(m, "hist:keys=count.log2", trig)
        written(m, "hist:keys=common_cpu", trig)
        written(m, "hist:keys=common_pid.execname:vals=count:sort=count.descending", trig)
        check(cat(m, trig) == ["hist:keys=count.log2:vals=hitcount:sort=hitcount:size=2048 [active]",
                               "hist:keys=common_cpu:vals=hitcount:sort=hitcount:size=2048 [active]",
                               "hist:keys=common_pid.execname:vals=hitcount,count"
                               ":sort=count.descending:size=2048 [active]"],
              "hr/trigger: %s" % show(cat(m, trig)))
        check(cat(m, "events/kprobes/hr/enable") == ["0*"], "hr armed by its triggers")
        m.command("cat /etc/hostname")
        m.command("worker start 4")
        time.sleep(1)
        m.command("worker stop")
        tables = hist_of(m, "hr")
        check(len(tables) == 3, "hr/hist: %d tables" % len(tables))
        info, rows, totals = tables[0]
        piece = first_piece()
        bucket = (piece - 1).bit_length()
        check(info == "hist:keys=count.log2:vals=hitcount:sort=hitcount:size=2048 [active]",
              "hr/hist's trigger info: %r" % info)
        check(totals["Dropped"] == 0 and sum(n for _, n, _ in rows) == totals["Hits"],
              "hr/hist: the hitcounts do not sum to the hits: %s %s" % (rows, totals))
        counts = {k: n for k, n, _ in rows}
        check(counts.get("count: ~ 2^%-2d" % bucket, 0) >= 2,
              "hr/hist: no bucket 2^%d for cat's reads of %d: %s" % (bucket, piece, rows))
        check([n for _, n, _ in rows] == sorted(n for _, n, _ in rows), "hr/hist's order: %s" % rows)
        cpus = [k for k, _, _ in tables[1][1]]
        check(len(cpus) == m.smp and all(k.startswith("common_cpu: ") for k in cpus),
              "a row for each CPU under worker start: %s" % cpus)
        names = [(k.split()[1], sums) for k, _, sums in tables[2][1]]
        check(any(name == "shell" and int(sums["count"]) >= 2 * piece for name, sums in names) and
              any(name == "worker" for name, _ in names), "hr/hist by execname: %s" % names)
        check(not [r for r in events(m) if r[3] == "hr"], "hr recorded while only its triggers armed it")
        # The kretprobe's $retval: 8 bytes then 0 for each cat.
        written(m, "hist:keys=ret.log2:sort=ret if comm == \"shell\"", "events/kprobes/hret/trigger")
        m.command("cat /etc/hostname")
        _, rows, totals = hist_of(m, "hret")[0]
        powers = [int(k.split("^")[1]) for k, _, _ in rows]
        check(powers[:1] == [0] and 3 in powers and powers == sorted(powers), "hret/hist: %s" % rows)
        # pause, cont, clear.
        written(m, "hist:keys=count.log2:pause", trig)
        check(cat(m, trig)[0].endswith(" [paused]"), "paused: %s" % show(cat(m, trig)))
        hits = hist_of(m, "hr")[0][2]["Hits"]
        m.command("cat /etc/hostname")
        check(hist_of(m, "hr")[0][2]["Hits"] == hits, "a paused histogram counted")
        written(m, "hist:keys=count.log2:cont", trig)
        written(m, "hist:keys=count.log2:clear", trig)
        check(0 < hist_of(m, "hr")[0][2]["Hits"] < hits, "clear: %d hits before" % hits)
        # Refusals.
        written(m, "", "error_log", ">")
        refused(m, "hist:keys=count.log2", "File exists", trig)
        refused(m, "hist:keys=count:clear", "No such file or directory", trig)
        refused(m, "hist:keys=nosuch", "Invalid argument", trig)
        refused(m, "hist:keys=count.foo", "Invalid argument", trig)
        refused(m, "hist:keys=count:sort=ret", "Invalid argument", trig)
        log = cat(m, "error_log")
        want = [("Hist trigger already exists", "hist:keys=count.log2", 0),
                ("Can't clear or continue a nonexistent hist trigger", "hist:keys=count:clear", 0),
                ("Couldn't find field", "hist:keys=nosuch", 10),
                ("Invalid field modifier", "hist:keys=count.foo", 16),
                ("Sort field must be a key or a val", "hist:keys=count:sort=ret", 21)]
        check(len(log) == 3 * len(want), "error_log: %s" % show(log, 20))
        for i, (msg, command, pos) in enumerate(want):
            head, shown, caret = log[3 * i:3 * i + 3]
            check(head.endswith("] hist:kprobes:hr: error: " + msg) and
                  shown == "  Command: " + command and caret == " " * (len("  Command: ") + pos) + "^",
                  "error_log entry %d: %s" % (i, show(log[3 * i:3 * i + 3])))
        refused(m, "-:hr", "Device or resource busy")
        for t in ("hist:keys=count.log2", "hist:keys=common_cpu",
                  "hist:keys=common_pid.execname:vals=count:sort=count.descending"):
            written(m, "!" + t, trig)
        written(m, "!hist:keys=ret.log2:sort=ret if comm == \"shell\"", "events/kprobes/hret/trigger")
        check(cat(m, "events/kprobes/hr/hist") == [], "hr/hist with no histograms")
        check(cat(m, "events/kprobes/hr/enable") == ["0"], "hr no longer armed")
        written(m, "", op=">")
        heap_back(m, before, "histograms")

