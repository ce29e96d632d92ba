#!/usr/bin/env python3
"""Pack a directory into a "newc" cpio archive (the initramfs format).

Usage: tools/mkcpio.py DIR [DIR...] OUT

The archive holds everything below each DIR, named relative to it
("etc/motd"; DIR itself is not stored). Several DIRs are merged into one
tree: the build packs rootfs/ together with the staging tree of modules
(build/ARCH/modules, which holds lib/modules/NAME.ko). A directory may be
in several of them; a file (or link) must be in only one, or the archive
would depend on the order they are named in. The archive is
deterministic: the same trees always give the same bytes, whoever builds
them and whenever, because

  * paths are visited in sorted order, each directory before its contents;
  * mtime, uid and gid are 0, and inode numbers count up from 1;
  * permissions are normalised as git does: 0755 for directories and
    executable files, 0644 for other files.

Each entry is a 110-byte header (the magic 070701 and 13 fields of 8 hex
digits), the NUL-terminated name, padding to a multiple of 4, the data,
and padding to a multiple of 4. A "TRAILER!!!" entry ends the archive.
Symbolic links are stored with their target as data; other special files
are refused.
"""

import os
import stat
import sys

MAGIC = b"070701"
TRAILER = "TRAILER!!!"


def pad4(data):
    return data + b"\0" * (-len(data) % 4)


def header(ino, mode, nlink, filesize, namesize):
    # ino mode uid gid nlink mtime filesize devmajor devminor
    # rdevmajor rdevminor namesize check
    fields = (ino, mode, 0, 0, nlink, 0, filesize, 0, 0, 0, 0, namesize, 0)
    return MAGIC + b"".join(b"%08x" % f for f in fields)


def entry(ino, name, mode, nlink, data=b""):
    name_bytes = os.fsencode(name) + b"\0"
    # The header is 110 bytes; name and data are each padded so the next
    # part starts at a multiple of 4 from the start of the archive. Every
    # entry starts aligned, so padding each entry on its own is enough.
    head = pad4(header(ino, mode, nlink, len(data), len(name_bytes))
                + name_bytes)
    return head + pad4(data)


def walk(root, rel=""):
    """Yield (relative path, lstat result) in sorted pre-order."""
    directory = os.path.join(root, rel) if rel else root
    for name in sorted(os.listdir(directory), key=os.fsencode):
        path = f"{rel}/{name}" if rel else name
        st = os.lstat(os.path.join(root, path))
        yield path, st
        if stat.S_ISDIR(st.st_mode):
            yield from walk(root, path)


def merged(roots):
    """Yield (relative path, lstat result, root) for the union of the
    roots, in sorted pre-order: sorting by path components puts each
    directory just before its contents, as walk() does for one root."""
    found = {}
    for root in roots:
        for path, st in walk(root):
            if path in found:
                if stat.S_ISDIR(st.st_mode) and stat.S_ISDIR(found[path][0].st_mode):
                    continue
                sys.exit(f"mkcpio: {path} is in both {found[path][1]} and {root}")
            found[path] = (st, root)
    for path in sorted(found, key=lambda p: [os.fsencode(c) for c in p.split("/")]):
        st, root = found[path]
        yield path, st, root


def archive(roots):
    """The archive of one root directory, or of a list of them merged."""
    if isinstance(roots, (str, bytes, os.PathLike)):
        roots = [roots]
    out = []
    for ino, (path, st, root) in enumerate(merged(roots), start=1):
        full = os.path.join(root, path)
        if stat.S_ISDIR(st.st_mode):
            out.append(entry(ino, path, stat.S_IFDIR | 0o755, 2))
        elif stat.S_ISREG(st.st_mode):
            perm = 0o755 if st.st_mode & 0o111 else 0o644
            with open(full, "rb") as f:
                data = f.read()
            out.append(entry(ino, path, stat.S_IFREG | perm, 1, data))
        elif stat.S_ISLNK(st.st_mode):
            target = os.fsencode(os.readlink(full))
            out.append(entry(ino, path, stat.S_IFLNK | 0o777, 1, target))
        else:
            sys.exit(f"mkcpio: {full}: not a file, directory or symlink")
    out.append(entry(0, TRAILER, 0, 1))
    return b"".join(out)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: mkcpio.py DIR [DIR...] OUT")
    roots, out_path = sys.argv[1:-1], sys.argv[-1]
    for root in roots:
        if not os.path.isdir(root):
            sys.exit(f"mkcpio: {root}: not a directory")
    data = archive(roots)
    # Write to a temporary name and rename, so an interrupted build never
    # leaves a truncated archive that looks up to date.
    tmp = out_path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out_path)


if __name__ == "__main__":
    main()
