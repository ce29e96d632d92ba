#!/usr/bin/env python3
"""Unit tests for tests/host/check_callgraph.py (stdlib unittest): made-up
disassemblies of both architectures, the allow-list's rules, and two
small programs with a cycle, compiled and linked for real.

Run: python3 tests/host/test_callgraph.py
"""

import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_callgraph as cg  # noqa: E402

# name, start, size, the file of a static function (None: global).
FUNCTIONS = [
    ("leaf", 0x1000, 0x10, None),
    ("self_caller", 0x1010, 0x20, None),
    ("ping", 0x1030, 0x10, None),
    ("pong", 0x1040, 0x10, None),
    ("walk", 0x1050, 0x10, "a.c"),
    ("walk", 0x1060, 0x10, "b.c"),
    ("grow", 0x1070, 0x10, None),
    ("grow.part.0", 0x1080, 0x10, None),
    ("split", 0x1090, 0x10, None),
    ("split.cold", 0x10a0, 0x10, "s.c"),    # a global function's cold part is static
    ("dispatch", 0x10b0, 0x10, None),
]


def functions():
    return cg.link_functions([cg.Function(start, size, name, source)
                              for name, start, size, source in FUNCTIONS])


def graph(arch, disassembly):
    return cg.Graph(arch, functions()).read(disassembly.splitlines())


def run_check(g, allow):
    out = io.StringIO()
    passed, failed = cg.check(g, allow.splitlines(), out=out)
    return passed, failed, out.getvalue()


X86 = """\
0000000000001000 <leaf>:
    1000:	ret
0000000000001010 <self_caller>:
    1010:	jne    1018 <self_caller+0x8>
    1012:	jmp    1010 <self_caller>
    1014:	call   1010 <self_caller>
    1019:	call   1000 <leaf>
0000000000001030 <ping>:
    1030:	call   1040 <pong>
0000000000001040 <pong>:
    1040:	jmp    1030 <ping>
0000000000001050 <walk>:
    1050:	call   1050 <walk>
0000000000001060 <walk>:
    1060:	call   1000 <leaf>
0000000000001070 <grow>:
    1070:	call   1080 <grow.part.0>
0000000000001080 <grow.part.0>:
    1080:	call   1070 <grow>
0000000000001090 <split>:
    1090:	jne    10a0 <split.cold>
00000000000010a0 <split.cold>:
    10a0:	jmp    1094 <split+0x4>
00000000000010b0 <dispatch>:
    10b0:	call   *%rax
    10b4:	call   *0x10(%rip)        # 1000 <leaf>
"""

AARCH64 = """\
0000000000001000 <leaf>:
    1000:	ret
0000000000001010 <self_caller>:
    1010:	b.ne	1018 <self_caller+0x8>
    1014:	cbz	x0, 1010 <self_caller>
    1018:	bl	1010 <self_caller>
    101c:	bl	1000 <leaf>
0000000000001030 <ping>:
    1030:	bl	1040 <pong>
0000000000001040 <pong>:
    1040:	tbnz	w0, #3, 1030 <ping>
0000000000001050 <walk>:
    1050:	bl	1050 <walk>
0000000000001060 <walk>:
    1060:	adrp	x0, 1060 <walk>
0000000000001070 <grow>:
    1070:	bl	1080 <grow.part.0>
0000000000001080 <grow.part.0>:
    1080:	b	1070 <grow>
0000000000001090 <split>:
    1090:	b.eq	10a0 <split.cold>
00000000000010a0 <split.cold>:
    10a0:	b	1094 <split+0x4>
00000000000010b0 <dispatch>:
    10b0:	blr	x1
"""

EXPECTED = {"self_caller", "ping pong", "a.c:walk", "grow"}


class GraphTest(unittest.TestCase):
    def test_cycles_of_both_architectures(self):
        # A call to itself is a cycle; a jump within a function is a loop,
        # even to its first instruction; a tail call (jmp, b, tbnz) to
        # another function is an edge; a clone is its function; a cold
        # part is part of its function; calls through pointers are unseen.
        for arch, text in (("x86_64", X86), ("aarch64", AARCH64)):
            with self.subTest(arch=arch):
                self.assertEqual(set(graph(arch, text).cycles()), EXPECTED)

    def test_same_static_name_in_two_files_is_two_functions(self):
        names = [f.label for f in functions() if f.name == "walk"]
        self.assertEqual(names, ["a.c:walk", "b.c:walk"])

    def test_indirect_calls_are_noted(self):
        for arch, text in (("x86_64", X86), ("aarch64", AARCH64)):
            with self.subTest(arch=arch):
                g = graph(arch, text)
                self.assertEqual([f.name for f in g.through_pointer], ["dispatch"])

    def test_no_recursion_in_python(self):
        # A chain longer than Python's recursion limit.
        n = 5000
        fns = [cg.Function(0x1000 + 16 * i, 16, f"f{i}", None) for i in range(n)]
        text = "\n".join(f"    {0x1000 + 16 * i:x}:\tcall   {0x1010 + 16 * i:x} <f{i + 1}>"
                         for i in range(n - 1))
        text += f"\n    {0x1000 + 16 * (n - 1):x}:\tcall   1000 <f0>\n"
        g = cg.Graph("x86_64", cg.link_functions(fns)).read(text.splitlines())
        self.assertEqual(len(next(iter(g.cycles().values()))), n)


