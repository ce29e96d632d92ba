#!/usr/bin/env python3
"""Check in a linked kernel that never-probe code is marked, and only it.

Usage: tests/host/check_nokprobe.py build/ARCH/probeos.elf
       (the object files are read from obj/ beside the ELF; NM=... selects
       another nm)

Code that runs while a probe hit is handled must never be probed
(kernel/nokprobe.h). It is marked where it is written, with __kprobes or
NOKPROBE_SYMBOL, so a function that lost its mark (or a new function
written without one) would become probeable without anything failing.
This script compares `nm` of the kernel with `nm` of the object files:

  must be covered   every function defined in a hit-path source (HIT_PATH
                    below, and any other source that uses __kprobes), and
                    each of HIT_PATH_FUNCTIONS in its source, lies
                    in .entry.text, between __kprobes_text_start and
                    __kprobes_text_end, or is listed in .nokprobe_list
                    (itself or, for a compiler clone such as
                    fn.constprop.0, fn);
  must stay out     no function defined in a source that declares a shell
                    command or a selftest suite lies in either range (a
                    single function may still be listed on purpose).

Each function counts as one check. A HIT_PATH source without an object
file fails too: a renamed or split file must be named here again, so
that its functions stay checked. Prints one line per problem, then
`check_nokprobe: N passed, N failed`; exits with 1 if any check failed.
"""

import collections
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_symtab import Elf, Tally  # noqa: E402  (needs the path above)

# The sources whose every function runs on a probe hit or while text is
# patched: the probes core, text patching, the arch back end and the
# assembly trap entry and trampolines. {arch} is the architecture.
HIT_PATH = [
    "kernel/probes/kprobes.c",
    "kernel/probes/kprobe_trap.c",
    "kernel/probes/jprobes.c",
    "kernel/probes/kretprobes.c",
    "kernel/probes/kretprobe_trampoline.S",
    "kernel/rethook.c",
    "kernel/probes/optimizer.c",
    "kernel/mm/text_patch.c",
    "arch/{arch}/kprobes.c",
    "arch/{arch}/optprobe.c",
    "arch/{arch}/trap_entry.S",
    "arch/{arch}/jprobe_trampoline.S",
]
# Single functions of otherwise probeable sources that run on a hit
# too: a call from a function tracer's site, which a kprobe on a
# function's entry rides (kernel/trace/ftrace.c), and the breakpoint
# path's question whether an int3 is a site being patched.
HIT_PATH_FUNCTIONS = {
    "kernel/trace/ftrace.c": ["ftrace_dispatch", "call_guarded", "call_every_wanting",
                              "ops_wants", "guard_enter", "ftrace_site_breakpoint"],
    "kernel/trace/ftrace_sites.c": ["ftrace_site_at"],
    "kernel/trace/trace_functions.c": ["function_trace_call", "function_trace_pid_call"],
    "kernel/trace/ftrace_pid.c": ["ftrace_pid_traced"],
    "kernel/trace/trace_stack.c": ["stack_trace_call", "record", "add_frame", "find_word",
                                   "end_mark_gone"],
    "kernel/trace/trace.c": ["trace_begin", "trace_end", "trace_write"],
    "kernel/trace/trace_comm.c": ["trace_comm_store", "trace_comm_find"],
    "kernel/trace/ring_buffer.c": ["ring_buffer_reserve", "ring_buffer_write"],
    "kernel/trace/ring.c": ["ring_reserve", "ring_commit", "ring_write"],
}
HIT_PATH_ARCH = {
    # The instruction classifier: a hit simulates with it.
    "aarch64": ["arch/aarch64/insn.c"],
}

EM_X86_64 = 62
EM_AARCH64 = 183
ARCH_OF = {EM_X86_64: "x86_64", EM_AARCH64: "aarch64"}
NM_OF = {"x86_64": ["nm"],
         "aarch64": ["aarch64-none-elf-nm", "aarch64-linux-gnu-nm", "nm"]}

MARKED = re.compile(r"\b__kprobes\b")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
TABLE_ENTRY = re.compile(r"^\s*(SHELL_COMMAND|SELFTEST_SUITE)\(", re.M)
FUNCTION_TYPES = "tTwW"


