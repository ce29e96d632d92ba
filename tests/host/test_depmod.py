#!/usr/bin/env python3
"""Unit tests for tools/depmod.py (stdlib unittest), on small objects the
host compiler builds: each exports with a __ksymtab_NAME symbol, as
EXPORT_SYMBOL makes one, and uses another's by leaving it undefined.

Run: python3 -m unittest tests/host/test_depmod.py   (or run this file)
"""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import depmod  # noqa: E402

CC = os.environ.get("HOST_CC", "gcc")


class DepmodTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="depmod-test-")
        self.addCleanup(shutil.rmtree, self.dir)

    def build(self, name, exports=(), uses=(), defines=(), suffix=".ko"):
        """Compile a module that exports and uses the given functions
        into DIR/name (suffix .ko: a module; .o: one object of one)."""
        lines = ["extern int %s(void);" % u for u in uses]
        for f in list(exports) + list(defines):
            lines.append("int %s(void) { return 0%s; }" % (f, "".join(" + %s()" % u for u in uses)))
        for f in exports:
            lines.append("const void *const __ksymtab_%s = (const void *)%s;" % (f, f))
        if not exports and not defines:
            lines.append("int %s_init(void) { return 0%s; }"
                         % (name.replace("-", "_"), "".join(" + %s()" % u for u in uses)))
        src = os.path.join(self.dir, name + ".c")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        out = os.path.join(self.dir, name + suffix)
        subprocess.run([CC, "-c", "-o", out, src], check=True)
        os.remove(src)
        return out

    def modules_dep(self, directory=None):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            depmod.write_modules_dep(directory or self.dir)
        with open(os.path.join(directory or self.dir, "modules.dep")) as f:
            return f.read(), err.getvalue()

    def test_format_and_order(self):
        """Every module a line, sorted; all it needs, to load from the last."""
        self.build("c", exports=["c_fn"])
        self.build("b", exports=["b_fn"], uses=["c_fn"])
        self.build("a", uses=["b_fn", "c_fn"])
        self.build("alone", uses=["printk"])
        text, err = self.modules_dep()
        self.assertEqual(text, "a.ko: b.ko c.ko\nalone.ko:\nb.ko: c.ko\nc.ko:\n")
        self.assertEqual(err, "")
        self.assertEqual(sorted(os.listdir(self.dir)),
                         ["a.ko", "alone.ko", "b.ko", "c.ko", "modules.dep"])

    def test_indirect_needs_come_after(self):
        """A line lists what a module needs after the modules that need it:
        top needs x (which needs z) and y."""
        self.build("z", exports=["z_fn"])
        self.build("y", exports=["y_fn"])
        self.build("x", exports=["x_fn"], uses=["z_fn"])
        self.build("top", uses=["x_fn", "y_fn"])
        text, _ = self.modules_dep()
        self.assertIn("top.ko: y.ko x.ko z.ko\n", text)

    def test_only_the_directory(self):
        """Subdirectories (the tests' broken copies in bad/) are not read,
        and an unreadable .ko is reported and skipped."""
        self.build("exporter", exports=["f"])
        self.build("user", uses=["f"])
        os.mkdir(os.path.join(self.dir, "bad"))
        shutil.copy(os.path.join(self.dir, "exporter.ko"),
                    os.path.join(self.dir, "bad", "aaa_copy.ko"))
        with open(os.path.join(self.dir, "text.ko"), "w") as f:
            f.write("not a module\n")
        text, err = self.modules_dep()
        self.assertEqual(text, "exporter.ko:\nuser.ko: exporter.ko\n")
        self.assertIn("text.ko: not an ELF-64 little-endian file; skipped", err)

    def test_cycle_reported(self):
        self.build("p", exports=["p_fn"], uses=["q_fn"])
        self.build("q", exports=["q_fn"], uses=["p_fn"])
        text, err = self.modules_dep()
        self.assertEqual(text, "p.ko: q.ko\nq.ko: p.ko\n")
        self.assertIn("depmod: WARNING: dependency cycle: p -> q -> p", err)

    def test_first_exporter_by_path(self):
        self.build("one", exports=["f"])
        self.build("two", exports=["f"])
        self.build("user", uses=["f"])
        text, _ = self.modules_dep()
        self.assertIn("user.ko: one.ko\n", text)

    def test_written_through_a_rename(self):
        """An old modules.dep is replaced whole, never rewritten: a reader
        that has it open reads the old text to its end, and no temporary
        file is left."""
        self.build("m")
        dep = os.path.join(self.dir, "modules.dep")
        old_text = "old.ko: gone.ko\n" * 100
        with open(dep, "w") as f:
            f.write(old_text)
        with open(dep) as reader:
            first = reader.read(10)
            text, _ = self.modules_dep()
            self.assertEqual(first + reader.read(), old_text)
        self.assertEqual(text, "m.ko:\n")
        self.assertEqual(sorted(os.listdir(self.dir)), ["m.ko", "modules.dep"])

    def test_failed_write_keeps_the_old_file(self):
        """A write that fails leaves the old modules.dep and no temporary
        file."""
        self.build("m")
        dep = os.path.join(self.dir, "modules.dep")
        with open(dep, "w") as f:
            f.write("old.ko:\n")

        with mock.patch.object(depmod.os, "replace", side_effect=OSError("no rename")):
            with self.assertRaises(OSError):
                depmod.write_modules_dep(self.dir)
        with open(dep) as f:
            self.assertEqual(f.read(), "old.ko:\n")
        self.assertEqual(sorted(os.listdir(self.dir)), ["m.ko", "modules.dep"])

    def test_depends(self):
        """modpost's depends=: direct needs, from the objects being built
        (one module of two objects: what one defines, the other may use)
        and the modules installed; a '-' in a name is a '_'."""
        installed = os.path.join(self.dir, "installed")
        os.mkdir(installed)
        self.build("base", exports=["base_fn"])
        shutil.move(os.path.join(self.dir, "base.ko"), installed)
        part1 = self.build("part1", defines=["helper"], uses=["base_fn"], suffix=".o")
        part2 = self.build("part2", uses=["helper", "lib_fn"], suffix=".o")
        lib = self.build("my-lib", exports=["lib_fn"], suffix=".o")
        built = {"two-parts": [part1, part2], "my-lib": [lib]}
        self.assertEqual(depmod.depends("two-parts", built, installed), "base,my_lib")
        self.assertEqual(depmod.depends("my-lib", built, installed), "")
        self.assertEqual(depmod.depends("two-parts", built, None), "my_lib")
        out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "depmod.py"),
                              "--depends", "two-parts", "--installed", installed,
                              "two-parts=%s,%s" % (part1, part2), "my-lib=" + lib],
                             check=True, capture_output=True, text=True).stdout
        self.assertEqual(out, "base,my_lib\n")

    def test_command_line(self):
        self.build("m")
        script = os.path.join(ROOT, "tools", "depmod.py")
        subprocess.run([sys.executable, script, self.dir], check=True)
        with open(os.path.join(self.dir, "modules.dep")) as f:
            self.assertEqual(f.read(), "m.ko:\n")
        bad = subprocess.run([sys.executable, script, "--depends", "m", "m"],
                             capture_output=True, text=True)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("expected MODULE=OBJ", bad.stderr)

    def test_module_name(self):
        self.assertEqual(depmod.module_name("dir/kprobe-example.ko"), "kprobe_example")
        self.assertEqual(depmod.module_name("a.o"), "a")


if __name__ == "__main__":
    unittest.main()
