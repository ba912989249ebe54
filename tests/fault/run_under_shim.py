#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Run a program with fault_shim preloaded and check that faults happened.

usage: run_under_shim.py --shim LIB [--seed N] [--rate R] [--env K=V ...]
                         [--expect KIND,...] [--timeout S] -- PROGRAM [ARGS]

Sets LD_PRELOAD=LIB, PT_FAULT_SEED, PT_FAULT_RATE, PT_FAULT_ACTIVE=1 (a test
may skip the checks faults legitimately change) and any --env, and
PT_FAULT_STATS to a temporary file; runs PROGRAM (its output passes
through) and then prints the shim's counts. Fails if PROGRAM fails, or if
a kind named in --expect was never injected (a fault run that injected
nothing proves nothing).
"""
import argparse
import os
import subprocess
import sys
import tempfile


def read_stats(path):
    """The shim's one line "kind=count ..." as a dict."""
    try:
        with open(path, encoding="ascii") as f:
            text = f.read()
    except OSError:
        return {}
    return {k: int(v) for k, v in (w.split("=", 1) for w in text.split() if "=" in w)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shim", required=True)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--rate", default="0.05")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--expect", default="")
    ap.add_argument("--timeout", type=float, default=100)
    ap.add_argument("cmd", nargs="+")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats")
        env = dict(os.environ, LD_PRELOAD=os.path.abspath(a.shim), PT_FAULT_SEED=a.seed,
                   PT_FAULT_RATE=a.rate, PT_FAULT_STATS=stats, PT_FAULT_QUIET="1",
                   PT_FAULT_ACTIVE="1")  # lets a test skip what faults change
        # A sanitized build links the ASan runtime, which wants to be first in
        # the library list; the shim is first, by design.
        env["ASAN_OPTIONS"] = ":".join(
            o for o in (os.environ.get("ASAN_OPTIONS", ""), "verify_asan_link_order=0") if o)
        for kv in a.env:
            k, v = kv.split("=", 1)
            env[k] = v
        try:
            rc = subprocess.run(a.cmd, env=env, timeout=a.timeout).returncode
        except subprocess.TimeoutExpired:
            print(f"FAILED: timed out after {a.timeout:g} s")
            rc = 1
        counts = read_stats(stats)
    print("faults injected: " + " ".join(f"{k}={v}" for k, v in counts.items()))
    missing = [k for k in a.expect.split(",") if k and counts.get(k, 0) == 0]
    if missing:
        print(f"FAILED: no faults of kind {', '.join(missing)} were injected")
        return 1
    if rc != 0:
        print(f"FAILED: the program exited {rc}")
    return 0 if rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
