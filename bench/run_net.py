#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""bench/run_net.py - run the network workloads W6 (TCP echo), W7
(concurrent delayed requests) and W8 (TCP echo beside idle connections) of
bench/WORKLOADS.md for ptloop and the anchors, and print one Markdown table
with ratios to libuv.

    meson setup /tmp/benchrel --buildtype=release && meson compile -C /tmp/benchrel
    python3 bench/run_net.py --build /tmp/benchrel [--runs 3] [--only W6|W7|W8]
        [--conns 1,100,1000] [--idle 10000] [--anchors ptloop,ptloop-poll,...]

W6 measures the server: for each anchor's echo server, started fresh on a
free port, after its READY line: one untimed warm-up (echo_client C=100 for
1 s), then echo_client with each C of --conns (default 1, 100 and 1000; ids
W6.c<C>), --seconds each (default 5), against the same server process,
given its pid for the CPU figures; then SIGTERM. W7 measures the client:
each anchor's client runs against a fresh delay_server. W8 measures the W6
server again, holding idle connections: per server, a fresh process, the
same warm-up, then echo_client --idle 0 with C=100 (W8.c100.idle0, the
baseline: W6.c100's parameters) and echo_client --idle <N> with C=100
(W8.c100.idle<N>: N connections that never send, opened and accepted
before the window; --idle, default 10000), --seconds each. The load client
and the delay server are common (plain C, epoll: <build>/bench/echo_client
and delay_server). Per anchor:

  anchor        W6 and W8 server                         W7 client
  ptloop        <build>/bench/bench_echo_server (select)  <build>/bench/bench_delay_client
  ptloop-poll   <build>/bench/bench_echo_server-poll      -
  ptloop-epoll  <build>/bench/bench_echo_server-epoll     -
  libuv         <build>/bench/uv_echo_server              <build>/bench/uv_delay_client
  asyncio       <python> bench/asyncio_net.py echo-server / delay-client
  uvloop        <python> bench/asyncio_net.py --uvloop echo-server / delay-client

ptloop-poll and ptloop-epoll are ptloop's W6 server on its other readiness
back ends (W6 and W8 only). A program that is not built is skipped, with a
note, and so is a C beyond the slots a server's READY line announces
(select's server holds about 1,000 connections, so none of W8). <python> is
/usr/bin/python3 (Debian's, which has python3-uvloop) unless --python says
otherwise.

Every process is fresh and gets the hard RLIMIT_NOFILE as its soft limit;
the output says whether that raises it, and a C the hard limit cannot hold
(client and server each need C descriptors and a few) is refused before
anything runs; W8 (100 + N descriptors and a few) is skipped, with a note,
if the hard limit cannot hold it. --runs times (default 1; W6-W8 are slow,
3 is better), interleaved over the anchors; a cell is the median (min-max).
A run that prints INVALID (wrong bytes, a wrong response, an idle
connection closed) makes its cell INVALID, one that fails otherwise FAILED,
and this script exits 1 after printing the table. Timings never fail
anything.
"""
import argparse
import os
import re
import resource
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_table import RESULT_RE, first_line, print_machine, summary  # noqa: E402

ANCHORS = ["ptloop", "ptloop-poll", "ptloop-epoll", "libuv", "asyncio", "uvloop"]
# ptloop's W6 server on its other readiness back ends (ptloop is select).
BACKEND_ANCHORS = {"ptloop-poll": "poll", "ptloop-epoll": "epoll"}
W6_CONNS = [1, 100, 1000]
W7_IDS = ["W7.serial10", "W7.conc10", "W7.conc1000"]
W8_ACTIVE = 100  # W8's active connections (W6.c100's load)
W8_IDLE = 10000  # W8's idle connections (--idle)
FD_MARGIN = 16  # descriptors a process holds beside its C connections
SLOTS_RE = re.compile(rb"\bslots=(\d+)")
# Ratios where they say something about the anchor: the throughput (higher
# = more), the server's CPU per request and the client's overhead (lower =
# cheaper). server_cpu_pct and client_cpu_pct are read, not compared.
RATIO_METRICS = re.compile(r"^(rps|server_user_ns_per_req|server_sys_ns_per_req|"
                           r"server_cpu_ns_per_req|server_peak_rss_mib|overhead_ms)$")
INVALID_RE = re.compile(r"^INVALID .*workload=(\S+)")
SOURCES = ["echo_client.c", "delay_server.c", "uv_echo_server.c", "uv_delay_client.c",
           "bench_echo_server.c", "bench_delay_client.c"]


def raise_nofile():
    """preexec_fn of every child: 1,000 connections need more than the
    usual soft limit of 1,024 descriptors (the C programs raise it too)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def nofile_text(conns):
    """What the children's descriptor limit is, whether raise_nofile raises
    it, and an error text if the largest C does not fit (else None). C may
    count idle connections too (W8)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)

    def shown(n):
        return "unlimited" if n == resource.RLIM_INFINITY else str(n)

    if soft != hard:
        text = (f"descriptor limit (RLIMIT_NOFILE): raised from the soft {shown(soft)} to the "
                f"hard {shown(hard)} in every process started")
    else:
        text = f"descriptor limit (RLIMIT_NOFILE): {shown(hard)}, soft = hard, not raised"
    need = max(conns) + FD_MARGIN
    if hard != resource.RLIM_INFINITY and hard < need:
        return text, (f"C={max(conns)} needs about {need} descriptors in the client and in "
                      f"the server; the hard limit is {hard} (raise it: ulimit -Hn, "
                      f"/etc/security/limits.conf)")
    return text, None


def free_port():
    """A port nobody listens on now: bound to port 0, then released."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A server process that prints READY when it listens. Its stdout is
    read only up to READY and after it has exited (a few lines fit in the
    pipe); stderr goes to a file, so that nothing it writes can block it."""

    def __init__(self, cmd):
        self.cmd = cmd
        self.err = tempfile.TemporaryFile()
        self.buf = b""
        self.p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=self.err, bufsize=0, preexec_fn=raise_nofile)
        self.pid = self.p.pid

    def wait_ready(self, timeout):
        fd = self.p.stdout.fileno()
        deadline = time.monotonic() + timeout
        while True:
            if any(l.startswith(b"READY") for l in self.buf.split(b"\n")[:-1]):
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 65536)
                if not chunk:  # exited before READY
                    return False
                self.buf += chunk

    def alive(self):
        return self.p.poll() is None

    def stop(self):
        """SIGTERM, then SIGKILL after 10 s; returns (rc, stdout, stderr)."""
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self.buf += self.p.stdout.read() or b""
        self.p.stdout.close()
        self.err.seek(0)
        err = self.err.read().decode(errors="replace")
        self.err.close()
        return self.p.returncode, self.buf.decode(errors="replace"), err


def run_client(cmd, timeout):
    """Runs a client to completion: (rc, stdout, stderr)."""
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=timeout, preexec_fn=raise_nofile)
        return p.returncode, p.stdout, p.stderr.strip()
    except subprocess.TimeoutExpired:
        return -1, "", f"timed out after {timeout:.0f} s"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True, help="meson build directory (release)")
    ap.add_argument("--runs", type=int, default=1, help="runs per cell (default 1; 3 is better)")
    ap.add_argument("--seconds", type=float, default=5.0, help="W6 and W8 window per C (default 5)")
    ap.add_argument("--only", choices=["W6", "W7", "W8"], help="run one workload only")
    ap.add_argument("--python", default="/usr/bin/python3" if os.path.exists("/usr/bin/python3")
                    else sys.executable)
    ap.add_argument("--anchors", default=",".join(ANCHORS),
                    help="comma-separated, of " + ",".join(ANCHORS) + " (default: all)")
    ap.add_argument("--conns", default=",".join(map(str, W6_CONNS)),
                    help="W6: comma-separated connection counts C, in order "
                    "(default 1,100,1000)")
    ap.add_argument("--idle", type=int, default=W8_IDLE,
                    help=f"W8: idle connections beside the {W8_ACTIVE} active ones "
                    f"(default {W8_IDLE}; another N is another id, W8.c{W8_ACTIVE}.idle<N>)")
    args = ap.parse_args()
    try:
        conns = [int(c) for c in args.conns.split(",") if c]
    except ValueError:
        conns = []
    if not conns or any(c < 1 or c > 100000 for c in conns) or len(set(conns)) != len(conns):
        ap.error(f"--conns: distinct whole numbers from 1 to 100000, not {args.conns!r}")
    w6_ids = [f"W6.c{c}" for c in conns]
    if args.idle < 1 or args.idle > 100000:
        ap.error(f"--idle: a whole number from 1 to 100000, not {args.idle}")
    w8_ids = [f"W8.c{W8_ACTIVE}.idle0", f"W8.c{W8_ACTIVE}.idle{args.idle}"]

    build = os.path.abspath(args.build)
    bench = os.path.join(build, "bench")
    pyscript = os.path.join(HERE, "asyncio_net.py")
    servers = {
        "ptloop": [os.path.join(bench, "bench_echo_server")],
        "ptloop-poll": [os.path.join(bench, "bench_echo_server-poll")],
        "ptloop-epoll": [os.path.join(bench, "bench_echo_server-epoll")],
        "libuv": [os.path.join(bench, "uv_echo_server")],
        "asyncio": [args.python, pyscript, "echo-server"],
        "uvloop": [args.python, pyscript, "--uvloop", "echo-server"],
    }
    clients = {
        "ptloop": [os.path.join(bench, "bench_delay_client")],
        "libuv": [os.path.join(bench, "uv_delay_client")],
        "asyncio": [args.python, pyscript, "delay-client"],
        "uvloop": [args.python, pyscript, "--uvloop", "delay-client"],
    }
    echo_client = os.path.join(bench, "echo_client")
    delay_server = os.path.join(bench, "delay_server")
    workloads = [args.only] if args.only else ["W6", "W7", "W8"]

    # The descriptor limit: said before anything runs (stderr) and in the
    # table's header; a C it cannot hold stops here, and W8's idle
    # connections, if it cannot hold them, skip W8.
    fd_text, fd_error = nofile_text(conns if "W6" in workloads else [1000])
    print(f"# {fd_text}", file=sys.stderr)
    if fd_error and ("W6" in workloads or "W7" in workloads):
        print(f"run_net.py: {fd_error}", file=sys.stderr)
        return 2
    skipped = []  # texts
    if "W8" in workloads:
        _, w8_error = nofile_text([W8_ACTIVE + args.idle])
        if w8_error:
            skipped.append(f"W8 skipped: {w8_error}")
            workloads.remove("W8")

    # Which (anchor, workload) can run here.
    plan = {"W6": [], "W7": [], "W8": []}
    uvloop_ok = None
    for w in list(workloads):
        common = delay_server if w == "W7" else echo_client
        if not os.access(common, os.X_OK):
            skipped.append(f"{w} skipped: {common} not built (Linux only)")
            workloads.remove(w)
    wanted = []
    for a in [a for a in args.anchors.split(",") if a]:
        if a not in servers:
            skipped.append(f"anchor {a} skipped: unknown anchor")
            continue
        if a not in wanted:
            wanted.append(a)
    for a in wanted:
        if a in ("asyncio", "uvloop"):
            if not os.path.exists(args.python):
                skipped.append(f"anchor {a} skipped: {args.python} not found")
                continue
            if a == "uvloop":
                if uvloop_ok is None:
                    uvloop_ok = subprocess.run([args.python, "-c", "import uvloop"],
                                               capture_output=True).returncode == 0
                if not uvloop_ok:
                    skipped.append(f"anchor uvloop skipped: `import uvloop` fails with "
                                   f"{args.python}")
                    continue
        for w in workloads:
            if w == "W7" and a not in clients:
                continue  # a back-end anchor: W6 and W8 only
            cmd = (clients if w == "W7" else servers)[a]
            if a not in ("asyncio", "uvloop") and not os.access(cmd[0], os.X_OK):
                skipped.append(f"anchor {a} {w} skipped: {cmd[0]} not built")
            else:
                plan[w].append(a)
    for text in skipped:
        print(f"# note: {text}", file=sys.stderr)

    load_before = open("/proc/loadavg").read().split()[0:3]
    started = time.time()
    values = {}  # (workload, metric) -> anchor -> [values]
    units = {}
    order = []  # (workload, metric) in first-seen order
    failures = {}  # (anchor, workload) -> message (the first)
    notes = {}  # anchor -> [texts]
    readies = {}  # anchor -> its server's READY line (the first run's)
    beyond = {}  # (anchor, workload) -> why it was not run

    def collect(a, out, expected, rc, err):
        """Takes the RESULT and NOTE lines of one program's output; any
        expected id without figures is a failure."""
        got = set()
        invalid = None
        for line in out.splitlines():
            m = RESULT_RE.match(line)
            if m:
                _, wid, metric, value, unit = m.groups()
                key = (wid, metric)
                if key not in values:
                    values[key] = {}
                    order.append(key)
                values[key].setdefault(a, []).append(float(value))
                units[key] = unit
                got.add(wid)
            elif line.startswith("INVALID") and invalid is None:
                invalid = line
            elif line.startswith("NOTE "):
                text = line.split(" ", 3)[3] if line.count(" ") >= 3 else line
                if text not in notes.setdefault(a, []):
                    notes[a].append(text)
        m = INVALID_RE.match(invalid) if invalid else None
        named = m.group(1) if m else None
        for wid in expected:
            if wid in got and not (invalid and named in (wid, None)):
                continue
            if invalid:
                msg = invalid
            elif rc != 0:
                msg = f"exit {rc}: {err[-300:]}"
            else:
                msg = "no RESULT lines"
            failures.setdefault((a, wid), msg)

    def progress(r, a, what, t0, rc):
        print(f"# run {r + 1}/{args.runs} {a:12s} {what:14s} {time.time() - t0:6.2f} s rc={rc}",
              file=sys.stderr, flush=True)

    def serve(r, a, w, steps):
        """One run of an echo server workload (W6, W8) for anchor a: a
        fresh server, the warm-up, then each step (id, echo_client options,
        connections it needs) against that process. W8's steps go together:
        if the server cannot hold the last, none runs."""
        ids = [wid for wid, _, _ in steps]
        t0 = time.time()
        lifetime = 1 + len(steps) * (args.seconds + 30) + 120  # a bound, never reached
        srv = Server(servers[a] + [str(free_port()), f"{lifetime:g}"])
        port = srv.cmd[-2]
        if not srv.wait_ready(30):
            rc, out, err = srv.stop()
            collect(a, out, [], rc, err)
            for wid in ids:
                failures.setdefault((a, wid), f"server not READY (exit {rc}): {err[-300:]}")
            progress(r, a, f"{w} server", t0, rc)
            return
        ready = next(l for l in srv.buf.split(b"\n") if l.startswith(b"READY"))
        readies.setdefault(a, ready.decode(errors="replace").strip())
        m = SLOTS_RE.search(ready)
        slots = int(m.group(1)) if m else None
        if w == "W8" and slots is not None and steps[-1][2] > slots:
            for wid in ids:
                beyond[(a, wid)] = (f"{steps[-1][2]} connections ({W8_ACTIVE} active, "
                                    f"{args.idle} idle) are beyond the server's {slots} slots")
            steps = []
        # Warm-up: untimed, its figures dropped; only its failure counts.
        rc, out, err = run_client([echo_client, a, port, "100", "1"], 60) if steps else (0, "", "")
        if steps:
            progress(r, a, f"{w} warm-up", t0, rc)
        if rc != 0:
            inv = next((l for l in out.splitlines() if l.startswith("INVALID")), None)
            for wid in ids:
                failures.setdefault((a, wid), inv or f"warm-up: exit {rc}: {err[-300:]}")
        else:
            for wid, opts, need in steps:
                t1 = time.time()
                if slots is not None and need > slots:
                    beyond[(a, wid)] = f"C={need} is beyond the server's {slots} slots"
                    continue
                if not srv.alive():
                    failures.setdefault((a, wid), "server exited")
                    continue
                c = need if w == "W6" else W8_ACTIVE
                rc, out, err = run_client(
                    [echo_client] + opts + [a, port, str(c), f"{args.seconds:g}", str(srv.pid)],
                    args.seconds + 90)
                collect(a, out, [wid], rc, err)
                progress(r, a, wid, t1, rc)
        rc, out, err = srv.stop()
        collect(a, out, [], rc, err)
        if rc not in (0, -signal.SIGTERM):
            print(f"# note: {a} {w} server exit {rc}: {err[-300:]}", file=sys.stderr)

    w6_steps = [(f"W6.c{c}", [], c) for c in conns]
    w8_steps = [(w8_ids[0], ["--idle", "0"], W8_ACTIVE),
                (w8_ids[1], ["--idle", str(args.idle)], W8_ACTIVE + args.idle)]
    for r in range(args.runs):
        for a in plan["W6"]:
            serve(r, a, "W6", w6_steps)
        for a in plan["W7"]:
            t0 = time.time()
            port = str(free_port())
            srv = Server([delay_server, port, "600"])
            if not srv.wait_ready(30):
                rc, out, err = srv.stop()
                for wid in W7_IDS:
                    failures.setdefault((a, wid), f"delay_server not READY: {err[-300:]}")
                continue
            rc, out, err = run_client(clients[a] + [port], 300)
            collect(a, out, W7_IDS, rc, err)
            srv.stop()
            progress(r, a, "W7", t0, rc)
        for a in plan["W8"]:
            serve(r, a, "W8", w8_steps)
    elapsed = time.time() - started

    # Rows in workload order, metrics in the order the programs print them.
    rank = {w: i for i, w in enumerate(w6_ids + W7_IDS + w8_ids)}
    seen = {k: i for i, k in enumerate(order)}
    order.sort(key=lambda k: (rank.get(k[0], 99), seen[k]))
    for a, wid in failures:  # a workload that failed everywhere still gets a row
        if not any(k[0] == wid for k in order):
            order.append((wid, "—"))
            units[(wid, "—")] = ""

    def median(key, a):
        vs = values.get(key, {}).get(a)
        return statistics.median(vs) if vs else None

    def cell(key, a):
        if (a, key[0]) in beyond:
            return "—"
        if (a, key[0]) in failures:
            return "INVALID" if failures[(a, key[0])].startswith("INVALID") else "FAILED"
        return summary(values.get(key, {}).get(a), units.get(key, ""))

    def ratio(key, a, b):
        if not RATIO_METRICS.match(key[1]) or (a, key[0]) in failures \
                or (b, key[0]) in failures or (a, key[0]) in beyond or (b, key[0]) in beyond:
            return ""
        x, y = median(key, a), median(key, b)
        if x is None or y is None or y <= 0 or x < 0:
            return ""
        return f"{x / y:.2f}"

    # ---- header: machine, compilers, flags
    print("# Network workloads W6 (TCP echo), W7 (delayed requests) and W8 (TCP echo beside "
          "idle connections): ptloop and anchors")
    print()
    print_machine(build, SOURCES, args.python, load_before)
    if "W6" in workloads:
        print(f"- W6: per server, one fresh process: warm-up C=100 for 1 s, then C="
              f"{', '.join(map(str, conns))} for {args.seconds:g} s each (bench/echo_client, "
              f"64-byte messages over 127.0.0.1, every byte checked)")
    if "W7" in workloads:
        print("- W7: per client, a fresh bench/delay_server")
    if "W8" in workloads:
        print(f"- W8: per server, one fresh process: warm-up C=100 for 1 s, then C={W8_ACTIVE} "
              f"for {args.seconds:g} s alone ({w8_ids[0]}) and beside {args.idle} idle "
              f"connections, opened and accepted before the window ({w8_ids[1]}); "
              f"bench/echo_client, every byte checked")
    print(f"- {fd_text}")
    print(f"- {args.runs} run(s) per cell; cell = median (min–max); ratios are of medians: "
          f"for rps higher = more throughput, for ns_per_req and overhead_ms lower = cheaper")
    for text in skipped:
        print(f"- {text}")
    print()

    # ---- the table: a column per anchor asked for; ratios to libuv, and
    # of ptloop's other back ends to ptloop (select)
    ran = {a for w in workloads for a in plan[w]}
    cols = [a for a in ANCHORS if a in wanted]
    pairs = [(a, "libuv") for a in cols if a != "libuv" and a in ran and "libuv" in ran]
    if "ptloop" in ran:
        pairs += [(a, "ptloop") for a in cols if a in BACKEND_ANCHORS and a in ran]
    head = ["workload", "metric", "unit"] + cols + [f"{a}/{b}" for a, b in pairs]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(["---"] * 3 + ["---:"] * (len(head) - 3)) + "|")
    for key in order:
        row = [key[0], key[1], units[key]]
        row += [cell(key, a) if a in ran else "—" for a in cols]
        row += [ratio(key, a, b) for a, b in pairs]
        print("| " + " | ".join(row) + " |")
    print()
    print("Reading W6: a server below ~100 % CPU was not the bottleneck; with server and "
          "client both near 100 %, rps is bounded by the kernel's loopback work, and "
          "server_user_ns_per_req (loop + application in user space) is the "
          "library-specific figure. CPU figures come from 10 ms ticks.")
    print()

    # ---- W8: what the idle connections cost each server, from the medians
    w8_rows = []
    for a in cols:
        if a not in plan["W8"] or any((a, wid) in failures or (a, wid) in beyond
                                      for wid in w8_ids):
            continue
        base = {m: median((w8_ids[0], m), a) for m in
                ("rps", "server_cpu_ns_per_req", "server_peak_rss_mib")}
        idle = {m: median((w8_ids[1], m), a) for m in base}
        if any(v is None or v <= 0 for v in list(base.values()) + list(idle.values())):
            continue
        per_conn = (idle["server_peak_rss_mib"] - base["server_peak_rss_mib"]) * 2**20 / args.idle
        w8_rows.append([a, f"{idle['rps'] / base['rps']:.2f}",
                        f"{idle['server_cpu_ns_per_req'] / base['server_cpu_ns_per_req']:.2f}",
                        f"{base['server_peak_rss_mib']:.1f}", f"{idle['server_peak_rss_mib']:.1f}",
                        f"{per_conn:.0f}"])
    if w8_rows:
        print(f"W8: {args.idle} idle connections against none ({w8_ids[1]} / {w8_ids[0]}, "
              f"ratios of medians; the server's peak RSS is its VmHWM so far, so the "
              f"second includes the first):")
        print()
        print("| anchor | rps | server_cpu_ns_per_req | peak RSS alone (MiB) | "
              "peak RSS beside idle (MiB) | bytes per idle connection |")
        print("|---|---:|---:|---:|---:|---:|")
        for row in w8_rows:
            print("| " + " | ".join(row) + " |")
        print()

    print("Mappings (NOTE lines of the programs; the W6 and W8 servers' READY lines):")
    print()
    for a in ANCHORS:
        for text in notes.get(a, []):
            print(f"- {a}: {text}")
        if a in readies:
            print(f"- {a}: `{readies[a]}`")
    if beyond:
        print()
        print("Not run (—):")
        for (a, w), msg in beyond.items():
            print(f"- {a} {w}: {msg}")
    if failures:
        print()
        print("Failures:")
        for (a, w), msg in failures.items():
            print(f"- {a} {w}: {msg}")
    print()
    print(f"Total time: {elapsed:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
