#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Drive an echo server running under fault_shim and check every byte.

usage: check_fault_echo.py --shim LIB --kind bench|demo [--seconds S]
                           [--conns N] [--seed N] -- SERVER

--kind bench: SERVER is bench/bench_echo_server (run as SERVER PORT LIFE):
each reply is exactly the bytes sent. --kind demo: SERVER is
demos/echo_server (--port 0): each read comes back as "Got: " + what it
read, so one line may come back in pieces; the lines hold every byte value
(NUL included) but "G", so the pieces can be told apart.

N connections (selectors, non-blocking) each send lines of random length
and content, one at a time, and check the reply byte by byte as it comes.
The shim injects EINTR, EAGAIN, short reads and writes, resets and EMFILE
windows (rates below); a reset or a refused accept may end a connection
(it is counted and replaced), but a byte that differs from what was sent
is counted as altered, and any is a failure. Also a failure: a connection
that makes no progress for 15 s, no exchange at all, a fault kind never
injected, or a server that does not answer one clean line at the end.
Prints exchanges, bytes, dropped connections, faults per kind, altered.
"""
import argparse
import os
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time

STALL = 15.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_stats(path):
    try:
        with open(path, encoding="ascii") as f:
            return {k: int(v) for k, v in (w.split("=", 1) for w in f.read().split() if "=" in w)}
    except OSError:
        return {}


class Conn:
    """One connection: a line in flight and its reply checked as it comes."""

    def __init__(self, rng, kind, port, max_len):
        self.rng, self.kind, self.max_len = rng, kind, max_len
        self.sock = socket.socket()
        self.sock.setblocking(False)
        self.sock.connect_ex(("127.0.0.1", port))
        self.last = time.monotonic()
        self.new_line()

    def new_line(self):
        n = self.rng.randint(1, self.max_len)
        if self.kind == "demo":
            body = bytes(b if b != 0x47 else 0 for b in self.rng.randbytes(n - 1))
        else:
            body = self.rng.randbytes(n - 1)
        self.line = body + b"\n"
        self.out = self.line  # still to send
        self.back = 0  # bytes of the line echoed so far
        self.hdr = b""  # demo: the "Got: " being read

    def feed(self, data):
        """Check data; returns (altered bytes, lines completed)."""
        altered = done = 0
        i = 0
        while i < len(data):
            if self.kind == "demo" and (self.hdr != b"Got: " or
                                        (data[i] == 0x47 and self.back < len(self.line))):
                if self.hdr == b"Got: ":
                    self.hdr = b""
                take = min(5 - len(self.hdr), len(data) - i)
                self.hdr += data[i:i + take]
                if b"Got: "[:len(self.hdr)] != self.hdr:
                    return altered + len(data) - i, done
                i += take
                continue
            want = len(self.line) - self.back
            chunk = data[i:i + want]
            if self.kind == "demo":
                g = chunk.find(b"G")
                if g >= 0:
                    chunk = chunk[:g]
            if chunk != self.line[self.back:self.back + len(chunk)]:
                altered += sum(1 for a, b in zip(chunk, self.line[self.back:]) if a != b) or 1
            self.back += len(chunk)
            i += len(chunk)
            if self.back == len(self.line):
                if self.out:
                    return altered + 1, done  # a reply before its request was sent
                done += 1
                self.new_line()
        return altered, done


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shim", required=True)
    ap.add_argument("--kind", choices=["bench", "demo"], required=True)
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--conns", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rate", default="0.05")
    ap.add_argument("--reset", default="0.002")
    ap.add_argument("--emfile", default="0.05")
    ap.add_argument("server", nargs="+")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    tmp = tempfile.mkdtemp()
    stats = os.path.join(tmp, "stats")
    env = dict(os.environ, LD_PRELOAD=os.path.abspath(a.shim), PT_FAULT_SEED=str(a.seed),
               PT_FAULT_RATE=a.rate, PT_FAULT_RESET=a.reset, PT_FAULT_EMFILE=a.emfile,
               PT_FAULT_STATS=stats, PT_FAULT_QUIET="1")
    # A sanitized build links the ASan runtime, which wants to be first in
    # the library list; the shim is first, by design.
    env["ASAN_OPTIONS"] = ":".join(
        o for o in (os.environ.get("ASAN_OPTIONS", ""), "verify_asan_link_order=0") if o)
    life = int(a.seconds + 60)
    if a.kind == "bench":
        port = free_port()
        cmd = a.server + [str(port), str(life)]
        # bench: 16 KiB buffer; lines up to 40 KiB cross it
        max_len = 40000
    else:
        cmd = a.server + ["--port", "0", "--tick", "1000", "--seconds", str(life)]
        max_len = 3000
    srv = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    out_lines = []
    try:
        first = srv.stdout.readline().decode(errors="replace")
        if a.kind == "demo":
            if not first.startswith("listening on 127.0.0.1:"):
                print(f"FAILED: unexpected first line {first!r}")
                return 1
            port = int(first.rsplit(":", 1)[1])
        elif not first.startswith("READY"):
            print(f"FAILED: server not ready: {first!r}")
            return 1
        # its output must keep flowing, or a full pipe blocks it
        drain = threading.Thread(target=lambda: out_lines.extend(srv.stdout.read().splitlines()))
        drain.start()

        sel = selectors.DefaultSelector()
        conns = {}

        def open_conn():
            c = Conn(random.Random(rng.random()), a.kind, port, max_len)
            conns[c.sock.fileno()] = c
            sel.register(c.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, c)

        def drop(c):
            sel.unregister(c.sock)
            del conns[c.sock.fileno()]
            c.sock.close()

        for _ in range(a.conns):
            open_conn()
        exchanges = sent = received = altered = dropped = stalled = 0
        end = time.monotonic() + a.seconds
        while time.monotonic() < end:
            for key, ev in sel.select(0.2):
                c = key.data
                try:
                    if ev & selectors.EVENT_WRITE and c.out:
                        n = c.sock.send(c.out[:65536])
                        sent += n
                        c.out = c.out[n:]
                        c.last = time.monotonic()
                    if ev & selectors.EVENT_READ:
                        data = c.sock.recv(65536)
                        if not data:
                            raise ConnectionResetError("end of file")
                        received += len(data)
                        bad, done = c.feed(data)
                        altered += bad
                        exchanges += done
                        c.last = time.monotonic()
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    dropped += 1  # a reset or a refused accept: replace it
                    drop(c)
                    open_conn()
                    continue
                want = selectors.EVENT_READ | (selectors.EVENT_WRITE if c.out else 0)
                if key.events != want:
                    sel.modify(c.sock, want, c)
            now = time.monotonic()
            for c in [c for c in conns.values() if now - c.last > STALL]:
                stalled += 1
                drop(c)
                open_conn()
        for c in list(conns.values()):
            drop(c)
        # the server still serves: one clean line, checked
        final_ok = False
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            c = Conn(random.Random(0), a.kind, port, 1)
            c.sock.close()
            c.line, c.out = b"still\x00there\n", b""
            for attempt in range(5):  # a reset of this one is a fault too
                try:
                    s.sendall(c.line)
                    while not final_ok:
                        data = s.recv(65536)
                        if not data:
                            break
                        bad, done = c.feed(data)
                        altered += bad
                        final_ok = done > 0 or final_ok
                    break
                except OSError:
                    break
        if not final_ok:  # one more try on a fresh connection
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                s.sendall(b"again\n")
                got = b""
                while b"\n" not in got:
                    d = s.recv(65536)
                    if not d:
                        break
                    got += d
                final_ok = got.endswith(b"again\n")
    finally:
        srv.terminate()
        try:
            srv.wait(10)
        except subprocess.TimeoutExpired:
            srv.kill()
            srv.wait()
        if "drain" in locals():
            drain.join(10)
    counts = read_stats(stats)
    os.unlink(stats) if os.path.exists(stats) else None
    os.rmdir(tmp)
    print(f"{a.kind} echo under faults, {a.seconds:g} s, {a.conns} connections, seed {a.seed}: "
          f"exchanges={exchanges} bytes_sent={sent} bytes_received={received} "
          f"dropped={dropped} stalled={stalled} altered={altered}")
    print("faults injected: " + " ".join(f"{k}={v}" for k, v in counts.items()))
    for line in out_lines:
        if line.startswith(b"STATS"):
            print(line.decode(errors="replace"))
    ok = True
    expect = ["eintr", "eagain", "short_read", "short_write"]
    if float(a.reset) > 0:
        expect.append("reset")
    if float(a.emfile) > 0:
        expect.append("emfile")
    missing = [k for k in expect if counts.get(k, 0) == 0]
    for what, bad in [(f"{altered} bytes altered", altered), (f"{stalled} connections stalled",
                      stalled), ("no exchange completed", exchanges == 0),
                      ("the server did not answer a clean line at the end", not final_ok),
                      (f"no faults of kind {', '.join(missing)}", missing)]:
        if bad:
            print(f"FAILED: {what}")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
