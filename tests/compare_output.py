#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Run a program and compare its standard output, byte for byte, with a file.

usage: compare_output.py EXPECTED PROGRAM [ARG...]

Exit 0 when they are identical; otherwise print a unified diff and exit 1
(or the program's own exit status, if it failed).
"""
import difflib
import os
import subprocess
import sys


# PT_TEST_WRAPPER (meson test --setup valgrind-scripts) runs the program
# under a wrapper such as valgrind; empty, it runs as is.
WRAPPER = os.environ.get("PT_TEST_WRAPPER", "").split()


def main() -> int:
    expected_path, argv = sys.argv[1], sys.argv[2:]
    run = subprocess.run(WRAPPER + argv, stdout=subprocess.PIPE, timeout=60 * (1 + 9 * bool(WRAPPER)))
    with open(expected_path, "rb") as f:
        expected = f.read()
    if run.returncode != 0:
        print(f"{argv[0]} exited with status {run.returncode}")
        return run.returncode if run.returncode > 0 else 1
    if run.stdout == expected:
        print(f"output identical to {expected_path} ({len(expected)} bytes)")
        return 0
    diff = difflib.unified_diff(
        expected.decode("utf-8", "replace").splitlines(keepends=True),
        run.stdout.decode("utf-8", "replace").splitlines(keepends=True),
        fromfile=expected_path,
        tofile="output of " + argv[0],
    )
    sys.stdout.writelines(diff)
    return 1


if __name__ == "__main__":
    sys.exit(main())
