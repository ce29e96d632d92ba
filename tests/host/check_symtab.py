#!/usr/bin/env python3
"""Check the symbol table built into a linked ELF against the ELF itself.

Usage: tests/host/check_symtab.py ELF      (NM=... selects another nm)

Reads `kernel_symtab` (a struct symtab, kernel/symtab.h) straight out of
the ELF file, follows its pointers to the entries and names, and compares
them with what `nm -S` says about the same file: every function and data
symbol must be in the table with the same address, size and type letter, the
table must hold nothing else, and it must be sorted by address. If the
multi-pass link did not converge, the table describes an earlier link
and the addresses disagree.

Which nm symbols belong in the table is decided by tools/mksymtab.py;
this script imports that rule instead of repeating it, and checks only
that the table in the ELF is exactly what the rule gives for this ELF.

Prints one line per problem, then `check_symtab: N passed, N failed`,
where each symbol the table should hold, and each rule about the table as
a whole, counts as one check. Exits with 1 if any check failed.
"""

import collections
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tools"))
import mksymtab  # noqa: E402  (needs the path above)

SHT_SYMTAB = 2
SHT_NOBITS = 8
ENTRY_SIZE = 16             # struct symtab_entry
SYMTAB_SIZE = 24            # struct symtab on a 64-bit target


class Elf:
    """Just enough of an ELF64 reader: sections, symbols, memory."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        ident = self.data[:16]
        if ident[:4] != b"\x7fELF":
            raise ValueError(f"{path}: not an ELF file")
        if ident[4] != 2:
            raise ValueError(f"{path}: not a 64-bit ELF file")
        self.end = "<" if ident[5] == 1 else ">"
        (shoff,) = self.unpack("Q", 0x28)
        shentsize, shnum = self.unpack("HH", 0x3A)
        self.sections = []
        for i in range(shnum):
            (name, stype, flags, addr, offset, size, link, info, align,
             entsize) = self.unpack("IIQQQQIIQQ", shoff + i * shentsize)
            self.sections.append(dict(type=stype, addr=addr, offset=offset,
                                      size=size, link=link, entsize=entsize,
                                      name_off=name))
        (shstrndx,) = self.unpack("H", 0x3E)
        names = self.sections[shstrndx]["offset"] if shstrndx < shnum else None
        for sec in self.sections:
            sec["name"] = self.cstring_at(names + sec["name_off"]) if names else ""

    def unpack(self, fmt, offset):
        fmt = self.end + fmt
        return struct.unpack_from(fmt, self.data, offset)

    def symbol(self, wanted):
        """Return the value of the symbol named wanted, or None."""
        for sec in self.sections:
            if sec["type"] != SHT_SYMTAB:
                continue
            strtab = self.sections[sec["link"]]
            for off in range(sec["offset"], sec["offset"] + sec["size"],
                             sec["entsize"]):
                name_off, _, _, _, value, _ = self.unpack("IBBHQQ", off)
                if self.cstring_at(strtab["offset"] + name_off) == wanted:
                    return value
        return None

    def cstring_at(self, offset):
        end = self.data.index(b"\0", offset)
        return self.data[offset:end].decode()

    def file_offset(self, addr, length):
        """File offset of [addr, addr + length) in a loaded section."""
        for sec in self.sections:
            if (sec["type"] != SHT_NOBITS and sec["addr"] != 0
                    and sec["addr"] <= addr
                    and addr + length <= sec["addr"] + sec["size"]):
                return sec["offset"] + addr - sec["addr"]
        raise ValueError(f"address {addr:#x} is not in the file")


def read_table(elf):
    """Return the table as a list of (addr, size, letter, name); the type
    letter is the byte before the name."""
    where = elf.symbol("kernel_symtab")
    if where is None:
        raise ValueError("no kernel_symtab symbol")
    entries, count, names = elf.unpack(
        "QQQ", elf.file_offset(where, SYMTAB_SIZE))
    if count == 0:
        return []
    base = elf.file_offset(entries, count * ENTRY_SIZE)
    table = []
    for i in range(count):
        addr, size, name_off = elf.unpack("QII", base + i * ENTRY_SIZE)
        letter = elf.cstring_at(elf.file_offset(names + name_off - 1, 1))[0]
        name = elf.cstring_at(elf.file_offset(names + name_off, 1))
        table.append((addr, size, letter, name))
    return table


def nm_symbols(path):
    nm = os.environ.get("NM", "nm")
    out = subprocess.run([nm, "-n", "-S", "--defined-only", path],
                         check=True, capture_output=True, text=True).stdout
    return mksymtab.parse_nm(out.splitlines())


def elf_and_list_args(tool):
    """The command line of a check over the kernel's ELF, tool [--list]
    ELF: (the ELF's path, whether --list was given); exits with tool's
    usage otherwise."""
    args = sys.argv[1:]
    listing = "--list" in args
    args = [a for a in args if a != "--list"]
    if len(args) != 1:
        sys.exit("usage: %s [--list] build/ARCH/probeos.elf" % tool)
    return args[0], listing


class Tally:
    """The checks of a checker script (check_nokprobe.py,
    check_callgraph.py and check_ftrace_sites.py import it from here): call
    it with (ok, message) for each; a failed one's message is printed after the checker's name.
    passed and failed count them (a checker may add a run of passes at
    once)."""

    def __init__(self, name, out=None):
        self.name, self.out = name, out
        self.passed = self.failed = 0

    def __call__(self, ok, message):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"{self.name}: {message}", file=self.out or sys.stdout)

    def counts(self):
        return self.passed, self.failed


def check(path):
    """Return (passed, failed), printing each failure."""
    result = Tally("check_symtab")

    try:
        table = read_table(Elf(path))
    except (OSError, ValueError, struct.error) as e:
        result(False, f"cannot read the table: {e}")
        return result.counts()
    expected = nm_symbols(path)

    addrs = [entry[0] for entry in table]
    result(addrs == sorted(addrs), "table is not sorted by address")
    result(len(table) == len(expected),
           f"table has {len(table)} entries, nm gives {len(expected)}")

    have = collections.Counter(table)
    by_name = collections.defaultdict(list)
    for entry in table:
        by_name[entry[3]].append(entry)
    for sym in expected:
        addr, size, letter, name = sym
        if have[sym] > 0:
            have[sym] -= 1
            result(True, "")
            continue
        others = ", ".join(f"{a:#x} size {s:#x} {k}"
                           for a, s, k, _ in by_name.get(name, []))
        result(False, f"{name}: nm has {addr:#x} size {size:#x} "
                      f"{letter}, table has {others or 'nothing'}")
    for entry, n in sorted(have.items()):
        for _ in range(n):
            result(False, f"{entry[3]}: in the table at {entry[0]:#x} "
                          f"but not in nm")
    return result.counts()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_symtab.py ELF")
    passed, failed = check(sys.argv[1])
    print(f"check_symtab: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
