#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Check the echo server demo with a real client: Python's socket module.

usage: check_echo.py ECHO_SERVER

Starts ECHO_SERVER --port 0 --tick 50, reads the port from its first line,
and talks to it from three clients at once (threads with blocking sockets):
each sends 200 messages of 1 to 1000 bytes and checks that every byte comes
back, in order, after "Got: ". A reply is "Got: " + what one read returned,
so one message may come back in several pieces, each with its own "Got: ";
the messages use no "G", so the pieces can be told apart. Then it checks
that the counters kept ticking while the clients talked, and that the
server saw every connection close. Then, with --idle 1, that sixteen
clients which send nothing are closed as idle, so that a seventeenth is
answered in about a second. Everything is bounded by timeouts.
"""
import os
import random
import socket
import subprocess
import sys
import threading
import time

CLIENTS, MESSAGES = 3, 200
ALPHABET = b"abcdefghijklmnopqrstuvwxyz0123456789 .,;:!?-_"


def recv_reply(sock, msg):
    """Read "Got: " + piece, ... until all of msg has come back."""
    got, buf = 0, b""
    while got < len(msg):
        while len(buf) < 5 + 1:
            chunk = sock.recv(65536)
            if not chunk:
                raise AssertionError("the server closed the connection")
            buf += chunk
        if buf[:5] != b"Got: ":
            raise AssertionError(f"reply does not start with 'Got: ': {buf[:20]!r}")
        buf = buf[5:]
        # the piece runs until the next "Got: " or the end of what came
        end = buf.find(b"G")
        piece = buf if end < 0 else buf[:end]
        piece = piece[: len(msg) - got]
        if piece != msg[got : got + len(piece)]:
            raise AssertionError(f"bytes {got}.. differ: {piece[:20]!r}")
        got += len(piece)
        buf = buf[len(piece) :]
        if got < len(msg) and not buf:
            buf = sock.recv(65536)
            if not buf:
                raise AssertionError("the server closed the connection")
    if buf:
        raise AssertionError(f"unexpected bytes after the reply: {buf[:20]!r}")


def client(port, seed, errors, counts):
    rng = random.Random(seed)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            for _ in range(MESSAGES):
                msg = bytes(rng.choice(ALPHABET) for _ in range(rng.randint(1, 1000)))
                s.sendall(msg)
                recv_reply(s, msg)
                counts[seed] += len(msg)
    except Exception as e:  # noqa: BLE001 - reported, then the test fails
        errors.append(f"client {seed}: {e!r}")


# PT_TEST_WRAPPER (meson test --setup valgrind-scripts) runs the program
# under a wrapper such as valgrind; empty, it runs as is.
WRAPPER = os.environ.get("PT_TEST_WRAPPER", "").split()


def main():
    server = subprocess.Popen(
        WRAPPER + [sys.argv[1], "--port", "0", "--tick", "50", "--seconds", "60"],
        stdout=subprocess.PIPE, text=True)
    lines = []
    try:
        first = server.stdout.readline()
        if not first.startswith("listening on 127.0.0.1:"):
            print(f"unexpected first line: {first!r}")
            return 1
        port = int(first.rsplit(":", 1)[1])
        # Drain its output as it comes: a full pipe would block the server.
        reader = threading.Thread(target=lambda: lines.extend(server.stdout.read().splitlines()))
        reader.start()
        errors, counts = [], {i: 0 for i in range(CLIENTS)}
        t0 = time.monotonic()
        threads = [threading.Thread(target=client, args=(port, i, errors, counts))
                   for i in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        took = time.monotonic() - t0
        # one more exchange, spread over 0.4 s (8 ticks): the counters must
        # tick between its messages
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            for word in (b"hello\n", b"still there?\n"):
                s.sendall(word)
                recv_reply(s, word)
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=10)
        if "reader" in locals():
            reader.join(10)
    for e in errors:
        print(e)
    total = sum(counts.values())
    print(f"{CLIENTS} clients x {MESSAGES} messages: {total} bytes echoed in {took:.2f} s")
    ups = [line for line in lines if line.split("  ")[-1].startswith("Up ")]
    received = [i for i, line in enumerate(lines) if "Received from" in line]
    between = [i for i, line in enumerate(lines)
               if received and received[0] < i < received[-1] and line in ups]
    closed = [line for line in lines if "Connection closed" in line]
    print(f"countup printed {len(between)} lines between the first and the last message;"
          f" {len(closed)} connections closed")
    ok = not errors and all(c > 0 for c in counts.values())
    if len(between) < 2:
        print("FAILED: the counters did not keep ticking while clients talked")
        ok = False
    # The three clients had closed before the last one connected, so the
    # server saw their end of file before it answered the last one.
    if len(closed) < CLIENTS:
        print(f"FAILED: {len(closed)} connections seen closed, expected {CLIENTS}")
        ok = False
    if not check_idle(sys.argv[1]):
        ok = False
    return 0 if ok else 1


def check_idle(path):
    """--idle 1: sixteen clients that connect and send nothing hold every
    slot; a seventeenth is answered once they are closed as idle, in about
    a second, not when they choose to leave."""
    server = subprocess.Popen(
        WRAPPER + [path, "--port", "0", "--tick", "50", "--seconds", "30", "--idle", "1"],
        stdout=subprocess.PIPE, text=True)
    lines, stalled, took = [], [], None
    try:
        port = int(server.stdout.readline().rsplit(":", 1)[1])
        reader = threading.Thread(target=lambda: lines.extend(server.stdout.read().splitlines()))
        reader.start()
        stalled = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(16)]
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(b"anyone?\n")
            recv_reply(s, b"anyone?\n")
        took = time.monotonic() - t0
        time.sleep(1.5)  # the other stalled ones reach their idle timeout too
    except Exception as e:  # noqa: BLE001 - reported as the failure
        print(f"FAILED: idle check: {e!r}")
    finally:
        for s in stalled:
            s.close()
        server.terminate()
        server.wait(timeout=10)
        if "reader" in locals():
            reader.join(10)
    idle = [line for line in lines if "(idle for 1 s)" in line]
    print(f"idle check: 16 stalled clients closed as idle: {len(idle)}; the 17th answered after"
          f" {took if took is None else round(took, 2)} s")
    if took is None or took > 5 or len(idle) < 16:
        print("FAILED: the stalled clients were not closed as idle in time")
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
