#!/usr/bin/env python3
"""Write the broken module files the tests must see refused.

Usage:  tools/mkbadmodules.py BUILD-ROOT ARCH OTHER-ARCH

Into BUILD-ROOT/ARCH/modules/lib/modules/bad/ (the staging tree that
the root file system archive includes, see tools/modules.mk) it writes
each file of bad_modules(): a text file, a truncated module, a module of
OTHER-ARCH, and copies of this architecture's good modules broken in one
way each, one per way the loader must refuse (docs/modules.md, "What the
loader refuses"). It touches BUILD-ROOT/ARCH/modules.stamp when a file
changed, so that the next `make` rebuilds the archive. The tests/modules
of ARCH and OTHER-ARCH must have been built (`make ARCH=... modules`).

The same list, with the line insmod must print for each, is what the
host test (tests/host/test_module_refusals.py, on the host build of the
loader) and the boot test (module_bad_files) check.
"""

import os
import re
import struct
import sys

MODULES = "M/tests/modules"
LINUX_SAMPLES = "M/build/linux-samples/kprobes"

SHT_NULL, SHT_PROGBITS, SHT_NOBITS = 0, 1, 8
SHN_ABS = 0xfff1
SHDR = struct.Struct("<IIQQQQIIQQ")  # one Elf64_Shdr
SYM = struct.Struct("<IBBHQQ")        # one Elf64_Sym
RELA = struct.Struct("<QQq")          # one Elf64_Rela


class Elf:
    """A module file to break: its sections and symbols by name."""

    def __init__(self, data):
        self.data = bytearray(data)
        self.shoff, = struct.unpack_from("<Q", data, 0x28)
        self.shnum, self.shstrndx = struct.unpack_from("<HH", data, 0x3c)
        names = self.shdr(self.shstrndx)[4]
        self.names = [self.cstr(names + self.shdr(i)[0]) for i in range(self.shnum)]

    def cstr(self, off):
        return self.data[off:self.data.index(b"\0", off)].decode()

    def shdr(self, i):
        return list(SHDR.unpack_from(self.data, self.shoff + i * SHDR.size))

    def set_shdr(self, i, **fields):
        keys = ["name", "type", "flags", "addr", "offset", "size", "link", "info",
                "addralign", "entsize"]
        h = self.shdr(i)
        for k, v in fields.items():
            h[keys.index(k)] = v
        SHDR.pack_into(self.data, self.shoff + i * SHDR.size, *h)

    def section(self, name):
        return self.names.index(name)

    def rename(self, i, new):
        """Give section i a new name of the same length, in place."""
        off = self.shdr(self.shstrndx)[4] + self.shdr(i)[0]
        assert len(new) == len(self.names[i])
        self.data[off:off + len(new)] = new.encode()

    def symbol(self, name):
        """The file offset of the symbol called name."""
        symtab = self.section(".symtab")
        _, _, _, _, off, size, link, _, _, _ = self.shdr(symtab)
        strtab = self.shdr(link)[4]
        for at in range(off, off + size, SYM.size):
            if self.cstr(strtab + SYM.unpack_from(self.data, at)[0]) == name:
                return at
        raise KeyError(name)

    def set_symbol(self, name, shndx, value):
        at = self.symbol(name)
        st_name, info, other, _, _, size = SYM.unpack_from(self.data, at)
        SYM.pack_into(self.data, at, st_name, info, other, shndx, value, size)

    def relocation_at(self, rela_section, r_offset):
        """The file offset of the relocation that patches r_offset."""
        i = self.section(rela_section)
        off, size = self.shdr(i)[4], self.shdr(i)[5]
        for at in range(off, off + size, RELA.size):
            if RELA.unpack_from(self.data, at)[0] == r_offset:
                return at
        raise KeyError((rela_section, r_offset))

    def set_addend(self, rela_section, r_offset, addend):
        """Change the addend of the relocation that patches r_offset."""
        at = self.relocation_at(rela_section, r_offset)
        got, info, _ = RELA.unpack_from(self.data, at)
        RELA.pack_into(self.data, at, got, info, addend)

    def move_addend(self, rela_section, r_offset, by):
        """Add by to the addend of the relocation that patches r_offset."""
        addend = RELA.unpack_from(self.data, self.relocation_at(rela_section, r_offset))[2]
        self.set_addend(rela_section, r_offset, addend + by)

    def patch_section(self, name, offset, fmt, value):
        struct.pack_into(fmt, self.data, self.shdr(self.section(name))[4] + offset, value)

    def string_param_entry(self):
        """The offset in __param of the first PARAM_TYPE_string entry."""
        _, _, _, _, off, size, _, _, _, _ = self.shdr(self.section("__param"))
        for entry in range(0, size, 40):
            if struct.unpack_from("<I", self.data, off + entry + 16)[0] == 6:
                return entry
        raise KeyError("no string parameter")


