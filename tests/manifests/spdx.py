#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""tests/manifests/spdx.py - every source file of the repository begins with
its licence lines (meson test suite 'packaging'):

    /* SPDX-License-Identifier: MIT */
    /* Copyright (c) 2026 The ptloop developers */

in C and what is written like it (.c .h .ino .ld), and as "# " comments in
the others (.py .sh .ini .cmake .in .yml, meson.build, meson_options.txt,
CMakeLists.txt, Kconfig, library.properties, .ci/run, ...), after the "#!"
line of a script. The files that cannot hold a comment, or are compared
byte for byte (JSON, Markdown, expected outputs, images), are covered by
.reuse/dep5 instead, as the REUSE specification allows (`reuse lint`
checks the whole; this check needs nothing installed).

    spdx.py [<source root>] [--add]

The files are those git tracks (and new ones not ignored), or, outside a
git work tree, every file but build folders. A file of a kind neither list
knows fails the check: say which it is. --add writes the lines into the
files that lack them (the right ones replace a partial pair).
"""
import os
import subprocess
import sys

# (split so that reuse does not read this line as this file's licence)
LICENCE = "SPDX-License-" + "Identifier: MIT"
COPYRIGHT = "Copyright (c) 2026 The ptloop developers"

C_STYLE = (".c", ".h", ".ino", ".ld")
HASH_STYLE = (".py", ".sh", ".ini", ".cmake", ".in", ".yml", ".yaml", ".properties")
HASH_NAMES = {"meson.build", "meson_options.txt", "CMakeLists.txt", "Kconfig", ".gitignore",
              ".clang-format"}
# Covered by .reuse/dep5: no comment syntax, or compared as they are.
DATA = (".md", ".json", ".txt", ".expected", ".png")
DATA_NAMES = {"LICENSE", "dep5"}


def header(path, first_line):
    """The two lines path must begin with, or None if it is data."""
    name = os.path.basename(path)
    if name.endswith(C_STYLE):
        return [f"/* {LICENCE} */", f"/* {COPYRIGHT} */"]
    if name.endswith(HASH_STYLE) or name in HASH_NAMES or first_line.startswith("#!"):
        return [f"# {LICENCE}", f"# {COPYRIGHT}"]
    if name.endswith(DATA) or name in DATA_NAMES or path.startswith("LICENSES/"):
        return None
    raise LookupError(path)


def files(root):
    try:
        out = subprocess.run(
            ["git", "-c", f"safe.directory={root}", "-C", root, "ls-files", "-z", "--cached",
             "--others", "--exclude-standard"],
            check=True, capture_output=True).stdout.decode()
        return sorted(f for f in out.split("\0") if f and os.path.isfile(os.path.join(root, f)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, dirs, fs in os.walk(root):
            dirs[:] = [x for x in dirs if not (x.startswith("build") or x in (".git", "__pycache__",
                                                                               "subprojects"))]
            found += [os.path.relpath(os.path.join(d, f), root) for f in fs]
        return sorted(found)


def split_top(lines):
    """(the "#!" line or [], the rest) of a file's lines."""
    if lines and lines[0].startswith("#!"):
        return lines[:1], lines[1:]
    return [], lines


def main():
    args = [a for a in sys.argv[1:] if a != "--add"]
    add = "--add" in sys.argv[1:]
    root = os.path.normpath(args[0] if args else os.path.join(os.path.dirname(__file__), "../.."))
    lacking, unknown, checked = [], [], 0
    for rel in files(root):
        path = os.path.join(root, rel)
        with open(path, "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        lines = text.split("\n")
        try:
            want = header(rel, lines[0])
        except LookupError:
            unknown.append(rel)
            continue
        if want is None:
            continue
        checked += 1
        shebang, rest = split_top(lines)
        if rest[:2] == want:
            continue
        lacking.append(rel)
        if add:
            while rest and (LICENCE in rest[0] or COPYRIGHT in rest[0]):
                rest = rest[1:]
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(shebang + want + rest))
    for rel in unknown:
        print(f"FAIL  {rel}: neither a source file nor data (tests/manifests/spdx.py's lists)")
    for rel in lacking:
        print(f"{'added' if add else 'FAIL '} {rel}: the SPDX and copyright lines")
    bad = len(unknown) + (0 if add else len(lacking))
    print(f"spdx: {checked} source files, {len(lacking)} without the lines"
          + (" (added)" if add and lacking else "") + (f", {len(unknown)} of no known kind" if unknown else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
