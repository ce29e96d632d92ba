#!/usr/bin/env python3
"""Check on the object files that every layer calls only layers below it.

Usage: tests/host/check_layers.py [--list] build/ARCH/probeos.elf
       (reads the object files in obj/ beside the ELF with nm; NM=...
       selects another nm)

A student reads ProbeOS bottom-up: memory, traps, threads and panic
without meeting the VFS, modules or probes (docs/layers.md). The floors
are in FLOORS below, lowest first, each with the sources on it. For
every undefined symbol of every kernel object, the object that defines
it is found; a reference from a floor to a higher floor fails, unless
layers_allow.txt names the file and the symbol with the reason the call
runs back up (a hook a higher layer fills in, say). Includes are not
read: a header may be included for a type alone, but a symbol is a call
or a use that links.

These fail too: an object that no floor places (a new file must be given
its floor here: the issues that follow place theirs), and an allow-list
line that no longer matches a reference (so the list only shrinks).
Each object counts as one check. With --list, every upward reference is
printed, allowed ones too. Prints `check_layers: N passed, N failed`;
exits with 1 if any failed.
"""

import fnmatch
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ALLOW = os.path.join(HERE, "layers_allow.txt")
sys.path.insert(0, HERE)
from check_nokprobe import elf_arch, pick_nm  # noqa: E402  (needs the path above)
from check_symtab import Elf, elf_and_list_args  # noqa: E402

# (floor, source patterns), lowest first. A source is placed on the first
# floor with a matching pattern; arch/ARCH/ and boot/ARCH/ files match as
# arch/*/NAME. Selftests sit on the floor of what they test.
FLOORS = (
    ("lib", ["lib/*"]),
    ("ground", ["kernel/printk.c", "kernel/log.c", "kernel/panic.c", "kernel/spinlock.c",
                "kernel/console.c", "kernel/cpu.c", "kernel/time.c", "kernel/trap.c",
                "kernel/symtab.c", "kernel/backtrace.c",
                "kernel/rethook.c", "kernel/code_range.c", "kernel/nokprobe.c",
                "kernel/initcall.c", "kernel/mm/nofault.c", "kernel/command.c",
                "boot/*", "arch/*/cpu.c", "arch/*/cpuinfo.c", "arch/*/machine.c",
                "arch/*/uart.c", "arch/*/insn.c", "arch/*/psci.c", "arch/*/pic.c", "arch/*/trap_frame.c",
                "arch/*/trap_entry.S"]),
    ("memory", ["kernel/mm/frame.c", "kernel/mm/heap.c", "kernel/mm/paging.c",
                "kernel/mm/stack.c", "arch/*/paging.c"]),
    ("scheduler", ["kernel/sched.c", "kernel/thread.c", "kernel/mutex.c", "kernel/rcu.c",
                   "kernel/smp.c", "kernel/smp_call.c", "kernel/code_in_use.c",
                   "kernel/cmd_output.c", "kernel/cmd_printf.c", "kernel/command_usage.c", "kernel/number_arg.c",
                   "kernel/selftest.c", "kernel/crash_test.c",
                   "kernel/log_selftest.c", "kernel/sched_selftest.c", "kernel/smp_selftest.c",
                   "kernel/smp_call_selftest.c", "kernel/mm/stack_selftest.c",
                   "arch/*/thread.c", "arch/*/smp.c", "arch/*/smp_trampoline.S",
                   "arch/*/smp_entry.S", "arch/*/ipi.c", "arch/*/tlb.c",
                   "arch/*/trap_selftest.c", "arch/*/timer.c", "arch/*/lapic.c",
                   "arch/*/gic.c", "arch/*/irq.c", "arch/*/crash_test.c"]),
    ("traps", ["arch/*/traps.c"]),
    ("mm", ["kernel/mm/text_patch.c", "kernel/mm/execmem.c", "kernel/mm/insn_slot.c",
            "kernel/mm/percpu_alloc.c", "kernel/mm/mm_selftest.c"]),
    ("trace", ["kernel/trace/ring*", "kernel/trace/trace.c", "kernel/trace/trace_output.c",
               "kernel/trace/ftrace_sites*", "kernel/trace/ftrace_site_map.c",
               "kernel/trace/trace_comm.c", "kernel/trace/ftrace.c", "kernel/trace/ftrace_selftest.c",
               "kernel/trace/tracer.c", "kernel/trace/trace_functions.c", "kernel/trace/ftrace_filter_word.c",
               "kernel/trace/ftrace_pid.c", "kernel/trace/pid_list.c", "kernel/trace/sorted_set.c",
               "kernel/trace/trace_stack.c", "kernel/trace/crash_kinds.c", "kernel/trace/fgraph*",
               "kernel/trace/graph_format.c", "kernel/trace/trace_graph.c", "kernel/trace/ftrace_profile.c",
               "arch/*/ftrace*", "kernel/trace/probe_*", "kernel/trace/trace_probe.c",
               "kernel/trace/kprobe_event_parse.c", "arch/*/probe_regs.c",
               "kernel/trace/event_filter.c", "kernel/trace/event_trigger.c",
               "kernel/trace/hist_parse.c", "kernel/trace/hist_map.c",
               "kernel/trace/trace_stacktrace.c"]),
    ("vfs", ["kernel/fs/vfs.c", "kernel/fs/vfs_selftest.c", "kernel/fs/dentry.c",
             "kernel/fs/mount.c", "kernel/fs/d_path.c", "kernel/fs/cwd.c", "kernel/fs/libfs.c",
             "kernel/fs/ramfs.c", "kernel/fs/fs_struct.c", "kernel/symtab_selftest.c"]),
    ("pseudofs", ["kernel/fs/pseudofs.c", "kernel/fs/pseudofs_selftest.c", "kernel/fs/seq_file*",
                  "kernel/fs/procfs.c", "kernel/fs/proc_*.c", "kernel/fs/proc/*",
                  "kernel/fs/sysfs.c", "kernel/fs/debugfs.c", "kernel/fs/tracefs.c",
                  "kernel/fs/path_selftest.c", "kernel/kallsyms.c", "arch/*/irq_rows.c"]),
    ("virtio", ["kernel/virtio/*", "arch/*/pci.c", "arch/*/virtio_*.c"]),
    ("9p", ["kernel/fs/ninepfs*"]),
    ("module", ["kernel/module/*", "arch/*/module_reloc.c"]),
    ("tracing", ["kernel/trace/tracefs_*", "kernel/trace/trace_marker.c",
                 "kernel/trace/trace_events.c", "kernel/trace/trace_events_trigger.c",
                 "kernel/trace/trace_events_hist.c"]),
    ("probes", ["kernel/probes/*", "kernel/rethook_selftest*", "arch/*/kprobes*", "arch/*/kretprobe*", "arch/*/jprobe*",
                "arch/*/optprobe*"]),
    ("events", ["kernel/trace/trace_kprobe*"]),
    ("shell", ["kernel/shell/*", "kernel/worker.c"]),
    ("main", ["kernel/main.c"]),
)
RANK = {name: i for i, (name, _) in enumerate(FLOORS)}


