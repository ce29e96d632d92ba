#!/usr/bin/env python3
"""Sort the function tracer's call-site table of a linked kernel, in place.

Usage:  nm KERNEL.elf | tools/sortsites.py KERNEL.elf

The compiler records the address of each function's call site
(docs/ftrace.md): x86_64's -mrecord-mcount in the section __mcount_loc,
aarch64's -fpatchable-function-entry in __patchable_function_entries,
one 64-bit address per site, in the order the functions were emitted.
The linker script gathers them between __start_ftrace_sites and
__stop_ftrace_sites, one object file after another, so the table is
sorted only within each run of one section of one object. The kernel
looks a site up by binary search (kernel/trace/ftrace_sites.c), so the
build sorts the table once, here, as Linux's sorttable does at build
time, rather than every boot.

The two symbols' addresses come from nm on standard input, which keeps
this script free of a symbol-table parser; the table's bytes are found
through the ELF's section headers (the section whose addresses hold
it) and rewritten in place: only their order changes, so no other byte
of the kernel, and no symbol, moves. A site recorded twice is an error.
"""

import struct
import sys


def symbol_addresses(nm_lines, names):
    """The addresses nm gives for names, as a dict."""
    found = {}
    for line in nm_lines:
        fields = line.split()
        if len(fields) == 3 and fields[2] in names:
            found[fields[2]] = int(fields[0], 16)
    missing = [n for n in names if n not in found]
    if missing:
        sys.exit("sortsites: no symbol " + ", ".join(missing))
    return found


def file_offset(elf, addr, length):
    """The file offset of the length bytes at address addr (ELF64, little
    endian), found in the section header whose range holds them."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        sys.exit("sortsites: not a little-endian ELF64 file")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3a)
    for i in range(shnum):
        sh_type, _, sh_addr, sh_offset, sh_size = struct.unpack_from(
            "<IQQQQ", elf, shoff + i * shentsize + 4)
        if sh_type == 8:	# SHT_NOBITS: no bytes in the file
            continue
        if sh_addr <= addr and addr + length <= sh_addr + sh_size:
            return sh_offset + (addr - sh_addr)
    sys.exit("sortsites: no section holds %#x..%#x" % (addr, addr + length))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    path = sys.argv[1]
    syms = symbol_addresses(sys.stdin, ("__start_ftrace_sites", "__stop_ftrace_sites"))
    start, stop = syms["__start_ftrace_sites"], syms["__stop_ftrace_sites"]
    if (stop - start) % 8:
        sys.exit("sortsites: the table's size is not a multiple of 8")
    with open(path, "r+b") as f:
        elf = f.read()
        if stop == start:
            return
        offset = file_offset(elf, start, stop - start)
        count = (stop - start) // 8
        sites = sorted(struct.unpack_from("<%dQ" % count, elf, offset))
        for a, b in zip(sites, sites[1:]):
            if a == b:
                sys.exit("sortsites: the site %#x is recorded twice" % a)
        f.seek(offset)
        f.write(struct.pack("<%dQ" % count, *sites))


if __name__ == "__main__":
    main()