def breaking(data, how):
    elf = Elf(data)
    how(elf)
    return bytes(elf.data)


def bad_modules(root, arch, other):
    """[(file name, insmod arguments, regular expression for the one line
    insmod prints)] and {file name: contents}."""
    def module(path, name):
        with open(os.path.join(root, arch, path, name + ".ko"), "rb") as f:
            return f.read()

    params, exporter = module(MODULES, "mod_params"), module(MODULES, "mod_exporter")
    with open(os.path.join(root, other, MODULES, "mod_params.ko"), "rb") as f:
        foreign = f.read()
    e = Elf(params)
    modinfo, data = e.section(".modinfo"), e.section(".data")
    outside = len(params) + 0x1000
    # How the loader names the other architecture: its name, and the
    # ELF header's e_machine (at offset 0x12) of that architecture's module.
    other_name = "%s (machine %d)" % (other, struct.unpack_from("<H", foreign, 0x12)[0])
    vermagic = re.search(rb"vermagic=probeos-([0-9a-f]{12})", params)
    wrong_build = params.replace(vermagic.group(0),
                                 vermagic.group(0)[:-12] + b"0123456789ab")
    q = re.escape
    # The function tracer's call sites: the compiler's record section, and
    # how far into a site its second instruction starts.
    sites = {"x86_64": "__mcount_loc", "aarch64": "__patchable_function_entries"}[arch]
    into_site = {"x86_64": 1, "aarch64": 4}[arch]

    def sec(i, name):
        return q("section %d (%s)" % (i, name))

    files = [
        ("text.ko", b"This is a text file, not a module.\n", "", q("not an ELF file")),
        ("truncated.ko", params[:1000], "", q("section header table lies past the end")),
        ("other_arch.ko", foreign, "", q("built for " + other_name)),
        ("wrong_build.ko", wrong_build, "",
         q("mod_params was built for kernel 'probeos-0123456789ab SMP preempt mod_unload ")
         + r".*', this is 'probeos-[0-9a-f]{12} "),
        # .modinfo with no bytes in the file, wherever its offset points.
        ("modinfo_nobits.ko", breaking(params, lambda e: e.set_shdr(
            modinfo, type=SHT_NOBITS, offset=outside)), "",
         sec(modinfo, ".modinfo") + q(" has type 0x8, not PROGBITS (1)")),
        ("modinfo_null.ko", breaking(params, lambda e: e.set_shdr(
            modinfo, type=SHT_NULL, offset=outside)), "",
         sec(modinfo, ".modinfo") + q(" is allocated, but its type 0x0 is not one")),
        # An allocated SHT_NULL section: outside the file, or too long.
        ("alloc_null_offset.ko", breaking(params, lambda e: e.set_shdr(
            data, type=SHT_NULL, offset=outside)), "",
         sec(data, ".data") + q(" is allocated, but its type 0x0 is not one")),
        ("alloc_null_size.ko", breaking(params, lambda e: e.set_shdr(
            data, type=SHT_NULL, size=len(params))), "",
         sec(data, ".data") + q(" is allocated, but its type 0x0 is not one")),
        # Relocations of another type: refused by their name...
        ("rela_ksymtab_type.ko", breaking(exporter, lambda e: e.set_shdr(
            e.section(".rela__ksymtab"), type=SHT_PROGBITS)), "",
         sec(Elf(exporter).section(".rela__ksymtab"), ".rela__ksymtab")
         + q(" is named as relocations, but its type is 0x1, not RELA (4)")),
        ("rela_param_type.ko", breaking(params, lambda e: e.set_shdr(
            e.section(".rela__param"), type=SHT_PROGBITS)), "p_int=1",
         sec(e.section(".rela__param"), ".rela__param")
         + q(" is named as relocations, but its type is 0x1, not RELA (4)")),
        ("rela_unknown_type.ko", breaking(params, lambda e: e.set_shdr(
            e.section(".rela.data"), type=0x60000000)), "",
         sec(e.section(".rela.data"), ".rela.data")
         + q(" is named as relocations, but its type is 0x60000000, not RELA (4)")),
        # ...and, renamed too, left unapplied: the pointers they would
        # have set are NULL, and the loader must not follow them.
        ("unapplied_ksymtab.ko", breaking(exporter, lambda e: (
            e.set_shdr(e.section(".rela__ksymtab"), type=SHT_PROGBITS),
            e.rename(e.section(".rela__ksymtab"), ".xela__ksymtab"))), "",
         q("export 0's name is not a string in the module's data")),
        ("unapplied_param.ko", breaking(params, lambda e: (
            e.set_shdr(e.section(".rela__param"), type=SHT_PROGBITS),
            e.rename(e.section(".rela__param"), ".xela__param"))), "p_int=1",
         q("parameter 0's name is not a string in the module's data")),
        # Pointers that relocation sets, aimed elsewhere.
        ("export_outside.ko", breaking(exporter, lambda e: e.set_addend(
            ".rela__ksymtab", 0, 0x10000000)), "", q("export ") + r"\w+"
         + q(" points outside the module")),
        ("param_arg_outside.ko", breaking(params, lambda e: e.set_addend(
            ".rela__param", 8, 0x10000000)), "p_int=1",
         r"parameter '\w+' has no room for .* in the module's writable data"),
        ("param_type.ko", breaking(params, lambda e: e.patch_section(
            "__param", 16, "<I", 99)), "p_int=1", r"parameter '\w+' has unknown type 99"),
        ("param_maxlen.ko", breaking(params, lambda e: e.patch_section(
            "__param", e.string_param_entry() + 20, "<I", 0)), "",
         r"parameter '\w+' is a string of size 0"),
        # init and exit that are not the module's code.
        ("exit_in_modinfo.ko", breaking(params, lambda e: e.set_symbol(
            "cleanup_module", modinfo, 0)), "", q("cleanup_module is not in the module's code")),
        ("init_absolute.ko", breaking(params, lambda e: e.set_symbol(
            "init_module", SHN_ABS, 0x1000)), "", q("init_module is not in the module's code")),
        # Call sites the tracer would patch: outside the code, or not at
        # a site's NOP.
        ("ftrace_site_outside.ko", breaking(params, lambda e: e.set_addend(
            ".rela" + sites, 0, 0x10000000)), "",
         q(sites + " entry 0 (") + r"0x[0-9a-f]+" + q(") is not a call site in the module's code")),
        ("ftrace_site_not_a_nop.ko", breaking(params, lambda e: e.move_addend(
            ".rela" + sites, 0, into_site)), "",
         q(sites + " entry 0 (") + r"0x[0-9a-f]+" + q(") is not a call site in the module's code")),
    ]
    try:
        kretprobe = module(LINUX_SAMPLES, "kretprobe_example")
    except FileNotFoundError:
        kretprobe = None
    if kretprobe:
        files.append(("nokprobe_outside.ko", breaking(kretprobe, lambda e: e.set_addend(
            ".rela.nokprobe_list", 0, 0x10000000)), "", r"\.nokprobe_list entry 0 \(0x[0-9a-f]+\) is not in the "
            r"module's code"))
    return ([(name, args, "^insmod: (?:%s)" % pattern) for name, _, args, pattern in files],
            {name: contents for name, contents, _, _ in files})


def write_if_changed(path, data):
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except FileNotFoundError:
        pass
    with open(path, "wb") as f:
        f.write(data)
    return True


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    root, arch, other = sys.argv[1:]
    _, contents = bad_modules(root, arch, other)
    bad = os.path.join(root, arch, "modules", "lib", "modules", "bad")
    os.makedirs(bad, exist_ok=True)
    changed = False
    for name, data in contents.items():
        changed |= write_if_changed(os.path.join(bad, name), data)
    if changed:
        with open(os.path.join(root, arch, "modules.stamp"), "a"):
            os.utime(os.path.join(root, arch, "modules.stamp"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
