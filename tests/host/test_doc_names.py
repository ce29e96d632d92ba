#!/usr/bin/env python3
"""The code names the docs quote exist in the tree.

A reader follows docs/ (and README.md) with the sources open, so every
name a doc quotes in backticks must be one the code has now. Checked,
in each inline code span of a doc (not in indented or fenced blocks,
which are transcripts and listings):

- a C identifier: a span that is one name with an underscore
  (`count_here`), or a name followed by an argument list
  (`kprobe_ctlblk()`, `register_kprobe(p)`): the name must be a word of
  some source file of the tree, outside comments, or a file's name
  without its extension (a test program's); a name an assembler or make
  macro makes (`trap_stub_3`, `module_x86_64`) passes by the macro's
  prefix, and an Arm system register in capitals (`ESR_EL1`) by the
  lower-case operand the code writes;
- a path ending in .c, .h or .S: it must be a file of the tree, by its
  path from the top, or as the end of a path (`asm/kprobes.h`), or as a
  basename (`kprobe_trap.c`); ARCH, NAME or N in it stands for any
  (`arch/ARCH/kprobes.c`), and what the build makes (build/...) is not
  checked;
- `file.c:function`: the file as above, and the function a word of it;
- a member, `pp->member` or `x.member`: where the structure is known,
  the member must be one of that structure's own members. The structure
  is the one VARIABLES gives for the name on the left (`pp` is a
  `struct probe_point`), or the structure named on the left itself
  (`pt_regs.need_eret`). So a stale `pp->opt_hits` fails even though
  `opt_hits` is a member of another structure.

A name the docs cite on purpose that the tree does not have (Linux's,
mostly) is in tests/host/doc_names_allow.txt, one per line with the
reason after a `#`. An entry that no doc quotes any more fails too.

Run: python3 -m unittest tests/host/test_doc_names.py   (or run this file)
"""

import os
import re
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ALLOW = os.path.join(ROOT, "tests", "host", "doc_names_allow.txt")
THIS = os.path.join("tests", "host", "test_doc_names.py")

# Where the code is: every name a doc quotes must be in one of these.
CODE_DIRS = ("kernel", "arch", "include", "lib", "boot", "tests", "tools", "samples",
             "linker", "rootfs")
CODE_FILES = ("Makefile",)
CODE_SUFFIXES = (".c", ".h", ".S", ".py", ".mk", ".ld", ".lds", ".txt", ".sh", ".gdb")
# The structures' definitions are read from these.
STRUCT_DIRS = ("kernel", "arch", "include", "lib", "boot")
# Never a source of names: the docs' own mirror would pass every name.
NOT_CODE = (THIS, os.path.join("tests", "host", "doc_names_allow.txt"))

# The variable names the docs use for a structure, as the code does.
VARIABLES = {
    "pp": "probe_point",
    "p": "kprobe",
    "kp": "kprobe",
    "kcb": "kprobe_ctlblk",
    "rp": "kretprobe",
    "ri": "kretprobe_instance",
    "pool": "kretprobe_pool",
    "regs": "pt_regs",
    "vq": "virtq",
    "iops": "inode_operations",
    "fops": "file_operations",
    "inode": "inode",
    "file": "file",
    "thread": "thread",
    "current": "thread",
    "mod": "module",
}

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
WORD = re.compile(IDENT)
C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
UNDERSCORED = re.compile(r"^(%s)(?:\[[^\]]*\])?$" % IDENT)
CALL = re.compile(r"^(%s)\(.*\)$" % IDENT)
SOURCE_PATH = re.compile(r"^([\w./-]+\.[chS])$")
FILE_FUNCTION = re.compile(r"^([\w./-]+\.[chS]):(%s)$" % IDENT)
# A name made by a macro of the assembler (`trap_stub_\vector`) or of
# make (`module_$(a)`): the words before the argument are a prefix.
MADE_PREFIX = re.compile(r"\b(%s_)(?:\\\w|\$\()" % IDENT)
# What the docs write for any one of a kind: `arch/ARCH/kprobes.c`,
# `trap_stub_N`, `tests/fuzz/fuzz_NAME.c`.
PLACEHOLDERS = ("ARCH", "NAME", "N")
SYSTEM_REGISTER = re.compile(r"^[A-Z0-9_]+_EL[0-3]$")
MEMBER = re.compile(r"^(%s)(->|\.)(%s)(?:\[[^\]]*\])?(?:(?:->|\.)%s(?:\[[^\]]*\])?)*$"
                    % (IDENT, IDENT, IDENT))
STRUCT_START = re.compile(r"\bstruct\s+(%s)\s*\{" % IDENT)


