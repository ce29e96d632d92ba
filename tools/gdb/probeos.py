"""GDB commands for debugging ProbeOS and its loadable modules.

Load it into GDB (`make debug` does) with

    (gdb) source tools/gdb/probeos.py        or    gdb -x tools/gdb/probeos.py

with the kernel (build/ARCH/probeos.elf) as GDB's program. It adds:

lx-symbols [DIR...]   (also: probeos-symbols)
    Load the symbols of every module loaded in the stopped guest, as
    Linux's command of that name does. The modules are read from the
    kernel's `modules` list; each one's .ko is looked for in the
    directories given, then in build/ARCH/modules/lib/modules/ (where
    `make M=DIR` stages them) and build/ARCH/modules/, each searched with
    its subdirectories. A file NAME.ko is taken for module NAME (a '-'
    in the file name matching a '_' in the module name); failing that,
    any .ko whose .modinfo says name=NAME. Each .ko is added with
    `add-symbol-file FILE ADDR -s SECTION ADDR ...` at the addresses the
    loader placed its sections (struct module's sections[]), so that
    breakpoints, `list`, `info symbol` and backtraces work in module
    code. Run again, it removes the symbols of modules no longer loaded
    (or loaded again elsewhere, or whose .ko was rebuilt) and keeps the
    others. Directories given once are remembered for later runs. One
    line is printed per module.

    After its first run GDB follows insmod and rmmod by itself, with
    internal breakpoints on the kernel functions the loader calls as a
    module appears, as its init memory is freed and as it goes
    (MODULE_EVENTS): a new module's symbols are loaded before its init
    runs, so a pending breakpoint on the init function stops there.

    Init sections (.init.text, .init.data) are given to GDB only while
    the module's init has not yet returned: once it has, their memory is
    freed and their symbols are left out (GDB then places those sections
    at low addresses where nothing of the kernel lives).

lx-lsmod   (also: probeos-lsmod)
    List the loaded modules: name, state, core and init memory, users.

Only GDB's Python API and the standard library are used. The kernel's
structures are read through its debug information: struct module, its
`node` (struct list_node), `name`, `state`, `sections`/`num_sections`
(struct module_section: name, addr) and core_layout/init_layout.
"""

import os
import struct

import gdb

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# -- reading the kernel's module list -----------------------------------

def _field_offset(struct_type, name):
    for field in struct_type.fields():
        if field.name == name:
            return field.bitpos // 8
    raise gdb.GdbError("struct module has no field %r: is this ProbeOS's kernel?" % name)


def _c_string(value):
    """A char array or pointer as a Python string, up to its first NUL."""
    try:
        text = value.string(encoding="latin-1")
    except gdb.error:
        return "?"
    return text.split("\0", 1)[0]


class NotRunning(gdb.GdbError):
    """The kernel's memory cannot be read: it has not started (QEMU -S)."""


def loaded_modules():
    """The struct module values on the kernel's `modules` list, oldest first."""
    try:
        return _walk_modules()
    except gdb.MemoryError as e:
        raise NotRunning("the kernel's module list cannot be read (%s): has the kernel "
                         "started? (`make debug` stops QEMU before the first instruction)" % e)


def _walk_modules():
    try:
        head = gdb.parse_and_eval("modules")
        module_type = gdb.lookup_type("struct module")
    except gdb.error as e:
        raise gdb.GdbError("cannot find the kernel's module list (%s): is GDB's program "
                           "build/ARCH/probeos.elf?" % e)
    node_offset = _field_offset(module_type, "node")
    char_ptr = gdb.lookup_type("char").pointer()
    module_ptr = module_type.pointer()
    head_addr = int(head.address)
    mods = []
    node = head["next"]
    # The list is circular; a guest stopped mid-update (or garbage)
    # must not make GDB loop for ever.
    for _ in range(10000):
        if int(node) == head_addr:
            return mods
        if int(node) == 0:
            raise gdb.GdbError("the module list is broken (a NULL link)")
        # container_of(node, struct module, node)
        mod = (node.cast(char_ptr) - node_offset).cast(module_ptr).dereference()
        mods.append(mod)
        node = node["next"]
    raise gdb.GdbError("the module list does not come back to its head")


