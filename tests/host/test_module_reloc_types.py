#!/usr/bin/env python3
"""Is the module loader's list of relocation types complete for real
compiler output?

Compiles C snippets of the kinds of code modules contain (globals, static
data, calls, tail calls, switch tables, string literals, 64-bit constants,
function pointers in data, bit tests, branches into cold code, exports and
parameters) with each architecture's compiler and the module code model,
at -O2 and -O0, and then for each object:

  - reads every relocation that applies to an allocated (SHF_ALLOC)
    section with readelf -SW / -rW, and fails if its type is not one that
    arch/<arch>/module_reloc.c names, or is named differently from
    readelf (relocations of .debug_* sections are never applied, as the
    loader does not load those sections);
  - links it with tests/host/module_reloc_tool.c: module_elf_check() must
    accept it, and every relocation of an allocated section must apply at
    module-region addresses against kernel-text addresses.

An architecture whose compiler is not installed is skipped.
"""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

COMMON_FLAGS = ["-g", "-ffreestanding", "-fno-pic", "-fno-pie",
                "-mgeneral-regs-only", "-fno-asynchronous-unwind-tables",
                "-I" + ROOT, "-c"]

ARCHES = {
    "x86_64": {
        "cc": "gcc",
        "flags": ["-mcmodel=kernel", "-mno-red-zone", "-fcf-protection=none"],
        "module_base": 0xffffffffa0000000,
        "kernel_base": 0xffffffff80100000,
    },
    "aarch64": {
        "cc": "aarch64-linux-gnu-gcc",
        "flags": ["-mcmodel=small", "-mbranch-protection=none",
                  "-mno-outline-atomics"],
        "module_base": 0xffffffff82000000,
        "kernel_base": 0xffffffff80200000,
    },
}
OPT_LEVELS = ["-O2", "-O0"]