ALLOW = """\
# a comment
x86_64,aarch64: self_caller
    bounded by its argument
x86_64,aarch64: pong ping
    at most twice
aarch64,x86_64: a.c:walk
    the depth field
x86_64: grow
    the size
"""


class AllowListTest(unittest.TestCase):
    def test_every_cycle_allowed(self):
        self.assertEqual(run_check(graph("x86_64", X86), ALLOW)[:2], (8, 0))

    def test_a_cycle_not_listed_fails(self):
        # grow is listed for x86_64 only.
        passed, failed, out = run_check(graph("aarch64", AARCH64), ALLOW)
        self.assertEqual((passed, failed), (6, 1))
        self.assertIn("cycle grow is not in callgraph_allow.txt", out)
        self.assertIn("grow -> grow [grow.part.0]", out)

    def test_an_entry_that_matches_no_cycle_fails(self):
        passed, failed, out = run_check(graph("x86_64", X86),
                                        ALLOW + "x86_64: leaf\n    never\n")
        self.assertEqual((passed, failed), (8, 1))
        self.assertIn('"leaf" is no cycle of this kernel', out)

    def test_an_entry_names_the_exact_set(self):
        # ping and pong's cycle grows by leaf: the old entry no longer
        # matches, and the grown cycle is not allowed.
        text = X86.replace("    1040:\tjmp    1030 <ping>",
                           "    1040:\tcall   1000 <leaf>\n    1044:\tjmp    1030 <ping>")
        text = text.replace("    1000:\tret", "    1000:\tcall   1030 <ping>")
        passed, failed, out = run_check(graph("x86_64", text), ALLOW)
        self.assertEqual(failed, 2)
        self.assertIn("cycle leaf ping pong is not in", out)
        self.assertIn('"ping pong" is no cycle', out)

    def test_malformed_entries_fail(self):
        for bad in ("x86_64: leaf\n",                  # no reason
                    "riscv64: leaf\n    why\n",        # no such architecture
                    "    a reason with no entry above\n",
                    "x86_64: a -> b -> c\n    why\n"):
            with self.subTest(entry=bad):
                self.assertGreater(run_check(graph("x86_64", X86), bad + ALLOW)[1], 0)

    def test_a_declared_pointer_call_closes_a_cycle(self):
        allow = ALLOW + "x86_64: dispatch -> dispatch\n    through ops\n"
        passed, failed, out = run_check(graph("x86_64", X86), allow)
        self.assertEqual(failed, 1)
        self.assertIn("cycle dispatch is not in", out)
        allow += "x86_64: dispatch\n    bounded\n"
        self.assertEqual(run_check(graph("x86_64", X86), allow)[:2], (11, 0))

    def test_a_pointer_call_must_be_possible(self):
        for entry, why in (("leaf -> dispatch", "leaf calls nothing through a pointer"),
                           ("dispatch -> gone", "gone: no such function")):
            with self.subTest(entry=entry):
                passed, failed, out = run_check(graph("x86_64", X86),
                                                ALLOW + f"x86_64: {entry}\n    why\n")
                self.assertEqual(failed, 1)
                self.assertIn(why, out)


# Two functions that call each other through a third, and one that calls
# itself, as a program of the architecture's own.
PROGRAM = r"""
__attribute__((noinline)) int even(int n);
__attribute__((noinline)) static int odd(int n) { return n ? even(n - 1) + 1 : 0; }
__attribute__((noinline)) int even(int n) { return n ? odd(n - 1) + 1 : 1; }
__attribute__((noinline)) int fact(int n) { return n > 1 ? n * fact(n - 1) : 1; }
__attribute__((noinline)) int leaf(int n) { return n + 1; }
void _start(void) { even(leaf(3)); fact(4); for (;;) ; }
"""

COMPILERS = {"x86_64": "gcc", "aarch64": "aarch64-linux-gnu-gcc"}


class CompiledTest(unittest.TestCase):
    def test_real_programs(self):
        for arch, cc in COMPILERS.items():
            with self.subTest(arch=arch):
                if arch == "aarch64" and shutil.which("aarch64-none-elf-gcc"):
                    cc = "aarch64-none-elf-gcc"
                if not shutil.which(cc):
                    self.skipTest(f"{cc} is not installed")
                with tempfile.TemporaryDirectory() as tmp:
                    src, elf = os.path.join(tmp, "p.c"), os.path.join(tmp, "p.elf")
                    with open(src, "w") as f:
                        f.write(PROGRAM)
                    subprocess.run([cc, "-O2", "-fno-optimize-sibling-calls", "-ffreestanding",
                                    "-nostdlib", "-static", "-fno-pie", "-no-pie", src,
                                    "-o", elf], check=True)
                    g = cg.kernel_graph(elf)
                    self.assertEqual(g.arch, arch)
                    self.assertEqual(set(g.cycles()), {"even odd", "fact"})
                    out = io.StringIO()
                    self.assertEqual(cg.check(g, [], out=out), (0, 2))


if __name__ == "__main__":
    unittest.main()
