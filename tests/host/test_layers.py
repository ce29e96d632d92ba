#!/usr/bin/env python3
"""The layering rule: nothing below kernel/probes/ includes its headers.

Memory, traps, threads, panic, the console and the boot code must read
(and build) without the probes layer: where they need something from it,
they ask a general service of their own that the probes layer registers
with (docs/probes.md, "What the layers below know"). kernel/main.c, which
starts every layer, is the one exception.

Run: python3 -m unittest tests/host/test_layers.py   (or run this file)
"""

import os
import re
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BELOW = ("kernel", "lib", "boot")
EXEMPT = ("kernel/probes/", "kernel/main.c")
PROBES_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]kernel/probes/', re.M)


def offending_files(root):
    """Files under BELOW (but not EXEMPT) that include a kernel/probes/
    header, as paths relative to root."""
    found = []
    for top in BELOW:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if not name.endswith((".c", ".h", ".S")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                if rel.startswith(EXEMPT):
                    continue
                with open(path, errors="replace") as f:
                    if PROBES_INCLUDE.search(f.read()):
                        found.append(rel)
    return sorted(found)


class LayersTest(unittest.TestCase):
    def test_nothing_below_includes_the_probes_layer(self):
        self.assertEqual(offending_files(ROOT), [])

    def test_the_check_finds_an_include(self):
        with tempfile.TemporaryDirectory() as root:
            files = {
                "kernel/sched.c": '#include "kernel/probes/kprobes.h"\n',
                "lib/x.h": '#  include <kernel/probes/trace.h>\n',
                "kernel/probes/a.c": '#include "kernel/probes/kprobes.h"\n',
                "kernel/main.c": '#include "kernel/probes/kprobes.h"\n',
                "boot/ok.c": '/* see kernel/probes/kprobes.h */\n',
            }
            for rel, text in files.items():
                os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w") as f:
                    f.write(text)
            self.assertEqual(offending_files(root), ["kernel/sched.c", "lib/x.h"])


# The probes core's own header: its lock, lists and hash, the probe types.
# Only the core (the files of kernel/probes/ itself) and its selftests
# (kernel/probes/tests/) may include it. Everything else - the commands in
# kernel/probes/cmd/, the architectures' back ends and selftests - reaches
# the core through kprobes.h, probe_report.h, arch_probes.h (the back
# ends) and kernel/probes/tests/probe_selftest_util.h (the selftests), so
# that no code outside the core takes its lock or walks its lists.
INTERNAL_HEADER_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"][^">]*\bkprobes_internal\.h[">]', re.M)
INTERNAL_HEADER_USERS = ("kernel/probes", "kernel/probes/tests")


def internal_header_includers(root):
    """Files outside INTERNAL_HEADER_USERS that include
    kprobes_internal.h, as paths relative to root (build/ and hidden
    folders are not looked at)."""
    found = []
    for dirpath, dirs, names in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        dirs[:] = [d for d in dirs if not d.startswith(".") and
                   not (rel_dir == "." and d == "build")]
        if rel_dir in INTERNAL_HEADER_USERS:
            continue
        for name in names:
            if not name.endswith((".c", ".h", ".S")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, errors="replace") as f:
                if INTERNAL_HEADER_INCLUDE.search(f.read()):
                    found.append(os.path.relpath(path, root).replace(os.sep, "/"))
    return sorted(found)


class InternalHeaderTest(unittest.TestCase):
    def test_only_the_probes_core_includes_its_internal_header(self):
        self.assertEqual(internal_header_includers(ROOT), [])

    def test_the_check_finds_an_include_of_the_internal_header(self):
        with tempfile.TemporaryDirectory() as root:
            files = {
                "kernel/probes/kprobes.c": '#include "kernel/probes/kprobes_internal.h"\n',
                "kernel/probes/tests/a_selftest.c":
                    '#include "kernel/probes/kprobes_internal.h"\n',
                "kernel/probes/cmd/probe_cmd.c": '#include "kernel/probes/kprobes_internal.h"\n',
                "kernel/probes/cmd/other.c": '# include "../kprobes_internal.h"\n',
                "arch/x86_64/kprobes_selftest.c": '#include <kernel/probes/kprobes_internal.h>\n',
                "arch/x86_64/kprobes.c": '/* not kprobes_internal.h: arch_probes.h */\n',
                "build/x86_64/generated.c": '#include "kernel/probes/kprobes_internal.h"\n',
            }
            for rel, text in files.items():
                os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w") as f:
                    f.write(text)
            self.assertEqual(internal_header_includers(root),
                             ["arch/x86_64/kprobes_selftest.c", "kernel/probes/cmd/other.c",
                              "kernel/probes/cmd/probe_cmd.c"])


if __name__ == "__main__":
    unittest.main()