def floor_of(source):
    """The floor a source path sits on, or None."""
    parts = source.split("/")
    generic = source
    if parts[0] in ("arch", "boot") and len(parts) > 2:
        generic = "/".join([parts[0], "*"] + parts[2:])
    for name, patterns in FLOORS:
        for pattern in patterns:
            if fnmatch.fnmatchcase(source, pattern) or fnmatch.fnmatchcase(generic, pattern):
                return name
    return None


def objects(root, obj_dir):
    """(source, object path) for every kernel object whose source still
    exists under root (an object left behind by a removed source is not
    linked)."""
    for parent, _, files in os.walk(obj_dir):
        for f in sorted(files):
            if f.endswith((".c.o", ".S.o")):
                obj = os.path.join(parent, f)
                src = os.path.relpath(obj, obj_dir)[:-2].replace(os.sep, "/")
                if os.path.exists(os.path.join(root, src)):
                    yield src, obj


def symbols(nm, obj):
    """(defined global names, undefined names) of one object."""
    out = subprocess.run([nm, obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[0] in ("U", "w"):
            undefined.add(fields[1])
        elif len(fields) == 3 and fields[1] in "TDBRVWGSAC":
            defined.add(fields[2])
    return defined, undefined


def read_allow(path, arch):
    """{(source, symbol): reason} from the allow-list, for arch: lines of
    `source symbol [ARCH]  # reason` (ARCH limits a line to one
    architecture); a line without a reason is refused."""
    allowed = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            entry, _, reason = text.partition("#")
            fields = entry.split()
            if len(fields) not in (2, 3) or not reason.strip():
                sys.exit("%s:%d: want `source symbol [ARCH]  # reason`" % (path, number))
            if len(fields) == 3 and fields[2] != arch:
                continue
            if fields[0].startswith(("arch/", "boot/")) and fields[0].split("/")[1] != arch:
                continue
            allowed[tuple(fields[:2])] = reason.strip()
    return allowed


def check(root, obj_dir, nm, allowed, listing=False, out=sys.stdout):
    """Check the objects under obj_dir, built from the tree at root;
    returns (passed, failed)."""
    placed = {}
    definer = {}
    needs = {}
    for src, obj in objects(root, obj_dir):
        placed[src] = floor_of(src)
        defined, undefined = symbols(nm, obj)
        needs[src] = undefined
        for name in defined:
            definer.setdefault(name, src)
    passed = failed = 0
    used = set()
    for src in sorted(placed):
        problems = []
        if placed[src] is None:
            problems.append("no floor places it (add it to FLOORS in check_layers.py)")
        for name in sorted(needs[src]):
            target = definer.get(name)
            if not target or placed[src] is None or placed.get(target) is None:
                continue
            if RANK[placed[target]] <= RANK[placed[src]]:
                continue
            line = "%s (%s) -> %s %s (%s)" % (src, placed[src], name, target, placed[target])
            if (src, name) in allowed:
                used.add((src, name))
                if listing:
                    print("check_layers: allowed: " + line, file=out)
            else:
                problems.append("calls up: %s in %s (%s)" % (name, target, placed[target]))
        for problem in problems:
            print("check_layers: %s: %s" % (src, problem), file=out)
        if problems:
            failed += 1
        else:
            passed += 1
    for key in sorted(set(allowed) - used):
        print("check_layers: layers_allow.txt: %s %s no longer calls up: drop the line" % key,
              file=out)
        failed += 1
    return passed, failed


def main():
    elf, listing = elf_and_list_args("check_layers.py")
    arch = elf_arch(Elf(elf))
    if arch is None:
        sys.exit("check_layers: %s: not an x86_64 or aarch64 ELF file" % elf)
    obj_dir = os.path.join(os.path.dirname(elf), "obj")
    passed, failed = check(ROOT, obj_dir, pick_nm(arch), read_allow(ALLOW, arch), listing)
    print("check_layers: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
