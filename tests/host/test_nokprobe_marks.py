#!/usr/bin/env python3
"""Where NOKPROBE_SYMBOL marks are written: right after their function.

kernel/nokprobe.h asks for NOKPROBE_SYMBOL(fn) to follow fn, so that a
reader of fn sees at once that it is never probed, and so that moving fn
to another file moves its mark with it. A mark gathered at the end of the
file is easily left behind, or forgotten for a new function of the group.

For every .c file under kernel/, arch/, lib/ and boot/, this test checks
that each NOKPROBE_SYMBOL(name) whose function name is defined in the same
file is on the line right after that function's closing brace. A mark of
a function defined elsewhere (in assembly, or in a file that cannot
include kernel/nokprobe.h) has no such place: those marks are listed in
ELSEWHERE, and the test fails on one that is not listed, or on a listed
one that is gone or whose function the file now defines.

That the marks cover what they must is check_nokprobe.py's business, on
the linked kernels; this test reads only the sources.

Run: python3 -m unittest tests/host/test_nokprobe_marks.py   (or run this file)
"""

import os
import re
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SOURCE_DIRS = ("kernel", "arch", "lib", "boot")

# (file, function) for each mark of a function that the file does not
# define.
ELSEWHERE = {
    ("arch/aarch64/kprobes.c", "a64_decode"),
    ("arch/aarch64/kprobes.c", "a64_class_name"),
    ("arch/aarch64/kprobes.c", "a64_emu_name"),
    ("arch/aarch64/kprobes.c", "a64_pcrel_target"),
    ("arch/aarch64/kprobes.c", "a64_condition_holds"),
    ("arch/aarch64/kprobes.c", "a64_branch_taken"),
    ("arch/aarch64/kprobes.c", "a64_b_reaches"),
    ("arch/aarch64/kprobes.c", "a64_encode_b"),
    ("arch/aarch64/kprobes.c", "a64_encode_brk"),
    ("arch/aarch64/kprobes.c", "a64_is_brk"),
    ("arch/aarch64/kprobes.c", "a64_is_load_exclusive"),
    ("arch/aarch64/kprobes.c", "a64_is_store_exclusive"),
    ("arch/aarch64/kprobes.c", "a64_add_sub_imm_result"),
    ("arch/aarch64/kprobes.c", "a64_decode_sp_store"),
}

# Comments, string and character literals, and preprocessor lines (with
# their continuations): blanked before the code is read, so that a brace
# or a mark inside them counts for nothing.
NOT_CODE = re.compile(r"""/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'"""
                      r"""|^[ \t]*\#(?:\\\n|[^\n])*""", re.S | re.M)
MARK = re.compile(r"\bNOKPROBE_SYMBOL\s*\(\s*(\w+)\s*\)")
# The identifier at the end of a text.
LAST_NAME = re.compile(r"([A-Za-z_]\w*)\s*$")
# A parameter list's end, then only attributes up to the body's brace.
PARAMS_END = re.compile(r"\)(?:\s*(?:__attribute__\s*\(\(.*?\)\)|__\w+(?:\s*\([^()]*\))?))*\s*$",
                        re.S)
# Macros that take arguments but name no function: attributes.
ATTRIBUTES = {"__attribute__", "__section", "__aligned", "__printf"}


def blank(match):
    """The text of match with every character but newlines made a space."""
    return re.sub(r"[^\n]", " ", match.group(0))


def code_only(text):
    """text with its comments, literals and preprocessor lines blanked;
    every character keeps its offset, so line numbers still hold."""
    return NOT_CODE.sub(blank, text)


def line_of(text, offset):
    """The 1-based line number of offset in text."""
    return text.count("\n", 0, offset) + 1


def function_name(header):
    """The name of the function whose definition header is (everything
    between the end of the last declaration and the body's brace), or
    None if header does not end in a parameter list: a struct, an
    initialiser. The name is the identifier before the last parenthesis
    at depth 0 that is not an attribute's."""
    name, depth = None, 0
    for i, c in enumerate(header):
        if c == "(":
            before = LAST_NAME.search(header, 0, i) if depth == 0 else None
            if before and before.group(1) not in ATTRIBUTES:
                name = before.group(1)
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "=" and depth == 0:
            return None
    return name if name and PARAMS_END.search(header) else None


def definitions(code):
    """{name: [line of the closing brace, ...]} for the functions that
    code (already through code_only) defines at file scope."""
    found = {}
    depth, start, name = 0, 0, None
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                name = function_name(code[start:i])
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if name:
                    found.setdefault(name, []).append(line_of(code, i))
                start, name = i + 1, None
        elif c == ";" and depth == 0:
            start = i + 1
    return found


def marks(code):
    """[(name, line)] for each NOKPROBE_SYMBOL in code (through code_only)."""
    return [(m.group(1), line_of(code, m.start())) for m in MARK.finditer(code)]


