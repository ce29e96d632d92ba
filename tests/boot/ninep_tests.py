"""Boot tests of the host's folder over virtio 9P, mounted at /host
(kernel/fs/ninepfs*.c, docs/9p.md).

Each test boots a machine of its own that shares a scratch folder the
test makes (never the work tree: the kernel writes into what it is
given), puts files in it from the host, and compares what the kernel
shows with the host's bytes, and the other way round. boot_tests.py
calls define() with its test decorator.
"""

import os
import re
import shutil
import socket
import stat
import subprocess
import tempfile
import time

import archs
import qemu
from checks import answers_and_heap_is_back, check, heap_is_back, info, settled_heap_usage, show

ROOT = archs.ROOT
BOOT_TIMEOUT = 60
MOUNTED = re.compile(r"^9p: host folder 'host' mounted at /host \(msize \d+\)$")
MANY_FILES = 10000


def serial_lines(m):
    return "".join(m.raw).replace("\r", "").split("\n")


def boot_sharing(m, share, cpus=None, readonly=False, title="9p"):
    """A machine like m's, with share shared, at its prompt."""
    cmd = qemu.command(m.arch, cpus or m.smp, share=share, share_readonly=readonly)
    machine = qemu.Machine(m.arch, qemu_cmd=cmd, log_path=m.log_path, log_title=title,
                           smp=cpus or m.smp)
    machine.start()
    try:
        machine.wait_prompt(BOOT_TIMEOUT, echo=False)
    except BaseException:
        machine.close()
        raise
    return machine


def expect_one_line(out, pattern, cmd):
    check(len(out) == 1 and re.search(pattern, out[0]),
          "`%s`: expected one line matching %r, got %s" % (cmd, pattern, show(out, 6)))


def text_file(path, lines):
    with open(path, "w") as f:
        for i in range(lines):
            f.write("line %d of a text file shared by the host\n" % i)


# A chain of directories deeper than the shell's stack would hold one
# frame per level of (300 was enough to end it), and a tree under
# /proc/sys as deep as a sysctl name can reach (a 256-byte path).
CHAIN_DEPTH = 1000
SYSCTL_DEPTH = 112


def host_text(path):
    with open(path) as f:
        return f.read()


