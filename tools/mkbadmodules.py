#!/usr/bin/env python3
"""Write the broken module files the boot tests must see refused.

Usage:  tools/mkbadmodules.py BUILD-ROOT ARCH OTHER-ARCH

Into BUILD-ROOT/ARCH/modules/lib/modules/bad/ (the staging tree that
the root file system archive includes, see tools/modules.mk) it writes:

  text.ko        a text file, not ELF at all;
  truncated.ko   the first 1000 bytes of tests/modules' mod_params.ko:
                 its section header table lies past the end;
  other_arch.ko  OTHER-ARCH's mod_params.ko, a good module for the other
                 architecture.

and touches BUILD-ROOT/ARCH/modules.stamp when a file changed, so that
the next `make` rebuilds the archive. Both architectures' tests/modules
must have been built (`make ARCH=... modules`).
"""

import os
import sys

MODULE = "M/tests/modules/mod_params.ko"


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
    with open(os.path.join(root, arch, MODULE), "rb") as f:
        own = f.read()
    with open(os.path.join(root, other, MODULE), "rb") as f:
        foreign = f.read()
    bad = os.path.join(root, arch, "modules", "lib", "modules", "bad")
    os.makedirs(bad, exist_ok=True)
    changed = False
    for name, data in [("text.ko", b"This is a text file, not a module.\n"),
                       ("truncated.ko", own[:1000]),
                       ("other_arch.ko", foreign)]:
        changed |= write_if_changed(os.path.join(bad, name), data)
    if changed:
        with open(os.path.join(root, arch, "modules.stamp"), "a"):
            os.utime(os.path.join(root, arch, "modules.stamp"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