def _state_name(mod):
    text = str(mod["state"])
    return text.replace("MODULE_STATE_", "").lower()


def _layout(mod, which):
    layout = mod[which]
    return int(layout["base"]), int(layout["size"])


def _within(addr, layout):
    base, size = layout
    return size != 0 and base <= addr < base + size


def module_sections(mod, without_init=False):
    """[(section name, address)] of a module's sections still in memory
    (without_init: its init memory is about to be freed; leave it out)."""
    core = _layout(mod, "core_layout")
    init = (0, 0) if without_init else _layout(mod, "init_layout")
    sections = []
    for i in range(int(mod["num_sections"])):
        sec = mod["sections"][i]
        name = _c_string(sec["name"])
        addr = int(sec["addr"])
        if _within(addr, core) or _within(addr, init):
            sections.append((name, addr))
    return sections


# -- finding a module's .ko ---------------------------------------------

def _guest_arch():
    """'x86_64' or 'aarch64', from the architecture GDB is debugging."""
    try:
        name = gdb.selected_inferior().architecture().name()
    except (gdb.error, RuntimeError, AttributeError):
        name = str(gdb.parameter("architecture") or "")
    if "aarch64" in name:
        return "aarch64"
    if "x86-64" in name or "x86_64" in name or "i386" in name:
        return "x86_64"
    return None


def default_search_dirs():
    arch = _guest_arch()
    archs = [arch] if arch else ["x86_64", "aarch64"]
    dirs = []
    for a in archs:
        build = os.path.join(ROOT, "build", a)
        dirs += [os.path.join(build, "modules", "lib", "modules"),
                 os.path.join(build, "modules")]
    return dirs


