#!/usr/bin/env python3
"""The edit loop's build step, `make M=DIR modules` (docs/modules.md,
"The edit loop"), in a temporary copy of the tree (stdlib unittest).

Run: python3 tests/host/test_module_install.py   (from the top of the tree)

It must build and install DIR's modules and modules.dep into
build/ARCH/modules/lib/modules/ and nothing else (no kernel, no archive,
no ISO, no other module directory), for each architecture whose
compiler is installed; and it must install by renaming a new file over
the old one, never by rewriting it, because a running kernel may be
reading the file over virtio 9p: a reader holding the old file keeps
reading the old bytes, whole, and no temporary file is left behind.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# What `make modules` reads: the Makefile and what it includes, the
# tools, the headers modules include and the kernel's (the vermagic
# digest covers them), and the trees the Makefile lists at parse time.
TREE = ["Makefile", "arch", "boot", "include", "kernel", "lib", "linker", "tools",
        "tests/host/host.mk", "tests/fuzz/fuzz.mk", "iso", "rootfs"]
COMPILERS = {"x86_64": "gcc", "aarch64": "aarch64-linux-gnu-gcc"}

MODULE_C = """\
#include <linux/kernel.h>
#include <linux/module.h>

static int __init edit_me_init(void)
{
	pr_info("edit_me: %s\\n", "GREETING");
	return 0;
}

static void __exit edit_me_exit(void)
{
}

module_init(edit_me_init);
module_exit(edit_me_exit);
MODULE_LICENSE("GPL");
"""


def make_env():
    env = dict(os.environ)
    # This may run under `make host-tests`: start afresh, not as a
    # sub-make of that one (its job server is not ours to use).
    for name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEFILES"):
        env.pop(name, None)
    return env


class ModulesOnly(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="probeos-modinstall-")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.top = os.path.join(self.tmp, "tree")
        for path in TREE:
            src, dst = os.path.join(TOP, path), os.path.join(self.top, path)
            if os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=True)
            elif os.path.exists(src):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)
        # The module lives outside the tree, as a user's would.
        self.mod = os.path.join(self.tmp, "edit")
        os.mkdir(self.mod)
        with open(os.path.join(self.mod, "Kbuild"), "w") as f:
            f.write("obj-m += edit_me.o\n")
        self.write_module("hello")

    def write_module(self, greeting):
        with open(os.path.join(self.mod, "edit_me.c"), "w") as f:
            f.write(MODULE_C.replace("GREETING", greeting))

    def make(self, arch):
        result = subprocess.run(["make", "-j2", "ARCH=" + arch, "M=" + self.mod, "modules"],
                                cwd=self.top, env=make_env(), capture_output=True, text=True)
        self.assertEqual(result.returncode, 0,
                         "make failed:\n" + result.stdout + result.stderr)
        return result.stdout

    def check_arch(self, arch):
        build = os.path.join(self.top, "build", arch)
        staging = os.path.join(build, "modules", "lib", "modules")
        ko = os.path.join(staging, "edit_me.ko")
        dep = os.path.join(staging, "modules.dep")

        self.write_module("hello")
        out = self.make(arch)
        self.assertIn("INSTALL /lib/modules/edit_me.ko", out)
        self.assertEqual(sorted(os.listdir(staging)), ["edit_me.ko", "modules.dep"],
                         "only DIR's module and modules.dep are installed")
        with open(dep) as f:
            self.assertEqual(f.read(), "edit_me.ko:\n")
        for absent in ("probeos.elf", "link1.elf", "obj", "rootfs.cpio", "probeos.iso",
                       "probeos.bin", "M/samples", "M/tests"):
            self.assertFalse(os.path.exists(os.path.join(build, absent)),
                             "%s was built by `make M=DIR modules`" % absent)

        # Unchanged: nothing is installed, the files stay as they are.
        ko_ino, dep_ino = os.stat(ko).st_ino, os.stat(dep).st_ino
        out = self.make(arch)
        self.assertNotIn("INSTALL", out)
        self.assertNotIn("DEPMOD", out)
        self.assertEqual(os.stat(ko).st_ino, ko_ino)

        # Changed while a reader has the old file open: the reader still
        # gets the old bytes, whole; the name is a new file.
        with open(ko, "rb") as old:
            old_bytes = old.read(64)
            self.write_module("hello again")
            out = self.make(arch)
            self.assertIn("INSTALL /lib/modules/edit_me.ko", out)
            self.assertIn("DEPMOD", out)
            with open(ko, "rb") as new:
                new_bytes = new.read()
            rest = old.read()
            with self.subTest("old reader"):
                self.assertNotEqual(os.stat(ko).st_ino, ko_ino, "the .ko was rewritten in place")
                self.assertNotEqual(os.stat(dep).st_ino, dep_ino,
                                    "modules.dep was rewritten in place")
                self.assertNotEqual(old_bytes + rest, new_bytes)
                self.assertIn(b"hello again", new_bytes)
                self.assertNotIn(b"hello again", old_bytes + rest)
        self.assertEqual(sorted(os.listdir(staging)), ["edit_me.ko", "modules.dep"],
                         "a temporary file was left behind")

    def test_modules_only(self):
        for arch, cc in COMPILERS.items():
            with self.subTest(arch=arch):
                if shutil.which(cc) is None:
                    self.skipTest("%s is not installed" % cc)
                self.check_arch(arch)

    def test_failed_install_leaves_no_temporary(self):
        """An install whose rename fails (here: NAME.ko in the staging
        tree is a directory, which mv -T refuses to replace) fails the
        build and leaves no temporary file."""
        staging = os.path.join(self.top, "build", "x86_64", "modules", "lib", "modules")
        os.makedirs(os.path.join(staging, "edit_me.ko"))
        result = subprocess.run(["make", "ARCH=x86_64", "M=" + self.mod, "modules"],
                                cwd=self.top, env=make_env(), capture_output=True, text=True)
        self.assertNotEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(sorted(os.listdir(staging)), ["edit_me.ko"])
        self.assertEqual(os.listdir(os.path.join(staging, "edit_me.ko")), [])


if __name__ == "__main__":
    unittest.main()
