#!/usr/bin/env python3
"""Check that every cycle in a kernel's call graph is known and bounded.

Usage: tests/host/check_callgraph.py [--list] build/ARCH/probeos.elf
       (OBJDUMP=... selects another objdump)

A kernel thread has a fixed stack of THREAD_STACK_SIZE (kernel/sched.h)
and nothing catches running off its end, so a function that calls itself,
directly or around a cycle of other functions, must have a bound on its
depth that the kernel sets. A depth that the input decides (how deeply a
typed line nests, how long a chain in a file or a 9P reply is) is a bug.

This script disassembles the ELF with objdump and builds the graph of
direct calls: on x86_64 a `call` to a function, or a `jmp`/`jcc` into
another function (a tail call); on aarch64 a `bl`, or a `b`, `b.cond`,
`cbz`, `cbnz`, `tbz` or `tbnz` into another function. A jump within a
function is a loop and uses no stack, so it is no edge, even to the
function's first instruction. Calls through a pointer (`call *%rax`,
`blr x1`) cannot be seen: a cycle through a function pointer (a file's
operations, a probe's handler) is not found.

Every strongly connected component of more than one function, and every
function that calls itself, is a cycle. It is named by the sorted set of
its functions, a compiler clone (fn.constprop.0, fn.isra.0, fn.part.0)
counting as the function it came from and a cold part (fn.cold) being
part of its function; a static function whose name another file also
uses is named FILE:fn. Each cycle must be an entry of the allow-list,
tests/host/callgraph_allow.txt, which says what bounds it; an entry names
the exact set, so a cycle that grows or shrinks no longer matches.

Each cycle found and each entry of the list for this architecture counts
as one check: a cycle not in the list fails, and so does an entry that
matches no cycle (the list must stay true). Prints one line per problem
(with --list, every cycle and its calls too), then `check_callgraph: N
passed, N failed`; exits with 1 if any check failed.
"""

import bisect
import collections
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_symtab import Elf, SHT_SYMTAB, Tally, elf_and_list_args  # noqa: E402  (needs the path above)

HERE = os.path.dirname(os.path.abspath(__file__))
ALLOW_LIST = os.path.join(HERE, "callgraph_allow.txt")
ARCHS = ("x86_64", "aarch64")

EM_X86_64 = 62
EM_AARCH64 = 183
ARCH_OF = {EM_X86_64: "x86_64", EM_AARCH64: "aarch64"}
OBJDUMP_OF = {"x86_64": ["objdump"],
              "aarch64": ["aarch64-none-elf-objdump", "aarch64-linux-gnu-objdump"]}

STT_FUNC = 2
STT_FILE = 4
STB_LOCAL = 0

# Which mnemonics call, and which jump: to a direct target, or (blr, br,
# and x86_64's with a "*" operand) through a pointer.
CALLS = {"x86_64": re.compile(r"^call[q]?$"),
         "aarch64": re.compile(r"^blr?$")}
JUMPS = {"x86_64": re.compile(r"^(jmp[q]?|j[a-z]{1,3})$"),
         "aarch64": re.compile(r"^(br?|b\.[a-z]{2}|cbn?z|tbn?z)$")}

# "ffffffff80101234:\tcall   ffffffff80102000 <foo+0x10>": objdump -d's
# instruction line, with the target as the last "ADDRESS <symbol>".
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(?:(?:bnd|notrack|rex\.\w+)\s+)?(\S+)\s*(.*)$")
DIRECT_TARGET = re.compile(r"(?:^|[\s,])([0-9a-f]+) <[^>]*>")
CLONE_SUFFIX = re.compile(r"(\.(constprop|isra|part|cold|lto_priv)(\.\d+)?)+$")
COLD_PART = re.compile(r"\.cold(\.\d+)?$")


class Function:
    """One function of the kernel: a FUNC symbol and its code."""

    def __init__(self, start, size, name, source):
        self.start = start
        self.size = size
        self.name = name            # the symbol, maybe fn.constprop.0
        self.source = source        # a static function's file, else None
        self.label = name           # how a cycle names it
        self.part_of = self         # a cold part: the function it is of


def origin(name):
    """fn for fn.constprop.0, fn.isra.0, fn.part.0, fn.cold."""
    return CLONE_SUFFIX.sub("", name)


