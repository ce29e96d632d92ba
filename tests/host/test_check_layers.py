#!/usr/bin/env python3
"""Unit tests for tests/host/check_layers.py (stdlib unittest): a made-up
tree of three sources, compiled with the host's cc, on known floors.

Run: python3 -m unittest tests/host/test_check_layers.py   (or run this file)
"""

import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layers  # noqa: E402

SOURCES = {
    # the scheduler's floor calling the VFS's: a call up
    "kernel/sched.c": "int vfs_lookup(int); int schedule(int x) { return vfs_lookup(x); }\n",
    # the VFS calling down into the scheduler: allowed without a word
    "kernel/fs/vfs.c": "int schedule(int); int vfs_lookup(int x) { return schedule(x) + 1; }\n",
    # a file no floor places
    "kernel/nowhere_yet.c": "int nowhere(void) { return 0; }\n",
}


@unittest.skipUnless(shutil.which("cc") and shutil.which("nm"), "needs cc and nm")
class CheckLayers(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.obj = os.path.join(self.root, "obj")
        for src, text in SOURCES.items():
            path = os.path.join(self.root, src)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            obj = os.path.join(self.obj, src + ".o")
            os.makedirs(os.path.dirname(obj), exist_ok=True)
            subprocess.run(["cc", "-c", path, "-o", obj], check=True)

    def tearDown(self):
        shutil.rmtree(self.root)

    def run_check(self, allowed):
        out = io.StringIO()
        passed, failed = check_layers.check(self.root, self.obj, "nm", allowed, out=out)
        return passed, failed, out.getvalue()

    def test_a_call_up_and_an_unplaced_file_fail(self):
        passed, failed, out = self.run_check({})
        self.assertEqual((passed, failed), (1, 2))
        self.assertIn("kernel/sched.c: calls up: vfs_lookup in kernel/fs/vfs.c (vfs)", out)
        self.assertIn("kernel/nowhere_yet.c: no floor places it", out)

    def test_an_allowed_call_passes(self):
        passed, failed, out = self.run_check({("kernel/sched.c", "vfs_lookup"): "a reason"})
        self.assertEqual((passed, failed), (2, 1))
        self.assertNotIn("calls up", out)

    def test_an_allow_line_that_matches_nothing_fails(self):
        allowed = {("kernel/sched.c", "vfs_lookup"): "a reason",
                   ("kernel/fs/vfs.c", "schedule"): "not a call up"}
        passed, failed, out = self.run_check(allowed)
        self.assertEqual((passed, failed), (2, 2))
        self.assertIn("kernel/fs/vfs.c schedule no longer calls up", out)

    def test_floors(self):
        self.assertEqual(check_layers.floor_of("arch/x86_64/paging.c"), "memory")
        self.assertEqual(check_layers.floor_of("arch/aarch64/traps.c"), "traps")
        self.assertEqual(check_layers.floor_of("kernel/shell/shell.c"), "shell")
        self.assertIsNone(check_layers.floor_of("kernel/unknown.c"))


if __name__ == "__main__":
    unittest.main()