def strip_c_comments(text):
    return C_COMMENT.sub(" ", text)


class Tree:
    """What the checks look names up in: the files, the words of each,
    and each structure's members. root is the top of a tree."""

    def __init__(self, root):
        self.root = root
        self.files = []        # paths from root, "/"-separated
        self.words = set()     # of every code file, comments left out
        self.file_words = {}   # path -> its words
        self.members = {}      # struct name -> set of member names
        self.made_prefixes = set()
        for path in self._code_files():
            text = self._read(path)
            if path.endswith((".c", ".h", ".S")):
                text = strip_c_comments(text)
            if path.endswith((".S", ".mk")) or path == "Makefile":
                self.made_prefixes.update(MADE_PREFIX.findall(text))
            words = set(WORD.findall(text))
            self.files.append(path)
            self.file_words[path] = words
            self.words |= words
            if path.endswith((".c", ".h")) and path.split("/")[0] in STRUCT_DIRS:
                for name, members in parse_structs(text):
                    self.members.setdefault(name, set()).update(members)
        # A file's name is a name too: a test program, `test_string`, is
        # its source's.
        self.words |= {p.rsplit("/", 1)[-1].split(".")[0] for p in self.files}
        # System registers are lower case in the assembly and in asm()
        # strings (`mrs x0, esr_el1`), upper case in Arm's manuals and the
        # docs. Only they are matched so: any other name must be spelt as
        # the code spells it.
        self.lower_words = {w.lower() for w in self.words}
        self.archs = sorted(os.listdir(os.path.join(root, "arch"))) \
            if os.path.isdir(os.path.join(root, "arch")) else []

    def has_word(self, name):
        """True if name is a word of the code, or one that a macro makes
        (a made prefix, then a number, an architecture or a placeholder),
        or the upper-case spelling of a register the code names."""
        if name in self.words:
            return True
        if SYSTEM_REGISTER.match(name) and name.lower() in self.lower_words:
            return True
        for prefix in self.made_prefixes:
            rest = name[len(prefix):]
            if name.startswith(prefix) and (rest.isdigit() or rest in self.archs
                                            or rest in PLACEHOLDERS):
                return True
        return False

    def _code_files(self):
        for top in CODE_DIRS:
            for dirpath, dirnames, names in os.walk(os.path.join(self.root, top)):
                dirnames.sort()
                for name in sorted(names):
                    path = os.path.relpath(os.path.join(dirpath, name), self.root)
                    path = path.replace(os.sep, "/")
                    if name.endswith(CODE_SUFFIXES) and path not in NOT_CODE:
                        yield path
        for name in CODE_FILES:
            if os.path.exists(os.path.join(self.root, name)):
                yield name

    def _read(self, path):
        with open(os.path.join(self.root, path), encoding="utf-8", errors="replace") as f:
            return f.read()

    def resolve(self, path):
        """The files of the tree path may name: itself, the files whose
        path ends in it (`asm/kprobes.h`), or the files of that basename."""
        if path in self.file_words:
            return [path]
        parts = [r"[^/]+" if part in PLACEHOLDERS else
                 re.sub(r"_(?:%s)\b" % "|".join(PLACEHOLDERS), "_[^/]+", re.escape(part))
                 for part in path.split("/")]
        pattern = re.compile(r"(?:^|.*/)%s$" % "/".join(parts))
        return [p for p in self.files if pattern.match(p)]


def parse_structs(text):
    """(name, members) of every `struct name { ... }` in C text without
    comments. The members of a nested anonymous structure or union count
    as the outer one's, as C reaches them; a nested named one's count
    too, which only makes the check looser."""
    for m in STRUCT_START.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        yield m.group(1), member_names(text[m.end():i - 1])


def member_names(body):
    """The names declared in a structure's body."""
    body = re.sub(r"^\s*#.*$", "", body, flags=re.M)
    body = body.replace("{", ";").replace("}", ";")
    names = set()
    for decl in body.split(";"):
        macro = re.match(r"^\s*[A-Z][A-Z0-9_]*\((.*)\)\s*$", decl, re.S)
        if macro:       # PT_REG2(rip, ip): a macro that declares its arguments
            names.update(WORD.findall(macro.group(1)))
            continue
        for part in split_top(decl):
            name = declarator_name(part)
            if name:
                names.add(name)
    return names


