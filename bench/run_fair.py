#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""bench/run_fair.py - does a busy connection starve a quiet one? Runs
bench/fair_client against W6 echo servers and prints the probe's round
trips, median (min-max) over interleaved runs.

    meson setup /tmp/benchrel --buildtype=release && meson compile -C /tmp/benchrel
    python3 bench/run_fair.py --build /tmp/benchrel [--runs 3] [--busy 0,4]
        [--seconds 5] [--servers ptloop,ptloop-epoll,libuv]

For each run, server and B of --busy: a fresh server on a free port (after
its READY line), then `fair_client <port> <B> <seconds>`, then SIGTERM.
B = 0 is the baseline. Servers: ptloop (bench_echo_server, select),
ptloop-poll, ptloop-epoll, libuv (uv_echo_server); one not built is
skipped. A run that prints INVALID (a wrong byte, a closed connection)
is reported as such; timings never fail anything.
"""
import argparse
import os
import re
import select
import signal
import socket
import statistics
import subprocess
import sys

SERVERS = {
    "ptloop": "bench_echo_server",
    "ptloop-poll": "bench_echo_server-poll",
    "ptloop-epoll": "bench_echo_server-epoll",
    "libuv": "uv_echo_server",
}
RESULT = re.compile(r"^RESULT anchor=\S+ workload=\S+ metric=(\S+) value=(\S+) unit=\S+")
SHOWN = ["probe_median_ms", "probe_p99_ms", "probe_p999_ms", "probe_max_ms", "busy_mbps"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one(server, fair, busy, seconds):
    """{metric: value} of one measurement, or the INVALID line (a str)."""
    port = free_port()
    srv = subprocess.Popen([server, str(port), "120"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
    out = b""
    while b"READY" not in out:
        if not select.select([srv.stdout], [], [], 10)[0]:
            break
        chunk = os.read(srv.stdout.fileno(), 4096)
        if not chunk:
            break
        out += chunk
    try:
        run = subprocess.run([fair, str(port), str(busy), str(seconds)], capture_output=True,
                             text=True, timeout=60 + 2 * seconds)
    finally:
        srv.send_signal(signal.SIGTERM)
        try:
            srv.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            srv.kill()
    bad = [line for line in run.stdout.splitlines() if line.startswith("INVALID")]
    if bad or run.returncode:
        return bad[0] if bad else f"exit {run.returncode}"
    return {m.group(1): float(m.group(2))
            for m in map(RESULT.match, run.stdout.splitlines()) if m}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, help="meson build directory (release)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--busy", default="0,4", help="busy connections, a comma list")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--servers", default="ptloop,ptloop-epoll,libuv")
    args = ap.parse_args()
    fair = os.path.join(args.build, "bench", "fair_client")
    if not os.path.exists(fair):
        sys.exit(f"run_fair: {fair} is not built")
    servers = {}
    for name in args.servers.split(","):
        path = os.path.join(args.build, "bench", SERVERS[name])
        if os.path.exists(path):
            servers[name] = path
        else:
            print(f"note: {name}: {path} is not built; skipped")
    busy = [int(b) for b in args.busy.split(",")]
    cells, invalid = {}, {}
    for r in range(args.runs):  # interleaved: a slow minute hits every cell
        for name, path in servers.items():
            for b in busy:
                got = one(path, fair, b, args.seconds)
                print(f"run {r + 1} {name} B={b}: " +
                      (got if isinstance(got, str) else
                       " ".join(f"{k}={got.get(k, float('nan')):.3f}" for k in SHOWN)),
                      flush=True)
                if isinstance(got, str):
                    invalid.setdefault((name, b), []).append(got)
                    continue
                for k, v in got.items():
                    cells.setdefault((name, b), {}).setdefault(k, []).append(v)
    print()
    print("| server | busy | " + " | ".join(SHOWN) + " |")
    print("|---|---:|" + "---:|" * len(SHOWN))
    for name in servers:
        for b in busy:
            c = cells.get((name, b), {})
            row = []
            for k in SHOWN:
                vs = c.get(k)
                row.append(f"{statistics.median(vs):.3f} ({min(vs):.3f}-{max(vs):.3f})"
                           if vs else "-")
            bad = invalid.get((name, b))
            print(f"| {name} | {b} | " + " | ".join(row) + " |" +
                  (f" INVALID in {len(bad)} runs: {bad[0]}" if bad else ""))
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
