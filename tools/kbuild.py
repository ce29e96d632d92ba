#!/usr/bin/env python3
"""Read a module directory's Kbuild (or Makefile) and say what to build.

Usage: tools/kbuild.py DIR FILE > fragment.mk

FILE is DIR/Kbuild, or DIR/Makefile when there is no Kbuild (the choice
is tools/modules.mk's). The output is a make fragment that
tools/modules.mk includes:

    KBUILD_MODULES := hello probe
    KBUILD_OBJS_hello := hello.o
    KBUILD_OBJS_probe := probe-main.o probe-util.o

What is read, as Linux's kbuild reads it:

    obj-m += a.o b.o          modules a and b (several names, several lines)
    obj-m := a.o              := and = start the list again, += adds
    obj-y, obj-$(CONFIG_X)    treated as obj-m: there is no built-in
                              kernel here and no configuration, so a
                              sample's obj-$(CONFIG_SAMPLE_KPROBES) means
                              "build this module", which is what a user
                              expects; obj-n and obj- are ignored
    a-y := x.o y.o            module a is made of x.o and y.o (also
    a-objs := x.o y.o         a-objs, and a-$(CONFIG_X), treated as a-y);
                              without such a line, a is made of a.o
    NAME := value             variables, expanded in later lines as
                              $(NAME) or ${NAME}; an unknown one is empty

Everything else is skipped: comments, recipe lines (starting with a
tab), rules (`target: deps`), directives (include, export...).
Conditionals (ifeq, ifneq, ifdef, else, endif) are skipped too and both
of their branches read, so the usual out-of-tree Makefile, whose
`ifneq ($(KERNELRELEASE),)` branch holds obj-m and whose else branch
holds a rule calling make, works. Lines ending in a backslash continue
on the next line.

Errors (exit status 1, one line each on stderr): no module, a name that
cannot be a module name, an object that is not a .o file, a .o with no
.c or .S beside it, or one object in two modules.
"""

import os
import re
import sys

# Linux's loader keeps names shorter than this (MODULE_NAME_LEN in
# kernel/module/module.h), with the NUL.
MODULE_NAME_LEN = 56

ASSIGN = re.compile(r"^\s*(?:override\s+|export\s+)?([^\s:+?=#]+)\s*(\+=|:=|::=|\?=|=)\s*(.*)$")
VARREF = re.compile(r"\$[({]([^)}]*)[)}]")
CONDITIONAL = re.compile(r"^\s*(ifeq|ifneq|ifdef|ifndef|else|endif)\b")
MODULE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def logical_lines(text):
    """The lines of a makefile with continuations joined and comments
    removed (a '#' starts a comment unless escaped as '\\#')."""
    joined = []
    pending = ""
    for raw in text.splitlines():
        if raw.endswith("\\"):
            pending += raw[:-1] + " "
            continue
        joined.append(pending + raw)
        pending = ""
    if pending:
        joined.append(pending)
    out = []
    for line in joined:
        if line.startswith("\t"):
            out.append(line)    # a recipe line: kept as such, then skipped
            continue
        out.append(re.sub(r"(?<!\\)#.*", "", line))
    return out


def expand(value, variables):
    """Replace $(NAME) and ${NAME} by the value of NAME (empty if NAME is
    unknown, as in make); $(CONFIG_...) and other unknowns vanish."""
    for _ in range(10):     # nested references, a few levels deep
        new = VARREF.sub(lambda m: variables.get(m.group(1).strip(), ""), value)
        if new == value:
            break
        value = new
    return value


def classify(name):
    """('obj', None) for an obj-... list that names modules, ('parts',
    MODULE) for MODULE-y / MODULE-objs / MODULE-$(CONFIG_X), or None."""
    if name.startswith("obj-"):
        suffix = name[4:]
        if suffix in ("n", ""):
            return None
        if suffix in ("m", "y") or VARREF.fullmatch(suffix):
            return ("obj", None)
        return None
    m = re.fullmatch(r"(.+)-(y|objs|\$[({][^)}]*[)}])", name)
    if m and not m.group(1).startswith("obj"):
        return ("parts", m.group(1))
    return None


def parse(text):
    """Return (modules, parts): the module names in order, and for each
    module named with a MODULE-y line, its object list."""
    variables = {}
    modules = []
    parts = {}
    for line in logical_lines(text):
        if line.startswith("\t") or CONDITIONAL.match(line):
            continue
        m = ASSIGN.match(line)
        if not m:
            continue    # a rule, a directive or a blank line
        name, op, value = m.group(1), m.group(2), m.group(3).strip()
        kind = classify(name)
        words = expand(value, variables).split()
        if kind is None:
            # An ordinary variable, for later $(NAME) references.
            if op == "+=":
                variables[name] = (variables.get(name, "") + " " + expand(value, variables)).strip()
            elif op == "?=":
                variables.setdefault(name, expand(value, variables))
            else:
                variables[name] = expand(value, variables)
            continue
        if kind[0] == "obj":
            if op in (":=", "::=", "="):
                modules = []
            for w in words:
                if w.endswith("/"):
                    print(f"kbuild: {w}: subdirectories are not built (list its modules with M=)",
                          file=sys.stderr)
                elif w not in modules:
                    modules.append(w)
        else:
            key = kind[1]
            if op in (":=", "::=", "=") and name.endswith(("-y", "-objs")):
                parts[key] = []
            parts.setdefault(key, [])
            parts[key] += [w for w in words if w not in parts[key]]
    return modules, parts


def plan(directory, text):
    """Return (module names, {name: objects}) or raise ValueError."""
    modules, parts = parse(text)
    if not modules:
        raise ValueError("no module: expected a line like `obj-m += hello.o`")
    result = {}
    owner = {}
    for target in modules:
        if not target.endswith(".o"):
            raise ValueError(f"obj-m: {target}: a module is named by its .o (e.g. {os.path.splitext(target)[0]}.o)")
        name = target[:-2]
        if not MODULE_NAME.match(name):
            raise ValueError(f"obj-m: {target}: a module name has only letters, digits, _ and -")
        if len(name) >= MODULE_NAME_LEN:
            raise ValueError(f"obj-m: {target}: the name is longer than {MODULE_NAME_LEN - 1} characters")
        objects = parts.get(name) or [target]
        for obj in objects:
            if not obj.endswith(".o"):
                raise ValueError(f"{name}-y: {obj}: not an object file (.o)")
            base = os.path.join(directory, obj[:-2])
            if not (os.path.exists(base + ".c") or os.path.exists(base + ".S")):
                raise ValueError(f"{name}: {obj}: there is no {obj[:-2]}.c or {obj[:-2]}.S")
            if obj in owner:
                raise ValueError(f"{obj} is in two modules, {owner[obj]} and {name}")
            owner[obj] = name
        result[name] = objects
    return list(result), result


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: kbuild.py DIR FILE")
    directory, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        text = f.read()
    try:
        names, objects = plan(directory, text)
    except ValueError as e:
        sys.exit(f"kbuild: {path}: {e}")
    print(f"# Generated by tools/kbuild.py from {path}.")
    print("KBUILD_MODULES := " + " ".join(names))
    for name in names:
        print(f"KBUILD_OBJS_{name} := " + " ".join(objects[name]))


if __name__ == "__main__":
    main()
