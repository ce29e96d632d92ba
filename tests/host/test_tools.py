#!/usr/bin/env python3
"""Unit tests for tools/mksymtab.py, tools/mkcpio.py, tools/kbuild.py and
tools/check_arch_contract.py (stdlib unittest).

Run: python3 -m unittest tests/host/test_tools.py   (or run this file)
"""

import contextlib
import io
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                     "tools")
sys.path.insert(0, TOOLS)
import check_arch_contract  # noqa: E402
import kbuild  # noqa: E402
import mkcpio  # noqa: E402
import mksymtab  # noqa: E402

NM_SAMPLE = """\
0000000000000000 A abs_symbol
ffffffff80100000 T _start
ffffffff80100000 0000000000000010 T boot_entry
ffffffff80100010 0000000000000020 t helper
ffffffff80100030 0000000000000008 W weak_fn
ffffffff80100040 t .L123
ffffffff80100040 t $x
ffffffff80100050 T _etext_label
ffffffff80200000 0000000000000018 R kernel_symtab
ffffffff80200018 0000000000000004 r table.1
ffffffff80200020 R __start_shell_cmds
ffffffff80300000 0000000000000008 D counter
ffffffff80300008 0000000000000004 d local_data
ffffffff80300010 0000000000000004 V weak_obj
ffffffff80400000 B __bss_start
ffffffff80400000 0000000000001000 B big_buffer
ffffffff80401000 0000000000000001 b flag
ffffffff80401008 0000000000000008 u unique_thing
ffffffff80401010 0000000000000008 C common_thing
                 U undefined_thing
                 w weak_undefined
"""


class MksymtabTest(unittest.TestCase):
    def symbols(self, text=NM_SAMPLE):
        return mksymtab.parse_nm(text.splitlines())

    def test_policy(self):
        names = {name: (addr, size, letter)
                 for addr, size, letter, name in self.symbols()}
        # Each kept with nm's letter, which /proc/kallsyms prints.
        self.assertEqual(names, {
            "_start": (0xffffffff80100000, 0, "T"),
            "boot_entry": (0xffffffff80100000, 0x10, "T"),
            "helper": (0xffffffff80100010, 0x20, "t"),
            "weak_fn": (0xffffffff80100030, 8, "W"),
            "_etext_label": (0xffffffff80100050, 0, "T"),
            "kernel_symtab": (0xffffffff80200000, 0x18, "R"),
            "table.1": (0xffffffff80200018, 4, "r"),
            "counter": (0xffffffff80300000, 8, "D"),
            "local_data": (0xffffffff80300008, 4, "d"),
            "weak_obj": (0xffffffff80300010, 4, "V"),
            "big_buffer": (0xffffffff80400000, 0x1000, "B"),
            "flag": (0xffffffff80401000, 1, "b"),
        })

    def test_sorted_whatever_the_input_order(self):
        lines = NM_SAMPLE.splitlines()
        self.assertEqual(mksymtab.parse_nm(lines),
                         mksymtab.parse_nm(reversed(lines)))
        addrs = [s[0] for s in self.symbols()]
        self.assertEqual(addrs, sorted(addrs))

    def test_output_is_deterministic(self):
        one = mksymtab.generate(self.symbols())
        two = mksymtab.generate(self.symbols())
        self.assertEqual(one, two)
        self.assertIn("\t.quad 12\t/* count */", one)

    def test_empty_input_gives_empty_table(self):
        out = subprocess.run([sys.executable,
                              os.path.join(TOOLS, "mksymtab.py")],
                             input="", capture_output=True, text=True,
                             check=True).stdout
        self.assertIn("kernel_symtab:", out)
        self.assertIn("\t.quad 0\t/* count */", out)

    @unittest.skipUnless(shutil.which("as") and shutil.which("objcopy"),
                         "needs binutils")
    def test_assembles_to_the_struct_layout(self):
        """Assemble a table and decode the bytes as struct symtab_entry."""
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "t.s")
            obj = os.path.join(tmp, "t.o")
            raw = os.path.join(tmp, "t.bin")
            with open(src, "w") as f:
                f.write(mksymtab.generate(self.symbols()))
            subprocess.run(["as", "-o", obj, src], check=True)
            subprocess.run(["objcopy", "-O", "binary", "-j",
                            ".rodata.symtab", obj, raw], check=True)
            with open(raw, "rb") as f:
                blob = f.read()
        symbols = self.symbols()
        # struct symtab (24 bytes; the pointers are relocations, still
        # 0 in an object file), then the entries (16 bytes each), then
        # the names, each after its type letter.
        count = struct.unpack_from("<Q", blob, 8)[0]
        self.assertEqual(count, len(symbols))
        names = blob[24 + 16 * count:]
        for i, (addr, size, letter, name) in enumerate(symbols):
            e_addr, e_size, e_off = struct.unpack_from("<QII", blob, 24 + 16 * i)
            self.assertEqual((e_addr, e_size), (addr, size))
            self.assertEqual(names[e_off - 1:e_off].decode(), letter)
            end = names.index(b"\0", e_off)
            self.assertEqual(names[e_off:end].decode(), name)


class MkcpioTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.root = os.path.join(self.tmp, "root")
        os.makedirs(os.path.join(self.root, "b"))
        os.makedirs(os.path.join(self.root, "a"))
        with open(os.path.join(self.root, "a", "x"), "w") as f:
            f.write("xyz")
        os.symlink("a/x", os.path.join(self.root, "link"))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def entries(self, data):
        """Decode an archive into a list of (name, mode, data)."""
        out, off = [], 0
        while True:
            self.assertEqual(off % 4, 0)
            self.assertEqual(data[off:off + 6], b"070701")
            fields = [int(data[off + 6 + 8 * i:off + 14 + 8 * i], 16)
                      for i in range(13)]
            namesize, filesize = fields[11], fields[6]
            self.assertEqual((fields[2], fields[3], fields[5]), (0, 0, 0))
            name = data[off + 110:off + 110 + namesize - 1].decode()
            start = (off + 110 + namesize + 3) & ~3
            if name == "TRAILER!!!":
                return out
            out.append((name, fields[1], data[start:start + filesize]))
            off = (start + filesize + 3) & ~3

    def test_layout_and_order(self):
        got = self.entries(mkcpio.archive(self.root))
        self.assertEqual(got, [
            ("a", 0o40755, b""),
            ("a/x", 0o100644, b"xyz"),
            ("b", 0o40755, b""),
            ("link", 0o120777, b"a/x"),
        ])

    def test_deterministic_despite_mtimes(self):
        one = mkcpio.archive(self.root)
        os.utime(os.path.join(self.root, "a", "x"), (1, 1))
        self.assertEqual(one, mkcpio.archive(self.root))

    def test_refuses_special_files(self):
        os.mkfifo(os.path.join(self.root, "fifo"))
        with self.assertRaises(SystemExit):
            mkcpio.archive(self.root)

    def test_merges_several_roots(self):
        # The modules' staging tree beside rootfs/: shared directories
        # once, everything in one sorted order.
        other = os.path.join(self.tmp, "other")
        os.makedirs(os.path.join(other, "a"))
        os.makedirs(os.path.join(other, "c"))
        with open(os.path.join(other, "a", "w"), "w") as f:
            f.write("w")
        got = self.entries(mkcpio.archive([self.root, other]))
        self.assertEqual([name for name, _, _ in got], ["a", "a/w", "a/x", "b", "c", "link"])
        self.assertEqual(mkcpio.archive([self.root]), mkcpio.archive(self.root))

    def test_refuses_a_file_in_two_roots(self):
        other = os.path.join(self.tmp, "other")
        os.makedirs(os.path.join(other, "a"))
        with open(os.path.join(other, "a", "x"), "w") as f:
            f.write("again")
        with self.assertRaises(SystemExit):
            mkcpio.archive([self.root, other])


