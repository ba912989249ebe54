#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The ptloop developers
"""tests/fuzz/mutate.py - does the differential fuzzer find known bugs?

Copies pt/, loop/ and tests/fuzz/ into a build directory (one snapshot,
taken at the start, whatever changes meanwhile), plants one bug at a time
by an exact text replacement (a pattern that no longer matches exactly once
is an error: the list must follow the headers), builds the fuzzer against
the mutant with gcc and -fsanitize=address,undefined, and runs it on the
same seeds as the unmutated build. A mutant is found if the fuzzer reports
a divergence or a broken invariant that the unmutated build does not, a
sanitizer report, a crash or a timeout. Prints a table; exits 1 unless
every mutant is found.

    tests/fuzz/mutate.py [--count N] [--jobs J] [--cc gcc] [--only NAME]
                         [--workdir DIR] [--keep]

The build directory is DIR/fz-mutate-XXXX (DIR: /tmp by default), removed
at the end unless --keep.
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
FUZZ = pathlib.Path("tests") / "fuzz" / "fuzz_loop.c"  # in a copy of the tree

# (name, file, exact old text, new text), or (name, [(file, old, new), ...])
# for a bug that needs more than one edit.
MUTANTS = [
    (
        "core: background tasks parked without a deadline are never cancelled",
        "loop/sched/run.h",
        "(pt__pending(l) || (!l->live && pt__hook_background_live(l)))",
        "pt__pending(l)",
    ),
    (
        "heap: equal deadlines fire newest first",
        "loop/timers/heap.h",
        "(pt_time_t)(b->deadline + (a->seq < b->seq))",
        "(pt_time_t)(b->deadline + (a->seq > b->seq))",
    ),
    (
        "heap: a smaller seq outweighs a deadline a tick later",
        "loop/timers/heap.h",
        "(pt_time_t)(b->deadline + (a->seq < b->seq))",
        "(pt_time_t)(b->deadline + 2 * (a->seq < b->seq))",
    ),
    (
        "heap: no renumbering before the sequence counter wraps",
        "loop/timers/heap.h",
        "    if (l->seq == (pt_seq_t)-1) /* ntimers < timers_cap <= PT_INDEX_MAX: room after it */\n"
        "        pt__heap_renumber(l);\n",
        "",
    ),
    (
        "heap: a task's slot number taken for its slot (no walk up)",
        "loop/timers/heap.h",
        "    while (i != 0 && (i >= l->ntimers || h[i].task != t))\n        i = (i - 1) / 4;\n",
        "",
    ),
    (
        "heap: a parent moved down keeps its old slot number",
        "loop/timers/heap.h",
        "        if (c < k) /* (a parent moved down: its number must follow it) */\n"
        "            PT__HEAP_INDEX(h[k].task) = (pt_index_t)(k + 1);\n",
        "",
    ),
    (
        "list: equal deadlines fire newest first",
        "loop/timers/list.h",
        "        while (!pt_time_before(t->deadline, p->tnext->deadline))",
        "        while (pt_time_before(p->tnext->deadline, t->deadline))",
    ),
    (
        "list: taking out the latest leaves it as the latest",
        "loop/timers/list.h",
        "    if (l->timers == t) /* the latest: the one before it is now, if any */\n"
        "        l->timers = p == t ? NULL : p;\n",
        "",
    ),
    (
        "list: a timer taken out is still counted",
        "loop/timers/list.h",
        "    l->ntimers--;\n",
        "",
    ),
    (
        "sleep: one tick short",
        "loop/sched/body.h",
        "    return pt__park(l, t, g, ticks, PT__WAIT_NONE, NULL);",
        "    return pt__park(l, t, g, ticks ? ticks - 1u : 0u, PT__WAIT_NONE, NULL);",
    ),
    (
        "snapshot: tasks readied meanwhile run in the same iteration",
        "loop/sched/run.h",
        "    while (pt__run_next(l) != last)\n",
        "    while (pt__run_next(l) != last || l->ready.head)\n",
    ),
    (
        "ready queue: a push after the last one was taken trusts the old tail",
        "loop/sched/queue.h",
        "    if (q->head)\n        q->tail->next = t;",
        "    if (q->tail)\n        q->tail->next = t;",
    ),
    (
        "task start: a task that ran still counts as never run",
        "pt/gen.h",
        "    (g)->state |= PT__GEN_RUNNING;\n",
        "    (void)0;\n",
    ),
    (
        "cancel: a cancelled task resumes where it was, not in its cleanup",
        "loop/sched/park.h",
        "                PT_LC_SET_EXIT(t->gen.lc);\n",
        "                (void)0;\n",
    ),
    (
        "cancel: what a list granted is not passed on",
        "loop/sched/hooks.h",
        "        t->gen.value.i = PT_ECANCELLED;\n        pt__wlist_give(l, w);",
        "        t->gen.value.i = PT_ECANCELLED;\n        (void)w;",
    ),
    (
        "cancel: a grant passed on at the cancel, not at the waiter's turn",
        "loop/sched/park.h",
        "                if (pt__hook_granted(t)) {\n                    pt__set_flag(t, PT__T_CANCELLED);\n",
        "                if (pt__hook_granted(t)) {\n                    pt__hook_cancelled_turn(l, t);\n",
    ),
    (
        "scope: a grant kept by a wait whose scope passed before its turn",
        "loop/features/waitlist.h",
        "    if (pt__hook_scope_passed(l, t)) {\n        g->value.i = PT_ETIMEDOUT;",
        "    if (0) {\n        g->value.i = PT_ETIMEDOUT;",
    ),
    (
        "scope: a deadline passed at its begin waits for the timers",
        "loop/timeout.h",
        "    if (pt_time_before(pt_loop_now(l), when)) {",
        "    if (1) {",
    ),
    (
        "close: an awaited generator closed resumes its body, not its cleanup",
        "pt/gen.h",
        "        PT_LC_SET_EXIT(g->lc); /* closing: to the cleanup section */",
        "        (void)0;",
    ),
    (
        "cleanup: not run after an exit from the body",
        "pt/gen.h",
        "    if (pt__gen_cleanup_here && pt__gen_life((g)->state) == PT__GEN_RUNNING) {",
        "    if (0 && pt__gen_life((g)->state) == PT__GEN_RUNNING) {",
    ),
    (
        "cleanup: run again when cancelled inside it",
        "loop/sched/park.h",
        "    if (s >= PT__GEN_CLEANUP || (s & PT__GEN_CLOSING))",
        "    if (s >= PT__GEN_DONE || (s & PT__GEN_CLOSING))",
    ),
    (
        "join: a failed task reads as returned",
        "loop/sched/task.h",
        "    case PT_EXITED:\n        return PT_EFAILED;",
        "    case PT_EXITED:\n        return PT_OK;",
    ),
    (
        "join: joiners woken newest first (LIFO)",
        "loop/sched/body.h",
        "        while (*p) /* the last of its joiners */\n"
        "            p = &(*p)->next;\n"
        "        *p = t;\n"
        "        t->next = NULL;\n",
        "        t->next = *p;\n"
        "        *p = t;\n",
    ),
    (
        "join: one joiner only (a second one PT_EBUSY)",
        "loop/sched/body.h",
        "    else if (pt__queued_or_parked(other) && !pt__flag(other, PT__T_BACKGROUND | PT__T_IN_GROUP)) {",
        "    else if (pt__queued_or_parked(other) && !pt__flag(other, PT__T_BACKGROUND | PT__T_IN_GROUP) &&\n"
        "             !other->up.joiners) {",
    ),
    (
        "join: a cancel of the joiner leaves the joined task alone",
        "loop/sched/park.h",
        "        if (pt__wait_kind(t) < PT__WAIT_JOIN) {",
        "        if (pt__wait_kind(t) < PT__WAIT_GROUP) {",
    ),
    (
        "join: timeout wakes at once, the task not cancelled",
        "loop/sched/park.h",
        "        t = (struct pt_task *)t->gen.value.p; /* cancel the task it joins */",
        "        if (mark == PT__T_TIMED_OUT) {\n"
        "            pt__wake(l, t, PT_ETIMEDOUT);\n"
        "            return rc;\n"
        "        }\n"
        "        t = (struct pt_task *)t->gen.value.p; /* cancel the task it joins */",
    ),
    (
        "shield: a cancel of the joiner cancels the joined task",
        "loop/sched/park.h",
        "        if (pt__wait_kind(t) < PT__WAIT_JOIN) {",
        "        if (mark == PT__T_CANCELLED && pt__wait_kind(t) == PT__WAIT_SHIELD)\n"
        "            (void)pt__cancel(l, (struct pt_task *)t->gen.value.p, 0);\n"
        "        if (pt__wait_kind(t) < PT__WAIT_JOIN) {",
    ),
    (
        "shield: its timeout cancels the joined task",
        "loop/sched/run.h",
        "static inline void pt__timer_due(struct pt_loop *l, struct pt_task *t, int sleep) {\n",
        "static inline void pt__timer_due(struct pt_loop *l, struct pt_task *t, int sleep) {\n"
        "    if (pt__wait_kind(t) == PT__WAIT_SHIELD)\n"
        "        (void)pt_task_cancel(l, (struct pt_task *)t->gen.value.p);\n",
    ),
    (
        "event: set wakes only one waiter",
        "loop/sync.h",
        "    while (pt__waitq_wake_one(l, &e->w.q))\n        ;",
        "    pt__waitq_wake_one(l, &e->w.q);",
    ),
    (
        "event: no pulse (a woken waiter looks again)",
        "loop/sync.h",
        "#define PT_EVENT_WAIT(e, timeout) PT__GRANT_WAIT((e)->set, &(e)->w, (timeout))",
        "#define PT_EVENT_WAIT(e, timeout) PT__WAIT_UNTIL_TRUE((e)->set, &(e)->w, (timeout))",
    ),
    (
        "event: a cancelled waiter's wake-up goes on to the next waiter",
        "loop/features/waitlist.h",
        "    if (w->give)\n        w->give(l, w);\n",
        "    if (w->give)\n        w->give(l, w);\n    else\n        (void)pt__waitq_wake_one(l, &w->q);\n",
    ),
    (
        "semaphore: release wakes nobody",
        "loop/sync.h",
        "static inline void pt_semaphore_release(struct pt_loop *l, struct pt_semaphore *s) {\n"
        "    pt__wl_sem(l, &s->w);",
        "static inline void pt_semaphore_release(struct pt_loop *l, struct pt_semaphore *s) {\n"
        "    (void)l;\n"
        "    s->count++;",
    ),
    (
        "semaphore: a unit handed over is counted too",
        "loop/features/waitlist.h",
        "    if (!pt__waitq_wake_one(l, &w->q)) /* a unit */\n",
        "    (void)pt__waitq_wake_one(l, &w->q);\n",
    ),
    (
        "semaphore: release counts, the woken waiter tries again (barging)",
        [
            (
                "loop/sync.h",
                "static inline void pt_semaphore_release(struct pt_loop *l, struct pt_semaphore *s) {\n"
                "    pt__wl_sem(l, &s->w);",
                "static inline void pt_semaphore_release(struct pt_loop *l, struct pt_semaphore *s) {\n"
                "    s->count++;\n"
                "    pt__waitq_wake_one(l, &s->w.q);",
            ),
            (
                "loop/sync.h",
                "#define PT_SEMAPHORE_ACQUIRE(s, timeout) PT__GRANT_WAIT(pt_semaphore_try(s), &(s)->w, (timeout))",
                "#define PT_SEMAPHORE_ACQUIRE(s, timeout) PT__WAIT_UNTIL_TRUE(pt_semaphore_try(s), &(s)->w, (timeout))",
            ),
        ],
    ),
    (
        "queue: a get wakes no putter",
        "loop/sync.h",
        "    q->count--;\n    pt__waitq_wake_one(l, &q->putters.q);",
        "    q->count--;",
    ),
    (
        "list wait: a retry gets the whole timeout again",
        "loop/sync.h",
        "    return pt__list_park(l, t, g, q, pt__retry_left(l, t, timeout), PT__WAIT_RETRY);",
        "    return pt__list_park(l, t, g, q, (pt__retry_left(l, t, timeout), timeout), PT__WAIT_RETRY);",
    ),
    (
        "queue: a waiter cancelled, woken or not, keeps its timer",
        [
            (
                "loop/sched/park.h",
                "                    pt__timer_remove(l, t); /* the timer its wait kept */\n",
                "",
            ),
            (
                "loop/sched/hooks.h",
                " && !pt__flag(t, PT__T_CANCELLED)",
                "",
            ),
        ],
    ),
    (
        "queue: a woken waiter cancelled keeps its timer",
        "loop/sched/park.h",
        "                    pt__timer_remove(l, t); /* the timer its wait kept */\n",
        "",
    ),
    (
        "lock: release does not hand over (the waiter runs without it)",
        "loop/features/waitlist.h",
        "    ((struct pt_lock *)w)->owner = pt__waitq_wake_one(l, &w->q);",
        "    (void)pt__waitq_wake_one(l, &w->q);\n    ((struct pt_lock *)w)->owner = NULL;",
    ),
    (
        "lock: released by a task that does not hold it",
        "loop/lock.h",
        "    if (k->owner != t)\n        return PT_EBUSY;\n    pt__wl_lock",
        "    pt__wl_lock",
    ),
    (
        "condition: a timed-out wait given its lock back ends PT_OK",
        "loop/lock.h",
        "    g->value.i = pt__flag(t, PT__T_TIMED_OUT) ? PT_ETIMEDOUT : PT_OK;",
        "    g->value.i = PT_OK;",
    ),
    (
        "condition: notify wakes every waiter",
        "loop/lock.h",
        "    while (n-- && pt__waitq_wake_one(l, &c->w.q))",
        "    while (pt__waitq_wake_one(l, &c->w.q))",
    ),
    (
        "condition: wait keeps the lock",
        "loop/lock.h",
        "    pt__wl_lock(l, &c->lock->w);\n    return 1;",
        "    return 1;",
    ),
    (
        "condition: the lock taken back while another task holds it",
        "loop/lock.h",
        "        if (!pt_lock_try(c->lock, t)) { /* even in a scope that has passed */",
        "        if ((c->lock->owner = t) == NULL) {",
    ),
    (
        "barrier: releases the round one task early",
        "loop/barrier.h",
        "    if ((pt_index_t)(n + 1u) >= b->parties) { /* the last one: all go */",
        "    if ((pt_index_t)(n + 2u) >= b->parties) { /* the last one: all go */",
    ),
    (
        "barrier: abort does not break it",
        "loop/barrier.h",
        "    b->broken = 1;",
        "    b->broken = 0;",
    ),
    (
        "barrier: reset leaves it broken",
        "loop/barrier.h",
        "    b->broken = 0;\n    pt__barrier_release(l, b, PT_EBROKEN);",
        "    pt__barrier_release(l, b, PT_EBROKEN);",
    ),
    (
        "group: pending count off by one",
        "loop/group.h",
        "    if (g->pending == 0) {",
        "    if (g->pending <= 1) {",
    ),
    (
        "group: members kept in spawn order, not completion order",
        "loop/group.h",
        "        g->members[i] = g->members[done];\n        g->members[done] = t;",
        "        (void)i;",
    ),
    (
        "group: a cancel of the waiting owner leaves the members alone",
        "loop/sched/park.h",
        "        if (pt__hook_group_wait(l, t)) /* a group's: the group's to end */\n            return rc;\n",
        "        if (pt__wait_kind(t) == PT__WAIT_NEXT || pt__wait_kind(t) == PT__WAIT_GROUP) {\n            pt__wake(l, t, PT_ECANCELLED);\n            return rc;\n        }\n",
    ),
    (
        "group next: its timeout cancels the members",
        "loop/group.h",
        "        if (pt__wait_kind(g->owner) == PT__WAIT_NEXT)\n"
        "            pt__group_wake(l, g, PT_OK);\n"
        "        else\n"
        "            pt_group_cancel(l, g);",
        "        pt_group_cancel(l, g);",
    ),
    (
        "cancel: the timer is not removed",
        "loop/sched/park.h",
        "    if (!pt__hook_keeps_timer(t, kind))\n        pt__timer_remove(l, t); /* (last: only l and t are kept across the call) */\n",
        "",
    ),
    (
        "cancel: the task's timeout scopes stay open",
        "loop/sched/hooks.h",
        "static inline void pt__hook_cancel(struct pt_loop *l, struct pt_task *t) {\n#if PT_CONFIG_CALLBACKS\n    if (l->timeouts)\n        pt__timeouts_drop(l, t, NULL);\n#endif\n",
        "static inline void pt__hook_cancel(struct pt_loop *l, struct pt_task *t) {\n#if PT_CONFIG_CALLBACKS\n#endif\n",
    ),
    (
        "timeout scope: not closed when the cleanup of the generator that opened it begins",
        "loop/sched/hooks.h",
        "        pt__timeouts_drop(l, t, g);",
        "        (void)0;",
    ),
    (
        "timeout scope: later waits not cut",
        "loop/sched/park.h",
        "    if (pt__hook_scope_passed(l, t)) { /* in a scope whose deadline passed */",
        "    if (0) {",
    ),
    (
        "timeout scope: the wait in progress not cut",
        "loop/timeout.h",
        "    if (pt__parked(t)) { /* cut the wait in progress */",
        "    if (0) { /* cut the wait in progress */",
    ),
    (
        "timeout scope: an outer scope that passed is not reported",
        "loop/timeout.h",
        "    return outer ? PT_ECANCELLED : PT_OK;",
        "    return (void)outer, PT_OK;",
    ),
    (
        "callback: cancel does not remove its timer",
        "loop/features/callbacks.h",
        "        pt__timer_remove(l, h);\n        pt__set_place(h, PT__PLACE_NONE);",
        "        pt__set_place(h, PT__PLACE_NONE);",
    ),
    (
        "callback: cancelled in the ready queue, still called",
        "loop/features/callbacks.h",
        "    if (cancelled)\n        return;\n",
        "    (void)cancelled;\n",
    ),
    (
        "callback: call_later one tick late",
        "loop/call.h",
        "    return pt_call_at(l, h, pt_time_after(pt_loop_now(l), delay), fn, arg);",
        "    return pt_call_at(l, h, pt_time_after(pt_loop_now(l), delay + 1u), fn, arg);",
    ),
    (
        "virtual clock: jumps one tick past the deadline",
        "loop/sched/run.h",
        "            l->now = pt__timer_first_when(l);",
        "            l->now = pt__timer_first_when(l) + 1u;",
    ),
    (
        "background: not cancelled at the end of the run",
        "loop/features/background.h",
        "        (void)pt_task_cancel(l, b);",
        "        (void)b;",
    ),
    (
        "spawn: an alive task is spawned again",
        "loop/sched/task.h",
        "    if (pt__task_alive(t))\n        return PT_EBUSY;\n    if (live == 0)",
        "    if (live == 0)",
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
        "        pt__ended_set(&b->ended, r, w, PT_OK);",
        "        pt__ended_set(&b->ended, r, w, PT_ETIMEDOUT);",
    ),
    (
        "io: a wait that ends early stays registered",
        "loop/sched/park.h",
        "        pt__backend_unwatch(&l->io, (struct pt_io *)obj);",
        "        (void)obj;",
    ),
]


def edits(m):
    """The (file, old, new) edits of mutant m."""
    return m[1] if isinstance(m[1], list) else [(m[1], m[2], m[3])]


DIV = re.compile(r"^DIVERGENCE seed (\d+): (.*)$")


# A mutant of the list (loop/timers/list.h) is built with it, as on a
# board (16-bit counts); the others with the host's defaults (the heap).
LIST = ["-DPT_CONFIG_TIMERS=PT_TIMERS_LIST", "-DPT_CONFIG_WIDE=0"]


def variant(m):
    """The build flags mutant m needs: LIST or none."""
    return LIST if any(f == "loop/timers/list.h" for f, _, _ in edits(m)) else []


def build(src_root, out, cc, flags=()):
    cmd = [cc, "-std=c99", "-O1", "-g", "-w", "-fsanitize=address,undefined",
           "-fno-sanitize-recover=all", "-D_POSIX_C_SOURCE=200809L", "-DPT_CONFIG_BACKEND=PT_BACKEND_SELECT",
           *flags, "-I", str(src_root), str(src_root / FUZZ), "-o", str(out)]
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


def copy_tree(src, dst):
    """pt/, loop/ and tests/fuzz/ of src into dst."""
    for d in ("pt", "loop", "tests/fuzz"):
        shutil.copytree(src / d, dst / d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=200000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--only")
    ap.add_argument("--workdir", default="/tmp", help="where its build directory goes")
    ap.add_argument("--keep", action="store_true", help="keep the build directory")
    args = ap.parse_args()

    tmp = pathlib.Path(tempfile.mkdtemp(prefix="fz-mutate-", dir=args.workdir))
    try:
        # One snapshot of the tree, taken now: the mutants are made from it,
        # whatever changes in the working tree meanwhile.
        base = tmp / "base"
        copy_tree(ROOT, base)

        # Every pattern must match exactly once, before anything runs.
        bad = False
        for m in MUTANTS:
            for f, old, new in edits(m):
                n = (base / f).read_text().count(old)
                if n != 1:
                    print(f"mutate.py: pattern of '{m[0]}' matches {n} times in {f}",
                          file=sys.stderr)
                    bad = True
        if bad:
            return 2
        # The unmutated builds, heap and list: what they report is known.
        known = {}
        for name, flags in (("heap", []), ("list", LIST)):
            rc, err = build(base, tmp / f"fuzz-base-{name}", args.cc, flags)
            if rc:
                print(f"mutate.py: the unmutated {name} build fails:\n" + err, file=sys.stderr)
                return 2
            known[name], how, _ = run(tmp / f"fuzz-base-{name}", args.count, args.timeout)
            if how != "ok":
                print(f"mutate.py: the unmutated {name} build ends with {how}", file=sys.stderr)
                return 2

        def one(i):
            name = MUTANTS[i][0]
            d = tmp / f"m{i}"
            copy_tree(base, d)
            for f, old, new in edits(MUTANTS[i]):
                p = d / f
                p.write_text(p.read_text().replace(old, new))
            exe = tmp / f"fuzz-m{i}"
            flags = variant(MUTANTS[i])
            base_divs = known["list" if flags else "heap"]
            rc, err = build(d, exe, args.cc, flags)
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
        print(f"baseline: {len(known['heap'])} (heap) and {len(known['list'])} (list) of "
              f"{args.count} programs diverge unmutated (known)")
        print(f"{'mutant':<{width}}  {'result':<12}  how")
        for name, res, how in results:
            print(f"{name:<{width}}  {res:<12}  {how}")
        missed = [r for r in results if r[1] != "found"]
        print(f"{len(results) - len(missed)} of {len(results)} mutants found")
        return 1 if missed else 0
    finally:
        if args.keep:
            print(f"mutate.py: kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
