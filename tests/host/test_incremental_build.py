#!/usr/bin/env python3
"""Incremental builds after a source file is added, removed or renamed
(stdlib unittest).

Run: python3 tests/host/test_incremental_build.py   (from the top of the tree)

The Makefile finds the kernel's sources by looking at the tree, so adding
a file needs no edit. Removing or renaming one must then work too: the
next `make` has to relink the kernel without the removed code, although
no object is newer than the links. (Before $(BUILD)/objs existed, it did
not: the old kernel, removed functions and all, was kept.)

Each test works in a temporary copy of the tree, so the real build/ is
never touched. An x86_64 build already in build/ is copied along, with
its times, so that only what the test changes is compiled again; without
one, the first build compiles everything (a minute or two). Only the
ELF is built: no ISO, so GRUB is not needed.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", ".."))
ARCH = "x86_64"
ELF = f"build/{ARCH}/probeos.elf"
# What a build reads, beside the build output.
TREE = ["Makefile", "arch", "boot", "kernel", "lib", "linker", "tools",
        "tests/host/host.mk", "tests/fuzz/fuzz.mk", "iso", "rootfs"]
# The throwaway source: one function nothing calls, and a header of its
# own, so that the removed source's dependency file names a header that
# is gone too.
THROWAWAY_C = "kernel/incremental_throwaway.c"
THROWAWAY_H = "kernel/incremental_throwaway.h"
SYMBOL = "incremental_throwaway_fn"


def copy_build(src, dst):
    """The existing build, without its ISOs and ISO trees."""
    def ignore(_, names):
        return [n for n in names if n.endswith((".iso", ".log")) or
                n == "isodir" or n.startswith("crash-")]
    shutil.copytree(src, dst, ignore=ignore, symlinks=True)


class IncrementalBuildTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="probeos-incremental-")
        for path in TREE:
            src, dst = os.path.join(TOP, path), os.path.join(self.tmp, path)
            if os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=True)
            elif os.path.exists(src):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)
        built = os.path.join(TOP, "build", ARCH)
        if os.path.isdir(built):
            copy_build(built, os.path.join(self.tmp, "build", ARCH))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def make(self):
        """Build the ELF; fail the test, with make's output, if it fails."""
        env = dict(os.environ)
        # This may run under `make host-tests`: start afresh, not as a
        # sub-make of that one (its job server is not ours to use).
        for name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEFILES"):
            env.pop(name, None)
        result = subprocess.run(["make", "-j2", f"ARCH={ARCH}", ELF],
                                cwd=self.tmp, env=env, capture_output=True,
                                text=True)
        self.assertEqual(result.returncode, 0,
                         "make failed:\n" + result.stdout + result.stderr)
        return result.stdout

    def defines(self, name):
        """Whether the kernel defines name, as nm lists it."""
        out = subprocess.run(["nm", "--defined-only", os.path.join(self.tmp, ELF)],
                             check=True, capture_output=True, text=True).stdout
        return any(line.split()[-1] == name for line in out.splitlines() if line.split())

    def assert_defined(self, defined):
        self.assertEqual(self.defines(SYMBOL), defined,
                         f"{SYMBOL} should {'' if defined else 'not '}be in {ELF}")

    def write(self, path, text):
        with open(os.path.join(self.tmp, path), "w") as f:
            f.write(text)

    def add_throwaway(self):
        self.write(THROWAWAY_H, "int incremental_throwaway_fn(int x);\n")
        self.write(THROWAWAY_C,
                   '#include "kernel/incremental_throwaway.h"\n'
                   "\n"
                   "int incremental_throwaway_fn(int x)\n"
                   "{\n"
                   "\treturn x + 1;\n"
                   "}\n")

    def test_removed_source_leaves_the_kernel(self):
        self.make()
        self.add_throwaway()
        self.make()
        self.assert_defined(True)
        os.remove(os.path.join(self.tmp, THROWAWAY_C))
        os.remove(os.path.join(self.tmp, THROWAWAY_H))
        self.make()
        self.assert_defined(False)
        # And a build with nothing changed does nothing.
        self.assertNotIn("LD", self.make())

    def test_renamed_source_is_linked_once(self):
        self.make()
        self.add_throwaway()
        self.make()
        renamed = "kernel/incremental_renamed.c"
        os.rename(os.path.join(self.tmp, THROWAWAY_C), os.path.join(self.tmp, renamed))
        self.make()
        self.assert_defined(True)
        # Renamed back: the old object is still in obj/, and now newer
        # than nothing it depends on, yet the kernel is relinked from it.
        os.rename(os.path.join(self.tmp, renamed), os.path.join(self.tmp, THROWAWAY_C))
        self.make()
        self.assert_defined(True)
        os.remove(os.path.join(self.tmp, THROWAWAY_C))
        self.make()
        self.assert_defined(False)


if __name__ == "__main__":
    unittest.main()
