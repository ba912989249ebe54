#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Draw a trace written by a demo's --trace (loop/trace.h's Chrome
trace-event JSON) as a timeline picture: one row per task name, in the
order the tasks first ran (as the demos' --timeline chart), a mark for
every resume, time left to right.

usage: render_trace.py TRACE.json OUT.png [--title TITLE]

docs/img/timeline.png, the picture in docs/demos.md, is remade so (Debian's
python3-matplotlib; run it with the system python3):

    build/demos/delayed_client --scale 5 --trace /tmp/trace.json
    /usr/bin/python3 docs/img/render_trace.py /tmp/trace.json docs/img/timeline.png \\
        --title "build/demos/delayed_client --scale 5 --trace FILE"

A resume lasts microseconds, far less than a pixel: each is drawn at least
MIN_WIDTH of the time span wide, so that it shows.
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MIN_WIDTH = 0.003  # of the span


def rows_of(doc):
    """(row names in order of first run, {row: [(start ms, length ms)]})."""
    events = doc["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    order, runs = [], {}
    for e in events:
        if e.get("ph") != "X":
            continue
        row = names.get(e["tid"], e["name"])
        if row not in runs:
            order.append(row)
            runs[row] = []
        runs[row].append((e["ts"] / 1000.0, e["dur"] / 1000.0))
    return order, runs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    with open(a.trace, encoding="utf-8") as f:
        doc = json.load(f)
    order, runs = rows_of(doc)
    span = max(s + d for r in runs.values() for s, d in r) or 1.0
    fig, ax = plt.subplots(figsize=(9, 0.6 + 0.26 * len(order)), dpi=100)
    for y, row in enumerate(order):
        bars = [(s, max(d, MIN_WIDTH * span)) for s, d in runs[row]]
        ax.broken_barh(bars, (y - 0.32, 0.64), facecolors="#1f5fa8")
    ax.set_yticks(range(len(order)))
    ax.set_yticklabels(order, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, span * 1.01)
    ax.set_xlabel("ms since the recording began; a mark per resume of the task", fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    dropped = doc.get("otherData", {}).get("dropped", 0)
    title = a.title + (f" ({dropped} resumes not recorded)" if dropped else "")
    if title:
        ax.set_title(title, fontsize=9, loc="left")
    fig.tight_layout()
    fig.savefig(a.out, dpi=100, metadata={"Software": None})


if __name__ == "__main__":
    main()
