#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Run a traced program and check its chart and its trace-event JSON.

usage: check_trace.py sample TRACE_SAMPLE
       check_trace.py demo DEMO ROW...

sample: runs TRACE_SAMPLE FILE (tests/trace/trace_sample.c, on the real
clock). Its JSON must be valid (validate_trace.py) and say what ran: the
process "trace_sample"; tasks 1-5 named ticker, yielder, yielder,
say "hi"\\ and "task 5" (the unnamed one), with 5, 4, 4, 2 and 2 resumes;
each complete event named as its task; per task, ts never going back; a
duration >= 0; no resume beginning before the one before it ended (one
thread runs one task at a time); otherData counting every resume and no
drop. Its chart must have the rows ticker, yielder, say "hi"\\, (other),
in that order.

demo: runs DEMO --timeline --trace FILE (a demo of demos/). Its chart must
have exactly the rows ROW..., in that order, each with a '#', between its
header line and its time axis; its JSON must be valid, name exactly the
tasks ROW... and hold a resume of each.

None of it depends on timing. PT_TEST_WRAPPER (meson test --setup
valgrindscripts) runs the program under a wrapper such as valgrind.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate_trace  # noqa: E402

WRAPPER = os.environ.get("PT_TEST_WRAPPER", "").split()

SAMPLE_TASKS = {1: ("ticker", 5), 2: ("yielder", 4), 3: ("yielder", 4),
                4: ('say "hi"\\', 2), 5: ("task 5", 2)}
SAMPLE_ROWS = ["ticker", "yielder", 'say "hi"\\', "(other)"]


def run(cmd, path):
    """Run cmd, which writes the trace to path; its stdout, and the trace."""
    r = subprocess.run(WRAPPER + cmd, capture_output=True, text=True,
                       timeout=60 * (1 + 9 * bool(WRAPPER)))
    print(r.stdout, end="")
    print(r.stderr, end="", file=sys.stderr)
    if r.returncode != 0:
        raise SystemExit(f"FAILED: {cmd[0]} exited with {r.returncode}")
    with open(path, encoding="utf-8") as f:
        return r.stdout, json.load(f)


def chart_rows(out):
    """The chart's row names, in order; fails unless it is well formed."""
    lines = out.splitlines()
    head = [i for i, line in enumerate(lines) if line.startswith("timeline: ")]
    if len(head) != 1 or not re.match(
            r"timeline: 0 to \d+ ms, [\d.]+ ms a column; # = the task ran then$", lines[head[0]]):
        raise SystemExit(f"FAILED: no chart header line in the output (found {len(head)})")
    rows = []
    for line in lines[head[0] + 1:]:
        m = re.match(r"  (\S.*?) +\|(.*)$", line)
        if not m:
            break
        if "#" not in m.group(2) or set(m.group(2)) - {" ", "#"}:
            raise SystemExit(f"FAILED: row {m.group(1)!r} is not a row of '#': {line!r}")
        rows.append(m.group(1))
    axis = lines[head[0] + 1 + len(rows):][:2]
    if len(axis) != 2 or not re.match(r" +\+[-+]+$", axis[0]) or not re.match(
            r" +0 ms +\d+ ms$", axis[1]):
        raise SystemExit(f"FAILED: no time axis under the rows: {axis!r}")
    return rows


def trace_facts(doc):
    """Thread names by tid, complete events, after checking the rules."""
    found = validate_trace.problems(doc)
    if found:
        raise SystemExit("FAILED: not a valid trace:\n  " + "\n  ".join(found))
    events = doc["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    runs = [e for e in events if e["ph"] == "X"]
    return names, runs


def check_runs(names, runs):
    """Each complete event names its task; per task time never goes back;
    one resume at a time."""
    last = {}
    for e in runs:
        if names.get(e["tid"]) != e["name"]:
            raise SystemExit(f"FAILED: event {e} is not named as its task {names.get(e['tid'])!r}")
        if e["ts"] < last.get(e["tid"], 0):
            raise SystemExit(f"FAILED: task {e['tid']}: ts goes back at {e}")
        last[e["tid"]] = e["ts"]
    for a, b in zip(runs, runs[1:]):
        if a["ts"] + a["dur"] > b["ts"]:
            raise SystemExit(f"FAILED: {b} begins before {a} ended")


def sample(prog):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        out, doc = run([prog, path], path)
    names, runs = trace_facts(doc)
    check_runs(names, runs)
    process = [e["args"]["name"] for e in doc["traceEvents"]
               if e["ph"] == "M" and e["name"] == "process_name"]
    if process != ["trace_sample"]:
        raise SystemExit(f"FAILED: process names {process}")
    want_names = {tid: name for tid, (name, _) in SAMPLE_TASKS.items()}
    if names != want_names:
        raise SystemExit(f"FAILED: task names {names}, not {want_names}")
    for tid, (name, n) in SAMPLE_TASKS.items():
        got = sum(e["tid"] == tid for e in runs)
        if got != n:
            raise SystemExit(f"FAILED: task {tid} ({name}) resumed {got} times, not {n}")
    other = doc.get("otherData", {})
    if other.get("resumes") != len(runs) or other.get("dropped") != 0:
        raise SystemExit(f"FAILED: otherData {other} for {len(runs)} resumes, none dropped")
    rows = chart_rows(out)
    if rows != SAMPLE_ROWS:
        raise SystemExit(f"FAILED: chart rows {rows}, not {SAMPLE_ROWS}")
    print(f"ok: {len(runs)} resumes of {len(names)} tasks; chart rows {rows}")


def demo(prog, want):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        out, doc = run([prog, "--timeline", "--trace", path], path)
    rows = chart_rows(out)
    if rows != want:
        raise SystemExit(f"FAILED: chart rows {rows}, not {want}")
    names, runs = trace_facts(doc)
    check_runs(names, runs)
    if sorted(set(names.values())) != sorted(want):
        raise SystemExit(f"FAILED: task names {sorted(set(names.values()))}, not {sorted(want)}")
    ran = {e["name"] for e in runs}
    if ran != set(want):
        raise SystemExit(f"FAILED: the tasks that ran are {sorted(ran)}, not {sorted(want)}")
    print(f"ok: chart rows {rows}; {len(runs)} resumes in the trace")


def main(argv):
    if len(argv) == 2 and argv[0] == "sample":
        sample(argv[1])
    elif len(argv) >= 3 and argv[0] == "demo":
        demo(argv[1], argv[2:])
    else:
        print(__doc__.split("\n\n")[0] + "\n" + __doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
