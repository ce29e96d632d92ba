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


if __name__ == "__main__":
    unittest.main()
