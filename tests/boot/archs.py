"""What the tests know of each architecture, each from the one place it
is written:

    archs()         the architectures there are: ARCHS in the Makefile
    config(arch, cpus, accel)
                    the build's settings for one architecture, as `make -s
                    ARCH=arch CPUS=cpus QEMU_ACCEL=accel qemu-config` prints
                    them (QEMU, QEMU_FLAGS, IMAGE, POWEROFF_STATUS, GDB ...:
                    see the Makefile), as a dict of strings
    testdata(arch)  arch/ARCH/testdata.py, what the tests expect of that
                    architecture and of no other, as a module
    binutils(arch, tool, *args)
                    what the build's NM or OBJDUMP for arch prints, run
                    on files of the build (the kernel ELF, a module)

So a port adds no line to any test script: its arch.mk and its
testdata.py are read from its own folder.

arch/ARCH/testdata.py holds what the tests expect of one architecture
and of no other; how QEMU boots it, its poweroff status and the GDB to
run are build settings, in arch.mk. Every architecture's file defines
the same names (tests/host/test_qemu_config.py checks), grouped by the
script that reads them, each with a comment. Plain values only
(strings, numbers, lists, dicts, None; regular expressions as strings),
so that a port copies a file and changes the values.

Only the Python 3 standard library is used.
"""

import functools
import importlib.util
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@functools.lru_cache(maxsize=None)
def config(arch=None, cpus=None, accel=None):
    """The settings `make qemu-config` prints for arch (the Makefile's
    default when None), with cpus CPUs and the accelerator accel (the
    Makefile's defaults when None). Raises RuntimeError if make fails."""
    cmd = ["make", "-s", "--no-print-directory", "qemu-config"]
    for name, value in (("ARCH", arch), ("CPUS", cpus), ("QEMU_ACCEL", accel)):
        if value is not None:
            cmd.append("%s=%s" % (name, value))
    # This may run under `make test`: ask afresh, not as a sub-make of
    # that one, whose flags and job server are not this make's.
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEFILES")}
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("`%s` failed: %s" % (" ".join(cmd), out.stderr.strip()))
    return dict(line.split("=", 1) for line in out.stdout.splitlines())


def archs():
    return config()["ARCHS"].split()


@functools.lru_cache(maxsize=None)
def testdata(arch):
    path = os.path.join(ROOT, "arch", arch, "testdata.py")
    spec = importlib.util.spec_from_file_location("testdata_" + arch, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def binutils(arch, tool, *args):
    """The standard output of the build's tool ("NM", "OBJDUMP") for arch
    run with args, relative paths being from the top of the tree."""
    cmd = [config(arch)[tool]] + list(args)
    return subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