def elf_functions(elf):
    """The FUNC symbols of elf as Functions, sorted by address. A static
    function's source is the file named by the FILE symbol before it."""
    by_start = {}
    for sec in elf.sections:
        if sec["type"] != SHT_SYMTAB:
            continue
        strtab = elf.sections[sec["link"]]
        source = None
        for off in range(sec["offset"] + sec["entsize"], sec["offset"] + sec["size"],
                         sec["entsize"]):
            name_off, info, _, _, value, size = elf.unpack("IBBHQQ", off)
            kind, bind = info & 0xF, info >> 4
            if kind == STT_FILE:
                source = elf.cstring_at(strtab["offset"] + name_off)
            elif kind == STT_FUNC and value:
                # Two names for one address are one function, named by
                # its global name.
                if value not in by_start or bind != STB_LOCAL:
                    name = elf.cstring_at(strtab["offset"] + name_off)
                    by_start[value] = Function(value, size, name,
                                               source if bind == STB_LOCAL else None)
    return link_functions(sorted(by_start.values(), key=lambda f: f.start))


def link_functions(functions):
    """Label each function by the name it was written with (a static one
    whose name another file also uses by FILE:name), and join each cold
    part to its function: the static one of its file, or else the global
    one (a cold part is always static). Returns functions."""
    sources = collections.defaultdict(set)
    for f in functions:
        sources[origin(f.name)].add(f.source)
    whole = {}
    for f in functions:
        name = origin(f.name)
        f.label = f"{f.source}:{name}" if len(sources[name]) > 1 and f.source else name
        if not COLD_PART.search(f.name):
            whole[(f.name, f.source)] = f
    for f in functions:
        if COLD_PART.search(f.name):
            of = COLD_PART.sub("", f.name)
            f.part_of = whole.get((of, f.source)) or whole.get((of, None)) or f
    return functions


class Graph:
    """The direct calls between the functions of one kernel."""

    def __init__(self, arch, functions):
        self.arch = arch
        self.functions = functions
        self.starts = [f.start for f in functions]
        self.calls = collections.defaultdict(dict)  # caller -> {callee: insn}
        self.through_pointer = set()                # who calls through a pointer

    def function_at(self, addr):
        """The function whose code holds addr, or None."""
        i = bisect.bisect_right(self.starts, addr) - 1
        if i < 0:
            return None
        f = self.functions[i]
        if f.size and addr >= f.start + f.size:
            return None
        return f.part_of

    def add(self, addr, mnemonic, operands):
        """Add the edge of one instruction, if it is a direct call, or a
        jump into another function."""
        is_call = CALLS[self.arch].match(mnemonic)
        if not is_call and not JUMPS[self.arch].match(mnemonic):
            return
        caller = self.function_at(addr)
        targets = DIRECT_TARGET.findall(operands)
        if operands.startswith("*") or not targets:
            if caller is not None and operands.startswith(("*", "x")):
                self.through_pointer.add(caller)   # call *%rax, blr x1
            return
        callee = self.function_at(int(targets[-1], 16))
        if caller is None or callee is None or (callee is caller and not is_call):
            return
        self.calls[caller].setdefault(callee, f"{addr:x}: {mnemonic} {operands}")

    def declare(self, caller, callee, why):
        """Add a call through a pointer that the allow-list declares, from
        every function labelled caller to every one labelled callee.
        Returns a problem, or None."""
        callers = [f for f in self.functions if f.label == caller and f.part_of is f]
        callees = [f for f in self.functions if f.label == callee and f.part_of is f]
        if not callers or not callees:
            return f"{caller if not callers else callee}: no such function in this kernel"
        if not any(f in self.through_pointer for f in callers):
            return f"{caller} calls nothing through a pointer"
        for f in callers:
            for g in callees:
                self.calls[f].setdefault(g, why)
        return None

    def read(self, lines):
        """Add the edges of objdump -d's output."""
        for line in lines:
            m = INSN.match(line)
            if m:
                self.add(int(m.group(1), 16), m.group(2), m.group(3).strip())
        return self

    def cycles(self):
        """Every cycle, as {name: [functions]}: each strongly connected
        component of more than one function, and each function that
        calls itself. The name is the sorted set of the labels."""
        found = {}
        for component in strongly_connected(self.calls):
            if len(component) > 1 or component[0] in self.calls[component[0]]:
                found[" ".join(sorted({f.label for f in component}))] = component
        return found

    def describe(self, component):
        """The calls that make up a cycle, one per line."""
        members = set(component)
        lines = []
        for caller in sorted(component, key=lambda f: f.name):
            for callee, insn in sorted(self.calls[caller].items(), key=lambda c: c[0].name):
                if callee in members:
                    lines.append(f"    {display(caller)} -> {display(callee)}   ({insn})")
        return lines


def display(f):
    """A function as a cycle's calls show it: its label, and the symbol
    if that differs (a clone)."""
    return f.label if f.name == origin(f.name) else f"{f.label} [{f.name}]"


