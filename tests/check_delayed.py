#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Check the delayed-requests scenario: concurrent total < 0.6 x serial.

usage: check_delayed.py DELAYED_CLIENT

Runs DELAYED_CLIENT --scale 10 (its own server, delays of 50 to 200 ms):
ten requests one after another, then ten at once. Passes if every request
got "response" (the client's exit status) and the concurrent total is less
than 0.6 of the serial one: a ratio, not an absolute time. (Expected: about
0.16, the longest delay over the sum of the delays.)
"""
import os
import re
import subprocess
import sys


# PT_TEST_WRAPPER (meson test --setup valgrind-scripts) runs the program
# under a wrapper such as valgrind; empty, it runs as is.
WRAPPER = os.environ.get("PT_TEST_WRAPPER", "").split()


def main():
    run = subprocess.run(WRAPPER + [sys.argv[1], "--scale", "10"], capture_output=True,
                         text=True, timeout=60 * (1 + 9 * bool(WRAPPER)))
    print(run.stdout, end="")
    serial = re.search(r"^serial total:\s+([0-9.]+) ms", run.stdout, re.M)
    conc = re.search(r"^concurrent total:\s+([0-9.]+) ms", run.stdout, re.M)
    if run.returncode != 0 or not serial or not conc:
        print(f"FAILED: exit status {run.returncode}, totals found: {bool(serial and conc)}")
        return 1
    ratio = float(conc.group(1)) / float(serial.group(1))
    print(f"ratio {ratio:.3f} (must be < 0.6)")
    return 0 if ratio < 0.6 else 1


if __name__ == "__main__":
    sys.exit(main())
