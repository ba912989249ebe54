#!/usr/bin/env python3
"""tests/fuzz/mutate.py - does the differential fuzzer find known bugs?

Copies pt/ and loop/ into a temporary directory, plants one bug at a time
by an exact text replacement (a pattern that no longer matches exactly once
is an error: the list must follow the headers), builds the fuzzer against
the mutant with gcc and -fsanitize=address,undefined, and runs it on the
same seeds as the unmutated build. A mutant is found if the fuzzer reports
a divergence or a broken invariant that the unmutated build does not, a
sanitizer report, a crash or a timeout. Prints a table; exits 1 unless
every mutant is found.

    tests/fuzz/mutate.py [--count N] [--jobs J] [--cc gcc] [--only NAME]
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
FUZZ = ROOT / "tests" / "fuzz" / "fuzz_loop.c"

# (name, file, exact old text, new text)
MUTANTS = [
    (
        "heap: equal deadlines fire newest first",
        "loop/heap.h",
        "    return a->seq < b->seq;",
        "    return a->seq > b->seq;",
    ),
    (
        "heap: no renumbering before the sequence counter wraps",
        "loop/heap.h",
        "    if (l->seq == (pt_seq_t)-1) /* heap_len < heap_cap <= PT_INDEX_MAX: room after it */\n"
        "        pt__heap_renumber(l);\n",
        "",
    ),
    (
        "sleep: one tick short",
        "loop/core.h",
        "ticks == PT_FOREVER ? PT_FOREVER - 1u : ticks,",
        "ticks == PT_FOREVER ? PT_FOREVER - 1u : ticks ? ticks - 1u : 0u,",
    ),
    (
        "snapshot: tasks readied meanwhile run in the same iteration",
        "loop/core.h",
        "        while (pt__run_next(l) != last)\n",
        "        while (pt__run_next(l) != last || l->ready.head)\n",
    ),
    (
        "cancel: a list's wake-up is not passed on",
        "loop/core.h",
        "                pt__waitq_wake_one(l, (struct pt_waitq *)t->gen.value.p);",
        "                (void)0;",
    ),
    (
        "cleanup: not run when cancelled",
        "pt/gen.h",
        "        PT_LC_SET_EXIT(g->lc); /* closing: to the cleanup section */",
        "        g->lc = PT__LC_EXIT - 1u; /* a value of no case: past it, to the end */",
    ),
    (
        "cleanup: not run after an exit from the body",
        "pt/gen.h",
        "    if (pt__gen_cleanup_here && pt__gen_life((g)->state) == PT__GEN_RUNNING) {",
        "    if (0 && pt__gen_life((g)->state) == PT__GEN_RUNNING) {",
    ),
    (
        "cleanup: run again when cancelled inside it",
        "loop/core.h",
        "    if (s >= PT__GEN_CLEANUP || (s & PT__GEN_CLOSING))",
        "    if (s >= PT__GEN_DONE || (s & PT__GEN_CLOSING))",
    ),
    (
        "join: a failed task reads as returned",
        "loop/core.h",
        "{0, 0, PT_EFAILED, 0, PT_ECANCELLED};",
        "{0, 0, PT_OK, 0, PT_ECANCELLED};",
    ),
    (
        "event: set wakes only one waiter",
        "loop/sync.h",
        "    while (e->waiters.head)\n        pt__waitq_wake_one(l, &e->waiters);",
        "    if (e->waiters.head)\n        pt__waitq_wake_one(l, &e->waiters);",
    ),
    (
        "semaphore: release wakes nobody",
        "loop/sync.h",
        "    s->count++;\n    pt__waitq_wake_one(l, &s->waiters);",
        "    s->count++;",
    ),
    (
        "queue: a get wakes no putter",
        "loop/sync.h",
        "    q->count--;\n    pt__waitq_wake_one(l, &q->putters);",
        "    q->count--;",
    ),
    (
        "list wait: a retry gets the whole timeout again",
        "loop/sync.h",
        "        left = pt_time_until(l->now, t->deadline);",
        "        left = timeout;",
    ),
    (
        "group: pending count off by one",
        "loop/group.h",
        "    if (g->pending == 0) {",
        "    if (g->pending <= 1) {",
    ),
    (
        "cancel: the timer is not removed",
        "loop/core.h",
        "    void *obj = t->gen.value.p;\n    pt__heap_remove(l, t);",
        "    void *obj = t->gen.value.p;",
    ),
    (
        "virtual clock: jumps one tick past the deadline",
        "loop/core.h",
        "            l->now = l->heap[0]->deadline;",
        "            l->now = l->heap[0]->deadline + 1u;",
    ),
    (
        "join timeout: wakes at once, the task not cancelled",
        "loop/core.h",
        "            (void)pt_cancel(l, (struct pt_task *)obj);",
        "            pt__wake(l, t, PT_ETIMEDOUT);",
    ),
    (
        "background: not cancelled at the end of the run",
        "loop/core.h",
        "            (void)pt_cancel(l, b);",
        "            (void)b;",
    ),
    (
        "spawn: an alive task is spawned again",
        "loop/core.h",
        "    pt_index_t live = (pt_index_t)(l->live + 1u);\n    if (pt__task_alive(t))\n"
        "        return PT_EBUSY;",
        "    pt_index_t live = (pt_index_t)(l->live + 1u);",
    ),
    (
        "task result: a cleanup's wait overwrites the returned value",
        "pt/gen.h",
        "        g->value = g->ret;",
        "        g->value = g->value;",
    ),
    (
        "io: a ready reader is woken as timed out",
        "loop/backend/select.h",
        "            pt__io_ready(l, r, PT_OK);",
        "            pt__io_ready(l, r, PT_ETIMEDOUT);",
    ),
    (
        "io: a wait that ends early stays registered",
        "loop/core.h",
        "        pt__backend_unwatch(&l->io, (struct pt_io *)obj);",
        "        (void)obj;",
    ),
]

DIV = re.compile(r"^DIVERGENCE seed (\d+): (.*)$")


def build(src_root, out, cc):
    cmd = [cc, "-std=c99", "-O1", "-g", "-w", "-fsanitize=address,undefined",
           "-fno-sanitize-recover=all", "-D_POSIX_C_SOURCE=200809L", "-DPT_LOOP_BACKEND=PT_BACKEND_SELECT",
           "-I", str(src_root), str(FUZZ), "-o", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stderr


def run(exe, count, timeout):
    """(divergence lines by seed, how it ended: 'ok', 'timeout', 'sanitizer', 'crash')"""
    env = dict(os.environ, ASAN_OPTIONS="halt_on_error=1:detect_leaks=0",
               UBSAN_OPTIONS="halt_on_error=1")
    try:
        r = subprocess.run([str(exe), "--count", str(count), "--keep-going", "--quiet"],
                           capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {}, "timeout", ""
    divs = {}
    for line in r.stdout.splitlines():
        m = DIV.match(line)
        if m:
            divs[int(m.group(1))] = m.group(2)
    err = r.stdout + r.stderr
    if "AddressSanitizer" in err or "runtime error:" in err:
        return divs, "sanitizer", err
    if "fuzz_loop:" not in r.stdout:
        return divs, "crash", err
    return divs, "ok", ""


def copy_tree(dst):
    for d in ("pt", "loop"):
        shutil.copytree(ROOT / d, dst / d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=50000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--only")
    args = ap.parse_args()

    tmp = pathlib.Path(tempfile.mkdtemp(prefix="ptloop-mutate-"))
    try:
        # Every pattern must match exactly once, before anything runs.
        bad = False
        for name, f, old, new in MUTANTS:
            n = (ROOT / f).read_text().count(old)
            if n != 1:
                print(f"mutate.py: pattern of '{name}' matches {n} times in {f}", file=sys.stderr)
                bad = True
        if bad:
            return 2

        base = tmp / "base"
        copy_tree(base)
        rc, err = build(base, tmp / "fuzz-base", args.cc)
        if rc:
            print("mutate.py: the unmutated build fails:\n" + err, file=sys.stderr)
            return 2
        base_divs, how, _ = run(tmp / "fuzz-base", args.count, args.timeout)
        if how != "ok":
            print(f"mutate.py: the unmutated build ends with {how}", file=sys.stderr)
            return 2

        def one(i):
            name, f, old, new = MUTANTS[i]
            d = tmp / f"m{i}"
            copy_tree(d)
            p = d / f
            p.write_text(p.read_text().replace(old, new))
            exe = tmp / f"fuzz-m{i}"
            rc, err = build(d, exe, args.cc)
            if rc:
                return name, "BUILD FAILED", err.strip().splitlines()[0] if err else ""
            divs, how, _ = run(exe, args.count, args.timeout)
            if how != "ok":
                return name, "found", how
            new_divs = sorted(s for s in divs if base_divs.get(s) != divs[s])
            gone = sorted(s for s in base_divs if s not in divs)
            if new_divs:
                s = new_divs[0]
                return name, "found", f"{len(new_divs)} new divergences, first seed {s}: {divs[s]}"
            if gone:
                return name, "found", f"{len(gone)} known divergences changed, first seed {gone[0]}"
            return name, "MISSED", f"{args.count} programs"

        todo = [i for i, m in enumerate(MUTANTS) if not args.only or args.only in m[0]]
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            results = list(ex.map(one, todo))
        width = max(len(r[0]) for r in results)
        print(f"baseline: {len(base_divs)} of {args.count} programs diverge unmutated (known)")
        print(f"{'mutant':<{width}}  {'result':<12}  how")
        for name, res, how in results:
            print(f"{name:<{width}}  {res:<12}  {how}")
        missed = [r for r in results if r[1] != "found"]
        print(f"{len(results) - len(missed)} of {len(results)} mutants found")
        return 1 if missed else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
