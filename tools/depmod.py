#!/usr/bin/env python3
"""Which module needs which, from their symbols, as Linux's depmod and
modpost work it out (docs/modules.md, "modules.dep").

    tools/depmod.py DIR
    tools/depmod.py --depends NAME [--installed DIR] MODULE=OBJ[,OBJ...]...

The first form writes DIR/modules.dep for the modules DIR holds (the
staging tree build/ARCH/modules/lib/modules/, which becomes
/lib/modules/ in the boot archive), in Linux's format, one line a
module, its path and those of all the modules it needs, directly or
not, relative to DIR:

    mod_user.ko: mod_exporter.ko
    mod_exporter.ko:

Only DIR's own .ko files are read, not its subdirectories: ProbeOS
installs every module there, and the tests' broken copies of them, in
DIR/bad/, must not stand in for the real ones. A module needs another
when it leaves undefined a symbol the other exports (EXPORT_SYMBOL,
which the object shows as a __ksymtab_NAME symbol); what no module
exports is taken to be the kernel's. A line lists what its module needs
in an order that loads from the last to the first, as Linux's depmod
writes it, the modules each needs first (kernel/module/modules_dep.h
reads it). The file is written to a temporary file in DIR, then
renamed over the old one, never rewritten in place: a running kernel
reads it over virtio 9p while the build writes it (`modprobe` of
/host/build/ARCH/modules/lib/modules/modules.dep, docs/modules.md, "The
edit loop"), and must see the old file or the new one, whole (see
write_modules_dep).

The second form is modpost's part, for tools/modules.mk: it prints the
value of NAME's depends= (the names of the modules it needs directly,
comma-separated, as Linux's modinfo shows them), from the objects of
the modules being built (NAME among them, each MODULE=its objects) and
the modules already in DIR.

A symbol two modules export is taken from the first by path. A cycle
(modules that need each other, which no order can load) is reported on
stderr and left out of the lines. An unreadable file is reported and
skipped. Only the Python 3 standard library is used.
"""

import os
import struct
import sys

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")   # Elf64_Ehdr
SHDR = struct.Struct("<IIQQQQIIQQ")         # Elf64_Shdr
SYM = struct.Struct("<IBBHQQ")              # Elf64_Sym
SHT_SYMTAB = 2
SHN_UNDEF = 0
STB_LOCAL = 0
EXPORT_PREFIX = "__ksymtab_"


class Module:
    """A module: its name, its path, what it leaves undefined and what it
    exports."""

    def __init__(self, name, path, needs, exports):
        self.name, self.path, self.needs, self.exports = name, path, needs, exports


def module_name(path):
    """The module a file is, as Linux names it: the file's name without
    ".ko" (or ".o"), '-' made '_'."""
    base = os.path.basename(path)
    for suffix in (".ko", ".o"):
        if base.endswith(suffix):
            base = base[:-len(suffix)]
            break
    return base.replace("-", "_")


def read_symbols(data):
    """(defined, undefined, exported) symbol names of an ELF-64
    little-endian object; ValueError if it is not one."""
    if len(data) < EHDR.size or data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not an ELF-64 little-endian file")
    header = EHDR.unpack_from(data)
    shoff, shentsize, shnum = header[6], header[11], header[12]
    if shentsize != SHDR.size or shoff + shnum * SHDR.size > len(data):
        raise ValueError("bad section header table")
    sections = [SHDR.unpack_from(data, shoff + i * SHDR.size) for i in range(shnum)]
    symtabs = [s for s in sections if s[1] == SHT_SYMTAB]
    if len(symtabs) != 1 or symtabs[0][6] >= shnum:
        raise ValueError("no symbol table")
    _, _, _, _, off, size, link, _, _, _ = symtabs[0]
    strtab = sections[link]
    str_off, str_size = strtab[4], strtab[5]
    if off + size > len(data) or str_off + str_size > len(data):
        raise ValueError("symbol table past the end of the file")
    defined, undefined = set(), set()
    for at in range(off, off + size - SYM.size + 1, SYM.size):
        st_name, info, _, shndx, _, _ = SYM.unpack_from(data, at)
        if st_name >= str_size:
            raise ValueError("a symbol's name past its string table")
        end = data.find(b"\0", str_off + st_name, str_off + str_size)
        name = data[str_off + st_name:end if end >= 0 else str_off + str_size].decode(
            "utf-8", "replace")
        if not name:
            continue
        if shndx == SHN_UNDEF:
            if info >> 4 != STB_LOCAL:
                undefined.add(name)
        else:
            defined.add(name)
    exported = {n[len(EXPORT_PREFIX):] for n in defined if n.startswith(EXPORT_PREFIX)}
    return defined, undefined, exported