def problems(path, text, elsewhere):
    """The misplaced marks of the file path whose source is text, as
    "path:line: message" strings. elsewhere is the set of (path, name)
    marks allowed because path does not define name."""
    code = code_only(text)
    defined = definitions(code)
    found = []
    for name, line in marks(code):
        closes = defined.get(name)
        if closes is None:
            if (path, name) not in elsewhere:
                found.append(f"{path}:{line}: NOKPROBE_SYMBOL({name}): {name} is not defined "
                             "in this file, and the mark is not in ELSEWHERE")
        elif line - 1 not in closes:
            where = ", ".join(str(c) for c in closes)
            found.append(f"{path}:{line}: NOKPROBE_SYMBOL({name}) must be on the line right "
                         f"after {name}'s closing brace (line {where})")
        if closes is not None and (path, name) in elsewhere:
            found.append(f"{path}:{line}: NOKPROBE_SYMBOL({name}): this file defines {name}, "
                         "so ELSEWHERE must not list it")
    return found


def source_files(root):
    """The .c files under SOURCE_DIRS, as paths relative to root."""
    for top in SOURCE_DIRS:
        for dirpath, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(names):
                if name.endswith(".c"):
                    path = os.path.join(dirpath, name)
                    yield os.path.relpath(path, root).replace(os.sep, "/")


def read(root, rel):
    with open(os.path.join(root, rel), errors="replace") as f:
        return f.read()


def tree_problems(root, elsewhere):
    """problems() of every source file, then one line for each entry of
    elsewhere that no mark uses any more."""
    found, used = [], set()
    for rel in source_files(root):
        text = read(root, rel)
        found += problems(rel, text, elsewhere)
        used |= {(rel, name) for name, _ in marks(code_only(text))}
    for rel, name in sorted(elsewhere - used):
        found.append(f"{rel}: ELSEWHERE lists NOKPROBE_SYMBOL({name}), which the file "
                     "no longer has")
    return found


GOOD = """\
#include "kernel/nokprobe.h"

/* A comment with a brace } and NOKPROBE_SYMBOL(nothing). */
static const char *const names[] = { "{", "}" };

static __section(".text.x") int first(int a)
{
	if (a) {
		return 1;
	}
	return 0;
}
NOKPROBE_SYMBOL(first);
EXPORT_SYMBOL(first);

#define BRACES { }
void second(void (*fn)(void))
{
	fn();
}
NOKPROBE_SYMBOL(second);
NOKPROBE_SYMBOL(from_assembly);
"""


class CheckerTest(unittest.TestCase):
    """The checker itself, on small sources."""

    def test_marks_right_after_their_function_pass(self):
        self.assertEqual(problems("a.c", GOOD, {("a.c", "from_assembly")}), [])

    def test_the_closing_brace_of_each_definition_is_found(self):
        self.assertEqual(definitions(code_only(GOOD)), {"first": [12], "second": [20]})

    def test_a_mark_at_the_end_of_the_file_fails(self):
        text = GOOD.replace("NOKPROBE_SYMBOL(first);\n", "") + "NOKPROBE_SYMBOL(first);\n"
        self.assertEqual(problems("a.c", text, {("a.c", "from_assembly")}),
                         ["a.c:22: NOKPROBE_SYMBOL(first) must be on the line right after "
                          "first's closing brace (line 12)"])

    def test_a_blank_line_before_the_mark_fails(self):
        text = GOOD.replace("}\nNOKPROBE_SYMBOL(second);", "}\n\nNOKPROBE_SYMBOL(second);")
        self.assertEqual(len(problems("a.c", text, {("a.c", "from_assembly")})), 1)

    def test_a_mark_of_a_function_defined_elsewhere_must_be_listed(self):
        self.assertEqual(problems("a.c", GOOD, set()),
                         ["a.c:22: NOKPROBE_SYMBOL(from_assembly): from_assembly is not "
                          "defined in this file, and the mark is not in ELSEWHERE"])

    def test_a_listed_mark_whose_function_the_file_defines_fails(self):
        allowed = {("a.c", "from_assembly"), ("a.c", "first")}
        self.assertEqual(len(problems("a.c", GOOD, allowed)), 1)

    def test_a_listed_mark_no_file_has_any_more_fails(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "kernel"))
            with open(os.path.join(root, "kernel", "a.c"), "w") as f:
                f.write(GOOD)
            self.assertEqual(tree_problems(root, {("kernel/a.c", "from_assembly"),
                                                  ("kernel/a.c", "gone")}),
                             ["kernel/a.c: ELSEWHERE lists NOKPROBE_SYMBOL(gone), which the "
                              "file no longer has"])



class SourcesTest(unittest.TestCase):
    """The kernel's own sources."""

    def test_every_mark_follows_its_function(self):
        found = tree_problems(ROOT, ELSEWHERE)
        self.assertFalse(found, "\n" + "\n".join(found))


if __name__ == "__main__":
    unittest.main()