def modinfo_name(path):
    """name= from the .modinfo section of an ELF64 little-endian .ko, or None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            return None
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)

        def header(i):
            # sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size
            return struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)

        strtab = header(shstrndx)
        for i in range(shnum):
            sh = header(i)
            start = strtab[4] + sh[0]
            name = data[start:data.index(b"\0", start)]
            if name == b".modinfo":
                for entry in data[sh[4]:sh[4] + sh[5]].split(b"\0"):
                    if entry.startswith(b"name="):
                        return entry[5:].decode("latin-1")
        return None
    except (OSError, ValueError, struct.error, IndexError):
        return None


def _ko_files(dirs):
    seen = set()
    for top in dirs:
        if not os.path.isdir(top):
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for fname in sorted(filenames):
                if fname.endswith(".ko"):
                    path = os.path.realpath(os.path.join(dirpath, fname))
                    if path not in seen:
                        seen.add(path)
                        yield path


# ELF e_machine of each architecture: a .ko built for the other one is
# never taken.
ELF_MACHINE = {"x86_64": 62, "aarch64": 183}


def _elf_machine(path):
    try:
        with open(path, "rb") as f:
            head = f.read(20)
        return struct.unpack_from("<H", head, 18)[0] if head[:4] == b"\x7fELF" else None
    except (OSError, struct.error):
        return None


def find_module_file(name, dirs):
    """The .ko of module name: NAME.ko first, then by its .modinfo."""
    machine = ELF_MACHINE.get(_guest_arch())
    files = [f for f in _ko_files(dirs) if machine is None or _elf_machine(f) == machine]
    for path in files:
        if os.path.basename(path)[:-3].replace("-", "_") == name.replace("-", "_"):
            return path
    for path in files:
        if modinfo_name(path) == name:
            return path
    return None


# -- the commands -------------------------------------------------------

def _show_path(path):
    rel = os.path.relpath(path)
    return rel if not rel.startswith("..") else path


def _add_symbol_file(path, sections):
    addrs = dict(sections)
    cmd = "add-symbol-file %s" % _quote(path)
    # .text's address positionally (every GDB version takes that form),
    # the other sections with -s.
    if ".text" in addrs:
        cmd += " 0x%x" % addrs[".text"]
    for name, addr in sections:
        if name != ".text":
            cmd += " -s %s 0x%x" % (name, addr)
    gdb.execute(cmd, to_string=True)


def _remove_symbol_file(path, sections):
    # By address: the same file may have been added more than once.
    addr = dict(sections).get(".text", sections[0][1] if sections else None)
    try:
        if addr is not None:
            gdb.execute("remove-symbol-file -a 0x%x" % addr, to_string=True)
        else:
            gdb.execute("remove-symbol-file %s" % _quote(path), to_string=True)
    except gdb.error:
        pass  # already gone (removed by hand)


def update_symbols(going=None, init_going=None, quiet_kept=False):
    """Make GDB's module symbol files match the guest's loaded modules.
    going: the address of a struct module being removed (left out);
    init_going: that of one whose init memory is about to be freed.
    quiet_kept: print nothing for modules whose symbols stay as they are."""
    dirs = _state["dirs"] + default_search_dirs()
    wanted = {}
    for mod in loaded_modules():
        addr = int(mod.address)
        if addr != going:
            wanted[_c_string(mod["name"])] = module_sections(mod, addr == init_going)

    # Forget the symbols of modules that went, moved, or whose .ko changed.
    loaded = _state["loaded"]
    reloaded = set()
    for name in list(loaded):
        path, sections, identity = loaded[name]
        if wanted.get(name) == sections and _file_identity(path) == identity:
            continue
        _remove_symbol_file(path, sections)
        del loaded[name]
        if name not in wanted:
            print("%s: unloaded, its symbols removed" % name)
        else:
            reloaded.add(name)

    if not wanted and not quiet_kept:
        print("no modules loaded")
    for name, sections in wanted.items():
        if name in loaded:
            if not quiet_kept:
                print("%s: symbols already loaded from %s"
                      % (name, _show_path(loaded[name][0])))
            continue
        path = find_module_file(name, dirs)
        if path is None:
            # Said once per module by the automatic updates.
            if not quiet_kept or name not in _state["missing"]:
                print("%s: no .ko for it found in %s (give its directory to lx-symbols)"
                      % (name, ", ".join(_show_path(d) for d in dirs if os.path.isdir(d))
                         or "no directory"))
            _state["missing"].add(name)
            continue
        _state["missing"].discard(name)
        if not sections:
            print("%s: no sections in memory" % name)
            continue
        _add_symbol_file(path, sections)
        loaded[name] = (path, sections, _file_identity(path))
        text = dict(sections).get(".text")
        where = ".text at 0x%x" % text if text is not None else "%s at 0x%x" % sections[0]
        print("%s: symbols %sfrom %s, %s (%d sections)"
              % (name, "reloaded " if name in reloaded else "", _show_path(path), where,
                 len(sections)))


# The kernel functions the loader calls, with &mod->symbols (argument m),
# as a module appears (placed, on the list, its init not yet run), as its
# init memory is about to be freed (init returned), and as it goes (exit
# has run; still on the list).
MODULE_EVENTS = (("symtab_add_module", None),
                 ("symtab_drop_module_init", "init_going"),
                 ("symtab_remove_module", "going"))


class ModuleBreakpoint(gdb.Breakpoint):
    """An internal breakpoint on one of MODULE_EVENTS: it updates the
    module symbols and lets the guest go on."""

    def __init__(self, function, event):
        super().__init__(function, internal=True)
        self.silent = True
        self.event = event

    def stop(self):
        try:
            args = {}
            if self.event:
                m = gdb.parse_and_eval("m")
                module_type = gdb.lookup_type("struct module")
                args[self.event] = int(m) - _field_offset(module_type, "symbols")
            update_symbols(quiet_kept=True, **args)
        except (gdb.error, gdb.GdbError) as e:
            print("lx-symbols: could not update the module symbols: %s" % e)
        return False


def install_breakpoints():
    if _state["breakpoints"]:
        return
    if any(gdb.lookup_global_symbol(f) is None for f, _ in MODULE_EVENTS):
        return  # not this kernel: no automatic updates
    _state["breakpoints"] = [ModuleBreakpoint(f, event) for f, event in MODULE_EVENTS]


class LxSymbols(gdb.Command):
    """Load the symbols of the modules loaded in the guest: lx-symbols [DIR...]