def load_module(name, path, files):
    """A Module from its object files (one .ko, or the .o files of one
    being built): what one file leaves undefined, another may define."""
    defined, undefined, exported = set(), set(), set()
    for f in files:
        with open(f, "rb") as fh:
            d, u, e = read_symbols(fh.read())
        defined |= d
        undefined |= u
        exported |= e
    return Module(name, path, undefined - defined, exported)


def installed_modules(directory):
    """The modules of DIR's .ko files, by path; unreadable ones reported."""
    modules = []
    try:
        names = sorted(os.listdir(directory))
    except FileNotFoundError:
        return modules
    for f in names:
        full = os.path.join(directory, f)
        if not f.endswith(".ko") or not os.path.isfile(full):
            continue
        try:
            modules.append(load_module(module_name(f), f, [full]))
        except (OSError, ValueError) as e:
            print("depmod: WARNING: %s: %s; skipped" % (full, e), file=sys.stderr)
    return modules


def direct_needs(modules):
    """{name: the names of the modules it needs directly, sorted by path}."""
    provider = {}
    for m in sorted(modules, key=lambda m: m.path):
        for sym in sorted(m.exports):
            provider.setdefault(sym, m)
    needs = {}
    for m in modules:
        users = {provider[s] for s in m.needs if s in provider and provider[s] is not m}
        needs[m.name] = [u.name for u in sorted(users, key=lambda u: u.path)]
    return needs


def load_order(name, needs, warned):
    """What name needs, directly or not, in an order to load them in:
    each after what it needs. A cycle is reported once (warned holds
    those reported) and its back edge left out."""
    order, walking = [], []

    def walk(n):
        walking.append(n)
        for d in needs.get(n, []):
            if d in walking:
                cycle = " -> ".join(walking[walking.index(d):] + [d])
                if cycle not in warned:
                    warned.add(cycle)
                    print("depmod: WARNING: dependency cycle: %s" % cycle, file=sys.stderr)
            elif d not in order:
                walk(d)
        walking.pop()
        order.append(n)

    walk(name)
    return order[:-1]


def modules_dep(modules):
    """The text of modules.dep for these modules."""
    needs = direct_needs(modules)
    path = {m.name: m.path for m in modules}
    warned = set()
    lines = []
    for m in sorted(modules, key=lambda m: m.path):
        deps = [path[n] for n in reversed(load_order(m.name, needs, warned))]
        lines.append(m.path + ":" + "".join(" " + d for d in deps) + "\n")
    return "".join(lines)


def write_modules_dep(directory):
    """Write DIR/modules.dep through a temporary file renamed over it.

    Writing the file in place would truncate it and fill it again under
    a reader (a kernel reading it over 9P, modprobe in the guest): the
    reader could see it empty, or its first lines from one build and the
    rest from another. os.replace is rename(2): the name goes from the
    old file to the new one at once, so a lookup finds one or the other,
    whole, and a reader that has the old one open keeps reading it. The
    temporary file is in DIR, on the same file system (a rename cannot
    cross one), named after this process so that two builds at once do
    not write the same one, and removed if anything fails."""
    text = modules_dep(installed_modules(directory))
    target = os.path.join(directory, "modules.dep")
    tmp = os.path.join(directory, ".modules.dep.tmp.%d" % os.getpid())
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def depends(name, built, installed_dir):
    """The depends= value of module name: built is {name: object files}
    of the modules being built, which replace installed ones of the same
    name."""
    modules = {m.name: m for m in (installed_modules(installed_dir) if installed_dir else [])}
    for n, files in built.items():
        modules[module_name(n)] = load_module(module_name(n), n + ".ko", files)
    return ",".join(direct_needs(list(modules.values())).get(module_name(name), []))


def main(argv):
    if len(argv) == 1 and not argv[0].startswith("-"):
        write_modules_dep(argv[0])
        return 0
    if len(argv) >= 2 and argv[0] == "--depends":
        name, rest, installed_dir = argv[1], argv[2:], None
        if rest[:1] == ["--installed"] and len(rest) >= 2:
            installed_dir, rest = rest[1], rest[2:]
        built = {}
        for arg in rest:
            mod, sep, files = arg.partition("=")
            if not sep or not files:
                sys.exit("depmod: %s: expected MODULE=OBJ[,OBJ...]" % arg)
            built[mod] = files.split(",")
        try:
            print(depends(name, built, installed_dir))
        except (OSError, ValueError) as e:
            sys.exit("depmod: %s" % e)
        return 0
    sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