SNIPPETS = {
    "globals": r"""
        int counter;
        extern int kernel_flag;
        extern long kernel_table[];
        char bytes[64];
        short halves[64];
        long words[64];
        struct pair { long a, b; } pairs[8];
        __int128 wide;
        short half;
        unsigned char byte;
        int get_half(void) { return half + byte; }
        int get(void) { return counter + kernel_flag; }
        void set(int v) { counter = v; kernel_flag = v; }
        long index_words(int i) { return words[i] + kernel_table[i]; }
        int index_bytes(int i) { return bytes[i] + halves[i]; }
        long pair_b(int i) { return pairs[i].b; }
        __int128 get_wide(void) { return wide; }
        void *addr_of(void) { return &counter; }
        unsigned long addr_as_number(void) { return (unsigned long)&kernel_flag; }
        int atomic_inc(void) { return __atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST); }
    """,
    "static_data": r"""
        static int table[16] = { 1, 2, 3, 5, 8, 13 };
        static long big_table[1024];
        static struct { char c; long l; } __attribute__((packed)) packed;
        static const unsigned char lut[256] = { 1, 2, 3 };
        int lookup(int i) { return table[i & 15] + lut[i & 255]; }
        long big(int i) { big_table[i] += i; return big_table[i]; }
        long get_packed(void) { return packed.l; }
        void set_packed(long v) { packed.l = v; packed.c = 1; }
    """,
    "calls": r"""
        extern int printk(const char *fmt, ...);
        extern void kfree(void *p);
        extern void *kmalloc(unsigned long size);
        extern void *memcpy(void *d, const void *s, unsigned long n);
        struct big { long x[32]; };
        static __attribute__((noinline)) int helper(int x) { return printk("%d\n", x); }
        void release(void *p) { printk("freeing %p\n", p); kfree(p); }
        void tail(void *p) { kfree(p); }
        int local(int x) { return helper(x) + helper(x + 1); }
        void copy(struct big *d, const struct big *s) { *d = *s; }
        void *dup(const void *s, unsigned long n) {
            void *d = kmalloc(n);
            if (d)
                memcpy(d, s, n);
            return d;
        }
    """,
    "switch": r"""
        extern int printk(const char *fmt, ...);
        int dispatch(int op, int a) {
            switch (op) {
            case 0: return a + 1;
            case 1: return a * 3;
            case 2: return printk("two");
            case 3: return a - 7;
            case 4: return a << 2;
            case 5: return printk("five %d", a);
            case 6: return a ^ 0x55;
            case 7: return a / 3;
            case 8: return printk("eight");
            case 9: return -a;
            case 10: return a % 7;
            case 11: return printk("eleven");
            default: return 0;
            }
        }
        const char *name(int op) {
            switch (op) {
            case 0: return "zero"; case 1: return "one"; case 2: return "two";
            case 3: return "three"; case 4: return "four"; case 5: return "five";
            case 6: return "six"; case 7: return "seven"; default: return "?";
            }
        }
    """,
    "strings_and_constants": r"""
        extern int printk(const char *fmt, ...);
        static const char *const messages[] = { "alpha", "beta", "gamma" };
        const char *message(int i) { return messages[i % 3]; }
        void hello(void) { printk("hello from a module\n"); printk("%s\n", "nested"); }
        unsigned long magic(void) { return 0x123456789abcdef0UL; }
        unsigned long mix(unsigned long x) { return x * 0x9e3779b97f4a7c15UL + 0xdeadbeefcafeUL; }
        char first(void) { return "literal"[3]; }
    """,
    "function_pointers": r"""
        extern void kernel_callback(void);
        static int op_open(void) { return 1; }
        static int op_close(void) { return 2; }
        struct ops { int (*open)(void); int (*close)(void); void (*cb)(void); };
        const struct ops ops = { op_open, op_close, kernel_callback };
        struct ops mutable_ops = { .open = op_open, .cb = kernel_callback };
        void (*const hooks[])(void) = { kernel_callback, 0 };
        int call(const struct ops *o) { return o->open() + o->close(); }
        int (*pick(int i))(void) { return i ? op_open : op_close; }
        long offset_of_callback(void) { return (long)((char *)kernel_callback - (char *)op_open); }
    """,
    "branches": r"""
        extern int printk(const char *fmt, ...);
        extern void panic(const char *msg) __attribute__((noreturn, cold));
        extern void warn(int line) __attribute__((cold));
        unsigned long flags;
        int bit_test(unsigned long x) {
            if (x & (1UL << 40))
                return printk("bit 40");
            if (!(x & 8))
                return printk("no bit 3");
            return 0;
        }
        int checked(long v) {
            if (__builtin_expect(v < 0, 0))
                panic("negative");
            if (__builtin_expect(v > 1000, 0))
                warn(__LINE__);
            if (flags & (1UL << 5))
                warn(__LINE__);
            return (int)v * 2;
        }
        int loop(const int *a, int n) {
            int s = 0;
            for (int i = 0; i < n; i++)
                if (a[i] > 0)
                    s += a[i];
                else if (a[i] < -100)
                    panic("too small");
            return s;
        }
    """,
    "module_tables": r"""
        #include "lib/export.h"
        #include "kernel/module/moduleparam.h"
        int exported_counter;
        int exported_fn(int x) { return x + exported_counter; }
        EXPORT_SYMBOL(exported_counter);
        EXPORT_SYMBOL(exported_fn);
        static int verbose;
        static const struct kernel_param __param_verbose __used
            __section("__param") __aligned(8) = {
            .name = "verbose", .arg = &verbose, .type = PARAM_TYPE_int,
        };
        static const char modinfo_license[] __used __section(".modinfo") = "license=GPL";
        static __attribute__((section(".init.text"), used)) int my_init(void) {
            return exported_fn(verbose);
        }
        int init_module(void) __attribute__((alias("my_init")));
        static const unsigned long blacklist[] __used __section(".nokprobe_list") = {
            (unsigned long)exported_fn,
        };
    """,
}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def read_sections(obj):
    """{index: (name, type, flags, info)} from readelf -SW."""
    out = run(["readelf", "-SW", obj], check=True).stdout
    sections = {}
    for line in out.splitlines():
        m = re.match(r"^\s*\[\s*(\d+)\]\s(.*)$", line)
        if not m:
            continue
        index, rest = int(m.group(1)), m.group(2)
        fields = rest.split()
        if index == 0:
            continue
        # Name Type Address Off Size ES [Flg] Lk Inf Al: Flg may be empty.
        name, stype = fields[0], fields[1]
        flags = fields[6] if len(fields) == 10 else ""
        sections[index] = (name, stype, flags, int(fields[-2]))
    return sections


def read_relocations(obj):
    """[(section name, type number, readelf's name)] from readelf -rW."""
    out = run(["readelf", "-rW", obj], check=True).stdout
    relocs = []
    section = None
    for line in out.splitlines():
        m = re.match(r"^Relocation section '([^']*)'", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"^\s*[0-9a-f]{16}\s+([0-9a-f]{16})\s+(\S+)", line)
        if m and section:
            relocs.append((section, int(m.group(1), 16) & 0xffffffff, m.group(2)))
    return relocs


def alloc_relocations(obj):
    """The relocations that apply to an SHF_ALLOC section."""
    sections = read_sections(obj)
    by_name = {name: (stype, info) for name, stype, _, info in sections.values()}
    result = []
    for rsec, number, name in read_relocations(obj):
        stype, target = by_name[rsec]
        if stype != "RELA":
            result.append((rsec, number, name + " (in a REL section)"))
            continue
        if "A" in sections[target][2]:
            result.append((rsec, number, name))
    return result


