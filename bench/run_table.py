#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""bench/run_table.py - run workloads W1-W5 (bench/WORKLOADS.md) for
ptloop and the anchors, and print one Markdown table with ratios.

    meson setup /tmp/benchrel --buildtype=release && meson compile -C /tmp/benchrel
    python3 bench/run_table.py --build /tmp/benchrel

Every (anchor, workload) runs in a fresh process, --runs times (default 3),
interleaved (run 1 of everything, then run 2, ...) so that drift of the
machine spreads over all anchors alike. Each cell is the median, with the
min and max of the runs. Anchors:

  ptloop   <build>/bench/bench_loop     (bench/bench_loop.c)
  libuv    <build>/bench/uv_loop        (bench/uv_loop.c; skipped if not built)
  asyncio  <python> bench/asyncio_loop.py
  uvloop   <python> bench/asyncio_loop.py --uvloop   (skipped if no uvloop)
  floor    <build>/bench/floor          (bench/floor.c)
  before   <before>/bench/bench_loop    (only with --before: ptloop of another
                                         tree, e.g. the commit before a change,
                                         built alike; adds a ptloop/before column)

<python> is /usr/bin/python3 (Debian's, which has python3-uvloop) unless
--python says otherwise. A run whose counts are wrong prints INVALID and
exits 1: its cell says INVALID, never a number, and this script exits 1
after printing the table. Timings never fail anything.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ANCHORS = ["ptloop", "libuv", "asyncio", "uvloop", "floor"]
WORKLOADS = ["W1a", "W1b", "W2", "W3", "W4a", "W4b", "W5"]
# ptloop only: W4a/W4b through the public API (see bench_loop.c).
EXTRA = {"ptloop": ["W4at", "W4bt"], "before": ["W4at", "W4bt"]}
RATIO_METRICS = re.compile(r"^(ns_per_|schedule_|fire_cpu_|peak_rss_mib|base_rss_mib)")
RESULT_RE = re.compile(
    r"^RESULT anchor=(\S+) workload=(\S+) metric=(\S+) value=(-?[0-9.]+) unit=(\S+)\s*$")


def fmt(v, unit=""):
    if v is None:
        return ""
    a = abs(v)
    if unit == "entries" and float(v).is_integer():
        return f"{int(v):,}"
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 100:
        return f"{v:.1f}"
    if a >= 10:
        return f"{v:.2f}"
    return f"{v:.3f}"


def first_line(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        text = (out.stdout or out.stderr).strip().splitlines()
        return text[0] if text else "?"
    except (OSError, subprocess.SubprocessError):
        return "unavailable"


def compile_flags(build, source):
    """The compile command meson uses for bench/<source>, trimmed."""
    path = os.path.join(build, "compile_commands.json")
    try:
        with open(path) as f:
            cmds = json.load(f)
    except OSError:
        return None
    for c in cmds:
        if c.get("file", "").endswith("bench/" + source) or c.get("file", "") == source:
            args = shlex.split(c["command"])
            keep, skip = [], False
            for a in args[1:]:
                if skip:
                    skip = False
                    continue
                if a in ("-o", "-MQ", "-MF", "-c"):
                    skip = a != "-c"
                    continue
                if a in ("-MD",) or a.endswith(".c") or a.startswith("-I") or a == "-fdiagnostics-color=always":
                    continue
                keep.append(a)
            return args[0] + " " + " ".join(keep)
    return None


def summary(vs, unit):
    """A cell: the median of the runs' values, with (min–max) if they differ
    as printed; "" if there are none."""
    if not vs:
        return ""
    if len(vs) == 1 or fmt(min(vs), unit) == fmt(max(vs), unit):
        return fmt(statistics.median(vs), unit)
    return f"{fmt(statistics.median(vs), unit)} ({fmt(min(vs), unit)}–{fmt(max(vs), unit)})"


def print_machine(build, sources, python, load_before):
    """The table's header lines on what ran: machine, kernel and load,
    compiler and flags of each C source, Python, uvloop and libuv."""
    cpu_model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu_model = next((l.split(":", 1)[1].strip() for l in f
                              if l.startswith("model name")), "?")
    except OSError:
        pass
    print(f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}; "
          f"host: {platform.node()}, {platform.machine()}, {os.cpu_count()} CPUs, {cpu_model}")
    print(f"- kernel: {platform.release()}; load average (1, 5, 15 min) before: "
          f"{' '.join(load_before)}, after: {' '.join(open('/proc/loadavg').read().split()[0:3])}")
    cc_info = None
    try:
        with open(os.path.join(build, "meson-info", "intro-compilers.json")) as f:
            comp = json.load(f).get("host", {}).get("c", {})
            cc_info = f"{' '.join(comp.get('exelist', []))} {comp.get('version', '')} ({comp.get('id', '')})"
    except (OSError, ValueError):
        pass
    print(f"- C compiler (meson): {cc_info or first_line(['cc', '--version'])}")
    for src in sources:
        flags = compile_flags(build, src)
        if flags:
            print(f"- flags, {src}: `{flags}` (the last -O wins)")
    print(f"- python: {python}: {first_line([python, '--version'])}; uvloop: "
          + first_line([python, "-c", "import uvloop; print(uvloop.__version__)"]))
    print(f"- libuv: {first_line(['pkg-config', '--modversion', 'libuv'])} (pkg-config)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True, help="meson build directory (release)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--python", default="/usr/bin/python3" if os.path.exists("/usr/bin/python3")
                    else sys.executable)
    ap.add_argument("--anchors", default=",".join(ANCHORS))
    ap.add_argument("--workloads", default=",".join(WORKLOADS + ["W4at", "W4bt"]))
    ap.add_argument("--timeout", type=float, default=180.0, help="per process, seconds")
    ap.add_argument("--before", help="build directory of another tree: its bench_loop runs as "
                    "the anchor 'before', interleaved with the others")
    args = ap.parse_args()

    build = os.path.abspath(args.build)
    pyscript = os.path.join(HERE, "asyncio_loop.py")
    commands = {
        "ptloop": [os.path.join(build, "bench", "bench_loop")],
        "libuv": [os.path.join(build, "bench", "uv_loop")],
        "asyncio": [args.python, pyscript],
        "uvloop": [args.python, pyscript, "--uvloop"],
        "floor": [os.path.join(build, "bench", "floor")],
    }
    wanted = [a for a in args.anchors.split(",") if a]
    if args.before:
        commands["before"] = [os.path.join(os.path.abspath(args.before), "bench", "bench_loop")]
        wanted.append("before")
    workloads = [w for w in args.workloads.split(",") if w]

    # Which anchors can run here.
    skipped = {}
    anchors = []
    for a in wanted:
        cmd = commands.get(a)
        if cmd is None:
            skipped[a] = "unknown anchor"
        elif a in ("asyncio", "uvloop") and not os.path.exists(args.python):
            skipped[a] = f"{args.python} not found"
        elif a == "uvloop" and subprocess.run(
                [args.python, "-c", "import uvloop"], capture_output=True).returncode != 0:
            skipped[a] = f"`import uvloop` fails with {args.python}"
        elif a not in ("asyncio", "uvloop") and not os.access(cmd[0], os.X_OK):
            skipped[a] = f"{cmd[0]} not built"
        else:
            anchors.append(a)

    def runs_for(anchor):
        return [w for w in workloads if w in WORKLOADS or w in EXTRA.get(anchor, [])]

    load_before = open("/proc/loadavg").read().split()[0:3]
    started = time.time()
    values = {}  # (workload, metric) -> anchor -> [values]
    units = {}
    order = []  # (workload, metric) in first-seen order
    failures = {}  # (anchor, workload) -> message
    notes = {}  # (anchor, workload) -> set of note texts
    for r in range(args.runs):
        for w in workloads:
            for a in anchors:
                if w not in runs_for(a) or (a, w) in failures:
                    continue
                # Through sh, which forks the program: a process's ru_maxrss
                # keeps the high-water RSS of the image it exec'ed from, and
                # a direct fork+exec from this script would start every
                # program at this Python's RSS (~15 MiB); sh's is ~1.5 MiB.
                cmd = ["/bin/sh", "-c", '"$0" "$@"; exit $?'] + commands[a] + [w]
                t0 = time.time()
                try:
                    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
                    out, rc = p.stdout, p.returncode
                    err = p.stderr.strip()
                except subprocess.TimeoutExpired:
                    out, rc, err = "", -1, f"timed out after {args.timeout:.0f} s"
                print(f"# run {r + 1}/{args.runs} {a:8s} {w:5s} {time.time() - t0:6.2f} s"
                      f" rc={rc}", file=sys.stderr, flush=True)
                bad = [l for l in out.splitlines() if l.startswith("INVALID")]
                if rc != 0 or bad:
                    failures[(a, w)] = (bad[0] if bad else f"exit {rc}: {err[-300:]}")
                    continue
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
                    elif line.startswith("NOTE "):
                        text = line.split(" ", 3)[3] if line.count(" ") >= 3 else line
                        notes.setdefault((a, w), set()).add(text)
    elapsed = time.time() - started

    # Rows in workload order, metrics in the order the programs print them.
    rank = {w: i for i, w in enumerate(WORKLOADS + ["W4at", "W4bt"])}
    seen = {k: i for i, k in enumerate(order)}
    order.sort(key=lambda k: (rank.get(k[0], 99), seen[k]))

    def median(key, a):
        vs = values.get(key, {}).get(a)
        return statistics.median(vs) if vs else None

    def cell(key, a):
        if (a, key[0]) in failures:
            return "INVALID" if failures[(a, key[0])].startswith("INVALID") else "FAILED"
        return summary(values.get(key, {}).get(a), units.get(key, ""))

    def ratio(key, a, b):
        if not RATIO_METRICS.match(key[1]):
            return ""
        x, y = median(key, a), median(key, b)
        if x is None or y is None or y <= 0 or x < 0:
            return ""
        return f"{x / y:.2f}"

    # ---- header: machine, compilers, flags
    print(f"# Event-loop workloads W1–W5: ptloop and anchors")
    print()
    print_machine(build, ["bench_loop.c", "uv_loop.c", "floor.c"], args.python, load_before)
    print(f"- {args.runs} runs per cell, each a fresh process; cell = median (min–max); "
          f"ratios are of medians (lower = ptloop cheaper)")
    for a, why in skipped.items():
        print(f"- anchor {a} skipped: {why}")
    print()

    # ---- the table
    cols = ANCHORS + (["before"] if args.before else [])
    head = ["workload", "metric", "unit"] + cols + ["ptloop/libuv", "ptloop/floor"]
    head += ["ptloop/before"] if args.before else []
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(["---"] * 3 + ["---:"] * (len(head) - 3)) + "|")
    for key in order:
        row = [key[0], key[1], units[key]]
        row += [cell(key, a) if a in anchors else "—" for a in cols]
        row += [ratio(key, "ptloop", "libuv"), ratio(key, "ptloop", "floor")]
        row += [ratio(key, "ptloop", "before")] if args.before else []
        print("| " + " | ".join(row) + " |")
    print()

    # ---- the targets, from this run
    def m(w, metric, a):
        return median((w, metric), a)

    def line(name, ok, detail):
        state = "n/a" if ok is None else ("met" if ok else "MISSED")
        print(f"| {name} | {state} | {detail} |")

    print("Targets, from this run (medians):")
    print()
    print("| target | result | figures |")
    print("|---|---|---|")
    for w in ("W1a", "W1b"):
        p, u, f = m(w, "ns_per_resume", "ptloop"), m(w, "ns_per_resume", "libuv"), \
            m(w, "ns_per_resume", "floor")
        ok = None if None in (p, u, f) else (p <= 2 * f and p < u)
        line(f"{w}: ≤ 2× floor and < libuv", ok,
             "" if ok is None else f"ptloop {fmt(p)} ns, floor {fmt(f)} ({p / f:.2f}×), "
             f"libuv {fmt(u)} ({p / u:.2f}×)")
    p, f = m("W2", "ns_per_task", "ptloop"), m("W2", "ns_per_task", "floor")
    u = m("W2", "ns_per_task", "libuv")
    ok = None if None in (p, f) else p <= 2 * f
    line("W2: ≤ 2× floor", ok, "" if ok is None else
         f"ptloop {fmt(p)} ns, floor {fmt(f)} ({p / f:.2f}×)"
         + ("" if u is None else f", libuv {fmt(u)} ({p / u:.2f}×)"))
    for metric, lim, name in (("schedule_ns_per_timer", 1 / 3, "W3 schedule ≤ 1/3 libuv"),
                              ("fire_cpu_ns_per_timer", 1 / 5, "W3 fire CPU ≤ 1/5 libuv"),
                              ("peak_rss_mib", 1 / 2, "W3 peak RSS < 1/2 libuv")):
        p, u = m("W3", metric, "ptloop"), m("W3", metric, "libuv")
        ok = None if None in (p, u) else (p < lim * u if metric == "peak_rss_mib"
                                          else p <= lim * u)
        line(name, ok, "" if ok is None else
             f"ptloop {fmt(p)}, libuv {fmt(u)}: ratio {p / u:.3f} (target {lim:.3f})")
    for w in ("W4a", "W4b"):
        p, u = m(w, "ns_per_start_cancel", "ptloop"), m(w, "ns_per_start_cancel", "libuv")
        pt = m(w + "t", "ns_per_start_cancel", "ptloop")
        ok = None if None in (p, u) else p < u
        line(f"{w}: < libuv", ok, "" if ok is None else
             f"ptloop {fmt(p)} ns (timer-level), libuv {fmt(u)} ({p / u:.2f}×)"
             + ("" if pt is None else f"; public-API {w}t {fmt(pt)} ns ({pt / u:.2f}×)"))
    p, c = m("W5", "lateness_ms", "ptloop"), m("W5", "concurrent_cpu_s", "ptloop")
    ok = None if None in (p, c) else (p <= 0.1 and c < 0.01)
    runs = values.get(("W5", "lateness_ms"), {}).get("ptloop", [])
    late = [v for v in runs if v > 0.1]
    detail = "" if ok is None else (f"lateness {p:.3f} ms (runs: "
                                    + ", ".join(f"{v:.3f}" for v in runs)
                                    + f"), CPU {c:.3f} s over 0.7 s")
    if ok and late:
        print(f"| W5: late ≤ 0.1 ms, CPU ≈ 0 | met by the median only | {detail}; "
              f"{len(late)} of {len(runs)} runs late by more than 0.1 ms |")
    else:
        line("W5: late ≤ 0.1 ms, CPU ≈ 0", ok, detail)
    print()

    # ---- how each anchor did each workload
    print("Mappings (NOTE lines of the programs):")
    print()
    for a in anchors:
        build_notes = []  # the compiler / interpreter: once per anchor
        for w in runs_for(a):
            for text in sorted(notes.get((a, w), ())):
                if text.startswith(("cc=", "python=")):
                    if text not in build_notes:
                        build_notes.append(text)
                else:
                    print(f"- {a} {w}: {text}")
        for text in build_notes:
            print(f"- {a}: {text}")
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
