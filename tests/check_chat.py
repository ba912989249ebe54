#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""tests/check_chat.py - the chat server demo against real clients.

    check_chat.py SERVER [--clients N] [--lines M]

Starts SERVER (demos/chat_server) on a free port. One client connects
first with a tiny receive buffer and never reads; then N clients connect
(50 by default). Once the server says all are in, each of the N sends M
lines (200 by default) as fast as the sockets take them, while reading
everything it is sent. Checks, each a failure of its own:

  - every line of every client reaches every other of the N exactly
    once, unchanged and in the order it was sent, and never its sender;
  - the client that never reads is disconnected, with a log line that
    names it, and nobody else is;
  - the server is still there at the end.

Exits 0 if all hold; prints what did not.
"""
import argparse
import os
import re
import selectors
import socket
import subprocess
import sys
import threading
import time


# PT_TEST_WRAPPER (meson test --setup valgrindscripts) runs the server
# under a wrapper such as valgrind; empty, it runs as is.
WRAPPER = os.environ.get("PT_TEST_WRAPPER", "").split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("server")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--lines", type=int, default=200)
    ap.add_argument("--payload", type=int, default=100, help="longest line payload, bytes")
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args()
    n, m, pay = args.clients, args.lines, args.payload
    if WRAPPER:
        # Under valgrind (some 50 times slower): fewer, longer lines, still
        # enough to leave the client that never reads far behind.
        n, m, pay = min(n, 10), min(m, 80), 1000

    srv = subprocess.Popen(WRAPPER + [args.server, "--port", "0"], stdout=subprocess.PIPE,
                           text=True)
    log = []
    first = srv.stdout.readline()
    mo = re.match(r"listening on 127\.0\.0\.1:(\d+)", first)
    if not mo:
        print(f"check_chat: the server said {first!r}")
        srv.kill()
        return 1
    port = int(mo.group(1))

    def read_log():
        for line in srv.stdout:
            log.append(line.rstrip("\n"))

    reader = threading.Thread(target=read_log, daemon=True)
    reader.start()

    def wait_log(pattern, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if any(re.search(pattern, line) for line in list(log)):
                return True
            time.sleep(0.01)
        return False

    failures = []
    # The client that never reads: a receive buffer as small as the kernel
    # allows, so that what the server sends it piles up at the server.
    slow = socket.socket()
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    slow.connect(("127.0.0.1", port))
    slow_name = "127.0.0.1:%d" % slow.getsockname()[1]
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.connect(("127.0.0.1", port))
        socks.append(s)
    if not wait_log(r"\(%d connected\)" % (n + 1), 60 if WRAPPER else 10):
        print("check_chat: the server never had all %d clients in" % (n + 1))
        print("\n".join(log[-20:]))
        srv.kill()
        return 1

    # Each client's lines: "c<i> <k> " and a payload that varies in length.
    # They go out in rounds, line k of every client in round k, and a round
    # starts once every client has what the round before sent it: the
    # clients read as fast as the server writes, so only the one that never
    # reads falls behind.
    def line(i, k):
        return b"c%d %d %s\n" % (i, k, b"x" * (10 + (i * 7 + k * 13) % (pay - 10)))

    inbuf = [bytearray() for _ in range(n)]
    nextk = [[0] * n for _ in range(n)]  # nextk[receiver][sender]
    bad = []
    got = [0] * n
    want = (n - 1) * m
    sel = selectors.DefaultSelector()
    for i, s in enumerate(socks):
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, i)

    def receive(i, s):
        try:
            data = s.recv(65536)
        except BlockingIOError:
            return
        except ConnectionError as e:
            data, why = b"", str(e)
        else:
            why = "end of file"
        if not data:
            bad.append("client %d: the server closed its connection (%s)" % (i, why))
            sel.unregister(s)
            return
        inbuf[i] += data
        *lines, rest = inbuf[i].split(b"\n")
        inbuf[i] = bytearray(rest)
        for ln in lines:
            mo = re.match(rb"c(\d+) (\d+) (x*)$", ln)
            if not mo:
                bad.append("client %d: a line it was never sent: %r" % (i, ln[:60]))
                continue
            j, k = int(mo.group(1)), int(mo.group(2))
            if j == i:
                bad.append("client %d: got its own line %d" % (i, k))
            elif k != nextk[i][j]:
                bad.append("client %d: from %d line %d, expected %d" % (i, j, k, nextk[i][j]))
            elif ln + b"\n" != line(j, k):
                bad.append("client %d: line %d of %d changed" % (i, k, j))
            nextk[i][j] = k + 1
            got[i] += 1

    end = time.monotonic() + args.timeout
    for k in range(m):
        for i, s in enumerate(socks):
            s.setblocking(True)
            try:
                s.sendall(line(i, k))
            except ConnectionError as e:
                bad.append("client %d: send: %s" % (i, e))
            s.setblocking(False)
        while time.monotonic() < end and any(g < (n - 1) * (k + 1) for g in got) and not bad:
            for key, _ in sel.select(timeout=1.0):
                receive(key.data, key.fileobj)
        if bad or time.monotonic() >= end:
            break
    sel.close()

    for i in range(n):
        if got[i] != want:
            failures.append("client %d received %d lines, not %d" % (i, got[i], want))
    failures += bad[:20]
    if not wait_log(re.escape(slow_name) + r" disconnected: too slow", 30 if WRAPPER else 5):
        failures.append("the client that never reads (%s) was not disconnected" % slow_name)
    others = [l for l in log if "disconnected" in l and slow_name not in l]
    if others:
        failures.append("others were disconnected: " + "; ".join(others[:5]))
    if srv.poll() is not None:
        failures.append("the server exited (status %s)" % srv.returncode)

    for s in socks:
        s.close()
    slow.close()
    srv.terminate()
    try:
        srv.wait(5)
    except subprocess.TimeoutExpired:
        srv.kill()
    if failures:
        print("check_chat: FAILED")
        for f in failures:
            print("  " + f)
        print("server log (last lines):")
        print("\n".join("  " + l for l in log[-15:]))
        return 1
    print("check_chat: %d clients x %d lines: every line reached every other client once, "
          "in order; the client that never read was disconnected" % (n, m))
    if WRAPPER:
        print("(under %s)" % WRAPPER[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