def strongly_connected(edges):
    """Tarjan's algorithm, with an explicit stack (the graph is deep enough
    to pass Python's recursion limit). edges maps a node to its successors;
    returns the components as lists."""
    index, low, on_stack = {}, {}, set()
    stack, components = [], []
    for root in list(edges):
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(edges.get(succ, ()))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member is node:
                        break
                components.append(component)
    return components


class Entry:
    """An allow-list entry: a cycle (name, the sorted set of its
    functions) or a call through a pointer (pointer, (caller, callee))."""

    def __init__(self, archs, line, name=None, pointer=None):
        self.archs = archs
        self.line = line
        self.name = name
        self.pointer = pointer
        self.reason = []


def read_allow_list(lines):
    """The entries of an allow-list, and the problems found reading it.

    An entry is a line "ARCH[,ARCH]: fn fn ..." (a cycle's functions, in
    any order), or "ARCH[,ARCH]: caller -> callee" (a call through a
    pointer that the disassembly cannot show), followed by indented lines
    that say why; blank lines and lines starting with # are comments."""
    entries, problems = [], []
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if not line or line.lstrip().startswith("#"):
            continue
        if line[0].isspace():
            if entries:
                entries[-1].reason.append(line.strip())
            else:
                problems.append(f"line {number}: a reason with no entry above it")
            continue
        archs, sep, names = line.partition(":")
        archs = [a.strip() for a in archs.split(",")]
        words = names.split()
        if not sep or not words or any(a not in ARCHS for a in archs):
            problems.append(f"line {number}: not \"ARCH[,ARCH]: fn fn ...\" "
                            f"(ARCH one of {', '.join(ARCHS)})")
        elif "->" in words:
            if len(words) != 3 or words[1] != "->":
                problems.append(f"line {number}: not \"ARCH[,ARCH]: caller -> callee\"")
            else:
                entries.append(Entry(archs, number, pointer=(words[0], words[2])))
        else:
            entries.append(Entry(archs, number, name=" ".join(sorted(set(words)))))
    for e in entries:
        if not e.reason:
            what = e.name or " -> ".join(e.pointer)
            problems.append(f"line {e.line}: {what}: no reason given")
    return entries, problems


def check(graph, allow_lines, list_all=False, out=sys.stdout):
    """Compare the graph's cycles with the allow-list, after adding the
    calls through pointers it declares; returns (passed, failed) and
    prints the problems."""
    result = Tally(f"check_callgraph: {graph.arch}", out)
    where = os.path.basename(ALLOW_LIST)

    entries, problems = read_allow_list(allow_lines)
    for problem in problems:
        result(False, f"{where} {problem}")
    mine = [e for e in entries if graph.arch in e.archs]
    for e in mine:
        if e.pointer:
            problem = graph.declare(*e.pointer, f"through a pointer: {where} line {e.line}")
            result(problem is None, f"{where} line {e.line}: {problem}")

    cycles = graph.cycles()
    allowed = {e.name: e for e in mine if e.name}
    for name, component in sorted(cycles.items()):
        if list_all:
            state = "allowed" if name in allowed else "NOT in the allow-list"
            print(f"check_callgraph: {graph.arch}: cycle {name}: {state}", file=out)
        result(name in allowed,
               "\n".join([f"cycle {name} is not in {where}:"] + graph.describe(component)
                         + [f"    remove the recursion, or add \"{graph.arch}: {name}\" "
                            f"to tests/host/{where} with what bounds its depth"]))
        if list_all:
            for line in graph.describe(component):
                print(line, file=out)
    for name, e in sorted(allowed.items()):
        result(name in cycles, f"{where} line {e.line}: \"{name}\" is no cycle of this "
               f"kernel: take {graph.arch} off the entry, or the entry out")
    return result.counts()


def pick_objdump(arch):
    if "OBJDUMP" in os.environ:
        return os.environ["OBJDUMP"]
    for tool in OBJDUMP_OF[arch]:
        if shutil.which(tool):
            return tool
    return "objdump"


def kernel_graph(path):
    elf = Elf(path)
    arch = ARCH_OF.get(elf.unpack("H", 0x12)[0])
    if arch is None:
        sys.exit(f"check_callgraph: {path}: not an x86_64 or aarch64 ELF file")
    out = subprocess.run([pick_objdump(arch), "-d", "--no-show-raw-insn", path],
                         check=True, capture_output=True, text=True).stdout
    return Graph(arch, elf_functions(elf)).read(out.splitlines())


def main():
    elf, list_all = elf_and_list_args("check_callgraph.py")
    graph = kernel_graph(elf)
    with open(ALLOW_LIST) as f:
        passed, failed = check(graph, f.read().splitlines(), list_all)
    print(f"check_callgraph: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