Walks the kernel's list of modules and, for each one, finds its .ko in the
directories given (remembered for later runs), then in
build/ARCH/modules/lib/modules/ and build/ARCH/modules/ (with their
subdirectories), and adds it with add-symbol-file at the addresses where
the loader placed each of its sections. Symbols of modules no longer
loaded are removed. One line is printed per module.

From then on GDB follows insmod and rmmod by itself: internal breakpoints
on symtab_add_module, symtab_drop_module_init and symtab_remove_module
load a new module's symbols before its init runs (so `break my_init`, set
beforehand as a pending breakpoint, stops in it), reload them without the
init sections once init has returned, and drop a removed module's.
Running lx-symbols again is needed only when a .ko file was rebuilt, or
to add a directory."""

    def __init__(self, name):
        super().__init__(name, gdb.COMMAND_FILES, gdb.COMPLETE_FILENAME)

    def invoke(self, arg, from_tty):
        for d in gdb.string_to_argv(arg):
            d = os.path.abspath(os.path.expanduser(d))
            if not os.path.isdir(d):
                raise gdb.GdbError("lx-symbols: %s is not a directory" % d)
            if d not in _state["dirs"]:
                _state["dirs"].append(d)
        install_breakpoints()
        try:
            update_symbols()
        except NotRunning:
            if not _state["breakpoints"]:
                raise
            # QEMU halted before boot: nothing loaded yet, and the
            # breakpoints will see every module that comes.
            print("the kernel is not running yet: the symbols of each module will be "
                  "loaded as insmod loads it")


class LxLsmod(gdb.Command):
    """List the modules loaded in the guest: lx-lsmod

One line per module, oldest first: its name, the address of its struct
module, its state, its core memory (address and size), its init memory
(while init runs) and its user count."""

    def __init__(self, name):
        super().__init__(name, gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        mods = loaded_modules()
        if not mods:
            print("no modules loaded")
            return
        print("%-20s %-18s %-7s %-18s %8s %-18s %8s %s"
              % ("name", "struct module", "state", "core", "size", "init", "size", "users"))
        for mod in mods:
            core = _layout(mod, "core_layout")
            init = _layout(mod, "init_layout")
            print("%-20s 0x%016x %-7s 0x%016x %8d 0x%016x %8d %d"
                  % (_c_string(mod["name"]), int(mod.address), _state_name(mod),
                     core[0], core[1], init[0], init[1], int(mod["users"])))


def _file_identity(path):
    """What tells a rebuilt .ko from the one GDB has the symbols of: the
    file's device and inode, size and modification time. The build
    installs a module by renaming a new file over NAME.ko (tools/modules.mk),
    so a rebuilt module is always a new inode, even when it has the old
    one's size and the file system's clock has not moved on (timestamps
    as coarse as a second, or two installs within one tick); the
    modification time alone would miss those. None if it is gone."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _quote(path):
    return "'%s'" % path if " " in path else path


# Kept across `source`s of this file: which .ko files GDB holds for
# which module, and the directories given to lx-symbols.
try:
    _state = gdb._probeos_state
except AttributeError:
    _state = gdb._probeos_state = {}
for _key, _empty in (("loaded", {}), ("dirs", []), ("breakpoints", []), ("missing", set())):
    _state.setdefault(_key, _empty)

LxSymbols("lx-symbols")
LxSymbols("probeos-symbols")
LxLsmod("lx-lsmod")
LxLsmod("probeos-lsmod")
