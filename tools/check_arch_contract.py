#!/usr/bin/env python3
"""Check that the architecture contract (kernel/arch.h) is complete.

Usage:  tools/check_arch_contract.py [SOURCE-TREE]     (default: .)

The contract is kernel/arch.h, the headers its first comment lists
(lines of the form ` *   kernel/....h   what it holds`), and the table of
asm/ headers between `asm-contract-begin` and `asm-contract-end` in
arch.h. This script fails, naming each problem, when

  * portable code (kernel/ and lib/, .c and .h) uses an arch_ name that no
    contract header declares and the table does not list;
  * portable code includes an asm/ header the table does not list;
  * an architecture's include/asm/ directory (arch/*/include/asm) lacks a
    listed header, or a listed name in it (or in an asm/ header that one
    includes).

Comments and string literals are ignored when looking for uses and
declarations: only code counts. Exits 0 when all is well, 1 otherwise.
"""

import pathlib
import re
import sys

ARCH_NAME = re.compile(r"\barch_[a-z0-9_]+\b")
ASM_INCLUDE = re.compile(r"#\s*include\s*<asm/(\w+)\.h>")
# Comments and literals, so that only code is searched.
NOT_CODE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
CONTRACT_HEADER = re.compile(r"^\s*\*\s+(kernel/\S+\.h)\s", re.M)
TABLE = re.compile(r"asm-contract-begin(.*?)asm-contract-end", re.S)
TABLE_HEADER = re.compile(r"^\s*\*\s+<asm/(\w+)\.h>\s*$")
TABLE_NAME = re.compile(r"^\s*\*\s+(\w+)\s+\S")


def code_of(text):
    """The text with comments and literals blanked out."""
    return NOT_CODE.sub(" ", text)


def read_contract(root):
    """The arch_ names the contract headers declare, and the asm table as
    a dict from header name to the names listed for it."""
    arch_h = (root / "kernel/arch.h").read_text()
    first_comment = arch_h[: arch_h.index("*/")]
    headers = ["kernel/arch.h"] + [h for h in CONTRACT_HEADER.findall(first_comment)
                                   if h != "kernel/arch.h"]
    declared = set()
    for h in headers:
        declared |= set(ARCH_NAME.findall(code_of((root / h).read_text())))

    table = {}
    match = TABLE.search(arch_h)
    current = None
    for line in match.group(1).splitlines() if match else []:
        header = TABLE_HEADER.match(line)
        name = TABLE_NAME.match(line)
        if header:
            current = table.setdefault(header.group(1), [])
        elif name and current is not None:
            current.append(name.group(1))
    return declared, table


def portable_files(root):
    for top in ("kernel", "lib"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix in (".c", ".h"):
                yield path


def check_portable_code(root, declared, table):
    """Problems in the uses of portable code."""
    listed = declared | {n for names in table.values() for n in names}
    problems = []
    for path in portable_files(root):
        code = code_of(path.read_text())
        rel = path.relative_to(root)
        for name in sorted(set(ARCH_NAME.findall(code)) - listed):
            problems.append(f"{rel}: {name} is used but is not in the architecture "
                            "contract (declare it in kernel/arch.h or a header it lists)")
        for header in sorted(set(ASM_INCLUDE.findall(code)) - set(table)):
            problems.append(f"{rel}: includes <asm/{header}.h>, which kernel/arch.h's "
                            "table of asm/ headers does not list")
    return problems


def asm_code(asm_dir, header, seen):
    """The code of asm_dir/header.h and of the asm/ headers it includes."""
    path = asm_dir / f"{header}.h"
    if header in seen or not path.exists():
        return ""
    seen.add(header)
    code = code_of(path.read_text())
    return code + "".join(asm_code(asm_dir, h, seen) for h in ASM_INCLUDE.findall(code))


def check_architectures(root, table):
    """Problems in each architecture's asm/ headers."""
    problems = []
    for asm_dir in sorted(root.glob("arch/*/include/asm")):
        rel = asm_dir.relative_to(root)
        for header, names in sorted(table.items()):
            if not (asm_dir / f"{header}.h").exists():
                problems.append(f"{rel}/{header}.h: missing (listed in kernel/arch.h)")
                continue
            code = asm_code(asm_dir, header, set())
            for name in names:
                if not re.search(rf"\b{name}\b", code):
                    problems.append(f"{rel}/{header}.h: does not define {name} "
                                    "(listed in kernel/arch.h)")
    return problems


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else ".")
    declared, table = read_contract(root)
    problems = check_portable_code(root, declared, table) + check_architectures(root, table)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