class Arch:
    """One architecture's compiled snippets and relocation tool."""

    def __init__(self, arch, workdir):
        self.arch = arch
        self.conf = ARCHES[arch]
        self.dir = os.path.join(workdir, arch)
        os.makedirs(self.dir)
        self.objects = []
        self.compile_errors = []
        self.tool = None
        self.tool_error = None

    def compile_snippets(self):
        for opt in OPT_LEVELS:
            for name, source in SNIPPETS.items():
                src = os.path.join(self.dir, name + ".c")
                with open(src, "w") as f:
                    f.write(source)
                obj = os.path.join(self.dir, "%s%s.o" % (name, opt))
                cmd = ([self.conf["cc"], opt] + COMMON_FLAGS + self.conf["flags"]
                       + [src, "-o", obj])
                p = run(cmd)
                if p.returncode != 0:
                    self.compile_errors.append("%s: %s" % (" ".join(cmd), p.stderr))
                else:
                    self.objects.append(obj)

    def build_tool(self):
        """module_reloc_tool linked with this architecture's relocations,
        under ASan and UBSan like the other host tests."""
        san = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
        cflags = (["gcc", "-std=gnu11", "-O1", "-g", "-Wall", "-Wextra", "-Werror",
                   "-fno-builtin", "-I" + ROOT, "-I" + os.path.join(ROOT, "arch/x86_64/include"),
                   "-DMODULE_BASE=0x%xULL" % self.conf["module_base"],
                   "-DKERNEL_BASE=0x%xULL" % self.conf["kernel_base"]] + san)
        lib = ["lib/string.c", "lib/format.c", "lib/errno.c",
               "kernel/module/elf_check.c", "arch/%s/module_reloc.c" % self.arch]
        objs = []
        for src in lib:
            obj = os.path.join(self.dir, os.path.basename(src) + ".o")
            p = run(cflags + ["-include", os.path.join(HERE, "rename.h"), "-c",
                              os.path.join(ROOT, src), "-o", obj])
            if p.returncode != 0:
                self.tool_error = p.stderr
                return
            objs.append(obj)
        tool = os.path.join(self.dir, "module_reloc_tool")
        p = run(cflags + [os.path.join(HERE, "module_reloc_tool.c")] + objs + ["-o", tool])
        if p.returncode != 0:
            self.tool_error = p.stderr
            return
        self.tool = tool

    def known_types(self):
        out = run([self.tool, "names"], check=True).stdout
        return {int(n): name for n, name in (line.split() for line in out.splitlines())}


class RelocTypes(unittest.TestCase):
    arches = {}

    @classmethod
    def setUpClass(cls):
        cls.workdir = tempfile.mkdtemp(prefix="module_reloc_types.")
        for arch, conf in ARCHES.items():
            if not shutil.which(conf["cc"]):
                continue
            a = Arch(arch, cls.workdir)
            a.compile_snippets()
            a.build_tool()
            cls.arches[arch] = a

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.workdir, ignore_errors=True)

    def get_arch(self, arch):
        if arch not in self.arches:
            self.skipTest("%s is not installed" % ARCHES[arch]["cc"])
        a = self.arches[arch]
        self.assertEqual(a.compile_errors, [], "snippets did not compile")
        self.assertIsNone(a.tool_error, "module_reloc_tool did not build")
        self.assertEqual(len(a.objects), len(SNIPPETS) * len(OPT_LEVELS))
        return a

    def check_types(self, arch):
        a = self.get_arch(arch)
        known = a.known_types()
        seen = set()
        problems = []
        for obj in a.objects:
            for section, number, name in alloc_relocations(obj):
                seen.add(name)
                if number not in known:
                    problems.append("%s: %s: %s (%d) is not handled"
                                    % (os.path.basename(obj), section, name, number))
                elif known[number] != name:
                    problems.append("%s: %s: type %d is %s to readelf but %s to the loader"
                                    % (os.path.basename(obj), section, number, name,
                                       known[number]))
        self.assertEqual(problems, [], "\n".join(sorted(set(problems))))
        # The snippets really exercise the loader: at least these appear.
        return seen

    def check_link(self, arch):
        a = self.get_arch(arch)
        failures = []
        for obj in a.objects:
            p = run([a.tool, "link", obj])
            if p.returncode != 0 or not re.search(r"^link: \d+ relocations applied, 0 failed$",
                                                  p.stdout, re.M):
                failures.append(p.stdout + p.stderr)
        self.assertEqual(failures, [], "\n".join(failures))

    def test_x86_64_types_handled(self):
        seen = self.check_types("x86_64")
        for name in ("R_X86_64_PLT32", "R_X86_64_PC32", "R_X86_64_32S", "R_X86_64_64"):
            self.assertIn(name, seen)

    def test_aarch64_types_handled(self):
        seen = self.check_types("aarch64")
        for name in ("R_AARCH64_CALL26", "R_AARCH64_JUMP26", "R_AARCH64_ADR_PREL_PG_HI21",
                     "R_AARCH64_ADD_ABS_LO12_NC", "R_AARCH64_LDST8_ABS_LO12_NC",
                     "R_AARCH64_LDST16_ABS_LO12_NC", "R_AARCH64_LDST32_ABS_LO12_NC",
                     "R_AARCH64_LDST64_ABS_LO12_NC", "R_AARCH64_ABS64"):
            self.assertIn(name, seen)

    def test_x86_64_objects_link(self):
        self.check_link("x86_64")

    def test_aarch64_objects_link(self):
        self.check_link("aarch64")


if __name__ == "__main__":
    unittest.main()
