#!/usr/bin/env python3
"""Unit tests for the parts of tools/gdb/probeos.py that need no guest:
reading a .ko's .modinfo and finding a module's .ko (stdlib unittest).
GDB's module is replaced by a stub; tests/boot/gdb_tests.py runs the
commands in GDB against QEMU.

Run: python3 -m unittest tests/host/test_gdb_script.py   (or run this file)
"""

import importlib.util
import os
import struct
import sys
import tempfile
import types
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "tools", "gdb", "probeos.py")


def load_script(arch_name):
    """probeos.py with a stub gdb module whose guest is arch_name."""
    gdb = types.ModuleType("gdb")

    class error(RuntimeError):
        pass

    class GdbError(Exception):
        pass

    class Command:
        def __init__(self, *args, **kwargs):
            pass

    gdb.error = error
    gdb.MemoryError = type("MemoryError", (error,), {})
    gdb.GdbError = GdbError
    gdb.Command = Command
    gdb.Breakpoint = Command
    gdb.COMMAND_FILES = gdb.COMMAND_DATA = gdb.COMPLETE_FILENAME = 0
    arch = types.SimpleNamespace(name=lambda: arch_name)
    gdb.selected_inferior = lambda: types.SimpleNamespace(architecture=lambda: arch)
    saved = sys.modules.get("gdb")
    sys.modules["gdb"] = gdb
    try:
        spec = importlib.util.spec_from_file_location("probeos_gdb", SCRIPT)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        if saved is None:
            del sys.modules["gdb"]
        else:
            sys.modules["gdb"] = saved
    return module


def make_ko(path, machine, modinfo):
    """A minimal ELF64 little-endian relocatable file: a null section,
    .modinfo holding modinfo (bytes) and .shstrtab."""
    shstrtab = b"\0.modinfo\0.shstrtab\0"
    data_off = 64
    strtab_off = data_off + len(modinfo)
    shoff = (strtab_off + len(shstrtab) + 7) & ~7
    header = struct.pack("<4sBBBB8xHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0,
                         1, machine, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 3, 2)
    body = header + modinfo + shstrtab
    body += b"\0" * (shoff - len(body))
    sections = [struct.pack("<IIQQQQIIQQ", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                struct.pack("<IIQQQQIIQQ", 1, 1, 2, 0, data_off, len(modinfo), 0, 0, 1, 0),
                struct.pack("<IIQQQQIIQQ", 10, 3, 0, 0, strtab_off, len(shstrtab), 0, 0, 1, 0)]
    with open(path, "wb") as f:
        f.write(body + b"".join(sections))


X86_64, AARCH64 = 62, 183


class FindModuleFile(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.x86 = load_script("i386:x86-64")
        self.arm = load_script("aarch64")

    def tearDown(self):
        self.tmp.cleanup()

    def ko(self, relpath, machine, modinfo):
        path = os.path.join(self.dir, relpath)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        make_ko(path, machine, modinfo)
        return os.path.realpath(path)

    def test_modinfo_name(self):
        path = self.ko("a.ko", X86_64, b"license=GPL\0name=alpha\0author=x\0")
        self.assertEqual(self.x86.modinfo_name(path), "alpha")
        other = self.ko("b.ko", X86_64, b"license=GPL\0")
        self.assertIsNone(self.x86.modinfo_name(other))
        text = os.path.join(self.dir, "not-elf.ko")
        with open(text, "w") as f:
            f.write("not an ELF file at all, but long enough to look at\n")
        self.assertIsNone(self.x86.modinfo_name(text))
        self.assertIsNone(self.x86.modinfo_name(os.path.join(self.dir, "missing.ko")))

    def test_by_file_name_first(self):
        by_info = self.ko("a/other.ko", X86_64, b"name=hello\0")
        by_name = self.ko("b/sub/hello.ko", X86_64, b"name=hello\0")
        self.assertEqual(self.x86.find_module_file("hello", [self.dir]), by_name)
        os.remove(by_name)
        self.assertEqual(self.x86.find_module_file("hello", [self.dir]), by_info)
        self.assertIsNone(self.x86.find_module_file("absent", [self.dir]))

    def test_dash_is_underscore(self):
        path = self.ko("kprobe-example.ko", X86_64, b"name=kprobe_example\0")
        self.assertEqual(self.x86.find_module_file("kprobe_example", [self.dir]), path)

    def test_directory_order(self):
        first = self.ko("one/hello.ko", X86_64, b"name=hello\0")
        second = self.ko("two/hello.ko", X86_64, b"name=hello\0")
        dirs = [os.path.join(self.dir, "two"), os.path.join(self.dir, "one")]
        self.assertEqual(self.x86.find_module_file("hello", dirs), second)
        self.assertEqual(self.x86.find_module_file("hello", dirs[::-1]), first)

    def test_other_architecture_never_taken(self):
        arm = self.ko("arm/hello.ko", AARCH64, b"name=hello\0")
        self.assertIsNone(self.x86.find_module_file("hello", [self.dir]))
        self.assertEqual(self.arm.find_module_file("hello", [self.dir]), arm)
        x86 = self.ko("x86/hello.ko", X86_64, b"name=hello\0")
        self.assertEqual(self.x86.find_module_file("hello", [self.dir]), x86)
        self.assertEqual(self.arm.find_module_file("hello", [self.dir]), arm)

    def test_default_directories(self):
        root = self.x86.ROOT
        self.assertEqual(self.x86.default_search_dirs(),
                         [os.path.join(root, "build", "x86_64", "modules", "lib", "modules"),
                          os.path.join(root, "build", "x86_64", "modules")])
        self.assertEqual(self.arm.default_search_dirs()[0],
                         os.path.join(root, "build", "aarch64", "modules", "lib", "modules"))


if __name__ == "__main__":
    unittest.main()
