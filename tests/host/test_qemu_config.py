#!/usr/bin/env python3
"""`make qemu-config` prints, for every architecture in the Makefile's
ARCHS, what the boot tests, the crash and GDB tests and tools/bench.py
read from it (tests/boot/archs.py), and each architecture has the folders
and the test data a port writes (docs/porting.md). (stdlib unittest)

Run: python3 tests/host/test_qemu_config.py   (from the top of the tree)

Nothing is built and nothing is booted: make only prints its settings.
"""

import os
import re
import shlex
import subprocess
import sys
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "boot"))
import archs  # noqa: E402
import qemu  # noqa: E402


class QemuConfig(unittest.TestCase):
    def test_archs_listed(self):
        listed = archs.archs()
        self.assertTrue(listed, "ARCHS is empty")
        self.assertEqual(len(listed), len(set(listed)), "ARCHS lists one twice: %s" % listed)

    def test_every_arch_has_its_files(self):
        for arch in archs.archs():
            for path in ("arch/%s/arch.mk" % arch, "arch/%s/testdata.py" % arch,
                         "boot/%s" % arch, "linker/%s.ld" % arch):
                with self.subTest(arch=arch, path=path):
                    self.assertTrue(os.path.exists(os.path.join(ROOT, path)))

    def test_settings(self):
        for arch in archs.archs():
            with self.subTest(arch=arch):
                config = archs.config(arch, 1)
                for key in ("QEMU", "QEMU_FLAGS", "IMAGE", "GDB", "NM", "OBJDUMP"):
                    self.assertTrue(config.get(key), "%s: %s is empty" % (arch, key))
                self.assertRegex(config["POWEROFF_STATUS"], r"^\d+$")
                self.assertEqual(config["ARCHS"].split(), archs.archs())
                others = [a for a in archs.archs() if a != arch]
                if others:
                    self.assertIn(config["OTHER_ARCH"], others)
                self.assertIn("%", config["QEMU_CRASH_FLAGS"],
                              "%s: QEMU_CRASH_FLAGS does not say where the crash kind goes"
                              % arch)

    def test_accelerator_and_cpus(self):
        """The accelerator is always named, never KVM: TCG on one host
        thread for one CPU, a thread per CPU for more; -smp as asked."""
        for arch in archs.archs():
            for cpus, accel in ((1, "tcg"), (4, "tcg,thread=multi")):
                with self.subTest(arch=arch, cpus=cpus):
                    flags = archs.config(arch, cpus)["QEMU_FLAGS"].split()
                    self.assertEqual(flags[flags.index("-accel") + 1], accel)
                    self.assertEqual(flags[flags.index("-smp") + 1], str(cpus))
                    self.assertNotIn("kvm", " ".join(flags))
            with self.subTest(arch=arch, accel="given"):
                flags = archs.config(arch, 4, "tcg")["QEMU_FLAGS"].split()
                self.assertEqual(flags[flags.index("-accel") + 1], "tcg")

    def test_commands(self):
        """The harness's command lines: the build's, the serial port on
        stdio, the image of the build; a crash kind in the crash line."""
        for arch in archs.archs():
            with self.subTest(arch=arch):
                config = archs.config(arch, 2)
                cmd = qemu.command(arch, 2)
                self.assertEqual(cmd[0], config["QEMU"])
                self.assertEqual(cmd[-4:], qemu.SERIAL)
                for image in qemu.boot_files(arch):
                    self.assertRegex(image, r"^build/%s/" % re.escape(arch))
                crash = " ".join(qemu.command(arch, 2, crash="some-kind"))
                self.assertIn("some-kind", crash)
                self.assertNotIn("%", crash)

    def run_line(self, arch, *args, env=None):
        """The QEMU command `make run` would start (make -n: nothing is
        built or booted), as a list of words."""
        full_env = {k: v for k, v in os.environ.items()
                    if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEFILES", "SHARE")}
        full_env.update(env or {})
        out = subprocess.run(["make", "-n", "--no-print-directory", "ARCH=" + arch, "run"]
                             + list(args), cwd=ROOT, env=full_env, capture_output=True,
                             text=True, check=True).stdout
        config = archs.config(arch)
        lines = [line for line in out.splitlines() if line.startswith(config["QEMU"] + " ")]
        self.assertEqual(len(lines), 1, out)
        return shlex.split(lines[0].rstrip("; \\"))

    def test_run_shares_the_tree(self):
        """`make run` shares the top of the tree as the 9p device by
        default (an absolute path, quoted for the shell, commas doubled
        for QEMU); SHARE=DIR shares DIR, SHARE= nothing, and SHARE in the
        environment is not taken. The tests' QEMU_FLAGS share nothing."""
        top = os.path.realpath(ROOT)
        for arch in archs.archs():
            with self.subTest(arch=arch):
                config = archs.config(arch)
                self.assertNotIn("mount_tag=host", config["QEMU_FLAGS"])
                flags = config["QEMU_9P_FLAGS"]

                def shared(path):
                    return [w.replace("%", path.replace(",", ",,")) for w in flags.split()]

                def contains(words, part):
                    return any(words[i:i + len(part)] == part for i in range(len(words)))

                default = self.run_line(arch)
                self.assertTrue(contains(default, shared(top)), default)
                self.assertTrue(os.path.isabs(top))
                self.assertEqual(self.run_line(arch, env={"SHARE": "/elsewhere"}), default)
                odd = "/tmp/a dir,with 'quotes'"
                self.assertTrue(contains(self.run_line(arch, "SHARE=" + odd), shared(odd)))
                none = self.run_line(arch, "SHARE=")
                self.assertNotIn("mount_tag=host", " ".join(none))
                self.assertEqual([w for w in default if w not in shared(top)], none)

    def test_testdata_names(self):
        """Every architecture's testdata.py defines the same names."""
        names = {arch: {n for n in vars(archs.testdata(arch)) if n.isupper()}
                 for arch in archs.archs()}
        first = archs.archs()[0]
        for arch in archs.archs():
            with self.subTest(arch=arch):
                self.assertEqual(names[arch], names[first])


if __name__ == "__main__":
    unittest.main()
