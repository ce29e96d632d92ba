#!/usr/bin/env python3
"""Does the module loader refuse every broken file with its one line, and
still load every module the build makes?

Runs the loader's load steps on the host (module_load_tool_ARCH, see
tests/host/module_host.h), built with AddressSanitizer and UBSan so that
a read or write outside the file or the module's memory fails the test
even when the refusal line is right:

  - each file of tools/mkbadmodules.py (a variant per way a file can
    lie to the loader) must be refused with the line it lists, and
    nothing else printed;
  - every .ko under build/ARCH/M/ (the project's modules, its tests'
    modules and Linux's samples, as `make test` builds them) must load.

An architecture whose modules have not been built is skipped, as are the
tools if they are missing (`make host-test-bins` builds them).
"""

import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "boot"))
import archs  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "tools"))
import depmod  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "mkbadmodules", os.path.join(ROOT, "tools", "mkbadmodules.py"))
mkbadmodules = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mkbadmodules)


def from_other_modules(kos):
    """{.ko: the symbols it uses that other modules export}: the host
    loader, with one module at a time, does not have them (tools/depmod.py
    reads the symbols, as it does for modules.dep)."""
    modules = {ko: depmod.load_module(depmod.module_name(ko), ko, [ko]) for ko in kos}
    return {ko: {s for s in m.needs if any(s in o.exports for o in modules.values() if o is not m)}
            for ko, m in modules.items()}


def tool(arch):
    return os.path.join(ROOT, "build", "host", "module_load_tool_" + arch)


def load(arch, path, args=()):
    """What the loader printed, and its result."""
    out = subprocess.run([tool(arch), path] + list(args), capture_output=True, text=True,
                         timeout=60)
    if out.returncode != 0 or out.stderr:
        raise AssertionError("%s %s: exit %d, stderr: %s" % (
            os.path.basename(tool(arch)), path, out.returncode, out.stderr[-2000:]))
    lines = out.stdout.splitlines()
    result = re.fullmatch(r"result: (-?\d+)", lines[-1]) if lines else None
    if not result:
        raise AssertionError("%s: no result line in %r" % (path, lines))
    return lines[:-1], int(result.group(1))


def built(arch):
    return os.path.exists(os.path.join(ROOT, "build", arch, mkbadmodules.MODULES,
                                       "mod_params.ko"))


def per_arch(cls):
    """Give cls a test_ARCH method per architecture (archs.archs()) that
    calls cls.check_arch(ARCH): each passes, fails or is skipped alone."""
    for arch in archs.archs():
        setattr(cls, "test_" + arch, lambda self, arch=arch: self.check_arch(arch))
    return cls


@per_arch
class Refusals(unittest.TestCase):
    def check_arch(self, arch):
        other = archs.config(arch)["OTHER_ARCH"]
        if not built(arch) or not built(other) or not os.path.exists(tool(arch)):
            self.skipTest("%s modules or module_load_tool_%s not built" % (arch, arch))
        cases, contents = mkbadmodules.bad_modules(os.path.join(ROOT, "build"), arch, other)
        self.assertGreaterEqual(len(cases), 19)
        with tempfile.TemporaryDirectory() as tmp:
            for name, args, want in cases:
                with self.subTest(file=name):
                    path = os.path.join(tmp, name)
                    with open(path, "wb") as f:
                        f.write(contents[name])
                    lines, result = load(arch, path, args.split())
                    self.assertLess(result, 0, "%s loaded" % name)
                    self.assertEqual(len(lines), 1, "%s: %r" % (name, lines))
                    self.assertRegex(lines[0], want)



@per_arch
class GoodModulesLoad(unittest.TestCase):
    def check_arch(self, arch):
        kos = sorted(glob.glob(os.path.join(ROOT, "build", arch, "M", "**", "*.ko"),
                               recursive=True))
        if not kos or not os.path.exists(tool(arch)):
            self.skipTest("no %s modules built, or no module_load_tool_%s" % (arch, arch))
        lacking = from_other_modules(kos)
        for ko in kos:
            with self.subTest(module=ko):
                lines, result = load(arch, ko)
                if lacking[ko]:
                    prefix = "insmod: unknown symbol "
                    self.assertEqual(len(lines), 1, lines)
                    self.assertTrue(lines[0].startswith(prefix), lines)
                    self.assertIn(lines[0][len(prefix):], lacking[ko])
                    self.assertLess(result, 0)
                else:
                    self.assertEqual((lines, result), ([], 0))



if __name__ == "__main__":
    unittest.main()