def define(test):
    """Register the 9P tests with boot_tests.py's decorator."""

    @test("host_folder")
    def test_host_folder(m):
        """ls and cat of host files, compared with the host's bytes; writes,
        mkdir and rm seen on the host; a change on the host seen at once
        (no cache); the filesystem's selftests with 4 CPUs."""
        with tempfile.TemporaryDirectory(prefix="probeos-9p-") as share:
            text_file(os.path.join(share, "text.txt"), 3000)   # 150 KB: three messages
            os.mkdir(os.path.join(share, "sub"))
            with open(os.path.join(share, "sub", "small"), "w") as f:
                f.write("small\n")
            with boot_sharing(m, share, cpus=4) as h:
                found = [line for line in serial_lines(h) if line.startswith("9p:")]
                check(len(found) == 1 and MOUNTED.match(found[0]),
                      "expected one boot line like %r, got %r" % (MOUNTED.pattern, found))
                out = h.command("mount")
                check("host /host 9p rw 0 0" in out, "`mount`: no /host line in %s" % show(out))
                out = h.command("ls /host")
                names = [w.rstrip("/") for line in out for w in line.split() if not w.isdigit()]
                check(names == ["sub", "text.txt"], "`ls /host` (in name order): got %s"
                      % show(out))
                out = h.command("cat /host/text.txt", 60)
                with open(os.path.join(share, "text.txt")) as f:
                    want = f.read().splitlines()
                check(out == want, "`cat /host/text.txt`: %d lines differ from the host's %d"
                      " (first: %s)" % (len(out), len(want), show(out[:2])))
                out = h.command("wc -c /host/text.txt")
                check(out == ["%d /host/text.txt" % os.path.getsize(
                    os.path.join(share, "text.txt"))], "`wc -c`: got %s" % show(out))

                # The kernel's writes land on the host.
                h.command("echo written by the kernel > /host/w.txt")
                h.command("echo and appended >> /host/w.txt")
                with open(os.path.join(share, "w.txt")) as f:
                    got = f.read()
                check(got == "written by the kernel\nand appended\n",
                      "host's w.txt holds %r" % got)
                h.command("mkdir /host/made")
                check(os.path.isdir(os.path.join(share, "made")), "mkdir /host/made: not on host")
                h.command("rm /host/w.txt")
                check(not os.path.exists(os.path.join(share, "w.txt")), "rm: w.txt still on host")

                # A change on the host is read at once: nothing is cached.
                with open(os.path.join(share, "sub", "small"), "w") as f:
                    f.write("changed on the host, longer\n")
                out = h.command("cat /host/sub/small")
                check(out == ["changed on the host, longer"],
                      "`cat` after a host change: got %s" % show(out))

                out = h.command("selftest ninepfs", 300)
                check(out[-1:] == ["selftest: 6 passed, 0 failed"],
                      "`selftest ninepfs`: %s" % show(out[-8:], 8))
                reads = [line for line in out if "CPUs at once" in line]
                info("; ".join(reads))
                check(not [n for n in os.listdir(share) if n.startswith(".ninepfs-selftest")],
                      "the selftest left files in the share: %s" % os.listdir(share))

    @test("host_folder_streamed")
    def test_host_folder_streamed(m):
        """The text tools read a file as they use it: `head -n 1` of a 4 MiB
        host file takes a few KiB over 9P (/sys/kernel/debug/9p/stats),
        `wc -l` of it all of it."""
        def received(h):
            out = h.command("cat /sys/kernel/debug/9p/stats")
            counts = dict(line.split() for line in out if len(line.split()) == 2)
            check(set(counts) == {"requests", "bytes_sent", "bytes_received"},
                  "/sys/kernel/debug/9p/stats: got %s" % show(out))
            return int(counts["bytes_received"])

        with tempfile.TemporaryDirectory(prefix="probeos-9p-") as share:
            big = os.path.join(share, "big.txt")
            text_file(big, 100000)
            size = os.path.getsize(big)
            with boot_sharing(m, share, cpus=1) as h:
                before = received(h)
                out = h.command("head -n 1 /host/big.txt")
                check(out == ["line 0 of a text file shared by the host"],
                      "`head -n 1 /host/big.txt`: got %s" % show(out))
                head = received(h) - before
                # The stats file is read over no 9P: what came is head's
                # walk, open, one read of a few KiB and the close.
                check(head < 16 * 1024, "`head -n 1` of %d bytes received %d bytes over 9P"
                      % (size, head))
                before = received(h)
                out = h.command("wc -l /host/big.txt", 120)
                check(out == ["100000 /host/big.txt"], "`wc -l /host/big.txt`: got %s" % show(out))
                whole = received(h) - before
                check(whole >= size, "`wc -l` of %d bytes received only %d" % (size, whole))
                info("9P bytes received: head -n 1 %d, wc -l %d, of a %d-byte file"
                     % (head, whole, size))

    @test("host_folder_bad_input")
    def test_host_folder_bad_input(m):
        """10,000 files listed; 255-byte names; a symlink out of the folder
        not followed; a directory read as a file; a file and a directory
        gone from the host while the kernel stands in them: each one line."""
        with tempfile.TemporaryDirectory(prefix="probeos-9p-") as share:
            many = os.path.join(share, "many")
            os.mkdir(many)
            for i in range(MANY_FILES):
                open(os.path.join(many, "f%05d" % i), "w").close()
            long_name = "n" * 255
            with open(os.path.join(share, long_name), "w") as f:
                f.write("long name\n")
            secret = tempfile.NamedTemporaryFile(prefix="probeos-outside-", delete=False)
            secret.write(b"outside the share\n")
            secret.close()
            os.symlink(secret.name, os.path.join(share, "out"))
            os.symlink("../../../../../../../../etc/passwd", os.path.join(share, "up"))
            os.mkdir(os.path.join(share, "dir"))
            with open(os.path.join(share, "dir", "in"), "w") as f:
                f.write("inside\n")
            os.symlink("dir/in", os.path.join(share, "filelink"))
            os.symlink("dir", os.path.join(share, "dirlink"))
            os.symlink("../dir/./in", os.path.join(share, "dir", "back"))
            os.symlink("loop2", os.path.join(share, "loop1"))
            os.symlink("loop1", os.path.join(share, "loop2"))
            os.symlink("nothing", os.path.join(share, "dangling"))
            os.mkdir(os.path.join(share, "gone"))
            with open(os.path.join(share, "gone", "f"), "w") as f:
                f.write("soon gone\n")
            try:
                with boot_sharing(m, share, cpus=1) as h:
                    start = time.monotonic()
                    out = h.command("ls /host/many | wc -l", 600)
                    took = time.monotonic() - start
                    check(out == [str(MANY_FILES)], "`ls /host/many | wc -l`: got %s" % show(out))
                    info("ls of %d host files: %.1f s of wall time" % (MANY_FILES, took))
                    out = h.command("ls /host/many | head -2; ls /host/many | tail -1")
                    check([l.split() for l in out] == [["f00000", "0"], ["f00001", "0"],
                                                       ["f%05d" % (MANY_FILES - 1), "0"]],
                          "`ls /host/many`: not in name order: %s" % show(out))

                    out = h.command("cat /host/" + long_name)
                    check(out == ["long name"], "cat of a 255-byte name: got %s" % show(out))
                    cmd = "cat /host/" + long_name + "x"
                    expect_one_line(h.command(cmd), r"File name too long$", "cat 256-byte name")

                    # Links inside the share are followed, relative ones only.
                    for cmd in ("cat /host/filelink", "cat /host/dirlink/in",
                                "cat /host/dir/back"):
                        out = h.command(cmd)
                        check(out == ["inside"], "`%s`: got %s" % (cmd, show(out)))
                    expect_one_line(h.command("cat /host/dangling"),
                                    r"^cat: /host/dangling: No such file or directory$",
                                    "cat /host/dangling")
                    for link in ("out", "up", "loop1"):
                        cmd = "cat /host/" + link
                        out = h.command(cmd)
                        expect_one_line(out, r"^cat: /host/%s: Too many levels of symbolic links$"
                                        % link, cmd)
                    expect_one_line(h.command("cat /host/dir"), r"^cat: /host/dir: Is a directory$",
                                    "cat /host/dir")
                    expect_one_line(h.command("cat /host/nothing"),
                                    r"^cat: /host/nothing: No such file or directory$",
                                    "cat /host/nothing")

                    # Gone between the walk and the read: the shell stands in
                    # /host/gone (its inode holds a fid) when the host removes it.
                    h.command("cd /host/gone")
                    check(h.command("cat f") == ["soon gone"], "cat f in /host/gone")
                    shutil.rmtree(os.path.join(share, "gone"))
                    expect_one_line(h.command("cat f"), r"^cat: f: No such file or directory$",
                                    "cat f after the host removed it")
                    out = h.command("ls")
                    check(len(out) <= 1, "`ls` in a removed directory: %s" % show(out))
                    h.command("cd /")
                    out = h.command("ls /host")
                    check(not any(line.startswith("gone") for line in out),
                          "`ls /host` still lists gone: %s" % show(out))
            finally:
                os.unlink(secret.name)

    @test("host_folder_deep")
    def test_host_folder_deep(m):
        """A 1,000-level chain of directories: ls of the deepest, cd into
        it and out, and the chain freed one level after another, not by
        a call per level; the share mounted on /proc/sys/debug too, and
        sysctl walking a 112-level tree in it. After each, the kernel
        answers and the heap is back where it was."""
        with tempfile.TemporaryDirectory(prefix="probeos-9p-") as share:
            # Python's makedirs and rmtree recurse once per level: mkdir -p
            # and rm -rf do not.
            chain = os.path.join(share, *(["d"] * CHAIN_DEPTH))
            tree = os.path.join(share, "s", *(["x"] * SYSCTL_DEPTH))
            subprocess.run(["mkdir", "-p", chain, tree], check=True)
            open(os.path.join(chain, "bottom"), "w").close()
            with open(os.path.join(tree, "leaf"), "w") as f:
                f.write("deep\n")
            deepest = "/host/" + "/".join(["d"] * CHAIN_DEPTH)
            try:
                booted_deep(m, share, deepest)
            finally:
                subprocess.run(["rm", "-rf", os.path.join(share, "d")], check=True)

    def booted_deep(m, share, deepest):
        """host_folder_deep's machine: share holds the chain and the tree."""
        with boot_sharing(m, share, cpus=m.smp, title="9p deep") as h:
            # The kernel keeps the last 4 listings it read (ninepfs_dir.c):
            # fill them with one-name directories like the ones listed
            # below, so that the heap's size is steady from here on.
            for warm in ("d", "d/d", "d/d/d", "s"):
                h.command("ls /host/" + warm)
            before = settled_heap_usage(h)
            out = h.command("ls " + deepest, 120)
            check([line.split()[0] for line in out] == ["bottom"],
                  "`ls` of the 1,000th directory: %s" % show(out))
            answers_and_heap_is_back(h, before, "ls of the 1,000th directory")
            check(h.command("cd " + deepest, 120) == [], "`cd` to the 1,000th directory")
            out = h.command("ls", 120)
            check([line.split()[0] for line in out] == ["bottom"],
                  "`ls` in the 1,000th directory: %s" % show(out))
            check(h.command("cd /") == [], "`cd /` from the 1,000th directory")
            answers_and_heap_is_back(h, before, "cd into the 1,000th directory and out")

            check(h.command("mount -t 9p host /proc/sys/debug") == [],
                  "`mount -t 9p host /proc/sys/debug` printed something")
            name = "debug.s." + ".".join(["x"] * SYSCTL_DEPTH) + ".leaf"
            out = h.command("sysctl debug.s", 120)
            check(out == [name + " = deep"], "`sysctl debug.s` (%d levels): %s"
                  % (SYSCTL_DEPTH + 1, show(out)))
            check(h.command("umount /proc/sys/debug") == [], "`umount /proc/sys/debug`")
            answers_and_heap_is_back(h, before, "sysctl of a %d-level tree" % SYSCTL_DEPTH)

    @test("host_folder_hostile_paths")
    def test_host_folder_hostile_paths(m):
        """On the share too, a slash after a file's name is `Not a
        directory` (the host's file is neither printed, overwritten nor
        removed) and a directory's works; `ls` of 400 paths looks each up
        once (each lookup is two requests to the host); `cat F >> F` is
        refused as GNU cat refuses it instead of growing the host's file
        without end."""
        with tempfile.TemporaryDirectory(prefix="probeos-9p-") as share:
            f = os.path.join(share, "f")
            with open(f, "w") as out:
                out.write("hello\n")
            os.mkdir(os.path.join(share, "sub"))
            with boot_sharing(m, share, cpus=1) as h:
                check(h.command("mkdir /host/made/") == [], "`mkdir /host/made/` printed")
                check(os.path.isdir(os.path.join(share, "made")), "mkdir DIR/ made no directory")
                listing = h.command("ls /host")
                h.command("ls /host/sub")
                before = settled_heap_usage(h)
                for typed, want in [
                        ("cat /host/f/", "cat: /host/f/: Not a directory"),
                        ("echo x > /host/f/", "shell: /host/f/: Not a directory"),
                        ("rm /host/f/", "rm: cannot remove '/host/f/': Not a directory"),
                        ("cd /host/f/", "cd: /host/f/: Not a directory"),
                        ("ls /host/f/", "ls: cannot access '/host/f/': Not a directory"),
                        ("echo x > /host/new/", "shell: /host/new/: Is a directory")]:
                    out = h.command(typed)
                    check(out == [want], "`%s`: expected %r, got %s" % (typed, want, show(out)))
                check(host_text(f) == "hello\n", "the host's f changed: %r" % host_text(f))
                check(not os.path.exists(os.path.join(share, "new")), "`echo x > DIR/` made a file")
                check(h.command("ls /host/") == listing, "`ls /host/` differs from `ls /host`")
                check(h.command("cd /host/sub/") == [], "`cd /host/sub/` printed")
                check(h.command("pwd") == ["/host/sub"], "`pwd` after `cd /host/sub/`")
                h.command("cd /host")
                many = 400
                start = time.monotonic()
                out = h.command("ls" + " f" * many, 600)
                took = time.monotonic() - start
                check(out == ["f  6"] * many, "`ls f` * %d in /host: %s" % (many, show(out)))
                info("ls of %d host paths: %.1f s of wall time" % (many, took))
                check(took < 30, "`ls` of %d host paths took %.1f s" % (many, took))
                h.command("cd /")

                # The refusal goes to standard error; f is unchanged.
                out = h.command("cat /host/f >> /host/f", 30)
                check(out == ["cat: /host/f: input file is output file"],
                      "`cat /host/f >> /host/f`: %s" % show(out))
                want = "hello\n"
                check(host_text(f) == want, "after `cat F >> F` the host's f holds %r"
                      % host_text(f)[:200])
                check(h.command("cat /host/f > /host/f") == [] and host_text(f) == "",
                      "`cat F > F` does not leave F empty: %r" % host_text(f)[:200])
                answers_and_heap_is_back(h, before, "hostile paths on the share")

    @test("host_folder_special_files")
    def test_host_folder_special_files(m):
        """A FIFO, a socket and device nodes in the share: `ls -l` shows
        each with Linux's letter (p, s, c, b), and opening one is refused
        in one line before the host is asked (QEMU would call the kernel
        a broken or compromised client)."""
        with tempfile.TemporaryDirectory(prefix="probeos-9p-") as share:
            with open(os.path.join(share, "plain"), "w") as f:
                f.write("plain\n")
            os.mkfifo(os.path.join(share, "fifo"))
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(os.path.join(share, "sock"))
            special = {"fifo": "p", "sock": "s"}
            try:
                os.mknod(os.path.join(share, "chr"), stat.S_IFCHR | 0o600, os.makedev(1, 3))
                os.mknod(os.path.join(share, "blk"), stat.S_IFBLK | 0o600, os.makedev(7, 0))
                special.update({"chr": "c", "blk": "b"})
            except OSError as e:
                info("device nodes not checked: os.mknod failed (%s; it needs root)" % e)
            try:
                with boot_sharing(m, share, cpus=1) as h:
                    out = h.command("ls -l /host")
                    types = {line.split()[-1]: line[0] for line in out if line.split()}
                    want = dict(special, plain="-")
                    check(types == want, "`ls -l /host`: expected types %s, got %s"
                          % (want, show(out, 8)))
                    out = h.command("ls /host")
                    check(len(out) == len(want), "`ls /host`: %s" % show(out, 8))
                    before = settled_heap_usage(h)
                    for name in sorted(special):
                        path = "/host/" + name
                        for typed, want_line in [
                                ("cat " + path, "cat: %s: No such device or address" % path),
                                ("echo x > " + path, "shell: %s: No such device or address" % path),
                                ("echo x >> " + path,
                                 "shell: %s: No such device or address" % path),
                                ("insmod " + path, "insmod: %s: No such device or address" % path),
                                ("cat %s/" % path, "cat: %s/: Not a directory" % path)]:
                            out = h.command(typed)
                            check(out == [want_line], "`%s`: expected %r, got %s"
                                  % (typed, want_line, show(out)))
                    check(h.command("cat /host/plain") == ["plain"], "cat /host/plain")
                    warnings = [line for line in serial_lines(h) if line.startswith("9p: ")
                                and not MOUNTED.match(line)]
                    check(not warnings, "kernel warnings: %s" % show(warnings))
                    broken = [line for line in h.stderr if "9p" in line]
                    check(not broken, "QEMU said: %s" % show(broken))
                    answers_and_heap_is_back(h, before, "opening special files")
            finally:
                sock.close()
            check(sorted(os.listdir(share)) == sorted(want), "the share holds %s"
                  % sorted(os.listdir(share)))

    @test("host_folder_readonly")
    def test_host_folder_readonly(m):
        """A read-only share: reads work, every write is one line."""
        with tempfile.TemporaryDirectory(prefix="probeos-9p-") as share:
            with open(os.path.join(share, "r.txt"), "w") as f:
                f.write("read only\n")
            with boot_sharing(m, share, cpus=1, readonly=True) as h:
                check(h.command("cat /host/r.txt") == ["read only"], "cat on a read-only share")
                for cmd, who in (("echo x > /host/new", "echo"), ("echo x >> /host/r.txt", "echo"),
                                 ("mkdir /host/d", "mkdir"), ("rm /host/r.txt", "rm")):
                    out = h.command(cmd)
                    expect_one_line(out, r"Read-only file system$", cmd)
            with open(os.path.join(share, "r.txt")) as f:
                check(f.read() == "read only\n", "r.txt changed on a read-only share")
            check(sorted(os.listdir(share)) == ["r.txt"], "files made: %s" % os.listdir(share))

    @test("host_folder_edit_loop")
    def test_host_folder_edit_loop(m):
        """The edit loop in one boot: a module built on the host with
        `make M=DIR INSTALL_MOD_PATH=SHARE/build/ARCH/modules modules`,
        insmod NAME finds it in /host before /lib/modules; changed and
        rebuilt on the host, rmmod and insmod run the new code, and a
        probe registered meanwhile is still there."""
        with tempfile.TemporaryDirectory(prefix="probeos-9p-") as share:
            src = os.path.join(share, "src")
            os.mkdir(src)
            with open(os.path.join(src, "Kbuild"), "w") as f:
                f.write("obj-m += edit_loop.o\n")
            install = os.path.join(share, "build", m.arch, "modules")

            def build(version):
                with open(os.path.join(src, "edit_loop.c"), "w") as f:
                    f.write(EDIT_LOOP_SOURCE % {"v": version})
                done = subprocess.run(
                    ["make", "--no-print-directory", "ARCH=" + m.arch, "M=" + src,
                     "INSTALL_MOD_PATH=" + install, "modules"],
                    cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    universal_newlines=True)
                check(done.returncode == 0, "make M=DIR modules failed:\n%s" % done.stdout)
                return time.monotonic()

            def timed_build(version):
                start = time.monotonic()
                end = build(version)
                info("make M=DIR modules (version %d): %.2f s" % (version, end - start))
                return end

            try:
                build(1)
                with boot_sharing(m, share, cpus=m.smp) as h:
                    out = h.command("probe add vfs_read")
                    check(any("vfs_read" in line for line in out),
                          "`probe add vfs_read`: %s" % show(out))
                    out = h.command("insmod edit_loop")
                    check(out == ["edit_loop: version 1"], "`insmod edit_loop`: %s" % show(out))
                    built = timed_build(2)
                    out = h.command("rmmod edit_loop; insmod edit_loop")
                    took = time.monotonic() - built
                    check(out == ["edit_loop: version 1 removed", "edit_loop: version 2"],
                          "`rmmod edit_loop; insmod edit_loop` after the rebuild: %s" % show(out))
                    info("end of make M=DIR modules to the new module's message: %.2f s of"
                         " wall time" % took)
                    out = h.command("modprobe -r edit_loop; modprobe edit_loop")
                    check(out == ["edit_loop: version 2 removed", "edit_loop: version 2"],
                          "modprobe from the host's modules.dep: %s" % show(out))
                    out = h.command("probe list")
                    check(any("vfs_read" in line for line in out),
                          "the probe on vfs_read is gone: %s" % show(out))
                    h.command("rmmod edit_loop")
                    # A name the host's build does not have comes from the archive.
                    out = h.command("modinfo kprobe_example")
                    check(out[:1] == ["filename:       /lib/modules/kprobe_example.ko"],
                          "modinfo of an archive module: %s" % show(out))
                    out = h.command("modinfo edit_loop")
                    check(out[:1] == ["filename:       /host/build/%s/modules/lib/modules/"
                                      "edit_loop.ko" % m.arch],
                          "modinfo of the host's module: %s" % show(out))
            finally:
                shutil.rmtree(os.path.join(ROOT, "build", m.arch, "M", "abs" + src),
                              ignore_errors=True)


EDIT_LOOP_SOURCE = """/* The boot test host_folder_edit_loop's module, written by the test. */
#include <linux/kernel.h>
#include <linux/module.h>

static int __init edit_loop_init(void)
{
	pr_info("edit_loop: version %%d\\n", %(v)d);
	return 0;
}

static void __exit edit_loop_exit(void)
{
	pr_info("edit_loop: version %%d removed\\n", %(v)d);
}

module_init(edit_loop_init);
module_exit(edit_loop_exit);
MODULE_LICENSE("GPL");
"""
