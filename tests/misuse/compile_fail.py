#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Compile-failure tests: misuse of the pt/ macros must not compile.

Usage: compile_fail.py COMPILER [FLAG...] -- FILE.c [FILE.c...]

Everything before "--" is the compiler command and its flags, used as is
(meson passes cc.cmd_array() and the project's flags). Each FILE is compiled
twice:

  without -DPT_MISUSE  the correct form: it MUST compile, which also proves
                       that the command itself works (so that a broken
                       command cannot pass for an expected failure);
  with -DPT_MISUSE     the misuse: it MUST fail to compile.

A file may name what the failure must be about, in a line of its comment:

  misuse-expect: REGEX

The misuse then passes only if the compiler's output matches REGEX (Python
syntax, case-insensitive), so that a misuse which fails for an unrelated
reason (a typo) is reported instead of counted as a pass.

Prints one verdict per file and, for any unexpected result, the command and
the compiler's output. Exits 0 if every file behaved, 1 otherwise, 2 on a
usage error.
"""

import os
import re
import subprocess
import sys

# Diagnostics in English and plain ASCII quotes, for misuse-expect.
ENV = dict(os.environ, LC_ALL="C", LANG="C")


def expectation(path):
    """The misuse-expect regex of a file, or None."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.search(r"misuse-expect:\s*(.*?)\s*(\*/)?\s*$", line)
            if m and m.group(1):
                return m.group(1)
    return None


def compile_(cmd):
    """Run a compile command; (succeeded, combined output)."""
    try:
        p = subprocess.run(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=ENV,
            check=False,
        )
    except OSError as e:
        return False, "cannot run %s: %s\n" % (cmd[0], e)
    return p.returncode == 0, p.stdout.decode("utf-8", "replace")


def show(label, cmd, output):
    print("    %s: %s" % (label, " ".join(cmd)))
    for line in output.rstrip("\n").splitlines() or ["(no output)"]:
        print("      | " + line)


def check(compiler, path):
    """Compile one file both ways; True if it behaved."""
    good_cmd = compiler + [path]
    bad_cmd = compiler + ["-DPT_MISUSE", path]
    pattern = expectation(path)

    good_ok, good_out = compile_(good_cmd)
    bad_ok, bad_out = compile_(bad_cmd)

    problems = []
    if not good_ok:
        problems.append("the correct form does not compile")
    if bad_ok:
        problems.append("the misuse COMPILES (it must not)")
    elif pattern and not re.search(pattern, bad_out, re.IGNORECASE):
        problems.append("the misuse fails, but with no error matching /%s/" % pattern)

    name = os.path.normpath(path)
    if not problems:
        print("PASS %s: correct form compiles, misuse is rejected" % name)
        return True
    print("FAIL %s: %s" % (name, "; ".join(problems)))
    if not good_ok:
        show("correct form", good_cmd, good_out)
    if len(problems) > (0 if good_ok else 1):
        show("misuse", bad_cmd, bad_out)
    return False


def main(argv):
    if "--" not in argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    sep = argv.index("--")
    compiler, paths = argv[:sep], argv[sep + 1 :]
    if not compiler or not paths:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    failed = sum(0 if check(compiler, p) else 1 for p in paths)
    print("%d passed, %d failed" % (len(paths) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