class KbuildTest(unittest.TestCase):
    """tools/kbuild.py: which modules a Kbuild or Makefile lists."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        for name in ("a.c", "b.c", "main.c", "util.c", "entry.S"):
            with open(os.path.join(self.tmp, name), "w"):
                pass

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def plan(self, text):
        return kbuild.plan(self.tmp, text)

    def test_lists_and_parts(self):
        names, objs = self.plan("obj-m += a.o\nobj-m += b.o \\\n\tmulti.o\n"
                                "multi-y := main.o util.o\nmulti-$(CONFIG_X) += entry.o\n")
        self.assertEqual(names, ["a", "b", "multi"])
        self.assertEqual(objs["a"], ["a.o"])
        self.assertEqual(objs["multi"], ["main.o", "util.o", "entry.o"])

    def test_config_lines_count_as_modules(self):
        # Linux's samples/kprobes/Makefile, in this form.
        names, _ = self.plan("obj-$(CONFIG_SAMPLE_KPROBES) += a.o\n"
                             "obj-$(CONFIG_SAMPLE_KRETPROBES) += b.o\nobj-n += main.o\n")
        self.assertEqual(names, ["a", "b"])

    def test_out_of_tree_makefile(self):
        text = ("M := a\n"
                "ifneq ($(KERNELRELEASE),)\n"
                "obj-m := $(M).o # the module\n"
                "a-objs := main.o util.o\n"
                "else\n"
                "KDIR ?= /lib/modules/$(shell uname -r)/build\n"
                "default:\n"
                "\t$(MAKE) -C $(KDIR) M=$$PWD obj-m=zzz.o\n"
                "endif\n")
        names, objs = self.plan(text)
        self.assertEqual(names, ["a"])
        self.assertEqual(objs["a"], ["main.o", "util.o"])

    def test_errors(self):
        for text in ("", "obj-m += a.c\n", "obj-m += nosource.o\n",
                     "obj-m += a.o b.o\na-y := main.o\nb-y := main.o\n"):
            with self.assertRaises(ValueError, msg=text):
                self.plan(text)


class ArchContractTest(unittest.TestCase):
    """The contract check on a copy of this tree's portable code and asm/
    headers, changed the way a mistake would change them."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        src = os.path.join(TOOLS, "..")
        for top in ("kernel", "lib"):
            shutil.copytree(os.path.join(src, top), os.path.join(self.tmp, top))
        for arch in os.listdir(os.path.join(src, "arch")):
            asm = os.path.join("arch", arch, "include", "asm")
            shutil.copytree(os.path.join(src, asm), os.path.join(self.tmp, asm))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def append(self, path, text):
        with open(os.path.join(self.tmp, path), "a") as f:
            f.write(text)

    def check(self):
        """The check's exit status; what it prints is not wanted here."""
        with contextlib.redirect_stderr(io.StringIO()):
            return check_arch_contract.main(["check_arch_contract.py", self.tmp])

    def test_this_tree_passes(self):
        self.assertEqual(self.check(), 0)

    def test_undeclared_arch_name_fails(self):
        self.append("kernel/rcu.c", "void f(void) { arch_frobnicate(); }\n")
        self.assertEqual(self.check(), 1)
        self.append("kernel/arch.h", "void arch_frobnicate(void);\n")
        self.assertEqual(self.check(), 0)

    def test_arch_name_in_a_comment_is_no_use(self):
        self.append("kernel/rcu.c", "/* arch_frobnicate() */\n")
        self.assertEqual(self.check(), 0)

    def test_unlisted_asm_header_fails(self):
        self.append("kernel/rcu.c", "#include <asm/frobnicate.h>\n")
        self.assertEqual(self.check(), 1)

    def test_architecture_missing_a_listed_name_fails(self):
        path = os.path.join(self.tmp, "arch", "x86_64", "include", "asm", "irq.h")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace("arch_cpu_relax", "cpu_relax"))
        self.assertEqual(self.check(), 1)


if __name__ == "__main__":
    unittest.main()
