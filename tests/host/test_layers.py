#!/usr/bin/env python3
"""The layering rules: which folders may include which headers.

1. Nothing below kernel/probes/ includes its headers. Memory, traps,
   threads, panic, the console and the boot code must read (and build)
   without the probes layer: where they need something from it, they ask
   a general service of their own that the probes layer registers with
   (docs/probes.md, "What the layers below know").
2. Nothing outside kernel/shell/ includes its headers. The shell is a
   leaf: a subsystem declares its commands with kernel/command.h and its
   tests with kernel/selftest.h, both low headers, and never sees the
   shell that runs them.
3. lib/ includes nothing of kernel/: it is the freestanding bottom layer
   that everything else may use.
4. Within the probes layer, only its core (the files of kernel/probes/
   itself) and the core's selftests (kernel/probes/tests/) include
   kernel/probes/kprobes_internal.h, the core's lock, lists and probe
   types. The commands in kernel/probes/cmd/, the architectures' back
   ends and their selftests reach the core through kprobes.h,
   probe_report.h, arch_probes.h and probe_selftest_util.h, so that
   nothing outside the core takes its lock or walks its lists.

kernel/main.c, which starts every layer, is the one exception to 1 and 2;
kprobe events (kernel/trace/trace_kprobe*), which are kprobes made from
a line of kprobe_events and sit on a floor above the probes
(check_layers.py), are an exception to 1.
The tests, tools and samples outside these folders may include anything.

Run: python3 -m unittest tests/host/test_layers.py   (or run this file)
"""

import os
import re
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SOURCE_DIRS = ("kernel", "lib", "boot", "arch")


def include_of(folder):
    return re.compile(r'^\s*#\s*include\s*[<"]%s/' % re.escape(folder), re.M)


# (rule, folders whose files it covers, paths it exempts, what they may not include).
# The return service's selftest uses a kretprobe as one of its users: it
# sits on the probes floor (check_layers.py), beside the service it tests.
# Kprobe events sit on the floor above it.
RULES = (
    ("probes", ("kernel", "lib", "boot"),
     ("kernel/probes/", "kernel/main.c", "kernel/rethook_selftest.c", "kernel/trace/trace_kprobe"),
     include_of("kernel/probes")),
    ("shell", SOURCE_DIRS, ("kernel/shell/", "kernel/main.c"), include_of("kernel/shell")),
    ("lib", ("lib",), (), include_of("kernel")),
)


def source_files(root, tops):
    """Every C, header and assembly file under the folders tops, as paths
    relative to root."""
    for top in tops:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith((".c", ".h", ".S")):
                    path = os.path.join(dirpath, name)
                    yield os.path.relpath(path, root).replace(os.sep, "/")


def includes(root, rel, pattern):
    """True if the file rel has an #include that pattern matches."""
    with open(os.path.join(root, rel), errors="replace") as f:
        return bool(pattern.search(f.read()))


def offending_files(root, rule):
    """Files the rule named covers that include what it forbids."""
    _, tops, exempt, forbidden = next(r for r in RULES if r[0] == rule)
    return sorted(rel for rel in source_files(root, tops)
                  if not (exempt and rel.startswith(exempt)) and includes(root, rel, forbidden))


# Rule 4: the folders whose own files may include the probes core's header
# (not their subfolders: kernel/probes/cmd/ may not), by any path.
INTERNAL_HEADER_USERS = ("kernel/probes", "kernel/probes/tests")
INTERNAL_HEADER = re.compile(r'^\s*#\s*include\s*[<"][^">]*\bkprobes_internal\.h[">]', re.M)


def internal_header_includers(root):
    """Files outside INTERNAL_HEADER_USERS that include kprobes_internal.h."""
    return sorted(rel for rel in source_files(root, SOURCE_DIRS)
                  if os.path.dirname(rel) not in INTERNAL_HEADER_USERS
                  and includes(root, rel, INTERNAL_HEADER))


def make_tree(root, files):
    for rel, text in files.items():
        os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)


class LayersTest(unittest.TestCase):
    def test_nothing_below_includes_the_probes_layer(self):
        self.assertEqual(offending_files(ROOT, "probes"), [])

    def test_nothing_outside_the_shell_includes_it(self):
        self.assertEqual(offending_files(ROOT, "shell"), [])

    def test_lib_includes_nothing_of_kernel(self):
        self.assertEqual(offending_files(ROOT, "lib"), [])

    def test_only_the_probes_core_includes_its_internal_header(self):
        self.assertEqual(internal_header_includers(ROOT), [])

    def test_the_check_finds_an_include_of_the_probes_layer(self):
        with tempfile.TemporaryDirectory() as root:
            make_tree(root, {
                "kernel/sched.c": '#include "kernel/probes/kprobes.h"\n',
                "lib/x.h": '#  include <kernel/probes/trace.h>\n',
                "kernel/probes/a.c": '#include "kernel/probes/kprobes.h"\n',
                "kernel/main.c": '#include "kernel/probes/kprobes.h"\n',
                "boot/ok.c": '/* see kernel/probes/kprobes.h */\n',
            })
            self.assertEqual(offending_files(root, "probes"), ["kernel/sched.c", "lib/x.h"])

    def test_the_check_finds_an_include_of_the_shell(self):
        with tempfile.TemporaryDirectory() as root:
            make_tree(root, {
                "kernel/smp.c": '#include "kernel/shell/shell.h"\n',
                "arch/x86_64/trap_selftest.c": '#include "kernel/shell/selftest.h"\n',
                "kernel/shell/fs_cmds.c": '#include "kernel/shell/shell.h"\n',
                "kernel/main.c": '#include "kernel/shell/shell.h"\n',
                "kernel/worker.c": '#include "kernel/command.h"\n',
            })
            self.assertEqual(offending_files(root, "shell"),
                             ["arch/x86_64/trap_selftest.c", "kernel/smp.c"])

    def test_the_check_finds_an_include_of_kernel_in_lib(self):
        with tempfile.TemporaryDirectory() as root:
            make_tree(root, {
                "lib/string.c": '#include "kernel/export.h"\n',
                "lib/format.c": '#include "lib/export.h"\n',
                "kernel/printk.c": '#include "kernel/console.h"\n',
            })
            self.assertEqual(offending_files(root, "lib"), ["lib/string.c"])

    def test_the_check_finds_an_include_of_the_internal_header(self):
        with tempfile.TemporaryDirectory() as root:
            make_tree(root, {
                "kernel/probes/kprobes.c": '#include "kernel/probes/kprobes_internal.h"\n',
                "kernel/probes/tests/a_selftest.c": '#include "kernel/probes/kprobes_internal.h"\n',
                "kernel/probes/cmd/probe_cmd.c": '#include "kernel/probes/kprobes_internal.h"\n',
                "kernel/probes/cmd/other.c": '# include "../kprobes_internal.h"\n',
                "arch/x86_64/kprobes_selftest.c": '#include <kernel/probes/kprobes_internal.h>\n',
                "arch/x86_64/kprobes.c": '/* not kprobes_internal.h but arch_probes.h */\n',
            })
            self.assertEqual(internal_header_includers(root),
                             ["arch/x86_64/kprobes_selftest.c", "kernel/probes/cmd/other.c",
                              "kernel/probes/cmd/probe_cmd.c"])


if __name__ == "__main__":
    unittest.main()