def run_nm(nm, path):
    """Return [(addr, name, type)] for the defined symbols of path."""
    out = subprocess.run([nm, "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    symbols = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3:
            symbols.append((int(fields[0], 16), fields[2], fields[1]))
    return symbols


def functions(nm, obj):
    return [name for _, name, kind in run_nm(nm, obj) if kind in FUNCTION_TYPES]


class Kernel:
    """The never-probe ranges and list of one linked kernel."""

    def __init__(self, nm, path):
        elf = Elf(path)
        self.by_name = collections.defaultdict(list)
        value = {}
        for addr, name, kind in run_nm(nm, path):
            value[name] = addr
            if kind in FUNCTION_TYPES:
                self.by_name[name].append(addr)
        self.ranges = [(value["__entry_text_start"], value["__entry_text_end"]),
                       (value["__kprobes_text_start"], value["__kprobes_text_end"])]
        start = value["__start_nokprobe_list"]
        count = (value["__stop_nokprobe_list"] - start) // 8
        self.listed = set()
        if count:
            self.listed = set(elf.unpack("%dQ" % count, elf.file_offset(start, count * 8)))

    def in_range(self, addr):
        return any(lo <= addr < hi for lo, hi in self.ranges)

    def covered(self, name, addr):
        """As within_nokprobe_text (kernel/nokprobe.c) answers for a
        function's first byte: a clone counts if its origin is listed."""
        origin = name.split(".")[0]
        return (self.in_range(addr) or addr in self.listed
                or any(a in self.listed for a in self.by_name.get(origin, [])))


def elf_arch(elf):
    return ARCH_OF.get(elf.unpack("H", 0x12)[0])


def pick_nm(arch):
    if "NM" in os.environ:
        return os.environ["NM"]
    for nm in NM_OF[arch]:
        if shutil.which(nm):
            return nm
    return "nm"


def sources(root, obj_dir):
    """Every source that has an object file, as (source path, object).
    An object left behind by a source since removed or renamed is not
    in the kernel, and is skipped."""
    for parent, _, files in os.walk(obj_dir):
        for f in sorted(files):
            if f.endswith((".c.o", ".S.o")):
                obj = os.path.join(parent, f)
                src = os.path.relpath(obj, obj_dir)[:-2]
                if os.path.exists(os.path.join(root, src)):
                    yield src, obj


def check(path):
    result = Tally("check_nokprobe")

    arch = elf_arch(Elf(path))
    nm = pick_nm(arch)
    kernel = Kernel(nm, path)
    obj_dir = os.path.join(os.path.dirname(path), "obj")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

    hit_path = [s.format(arch=arch) for s in HIT_PATH] + HIT_PATH_ARCH.get(arch, [])
    objects = dict(sources(root, obj_dir))
    for src in hit_path:
        result(src in objects, f"{src}: no object file in {obj_dir}; if it was "
               f"renamed or split, name the new files in HIT_PATH "
               f"(tests/host/check_nokprobe.py)")

    # How many definitions of each name must be covered, and how many
    # must stay out of the ranges. Static functions of different files
    # may share a name, so copies are counted rather than matched.
    must = collections.defaultdict(list)
    must_not = collections.defaultdict(list)
    for src, obj in objects.items():
        with open(os.path.join(root, src), errors="replace") as f:
            text = COMMENT.sub("", f.read())
        if TABLE_ENTRY.search(text) and src not in hit_path:
            for name in functions(nm, obj):
                must_not[name].append(src)
        elif src in hit_path or MARKED.search(text):
            for name in functions(nm, obj):
                must[name].append(src)
        else:
            defined = functions(nm, obj)
            for name in HIT_PATH_FUNCTIONS.get(src, []):
                result(name in defined, f"{src}: {name} is not defined there any more; "
                       f"name its new place in HIT_PATH_FUNCTIONS (tests/host/check_nokprobe.py)")
                if name in defined:
                    must[name].append(src)

    for name, srcs in sorted(must.items()):
        copies = kernel.by_name.get(name, [])
        n_covered = sum(kernel.covered(name, a) for a in copies)
        for src in srcs[n_covered:]:
            result(False, f"{src}: {name} can be probed: mark it __kprobes "
                   f"(or NOKPROBE_SYMBOL) where it is written")
        result.passed += min(n_covered, len(srcs))
    for name, srcs in sorted(must_not.items()):
        copies = kernel.by_name.get(name, [])
        n_out = sum(not kernel.in_range(a) for a in copies)
        for src in srcs[n_out:]:
            result(False, f"{src}: {name} lies in the never-probe text, but "
                   f"shell commands and selftests must stay probeable")
        result.passed += min(n_out, len(srcs))
    return result.counts()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_nokprobe.py build/ARCH/probeos.elf")
    passed, failed = check(sys.argv[1])
    print(f"check_nokprobe: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
