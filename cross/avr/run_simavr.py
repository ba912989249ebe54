#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Run an AVR program under simavr; the meson exe_wrapper for AVR.

usage: run_simavr.py [--timeout SECONDS] [--uart-input FILE] PROGRAM.elf

Runs `simavr -v -m atmega328p -f 16000000 PROGRAM.elf`. The program's output
(what it writes to USART0, see cross/avr/board.c) goes to standard output,
without simavr's colour escapes and loader lines; the board's own lines
("pt-board: ...") go to standard error. Exits with the status of the
"pt-board: exit N" line (N if 0..255, else 1); exits 1 with a message if that
line never comes, if simavr fails or reports a crash, or after the time limit
(default 60 s; simavr is then killed).

--uart-input FILE feeds the bytes of FILE to USART0's receiver, one every
100 us of simulated time from 1 ms on. simavr reads no UART input from
stdin; this goes through its VCD input (-i): an 8-bit signal named
"uar0_0" drives UART0's input (ioctl 'uar0', IRQ 0). simavr stops when that
file ends, so it ends with one more change 1000 s later.

How simavr 1.6 shows the UART: on its stderr, in pieces of
"ESC[32m" PIECE "\\n" "ESC[0m", where PIECE is the characters written since
the last piece, each control character shown as '.', ended by a newline
(the newline itself shown as '.') or after 256 characters. So a piece shorter
than 256 that ends in '.' is a line; anything else is passed on as it is.
Not representable: control characters other than the newline (tab, CR come
out as '.'), a newline that is the 256th character of a piece, and output
after the last newline only shows up if something (the board's exit line)
follows it.
"""
import os
import re
import selectors
import subprocess
import sys
import tempfile
import time

# -v: simavr's error messages too (a crash, a bad access); a clean run stays quiet.
SIMAVR = ["simavr", "-v", "-m", "atmega328p", "-f", "16000000"]
PIECE_MAX = 256
BOARD = b"pt-board: "
ANSI_RE = re.compile(rb"\x1b\[[0-9;]*m")
EXIT_RE = re.compile(rb"pt-board: exit (-?\d+)\n")


def uart_vcd(data: bytes) -> str:
    """A VCD file feeding `data` to UART0's receiver; its path."""
    lines = ["$timescale 1us $end", "$scope module uart $end", "$var wire 8 ! uar0_0 $end"]
    lines += ["$upscope $end", "$enddefinitions $end"]
    for i, byte in enumerate(data):
        lines += [f"#{1000 + 100 * i}", f"b{byte:08b} !"]
    lines += ["#1000000000", "b00000000 !"]  # the end of the file stops simavr
    fd, path = tempfile.mkstemp(suffix=".vcd", prefix="run_simavr-")
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def fail(msg: str) -> int:
    sys.stderr.write(f"run_simavr.py: {msg}\n")
    return 1


class Decoder:
    """simavr's stderr -> program output (stdout) and board lines (stderr)."""

    def __init__(self) -> None:
        self.raw = b""  # undecoded stderr
        self.text = b""  # decoded UART text not yet split into lines
        self.status = None
        self.crashed = False

    def feed(self, data: bytes) -> None:
        self.raw += data
        while b"\n" in self.raw:
            line, self.raw = self.raw.split(b"\n", 1)
            while line.startswith(b"\x1b[0m"):
                line = line[4:]
            if line.startswith(b"\x1b[32m"):
                piece = line[5:]
                if len(piece) < PIECE_MAX and piece.endswith(b"."):
                    piece = piece[:-1] + b"\n"
                self.uart(piece)
            elif line:
                self.simavr(line)

    def simavr(self, line: bytes) -> None:
        """One line simavr printed itself (on either stream)."""
        if line.startswith(b"Loaded "):  # "Loaded 2068 .text at address 0x0"
            return
        # After a crash simavr starts its gdb server and waits for ever.
        if b"avr_sadly_crashed" in line or b"avr_gdb_init" in line:
            self.crashed = True
        line = ANSI_RE.sub(b"", line)
        if not line.startswith(b"simavr"):
            line = b"simavr: " + line
        sys.stderr.buffer.write(line + b"\n")
        sys.stderr.flush()

    def uart(self, piece: bytes) -> None:
        self.text += piece
        while b"\n" in self.text:
            line, self.text = self.text.split(b"\n", 1)
            line += b"\n"
            at = line.find(BOARD)
            if at >= 0:
                self.out(line[:at])
                board = line[at:]
                sys.stderr.buffer.write(board)
                sys.stderr.flush()
                m = EXIT_RE.fullmatch(board)
                if m:
                    self.status = int(m.group(1))
            else:
                self.out(line)

    def finish(self) -> None:
        self.feed(b"\n")  # a last unterminated simavr line
        self.out(self.text)
        self.text = b""

    @staticmethod
    def out(data: bytes) -> None:
        if data:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()


def main() -> int:
    args = sys.argv[1:]
    timeout = 60.0
    vcd = None
    while len(args) >= 2 and args[0] in ("--timeout", "--uart-input"):
        if args[0] == "--timeout":
            timeout = float(args[1])
        else:
            with open(args[1], "rb") as f:
                vcd = uart_vcd(f.read())
        args = args[2:]
    if len(args) != 1:
        return fail("usage: run_simavr.py [--timeout SECONDS] [--uart-input FILE] PROGRAM.elf")
    try:
        return run(args[0], timeout, ["-i", vcd] if vcd else [])
    finally:
        if vcd:
            os.unlink(vcd)


def run(elf: str, timeout: float, extra: list) -> int:
    try:
        proc = subprocess.Popen(
            SIMAVR + extra + [elf],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as e:
        return fail(f"cannot run simavr: {e}")

    dec = Decoder()
    deadline = time.monotonic() + timeout
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, "out")
    sel.register(proc.stderr, selectors.EVENT_READ, "err")
    loader = b""  # simavr's stdout, not yet a whole line
    timed_out = False
    try:
        while sel.get_map() and not dec.crashed:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            for key, _ in sel.select(left):
                data = os.read(key.fileobj.fileno(), 65536)
                if not data:
                    sel.unregister(key.fileobj)
                elif key.data == "err":
                    dec.feed(data)
                else:
                    loader += data
                    *lines, loader = loader.split(b"\n")
                    for line in lines:
                        dec.simavr(line)
    finally:
        if proc.poll() is None:  # timed out, crashed (simavr then waits for gdb), interrupted
            proc.kill()
    rc = proc.wait()
    dec.finish()
    if loader:
        dec.simavr(loader)

    if timed_out:
        return fail(f"no exit after {timeout:g} s; simavr killed")
    if dec.crashed:
        return fail("simavr reports a crash; killed")
    if rc != 0:
        return fail(f"simavr failed with status {rc}")
    if dec.status is None:
        return fail('the program never printed "pt-board: exit N"')
    return dec.status if 0 <= dec.status <= 255 else 1


if __name__ == "__main__":
    sys.exit(main())