def split_top(decl):
    """decl's declarators: split at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(decl):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(decl[start:i])
            start = i + 1
    parts.append(decl[start:])
    return parts


def declarator_name(part):
    """The name one declarator declares: `(*name)(...)` for a function
    pointer, else the last name before an array size, a bit width or an
    attribute."""
    pointer = re.search(r"\(\s*\*\s*(%s)\s*\)" % IDENT, part)
    if pointer:
        return pointer.group(1)
    part = re.sub(r"__attribute__\s*\(\(.*\)\)", " ", part)
    part = re.split(r"[\[:=]", part)[0]
    words = WORD.findall(part)
    return words[-1] if words else None


def code_spans(text):
    """(line number, span) of every inline code span of a Markdown text,
    outside fenced and indented blocks. An indented block is told the
    Markdown way: lines indented by four spaces or more after a blank
    line (and the lines and blank lines that go on with it). A list's
    paragraph so indented is left out too, which only checks less."""
    fenced = indented = False
    blank_before = True
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not line.strip():
            blank_before = True
            continue
        deep = line.startswith("\t") or line.startswith("    ")
        indented = deep and (indented or blank_before)
        blank_before = False
        if fenced or indented:
            continue
        for m in SPAN.finditer(line):
            yield number, m.group(1).strip()


def names_of_span(span):
    """What a span asks of the tree, as (kind, ...) tuples: ("word",
    name), ("file", path), ("file_word", path, name) or ("member",
    left, name)."""
    m = FILE_FUNCTION.match(span)
    if m:
        return [("file", m.group(1)), ("file_word", m.group(1), m.group(2))]
    m = SOURCE_PATH.match(span)
    if m:
        # What the build makes is not in the tree.
        return [] if span.startswith("build/") else [("file", span)]
    m = MEMBER.match(span)
    if m:
        return [("member", m.group(1), m.group(3))]
    m = CALL.match(span)
    if m:
        return [("word", m.group(1))]
    m = UNDERSCORED.match(span)
    if m and "_" in m.group(1).strip("_"):
        return [("word", m.group(1))]
    return []


def check_text(tree, allowed, doc, text):
    """The problems of one doc: (doc, line, span, what is wrong), and
    the allow-list entries it used."""
    problems, used = [], set()
    for number, span in code_spans(text):
        for ask in names_of_span(span):
            wrong = check_one(tree, ask)
            if wrong is None:
                continue
            name = ask[-1] if ask[0] != "member" else "%s.%s" % (ask[1], ask[2])
            if name in allowed or span in allowed:
                used.add(name if name in allowed else span)
                continue
            problems.append((doc, number, span, wrong))
    return problems, used


def check_one(tree, ask):
    """None if the tree has what ask names, else why not."""
    kind = ask[0]
    if kind == "word":
        return None if tree.has_word(ask[1]) else "no such name in the code"
    if kind == "file":
        return None if tree.resolve(ask[1]) else "no such file"
    if kind == "file_word":
        files = tree.resolve(ask[1])
        if not files or any(ask[2] in tree.file_words[f] for f in files):
            return None
        return "%s is not in %s" % (ask[2], ask[1])
    left, member = ask[1], ask[2]
    struct = VARIABLES.get(left, left if left in tree.members else None)
    if struct is None or struct not in tree.members:
        return None         # not a structure the check knows
    if member in tree.members[struct]:
        return None
    return "struct %s has no member %s" % (struct, member)


def read_allow(path):
    """The allow-list: {name: reason}. Every entry must give a reason."""
    allowed = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, hash_, reason = line.partition("#")
            if not hash_ or not reason.strip() or len(name.split()) != 1:
                raise ValueError("%s:%d: want `name  # why`: %r" % (path, number, line))
            allowed[name.strip()] = reason.strip()
    return allowed


def doc_files(root):
    docs = [os.path.join("docs", n) for n in sorted(os.listdir(os.path.join(root, "docs")))
            if n.endswith(".md")]
    return docs + (["README.md"] if os.path.exists(os.path.join(root, "README.md")) else [])


def check_docs(tree, allowed, docs):
    """Every problem of the docs (paths from tree.root), and the allowed
    names no doc needed."""
    problems, used = [], set()
    for doc in docs:
        with open(os.path.join(tree.root, doc), encoding="utf-8") as f:
            found, names = check_text(tree, allowed, doc, f.read())
        problems += found
        used |= names
    return problems, sorted(set(allowed) - used)


class TheTree(unittest.TestCase):
    """The real docs against the real tree."""

    @classmethod
    def setUpClass(cls):
        cls.tree = Tree(ROOT)
        cls.allowed = read_allow(ALLOW)
        cls.problems, cls.unused = check_docs(cls.tree, cls.allowed, doc_files(ROOT))

    def test_every_quoted_name_exists(self):
        self.assertEqual([], ["%s:%d: `%s`: %s" % p for p in self.problems])

    def test_every_allowed_name_is_still_quoted(self):
        self.assertEqual([], self.unused, "allow-list entries no doc quotes any more")

    def test_structures_are_read(self):
        """The parse finds what the member check depends on."""
        members = self.tree.members
        self.assertIn("counts_offset", members["probe_point"])
        self.assertNotIn("opt_hits", members["probe_point"])
        self.assertIn("opt_hits", members["point_counts"])
        self.assertIn("pre_handler", members["kprobe"])   # a function pointer
        for struct in set(VARIABLES.values()):
            self.assertIn(struct, members, "VARIABLES names an unknown structure")


class TheChecker(unittest.TestCase):
    """The checker on a made-up tree and made-up docs, so that it is seen
    to fail where it must."""

    SOURCES = {
        "kernel/probes/probe_point.h":
            "/* old_name_in_comment */\n"
            "struct probe_point {\n"
            "\tuint8_t *addr;\n"
            "\tunsigned long counts_offset, other_word;\n"
            "\tint (*hook_fn)(struct probe_point *pp, int how);\n"
            "\tunion { int a_alt; long b_alt; };\n"
            "\tchar name[16];\n"
            "#define NOT_A_MEMBER 1\n"
            "};\n"
            "struct point_counts {\n\tunsigned long exec[4];\n\tunsigned long opt_hits;\n};\n"
            "static inline void count_here(void) { }\n",
        "kernel/probes/counts.c": "int point_opt_hits(void) { return 0; }\n",
        "arch/x86_64/include/asm/kprobes.h": "#define ARCH_THING 1\n",
        "arch/aarch64/include/asm/kprobes.h": "#define ARCH_THING 1\n",
    }

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        for path, text in self.SOURCES.items():
            full = os.path.join(self.dir.name, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        self.tree = Tree(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def problems(self, text, allowed=()):
        return [p[2] for p in check_text(self.tree, set(allowed), "doc.md", text)[0]]

    def test_existing_names_pass(self):
        doc = ("`count_here` and `count_here()`, `point_opt_hits(pp)`, `pp->counts_offset`,\n"
               "`pp->other_word`, `pp->hook_fn`, `pp->a_alt`, `pp->name[0]`,\n"
               "`point_counts.opt_hits`, `probe_point.h`, `kernel/probes/counts.c`,\n"
               "`asm/kprobes.h`, `counts.c:point_opt_hits`, `ARCH_THING`\n")
        self.assertEqual([], self.problems(doc))

    def test_a_gone_name_fails(self):
        self.assertEqual(["gone_name", "gone_call()"],
                         self.problems("`gone_name` then `gone_call()`\n"))

    def test_a_name_only_in_a_comment_fails(self):
        self.assertEqual(["old_name_in_comment"], self.problems("`old_name_in_comment`\n"))

    def test_a_member_of_another_structure_fails(self):
        """opt_hits is a member, of struct point_counts: not of pp's."""
        self.assertEqual(["pp->opt_hits", "pp->exec_count[how]", "probe_point.opt_hits"],
                         self.problems("`pp->opt_hits`, `pp->exec_count[how]`, "
                                       "`probe_point.opt_hits`\n"))

    def test_a_macro_in_a_structure_is_no_member(self):
        self.assertEqual(["pp->NOT_A_MEMBER"], self.problems("`pp->NOT_A_MEMBER`\n"))

    def test_a_missing_file_fails(self):
        self.assertEqual(["kernel/probes/gone.c", "gone.h", "lib/counts.c"],
                         self.problems("`kernel/probes/gone.c`, `gone.h`, `lib/counts.c`\n"))

    def test_a_function_not_in_its_file_fails(self):
        self.assertEqual(["counts.c:count_here"], self.problems("`counts.c:count_here`\n"))

    def test_unknown_variables_and_plain_words_are_not_checked(self):
        doc = "`q->whatever`, `probe add vfs_read`, `cat`, `x = 1`, `-E2BIG`\n"
        self.assertEqual([], self.problems(doc))

    def test_blocks_are_not_checked(self):
        doc = ("Text:\n\n    `gone_in_indented_block`\n\n```\n`gone_in_fence`\n```\n"
               "- an item\n  `gone_in_item`\n")
        self.assertEqual(["gone_in_item"], self.problems(doc))

    def test_the_allow_list_lets_a_name_pass(self):
        self.assertEqual([], self.problems("`linux_only_name`\n", {"linux_only_name"}))

    def test_the_allow_list_needs_reasons(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("# a comment\nwith_reason  # Linux's\nwithout_reason\n")
        try:
            with self.assertRaises(ValueError):
                read_allow(f.name)
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
