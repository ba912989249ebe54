#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Run demos/on_chip on its emulated board and check what it did.

usage: check_on_chip.py [--uart] COMMAND... PROGRAM

COMMAND is how the cross build runs a program on its board (qemu-system-arm
with its options, or run_simavr.py). With --uart, a line is typed into the
board's UART and must come back, and the demo's count of echoed characters
must match: under qemu, `-serial none` becomes `-serial stdio` and the line
is written once the demo has printed its first blink; under simavr, which
reads no UART input from stdin, run_simavr.py --uart-input feeds the line
from a file at 1 ms of simulated time.

Passes when the demo's own timing checks passed ("on_chip: ok", exit status
0), every task reported what it should, and, with --uart, the echo came
back. Prints the demo's output and the wall time the run took.
"""
import os
import subprocess
import sys
import tempfile
import time

LINE = b"ping from the host\n"


def main() -> int:
    argv = sys.argv[1:]
    uart = argv[:1] == ["--uart"]
    typed = False  # the line goes in interactively (qemu)
    vcd_input = None
    if uart:
        argv = argv[1:]
        if "-serial" in argv:
            argv[argv.index("-serial") + 1] = "stdio"
            typed = True
        else:
            fd, vcd_input = tempfile.mkstemp(prefix="check_on_chip-")
            with os.fdopen(fd, "wb") as f:
                f.write(LINE)
            argv[-1:-1] = ["--uart-input", vcd_input]
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = b""
    sent = not typed
    for line in proc.stdout:
        out += line
        if not sent and b"blink 1\n" in out:
            proc.stdin.write(LINE)
            proc.stdin.flush()
            sent = True
    proc.stdin.close()
    status = proc.wait(timeout=60)
    if vcd_input:
        os.unlink(vcd_input)
    wall = time.monotonic() - start
    text = out.decode("utf-8", "replace")
    sys.stdout.write(text)
    print(f"--- exit status {status}, {wall:.2f} s wall")

    problems = []
    if status != 0 or "on_chip: ok\n" not in text:
        problems.append("the demo did not end with 'on_chip: ok' and status 0")
    for n in range(1, 11):
        if f"  blink {n}\n" not in text:
            problems.append(f"no 'blink {n}'")
    for n in range(1, 5):
        if f"logger: reading {n} = {100 * n + 7}\n" not in text:
            problems.append(f"no logged reading {n}")
    if uart:
        if not sent:
            problems.append("the demo never blinked, so nothing was typed")
        elif LINE.decode() not in text:
            problems.append("the typed line did not come back")
        if f", {len(LINE)} characters echoed\n" not in text:
            problems.append(f"the demo did not count {len(LINE)} characters echoed")
    for p in problems:
        print("FAILED:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
