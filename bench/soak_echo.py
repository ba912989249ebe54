#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""bench/soak_echo.py - soak bench_echo_server with 1,000 clients that
misbehave, and check every byte and that the server gives back what it took.

    python3 bench/soak_echo.py --server <build>/bench/bench_echo_server
        [--seconds 60 | --quick] [--clients 1000] [--seed 1]

One process, selectors (epoll), non-blocking sockets: not bound by
FD_SETSIZE; it raises its own RLIMIT_NOFILE to the hard limit and says so.
Each client runs scenarios one after another on its connection, at random:
  normal     1-5 lines (random bytes, NUL included), each awaited
  long       one line of 20-200 KB: longer than the server's 16 KiB buffer
  nul        a line of NUL bytes only
  stall      half a line, a pause of 0.1-1 s, then the rest
  reset      part of a line, then close with SO_LINGER 0 (an RST)
  halfclose  a line, shutdown(SHUT_WR), read all that is owed, then EOF
then it reconnects after a reset, a half-close or, sometimes, a plain
close. Every byte that comes back is compared with what that connection
sent (the echo is a byte stream: the reply must be the request's bytes, in
order); a differing byte counts as altered; owed bytes that never came
before end of file count as lost.

The server's descriptors (/proc/PID/fd) are read before the clients
connect, every 0.5 s during the run (the maximum is kept) and after they
have all gone (waiting up to 10 s for the count to return to the baseline);
its VmRSS before and after. Prints exchanges (lines echoed in full), bytes
sent and received, resets and half-closes done, unexpected drops, the
server's STATS line (accepted, refused_emfile, refused_full). Exits 1 if a
byte was altered or lost, a client stalled for 30 s, the descriptors did
not return to the baseline, or no exchange completed; 0 otherwise.
Timings are never checked. Traffic is to 127.0.0.1 only.
"""
import argparse
import os
import random
import resource
import select
import selectors
import signal
import socket
import struct
import subprocess
import sys
import time

STALL = 30.0
SCENARIOS = ["normal"] * 4 + ["long", "nul", "stall", "reset", "halfclose"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fd_count(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


class Stats:
    def __init__(self):
        self.exchanges = self.sent = self.received = self.altered = self.lost = 0
        self.resets = self.halfcloses = self.closes = self.drops = self.stalls = 0
        self.connects = 0


class Client:
    """One client: a connection and a script of steps, run as it can."""

    def __init__(self, rng, port, sel, st):
        self.rng, self.port, self.sel, self.st = rng, port, sel, st
        self.sock = None
        self.connect()

    def connect(self):
        self.sock = socket.socket()
        self.sock.setblocking(False)
        self.sock.connect_ex(("127.0.0.1", self.port))
        self.st.connects += 1
        self.out = b""  # to send
        self.pending = bytearray()  # sent, not yet echoed
        self.steps = []
        self.wake = 0.0
        self.eof = False
        self.last = time.monotonic()
        self.events = selectors.EVENT_READ | selectors.EVENT_WRITE
        self.sel.register(self.sock, self.events, self)

    def line(self, n):
        return self.rng.randbytes(n - 1) + b"\n"

    def plan(self):
        kind = self.rng.choice(SCENARIOS)
        r = self.rng
        if kind == "normal":
            for _ in range(r.randint(1, 5)):
                self.steps += [("send", self.line(r.randint(1, 2000))), ("echo",)]
        elif kind == "long":
            self.steps += [("send", self.line(r.randint(20000, 200000))), ("echo",)]
        elif kind == "nul":
            self.steps += [("send", bytes(r.randint(1, 3000)) + b"\n"), ("echo",)]
        elif kind == "stall":
            ln = self.line(r.randint(2, 4000))
            cut = r.randint(1, len(ln) - 1)
            self.steps += [("send", ln[:cut]), ("sleep", r.uniform(0.1, 1.0)),
                           ("send", ln[cut:]), ("echo",)]
        elif kind == "reset":
            ln = self.line(r.randint(2, 4000))
            self.steps += [("send", ln[:r.randint(1, len(ln) - 1)]),
                           ("sleep", r.uniform(0, 0.05)), ("reset",)]
        else:
            self.steps += [("send", self.line(r.randint(1, 20000))), ("shutdown",), ("eof",)]
        if kind in ("normal", "long", "nul", "stall") and r.random() < 0.1:
            self.steps.append(("close",))

    def reconnect(self):
        self.sel.unregister(self.sock)
        self.sock.close()
        self.connect()

    def advance(self, now):
        """Run the steps that can run now."""
        while True:
            if not self.steps:
                self.plan()
            step = self.steps[0]
            op = step[0]
            if op == "send":
                if self.out:
                    break
                self.out = step[1]
                self.pending += step[1]
            elif op == "echo":
                if self.pending:
                    break
                self.st.exchanges += 1
            elif op == "sleep":
                if self.wake == 0.0:
                    self.wake = now + step[1]
                if now < self.wake:
                    break
                self.wake = 0.0
            elif op == "reset":
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.st.resets += 1
                self.reconnect()
                return
            elif op == "shutdown":
                if self.out:
                    break
                self.sock.shutdown(socket.SHUT_WR)
                self.st.halfcloses += 1
            elif op == "eof":
                if not self.eof:
                    break
                if self.pending:
                    self.st.lost += len(self.pending)
                self.st.exchanges += 1
                self.reconnect()
                return
            elif op == "close":
                self.st.closes += 1
                self.reconnect()
                return
            self.steps.pop(0)
            self.last = now
        want = selectors.EVENT_READ | (selectors.EVENT_WRITE if self.out else 0)
        if self.eof:
            want &= ~selectors.EVENT_READ
        if want != self.events:
            self.events = want
            if want:
                self.sel.modify(self.sock, want, self)
            else:
                self.sel.unregister(self.sock)
                self.sel.register(self.sock, selectors.EVENT_WRITE, self)
                self.events = selectors.EVENT_WRITE

    def io(self, ev, now):
        try:
            if ev & selectors.EVENT_WRITE and self.out:
                n = self.sock.send(self.out[:65536])
                self.out = self.out[n:]
                self.st.sent += n
                self.last = now
            if ev & selectors.EVENT_READ and not self.eof:
                data = self.sock.recv(262144)
                if not data:
                    self.eof = True
                else:
                    self.st.received += len(data)
                    exp = self.pending[:len(data)]
                    if data != exp:
                        self.st.altered += sum(1 for a, b in zip(data, exp) if a != b) + \
                            max(0, len(data) - len(exp))
                    del self.pending[:len(data)]
                    self.last = now
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self.st.drops += 1  # the server reset or refused it
            self.reconnect()
            return
        if self.eof and self.steps and self.steps[0][0] != "eof":
            self.st.drops += 1  # the server closed while a reply was owed
            self.st.lost += len(self.pending)
            self.reconnect()
            return
        self.advance(now)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="bench_echo_server")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--quick", action="store_true", help="5 s instead")
    ap.add_argument("--clients", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    secs = 5.0 if a.quick else a.seconds

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = a.clients + 64
    if soft < need:
        new = hard if hard == resource.RLIM_INFINITY else min(hard, max(need, soft))
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        print(f"soak: raised RLIMIT_NOFILE from {soft} to {new} (hard {hard})")
    else:
        print(f"soak: RLIMIT_NOFILE {soft} is enough for {a.clients} clients")
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < need:
        print(f"soak: FAILED: cannot have {need} descriptors")
        return 1

    port = free_port()
    srv = subprocess.Popen([a.server, str(port), str(int(secs + 120))], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE)
    ok = True
    try:
        ready = b""
        if select.select([srv.stdout], [], [], 30)[0]:
            ready = srv.stdout.readline()
        if not ready.startswith(b"READY"):
            print(f"soak: FAILED: server not ready: {ready!r}")
            return 1
        print("soak: " + ready.decode().strip())
        time.sleep(0.2)
        fd0, rss0 = fd_count(srv.pid), rss_kib(srv.pid)
        fd_max = fd0

        rng = random.Random(a.seed)
        sel = selectors.DefaultSelector()
        st = Stats()
        clients = [Client(random.Random(rng.random()), port, sel, st) for _ in range(a.clients)]
        t0 = time.monotonic()
        end = t0 + secs
        next_sample = t0
        while True:
            now = time.monotonic()
            if now >= end:
                break
            for key, ev in sel.select(0.05):
                key.data.io(ev, now)
            now = time.monotonic()
            for c in clients:
                if c.wake and now >= c.wake:
                    c.advance(now)
                elif now - c.last > STALL:
                    st.stalls += 1
                    print(f"soak: a client stalled {STALL:g} s at step {c.steps[:1]!r}, "
                          f"{len(c.pending)} bytes owed")
                    c.reconnect()
            if now >= next_sample:
                fd_max = max(fd_max, fd_count(srv.pid))
                next_sample = now + 0.5
        took = time.monotonic() - t0
        for c in clients:
            sel.unregister(c.sock)
            c.sock.close()
        sel.close()
        fd1 = fd_count(srv.pid)
        deadline = time.monotonic() + 10
        while fd1 != fd0 and time.monotonic() < deadline:
            time.sleep(0.1)
            fd1 = fd_count(srv.pid)
        rss1 = rss_kib(srv.pid)
        alive = srv.poll() is None
    finally:
        if srv.poll() is None:
            srv.send_signal(signal.SIGTERM)
        try:
            out = srv.communicate(timeout=10)[0].decode(errors="replace")
        except subprocess.TimeoutExpired:
            srv.kill()
            out = srv.communicate()[0].decode(errors="replace")
    stats = next((l for l in out.splitlines() if l.startswith("STATS")), "STATS (none)")
    print(f"soak: {a.clients} clients, {took:.1f} s, seed {a.seed}")
    print(f"soak: exchanges={st.exchanges} bytes_sent={st.sent} bytes_received={st.received} "
          f"altered={st.altered} lost={st.lost}")
    print(f"soak: connects={st.connects} resets={st.resets} halfcloses={st.halfcloses} "
          f"closes={st.closes} unexpected_drops={st.drops} stalls={st.stalls}")
    print(f"soak: server fds before={fd0} max={fd_max} after={fd1}; "
          f"VmRSS before={rss0} KiB after={rss1} KiB")
    print(f"soak: server {stats}")
    for bad, what in [(st.altered, f"{st.altered} bytes altered"),
                      (st.lost, f"{st.lost} owed bytes lost"),
                      (st.stalls, f"{st.stalls} clients stalled"),
                      (fd1 != fd0, f"server descriptors {fd1}, not back to {fd0}"),
                      (st.exchanges == 0, "no exchange completed"),
                      (not alive, "the server exited during the soak")]:
        if bad:
            print(f"soak: FAILED: {what}")
            ok = False
    print("soak: " + ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
