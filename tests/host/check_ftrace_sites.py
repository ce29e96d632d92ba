#!/usr/bin/env python3
"""Check the function tracer's call-site table of a linked kernel.

Usage: tests/host/check_ftrace_sites.py [--list] build/ARCH/probeos.elf
       (the object files are read from obj/ beside the ELF; NM=... selects
       another nm; --list prints the sites' functions instead)

The compiler leaves a NOP at the entry of every function not marked
notrace and records its address (docs/ftrace.md); the linker gathers the
records between __start_ftrace_sites and __stop_ftrace_sites and
tools/sortsites.py sorts them. The kernel trusts that table: it looks
sites up by binary search and will patch calls into them. This script
checks it against the ELF and the objects:

  the table        is sorted, with no site twice, and holds every site
                   the objects recorded (the sum of their record
                   sections), so the linker script gathers them all;
  each site        is the first byte of a function, holds the
                   architecture's NOP, and lies outside the never-probe
                   text (.entry.text, .kprobes.text: __kprobes is
                   notrace too);
  notrace code     no function defined with notrace in the sources (nor
                   a compiler clone of one, fn.part.0) has a site;
  the hit path     no function that the trampoline's C entry or the
                   breakpoint path reaches by direct calls has a site
                   (the call graph of check_callgraph.py), up to a
                   panic, which ends the kernel: a site there would call
                   the tracer from inside itself, or, while its int3 is
                   being patched in on x86_64, trap for ever.

Each counts as one check. Prints one line per problem, then
`check_ftrace_sites: N passed, N failed`; exits with 1 if any failed.
"""

import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_nokprobe import COMMENT, FUNCTION_TYPES, elf_arch, pick_nm, run_nm, sources  # noqa: E402
from check_symtab import Elf, Tally, elf_and_list_args  # noqa: E402
from check_callgraph import kernel_graph  # noqa: E402

# The bytes of an untraced site, and the section the compiler records
# sites in (arch/ARCH/include/asm/ftrace.h says the same).
NOP = {"x86_64": bytes.fromhex("0f1f440000"),
       "aarch64": bytes.fromhex("1f2003d5") * 2}
RECORDS = {"x86_64": "__mcount_loc", "aarch64": "__patchable_function_entries"}

# A definition written with notrace: the attribute, then the rest of the
# declaration up to the function's name and parameters, then its body.
NOTRACE_DEFINITION = re.compile(r"\bnotrace\b[^;{}()]*?\b(\w+)\s*\([^;{}]*\)\s*\{")

# Where the hit path starts (kernel/trace/ftrace.c, kernel/probes/
# kprobe_trap.c), the NMI handlers (whose hooked returns would end in an
# iretq that lets NMIs nest), with the callbacks ftrace_dispatch calls through a
# pointer, which the call graph cannot follow (kernel/trace/
# trace_functions.c, kernel/probes/kprobe_trap.c), and the functions it
# is not followed into.
HIT_PATH_ROOTS = ("ftrace_dispatch", "ftrace_site_breakpoint", "kprobe_breakpoint_handler",
                  "kprobe_singlestep_handler", "kprobe_fault_handler", "function_trace_call",
                  "function_trace_pid_call", "kprobe_ftrace_handler", "fgraph_entry_call",
                  "fgraph_trampoline_handler", "graph_entry", "graph_return", "profile_entry",
                  "profile_return", "fgraph_test_entry", "fgraph_test_return",
                  # x86_64's NMI handlers (arch/x86_64/traps.c handle_nmi)
                  "tlb_handle_nmi", "ipi_stop_requested")
HIT_PATH_ENDS = ("panic", "trap_panic")


def hit_path(path):
    """{function: the function that first calls it} for every function
    the roots reach by direct calls, the roots too."""
    graph = kernel_graph(path)
    by_name = {f.name: f for f in graph.functions}
    caller = {name: None for name in HIT_PATH_ROOTS if name in by_name}
    todo = [by_name[name] for name in caller]
    while todo:
        f = todo.pop()
        if f.name in HIT_PATH_ENDS:
            continue
        for callee in graph.calls.get(f, {}):
            if callee.name not in caller:
                caller[callee.name] = f.name
                todo.append(callee)
    return {by_name[name]: via for name, via in caller.items()}


def read_sites(elf, value):
    start, stop = value["__start_ftrace_sites"], value["__stop_ftrace_sites"]
    count = (stop - start) // 8
    if count == 0:
        return []
    return list(elf.unpack("%dQ" % count, elf.file_offset(start, count * 8)))


def recorded_count(objects, section):
    """How many sites the objects recorded in all."""
    total = 0
    for obj in objects.values():
        total += sum(s["size"] // 8 for s in Elf(obj).sections if s["name"] == section)
    return total


def notrace_names(root, objects):
    """The functions the sources define with notrace."""
    names = set()
    for src in objects:
        if not src.endswith(".c"):
            continue
        with open(os.path.join(root, src), errors="replace") as f:
            names.update(NOTRACE_DEFINITION.findall(COMMENT.sub("", f.read())))
    return names


def check(path, listing=False):
    result = Tally("check_ftrace_sites")

    elf = Elf(path)
    arch = elf_arch(elf)
    symbols = run_nm(pick_nm(arch), path)
    value = {name: addr for addr, name, _ in symbols}
    function_at = collections.defaultdict(list)
    for addr, name, kind in symbols:
        if kind in FUNCTION_TYPES:
            function_at[addr].append(name)
    sites = read_sites(elf, value)
    if listing:
        for ip in sites:
            print("%016x %s" % (ip, " ".join(function_at.get(ip, ["?"]))))
        return result.counts()

    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    objects = dict(sources(root, os.path.join(os.path.dirname(path), "obj")))
    result(len(sites) > 0, "the table is empty: is the kernel built with FTRACE_CFLAGS?")
    result(sites == sorted(set(sites)), "the table is not sorted, or holds a site twice "
           "(tools/sortsites.py sorts it after the link)")
    recorded = recorded_count(objects, RECORDS[arch])
    result(recorded == len(sites), f"the objects recorded {recorded} sites, the table "
           f"holds {len(sites)} (linker/common.ld gathers {RECORDS[arch]})")

    never = [(value["__entry_text_start"], value["__entry_text_end"]),
             (value["__kprobes_text_start"], value["__kprobes_text_end"])]
    nop = NOP[arch]
    for ip in sites:
        names = function_at.get(ip)
        result(names is not None, f"site {ip:#x} is not a function's first byte")
        where = names[0] if names else f"{ip:#x}"
        result(elf.data[elf.file_offset(ip, len(nop)):][:len(nop)] == nop,
               f"{where}: its site is not the NOP it is built with")
        result(not any(lo <= ip < hi for lo, hi in never),
               f"{where}: has a site but lies in the never-probe text, which is notrace")

    site_set = set(sites)
    notrace = notrace_names(root, objects)
    for addr, names in sorted(function_at.items()):
        for name in names:
            if name.split(".")[0] in notrace:
                result(addr not in site_set, f"{name}: written notrace, but has a site")

    reached = hit_path(path)
    result(len(reached) >= len(HIT_PATH_ROOTS), "the hit path's roots are not all in the kernel")
    for f, via in sorted(reached.items(), key=lambda item: item[0].name):
        if f.name not in HIT_PATH_ENDS:
            result(f.start not in site_set, f"{f.name}: on the hit path (called by {via}), "
                   "but has a site: mark it notrace")
    return result.counts()


def main():
    path, listing = elf_and_list_args("check_ftrace_sites.py")
    passed, failed = check(path, listing)
    if not listing:
        print(f"check_ftrace_sites: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
