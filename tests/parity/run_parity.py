#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Run one parity case: a Python program and its C counterpart, which must
print the same trace.

usage: run_parity.py PYTHON_FILE C_PROGRAM... [--c-source FILE.c]
                     [--expect FILE [--expect-python FILE]]

Runs `python3 PYTHON_FILE` once (isolated, without site-packages: -I -S;
the cases use the standard library only) and each C_PROGRAM (the same case
built with each local-continuation back end) and compares their standard
output byte for byte. All identical: exit 0. Otherwise print a unified
diff (Python's trace against C's) and exit 1.

A deliberate difference (the project chooses to differ from Python) is a
case with --expect FILE, the project's own trace (<case>.expected), and
--expect-python FILE, Python's trace (<case>.py.expected). Then C's output
must equal the first, Python's the second, and the two must differ: the
recorded difference is the diff between the two files, so both sides are
pinned, and a difference that disappears (or changes) fails the case.

With --c-source, the first comment of the C file after its licence lines
(SPDX and copyright) must start with "/* deliberate difference: <reason> */"
exactly when --expect is given; the reason is printed with the result.

PT_TEST_WRAPPER (meson test --setup valgrindscripts) runs the C program
under a wrapper such as valgrind; the Python program runs as is.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys

WRAPPER = os.environ.get("PT_TEST_WRAPPER", "").split()
MARK = "/* deliberate difference:"


def run(argv, timeout):
    """Run argv; (stdout bytes, exit status, stderr text)."""
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return e.stdout or b"", "timed out after %d s" % timeout, ""
    return p.stdout, p.returncode, p.stderr.decode("utf-8", "replace")


def diff(a, b, a_name, b_name):
    lines = difflib.unified_diff(
        a.decode("utf-8", "replace").splitlines(keepends=True),
        b.decode("utf-8", "replace").splitlines(keepends=True),
        fromfile=a_name,
        tofile=b_name,
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline\n" for line in lines)


def deliberate_reason(c_source):
    """The reason in the C file's first comment after its licence lines, or
    None if it has none."""
    with open(c_source, encoding="utf-8") as f:
        lines = f.read().split("\n")
    while lines and lines[0].startswith(("/* SPDX-License-Identifier:", "/* Copyright")):
        lines = lines[1:]
    text = "\n".join(lines)
    if not text.startswith(MARK):
        return None
    comment = text[len(MARK) : text.index("*/")]
    return re.sub(r"\s*\n\s*\*?\s*", " ", comment).strip()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("python_file")
    ap.add_argument("c_programs", nargs="+", metavar="c_program")
    ap.add_argument("--c-source", help="the case's .c file: checks its first comment")
    ap.add_argument("--expect", help="deliberate difference: the C trace (<case>.expected)")
    ap.add_argument("--expect-python", help="... and Python's trace (<case>.py.expected)")
    args = ap.parse_args()
    if args.expect_python and not args.expect:
        ap.error("--expect-python needs --expect")

    if sys.version_info < (3, 11):
        print("SKIP: the parity cases are written against Python 3.11 (TaskGroup, except*)")
        return 77

    reason = deliberate_reason(args.c_source) if args.c_source else None
    if args.c_source and bool(reason) != bool(args.expect):
        if args.expect:
            print(f"{args.c_source}: a case with {args.expect} must start with "
                  f"'{MARK} <reason> */'")
        else:
            print(f"{args.c_source} says '{MARK}' but the case has no .expected file")
        return 1

    py_out, py_rc, py_err = run([sys.executable, "-I", "-S", args.python_file], 60)
    py_name = "python3 " + os.path.basename(args.python_file)
    if py_rc != 0:
        print(f"{py_name} exited with status {py_rc}\n{py_err}")
    ok = py_rc == 0
    if args.expect:
        print(f"deliberate difference: {reason or '(see the .c file)'}")
        ok = check_python_recorded(args, py_out, py_name) and ok
    for c_program in args.c_programs:
        ok = check_c(args, c_program, py_out, py_name) and ok
    return 0 if ok else 1


def check_python_recorded(args, py_out, py_name):
    """A deliberate difference: Python's trace is the recorded one, and it
    is not the project's."""
    ok = True
    if args.expect_python:
        py_expected = read(args.expect_python)
        if py_out != py_expected:
            print(f"{py_name}: output differs from the recorded {args.expect_python}")
            sys.stdout.write(diff(py_expected, py_out, args.expect_python, py_name))
            ok = False
    if py_out == read(args.expect):
        print(f"{py_name} now prints exactly {args.expect}: the difference is gone; "
              "make this an identical case (delete the .expected files and the comment)")
        ok = False
    return ok


def check_c(args, c_program, py_out, py_name):
    """One C program's trace: Python's, or for a deliberate difference the
    recorded one."""
    c_out, c_rc, c_err = run(WRAPPER + [c_program], 60 * (1 + 9 * bool(WRAPPER)))
    c_name = os.path.basename(c_program)
    ok = True
    if c_rc != 0:
        print(f"{c_name} exited with status {c_rc}\n{c_err}")
        ok = False
    if not args.expect:
        if py_out != c_out:
            print(f"{c_name}: output differs from {py_name}'s")
            sys.stdout.write(diff(py_out, c_out, py_name, c_name))
            return False
        if ok:
            print(f"{c_name}: identical, {len(c_out.splitlines())} lines")
        return ok
    expected = read(args.expect)
    if c_out != expected:
        print(f"{c_name}: output differs from the recorded {args.expect}")
        sys.stdout.write(diff(expected, c_out, args.expect, c_name))
        return False
    if ok:
        print(f"{c_name}: as recorded (Python's trace, then the project's):")
        sys.stdout.write(diff(py_out, c_out, py_name, c_name))
    return ok


if __name__ == "__main__":
    sys.exit(main())
