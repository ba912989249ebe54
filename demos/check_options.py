#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""Check the demos' command lines (demos/options.h): what they take, and
that they refuse what they do not understand without running.

usage: check_options.py DEMO...

Each DEMO (a path; its file name says which demo it is) must:
  - print its usage on stdout and exit 0 for --help (and -h);
  - for an unknown option (--bogus, -z), an argument that is no option, a
    value given to a flag (--timeline=1), a missing value (--port), a value
    that is not a whole number or out of its range (--port abc,
    --port=70000, --port=-1, --port "", --seconds 1x): print the usage
    line on stderr, nothing on stdout, and exit 2, having run nothing;
  - for --trace into a folder that does not exist: say so and exit 2
    before it runs.
And these must run and end well: delayed_server --port=0 --seconds=1,
chat_server -p0 -s 1, echo_server -p 0 -s1 -t 50, and background --trace
--timeline (a value that looks like an option is the value: the trace goes
to a file named "--timeline").

PT_TEST_WRAPPER (meson test --setup valgrindscripts) runs each demo under
a wrapper such as valgrind; then only echo_server, which has every kind of
option, goes through every refusal (the others: --help and --bogus).
"""
import json
import os
import subprocess
import sys
import tempfile

WRAPPER = os.environ.get("PT_TEST_WRAPPER", "").split()
TIMEOUT = 30 * (1 + 9 * bool(WRAPPER))

WITH_PORT = {"echo_server", "chat_server", "delayed_server", "delayed_client"}
WITH_SECONDS = {"echo_server", "chat_server", "delayed_server"}
WITH_TIMELINE = {"background", "sleep_serial_concurrent", "three_jobs", "echo_server",
                 "delayed_client"}

failures = []


def run(path, args, cwd=None):
    return subprocess.run(WRAPPER + [path] + args, capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=cwd, stdin=subprocess.DEVNULL)


def expect(ok, what):
    print(f"{'ok' if ok else 'FAILED'}: {what}")
    if not ok:
        failures.append(what)


def check_help(path, name):
    for flag in ("--help", "-h"):
        r = run(path, [flag])
        expect(r.returncode == 0 and r.stdout.startswith(f"usage: {name}"),
               f"{name} {flag}: usage on stdout, exit 0 (exit {r.returncode})")


def check_refused(path, name, args):
    r = run(path, args)
    expect(r.returncode == 2 and f"usage: {name}" in r.stderr and r.stdout == "",
           f"{name} {' '.join(repr(a) for a in args)}: refused, usage on stderr, exit 2 "
           f"(exit {r.returncode}, stdout {r.stdout[:60]!r})")


def check_runs(path, name, args, must_print):
    r = run(path, args)
    expect(r.returncode == 0 and must_print in r.stdout,
           f"{name} {' '.join(args)}: runs and ends (exit {r.returncode}, "
           f"stderr {r.stderr[:80]!r})")


def main(paths):
    for path in paths:
        name = os.path.basename(path)
        check_help(path, name)
        check_refused(path, name, ["--bogus"])
        if WRAPPER and name != "echo_server":
            continue  # under valgrind: every refusal once, on the demo that has them all
        for args in (["-z"], ["extra"]):
            check_refused(path, name, args)
        if name in WITH_PORT:
            for args in (["--port", "abc"], ["--port=70000"], ["--port=-1"], ["--port", ""],
                         ["--port"], ["-p"], ["--port=3000", "extra"]):
                check_refused(path, name, args)
        if name in WITH_SECONDS:
            check_refused(path, name, ["--seconds", "1x"])
        if name in WITH_TIMELINE:
            check_refused(path, name, ["--timeline=1"])
            r = run(path, ["--trace", "/nonexistent-folder/trace.json"])
            expect(r.returncode == 2 and "nonexistent-folder" in r.stderr and r.stdout == "",
                   f"{name} --trace into no folder: exit 2 before it runs "
                   f"(exit {r.returncode}, stdout {r.stdout[:60]!r})")
        if name == "delayed_server":
            check_runs(path, name, ["--port=0", "--seconds=1"], "listening on 127.0.0.1:")
        if name == "chat_server":
            check_runs(path, name, ["-p0", "-s", "1"], "listening on 127.0.0.1:")
        if name == "echo_server":
            check_runs(path, name, ["-p", "0", "-s1", "-t", "50"], "listening on 127.0.0.1:")
        if name == "background":
            with tempfile.TemporaryDirectory() as tmp:
                r = run(os.path.abspath(path), ["--trace", "--timeline"], cwd=tmp)
                target = os.path.join(tmp, "--timeline")
                ok = r.returncode == 0 and "written to --timeline" in r.stdout and os.path.exists(
                    target)
                if ok:
                    with open(target, encoding="utf-8") as f:
                        ok = isinstance(json.load(f).get("traceEvents"), list)
                expect(ok, f"{name} --trace --timeline: the trace is in a file named --timeline")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
